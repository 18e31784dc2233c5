/**
 * {@linkcode PostgresLeases}: the PostgreSQL {@linkcode LeaseTable} over `chime.session_leases`
 * (migrations/postgres): the protocol of docs/deploy.md (holder, advertised URL, expiry, a fencing
 * token that grows by one at each acquisition), each transition one statement, with every expiry
 * computed and compared on the DATABASE's clock (`now()`), never a host's: clock skew between
 * hosts cannot make a lease look free early or late.
 *
 * The `Lease.expiresAt` a host gets back is on its own clock, and conservative: the host's time
 * when it SENT the statement plus the TTL. The database computed its expiry later than that, so
 * the host stops trusting a lease no later than the database frees it (clock *rate* differences
 * over one TTL aside). A release also sends `NOTIFY chime_lease_released` with the session id, a
 * hint for hosts waiting on the session (correctness never depends on it).
 *
 * @module
 */
import type {
  AcquireResult,
  Lease,
  LeaseOwner,
  LeaseTable,
  LeaseTableOptions,
} from "../backend.ts";
import { type Clock, systemClock } from "../clock.ts";
import { PREPARED, type Sql } from "./_pg_open.ts";

/** The channel a release notifies (payload: the session id). */
export const RELEASE_CHANNEL = "chime_lease_released";

function checkTtl(ttlMs: number): void {
  if (!Number.isSafeInteger(ttlMs) || ttlMs <= 0) {
    throw new RangeError(`Cannot lease: ttl ${ttlMs} ms is not a positive integer`);
  }
}

/** Epoch ms on the database's clock. */
const NOW_MS = "(extract(epoch from now()) * 1000)::bigint";

// One statement: the insert of a first lease or the take-over of an expired one, and, when the
// row is live (nothing changes), that row as the statement's snapshot saw it.
const ACQUIRE = `WITH won AS (
    INSERT INTO chime.session_leases AS l (session_id, holder, holder_url, token, expires_at)
    VALUES ($1, $2, $3, 1, ${NOW_MS} + $4::bigint)
    ON CONFLICT (session_id) DO UPDATE SET holder = excluded.holder,
      holder_url = excluded.holder_url, token = l.token + 1, expires_at = excluded.expires_at
    WHERE l.expires_at < ${NOW_MS}
    RETURNING token
  )
  SELECT true AS won, token, '' AS holder, '' AS holder_url, 0 AS expires_at, true AS live
    FROM won
  UNION ALL
  SELECT false, token, holder, holder_url, expires_at, expires_at >= ${NOW_MS}
    FROM chime.session_leases WHERE session_id = $1 AND NOT EXISTS (SELECT 1 FROM won)`;
const OWNER = `SELECT holder, holder_url, token, expires_at, expires_at >= ${NOW_MS} AS live
  FROM chime.session_leases WHERE session_id = $1`;
const RENEW = `UPDATE chime.session_leases SET expires_at = ${NOW_MS} + $1::bigint
  WHERE session_id = $2 AND token = $3 AND holder = $4 RETURNING token`;
const RELEASE = `WITH r AS (UPDATE chime.session_leases SET expires_at = 0
    WHERE session_id = $1 AND token = $2 AND holder = $3 RETURNING session_id)
  SELECT pg_notify('${RELEASE_CHANNEL}', session_id) FROM r`;

/**
 * One host's view of the PostgreSQL lease table. Holds no state beyond its identity.
 *
 * @example Acquire and release (a running server is needed)
 * ```ts ignore
 * import { PostgresLeases } from "@chime/session/postgres";
 * import postgres from "postgres";
 * const leases = new PostgresLeases(postgres("postgres://127.0.0.1/chime"), { holder: "a" });
 * const got = await leases.acquire("s1", 15_000);
 * if (got.ok) await leases.release(got.lease);
 * ```
 */
export class PostgresLeases implements LeaseTable {
  /** This host's id. */
  readonly holder: string;
  /** The advertised base URL written with each acquisition. */
  url: string;
  readonly #sql: Sql;
  readonly #clock: Clock;

  /**
   * Creates one host's view over a pool.
   *
   * @param sql a pool of a database whose `chime` schema is prepared
   * @param options holder id, advertised URL, clock (only for the host-side `expiresAt`)
   */
  constructor(sql: Sql, options: LeaseTableOptions) {
    this.#sql = sql;
    this.holder = options.holder;
    this.url = options.url ?? "";
    this.#clock = options.clock ?? systemClock;
  }

  /**
   * Takes the lease of a free session (no row, released, or expired on the database's clock);
   * one statement, so of racing hosts one wins; the owner is read in the same statement.
   *
   * @returns the lease (expiry on this host's clock, see the module), or the live owner
   * @throws {RangeError} for a ttl that is not a positive integer
   */
  async acquire(sessionId: string, ttlMs: number): Promise<AcquireResult> {
    checkTtl(ttlMs);
    const sent = this.#clock.now();
    for (;;) {
      const [row] = await this.#sql.unsafe(
        ACQUIRE,
        [sessionId, this.holder, this.url, ttlMs],
        PREPARED,
      );
      if (row?.won === true) {
        return {
          ok: true,
          lease: { sessionId, token: Number(row.token), expiresAt: sent + ttlMs },
        };
      }
      if (row !== undefined) return { ok: false, owner: toOwner(row) };
      // Lost a race with a first acquisition committed after this statement's snapshot: the
      // row is there now; ask again (it is live, so the next answer names its owner).
    }
  }

  /**
   * Extends a held lease while its token is current (expiry from the database's `now()`).
   *
   * @returns the renewed lease, or `undefined` once another acquisition took it
   * @throws {RangeError} for a ttl that is not a positive integer
   */
  async renew(lease: Lease, ttlMs: number): Promise<Lease | undefined> {
    checkTtl(ttlMs);
    const sent = this.#clock.now();
    const [row] = await this.#sql.unsafe(
      RENEW,
      [ttlMs, lease.sessionId, lease.token, this.holder],
      PREPARED,
    );
    return row === undefined ? undefined : { ...lease, expiresAt: sent + ttlMs };
  }

  /**
   * Gives a lease up (`expires_at = 0`, token kept) and notifies {@linkcode RELEASE_CHANNEL}.
   *
   * @returns `true` when it was still held
   */
  async release(lease: Lease): Promise<boolean> {
    const rows = await this.#sql.unsafe(
      RELEASE,
      [lease.sessionId, lease.token, this.holder],
      PREPARED,
    );
    return rows.length === 1;
  }

  /**
   * Reads a session's lease; `live` and `expiresAt` are the database's.
   *
   * @returns the owner row, or `undefined` when never leased
   */
  async owner(sessionId: string): Promise<LeaseOwner | undefined> {
    const [row] = await this.#sql.unsafe(OWNER, [sessionId], PREPARED);
    return row === undefined ? undefined : toOwner(row);
  }

  /**
   * Listens for releases by any host (`LISTEN chime_lease_released`): a hint only.
   *
   * @param listener told the session id of each release
   * @returns stops listening
   */
  async onReleased(listener: (sessionId: string) => void): Promise<() => Promise<void>> {
    const { unlisten } = await this.#sql.listen(RELEASE_CHANNEL, (id) => listener(id));
    return unlisten;
  }
}

function toOwner(row: Readonly<Record<string, unknown>>): LeaseOwner {
  return {
    holder: String(row.holder),
    url: String(row.holder_url),
    token: Number(row.token),
    expiresAt: Number(row.expires_at),
    live: row.live === true,
  };
}
