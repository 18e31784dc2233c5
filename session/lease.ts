/**
 * {@linkcode SessionLeases}: the lease state machine over the `session_leases` table of schema
 * v15 (docs/long-sessions.md "Schema v15"): one live owner per session among many
 * hosts sharing one libSQL database.
 *
 * A session is free when it has no row or its `expires_at` is in the past. Acquiring a free
 * session writes this host's id, advertised URL and a new expiry, and increments the fencing
 * `token`, which only ever grows per session. Every transition is one SQL statement, so two
 * hosts can never both win. The token is what the storage fence checks at each append
 * (docs/long-sessions.md "Fenced appends"): a host that lost its lease can no longer write.
 *
 * @module
 */
import type { Client, Row } from "@libsql/client";
import { type Clock, systemClock } from "./clock.ts";

/** A lease this host holds. */
export interface Lease {
  /** The session. */
  readonly sessionId: string;
  /** The fencing token; a later holder always gets a larger one. */
  readonly token: number;
  /** When the lease runs out unless renewed, epoch ms (UTC). */
  readonly expiresAt: number;
}

/** The row of a session's lease, as any host reads it. */
export interface LeaseOwner {
  /** The holder's host id. */
  readonly holder: string;
  /** The holder's advertised base URL (where its session is live). */
  readonly url: string;
  /** The current fencing token. */
  readonly token: number;
  /** Expiry, epoch ms (UTC); `0` after a release. */
  readonly expiresAt: number;
  /** Whether the lease is still in force at the reading host's `now` (`expiresAt ≥ now`). */
  readonly live: boolean;
}

/** The result of {@linkcode SessionLeases.acquire}. */
export type AcquireResult =
  | { readonly ok: true; readonly lease: Lease }
  | { readonly ok: false; readonly owner: LeaseOwner };

/** Options of {@linkcode SessionLeases}. */
export interface SessionLeasesOptions {
  /** This host's id, stored as `holder`. */
  readonly holder: string;
  /** This host's advertised base URL, stored as `holder_url`; may be set later. @default "" */
  readonly url?: string;
  /** Wall clock for expiries. @default systemClock */
  readonly clock?: Clock;
}

// One statement: the insert of a first lease, or the take-over of an expired one. When the row
// is live, the conflict's WHERE is false, nothing changes and nothing is returned.
const ACQUIRE = `INSERT INTO session_leases (session_id, holder, holder_url, token, expires_at)
  VALUES (?1, ?2, ?3, 1, ?4)
  ON CONFLICT (session_id) DO UPDATE SET holder = excluded.holder,
    holder_url = excluded.holder_url, token = session_leases.token + 1,
    expires_at = excluded.expires_at
  WHERE session_leases.expires_at < ?5
  RETURNING token, expires_at`;
const RENEW = `UPDATE session_leases SET expires_at = ?1
  WHERE session_id = ?2 AND token = ?3 AND holder = ?4 RETURNING expires_at`;
const RELEASE = `UPDATE session_leases SET expires_at = 0
  WHERE session_id = ?1 AND token = ?2 AND holder = ?3`;
const OWNER = `SELECT holder, holder_url, token, expires_at FROM session_leases
  WHERE session_id = ?1`;

function checkTtl(ttlMs: number): void {
  if (!Number.isSafeInteger(ttlMs) || ttlMs <= 0) {
    throw new RangeError(`Cannot lease: ttl ${ttlMs} ms is not a positive integer`);
  }
}

/**
 * The lease table of one host. Holds no state of its own beyond its identity: the table is the
 * only authority, so any number of instances (hosts) may share it.
 *
 * @example Acquire, renew, release
 * ```ts
 * import { createClient } from "@libsql/client";
 * import { SessionLeases } from "@chime/session";
 * import { createLeaseTable } from "@chime/session/testing";
 * const client = createClient({ url: ":memory:" });
 * await createLeaseTable(client);
 * const leases = new SessionLeases(client, { holder: "a", url: "http://a/" });
 * const got = await leases.acquire("s1", 15_000);
 * console.assert(got.ok && got.lease.token === 1);
 * if (got.ok) console.assert(await leases.renew(got.lease, 15_000) !== undefined);
 * client.close();
 * ```
 */
