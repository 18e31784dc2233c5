/**
 * {@linkcode PostgresBackend}: the PostgreSQL {@linkcode PersistenceBackend} (README "Many hosts
 * on PostgreSQL"): the `chime` schema of migrations/postgres, prepared atomically at open, a
 * connection pool for reads, and the group commit the SQL backends share, each group one
 * transaction with the storage fence inside it.
 *
 * @module
 */
import type { Fence } from "../_group_commit.ts";
import { SqlBackend } from "../_sql_backend.ts";
import { openPool, preparePostgres, type Sql } from "./_pg_open.ts";
import { postgresCommitTarget } from "./_pg_commit.ts";
import { loadAll, readCursor, readHeaders, readPage, readTail, readTypes } from "./_pg_read.ts";

/** Options of {@linkcode PostgresBackend.open}. */
export interface PostgresBackendOptions {
  /** `postgres://user:password@host:port/database` (TLS: `?sslmode=require` or stricter). */
  readonly url: string;
  /** Connections of the read pool (writes have one connection of their own). @default 10 */
  readonly poolSize?: number;
  /** Server-side `statement_timeout`, ms (`0`: none). @default 30000 */
  readonly statementTimeoutMs?: number;
  /** Seconds to wait for a connection before failing. @default 10 */
  readonly connectTimeoutSeconds?: number;
  /**
   * The fencing token this process holds for a session, or `undefined` when unfenced. A fenced
   * session's writes commit only while `chime.session_leases` holds exactly that token, checked
   * inside the write transaction; otherwise they reject with `lease_lost`. @default unfenced
   */
  readonly fence?: (sessionId: string) => number | undefined;
}

/** Defaults of the pool (README "Configuration"). */
export const POSTGRES_DEFAULTS = {
  /** Connections per host. */
  poolSize: 10,
  /** Server-side statement timeout, ms. */
  statementTimeoutMs: 30_000,
  /** Connection timeout, s. */
  connectTimeoutSeconds: 10,
} as const;

/**
 * The PostgreSQL backend. Open it with {@linkcode PostgresBackend.open}; hold it with
 * `await using`. Reads use a pool; the group commit one connection of its own. A write is acknowledged only after its transaction committed (PostgreSQL's
 * commit is durable with the server's default `synchronous_commit = on`). After a connection
 * loss the pool reconnects on the next query; a write whose commit was cut off rejects, and the
 * caller re-reads {@linkcode PostgresBackend.cursor} to learn what is durable.
 *
 * @example Open a database (a running server is needed)
 * ```ts ignore
 * import { PostgresBackend } from "@chime/session/postgres";
 * await using backend = await PostgresBackend.open({ url: "postgres://chime@127.0.0.1/chime" });
 * console.log((await backend.list()).length);
 * ```
 */
export class PostgresBackend extends SqlBackend {
  /** Backend name. */
  readonly kind = "postgres";
  readonly #sql: Sql;
  /** The one connection of the group commit (one transaction at a time, always a warm one). */
  readonly #writer: Sql;

  private constructor(sql: Sql, writer: Sql, fence: Fence | undefined) {
    super(
      {
        cursor: (id) => readCursor(sql, id),
        load: (id) => loadAll(sql, id),
        tail: (id, count) => readTail(sql, id, count),
        readByType: (id, types, from, to) => readTypes(sql, id, types, from, to),
        readEvents: (id, page) => readPage(sql, id, page),
        list: (onDamage) => readHeaders(sql, onDamage),
      },
      postgresCommitTarget(writer),
      fence,
    );
    this.#sql = sql;
    this.#writer = writer;
  }

  /**
   * Connects and prepares the schema: an empty database (no `chime` schema) gets the current
   * version, an owned older one is upgraded, both in one transaction; a foreign or newer
   * `chime` schema is refused with nothing written.
   *
   * @param options URL, pool settings, fence
   * @returns the open backend
   * @throws {SessionError} `storage_unavailable` (unreachable server, wrong password, missing
   *   database), `schema_rejected` (foreign or newer schema); messages carry no password
   */
  static async open(options: PostgresBackendOptions): Promise<PostgresBackend> {
    const sql = openPool({ ...POSTGRES_DEFAULTS, ...options });
    try {
      await preparePostgres(sql, options.url);
    } catch (error) {
      await sql.end({ timeout: 1 });
      throw error;
    }
    // Group commits run one at a time: on one connection of their own they always find the same
    // warm server process (measured 1.5–1.8× faster than rotating through the read pool).
    const writer = openPool({ ...POSTGRES_DEFAULTS, ...options, poolSize: 1 });
    return new PostgresBackend(sql, writer, options.fence);
  }

  /**
   * Removes a stored session for good: its events and its header row, in one statement (so
   * one transaction). A fork holds its own copy of what it inherited and keeps it.
   *
   * @param id the session id
   * @returns whether a header row was removed
   */
  async remove(id: string): Promise<boolean> {
    const rows = await this.#sql`WITH gone AS (DELETE FROM chime.events WHERE session_id = ${id})
      DELETE FROM chime.sessions WHERE id = ${id} RETURNING id`;
    return rows.length > 0;
  }

  /** Closes both pools (after the last queued write). */
  protected async closeClient(): Promise<void> {
    await Promise.all([this.#sql.end({ timeout: 5 }), this.#writer.end({ timeout: 5 })]);
  }
}