export class SessionLeases {
  /** This host's id. */
  readonly holder: string;
  readonly #client: Client;
  readonly #clock: Clock;
  #url: string;

  /**
   * Creates the lease view of one host over a database holding `session_leases`.
   *
   * @param client a libSQL client of the shared database
   * @param options holder id, advertised URL, clock
   */
  constructor(client: Client, options: SessionLeasesOptions) {
    this.#client = client;
    this.holder = options.holder;
    this.#url = options.url ?? "";
    this.#clock = options.clock ?? systemClock;
  }

  /** The advertised base URL written with each acquisition. */
  get url(): string {
    return this.#url;
  }

  /** Sets the advertised URL (known only once the server listens). */
  set url(value: string) {
    this.#url = value;
  }

  /**
   * Takes the lease of a free session (no row, or `expires_at < now`): one statement, so of
   * several hosts racing only one wins. The token grows by one at each acquisition.
   *
   * @param sessionId the session
   * @param ttlMs lease length, ms
   * @returns the lease, or the live owner when the session is held (by anyone, this host
   *   included: a holder renews, it does not acquire twice)
   * @throws {RangeError} for a ttl that is not a positive integer
   */
  async acquire(sessionId: string, ttlMs: number): Promise<AcquireResult> {
    checkTtl(ttlMs);
    const now = this.#clock.now();
    // One write transaction: the owner read sees exactly the row the acquisition left.
    const [taken, row] = await this.#client.batch([
      { sql: ACQUIRE, args: [sessionId, this.holder, this.#url, now + ttlMs, now] },
      { sql: OWNER, args: [sessionId] },
    ], "write");
    const won = taken!.rows[0];
    if (won !== undefined) {
      return {
        ok: true,
        lease: { sessionId, token: Number(won.token), expiresAt: Number(won.expires_at) },
      };
    }
    return { ok: false, owner: toOwner(row!.rows[0]!, now) };
  }

  /**
   * Extends a lease this host holds, if its token is still the current one (nobody took the
   * session since). An expired lease that nobody took may still be renewed: no other host can
   * have written with a newer token.
   *
   * @param lease the lease held
   * @param ttlMs new length from now, ms
   * @returns the renewed lease, or `undefined` once it was taken by another acquisition
   * @throws {RangeError} for a ttl that is not a positive integer
   */
  async renew(lease: Lease, ttlMs: number): Promise<Lease | undefined> {
    checkTtl(ttlMs);
    const result = await this.#client.execute({
      sql: RENEW,
      args: [this.#clock.now() + ttlMs, lease.sessionId, lease.token, this.holder],
    });
    const row = result.rows[0];
    return row === undefined ? undefined : { ...lease, expiresAt: Number(row.expires_at) };
  }

  /**
   * Gives a lease up: it expires at once (`expires_at = 0`, free for every host whatever its
   * clock) and keeps its token, so the next holder's token is still larger.
   *
   * @param lease the lease held
   * @returns `true` when it was still held and is now released
   */
  async release(lease: Lease): Promise<boolean> {
    const result = await this.#client.execute({
      sql: RELEASE,
      args: [lease.sessionId, lease.token, this.holder],
    });
    return result.rowsAffected === 1;
  }

  /**
   * Reads a session's lease row.
   *
   * @param sessionId the session
   * @returns holder, URL, token and expiry, or `undefined` when it was never leased
   */
  async owner(sessionId: string): Promise<LeaseOwner | undefined> {
    const row = (await this.#client.execute({ sql: OWNER, args: [sessionId] })).rows[0];
    return row === undefined ? undefined : toOwner(row, this.#clock.now());
  }
}

function toOwner(row: Row, now: number): LeaseOwner {
  const expiresAt = Number(row.expires_at);
  return {
    holder: String(row.holder),
    url: String(row.holder_url),
    token: Number(row.token),
    expiresAt,
    live: expiresAt >= now,
  };
}
