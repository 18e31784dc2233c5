/**
 * Private: connecting to PostgreSQL and preparing the `chime` schema (migrations/postgres): the
 * pool's settings, the startup check that maps an unreachable server, a wrong password or a
 * missing database to `storage_unavailable`, and the classification and atomic migration under
 * an advisory lock (several hosts may start at once).
 *
 * @module
 */
import postgres from "postgres";
import { fillChecksums, fillHeaderChecksums } from "./_pg_upgrade.ts";
import { classifyPostgres, POSTGRES_LAYOUT_QUERY, type PostgresState } from "@chime/migrations";
import { SessionError } from "../errors.ts";
import { redactText, schemaRejected, storageUnavailable } from "../_redact.ts";

/** A postgres.js pool. */
export type Sql = postgres.Sql;

/** How a pool connects (README "Configuration", `storage.poolSize`, `storage.statementTimeoutMs`). */
export interface PoolSettings {
  /** `postgres://` or `postgresql://` URL; TLS through `?sslmode=`. */
  readonly url: string;
  /** Connections of the pool. */
  readonly poolSize: number;
  /** Server-side `statement_timeout`, ms (`0`: none). */
  readonly statementTimeoutMs: number;
  /** Seconds to wait for a connection before failing. */
  readonly connectTimeoutSeconds: number;
  /**
   * Server-side `idle_in_transaction_session_timeout`, ms (`0`: none).
   * @default {IDLE_IN_TRANSACTION_MS}
   */
  readonly idleInTransactionMs?: number;
}

/** `unsafe` options of a statement run often: prepared once per connection, then reused. */
export const PREPARED = { prepare: true } as const;

/** How long the server lets one of chime's sessions idle inside a transaction, ms. */
export const IDLE_IN_TRANSACTION_MS = 2_000;

/** The advisory lock key that serializes schema preparation across hosts (ASCII `Chim`). */
const SCHEMA_LOCK = 0x4368696d;

/**
 * Opens a pool (lazy: no connection until the first query).
 *
 * @param settings URL, size and timeouts
 * @param onnotify LISTEN handler, when the pool listens
 * @returns the pool
 */
export function openPool(settings: PoolSettings): Sql {
  return postgres(settings.url, {
    max: settings.poolSize,
    connect_timeout: settings.connectTimeoutSeconds,
    onnotice: () => {},
    // No array OIDs fetched per connection: every array parameter is sent as a literal
    // (`_pg_array.ts`) and no statement returns an array column, so the lookup would only add a
    // round trip to each new connection and a window in which arrays serialize wrongly.
    fetch_types: false,
    // bigint columns (tokens, expiries) arrive as strings; callers convert with Number().
    connection: {
      application_name: "chime",
      statement_timeout: settings.statementTimeoutMs,
      // chime never idles inside a transaction: its statements follow one another. A session
      // idle in one for this long belongs to a paused or stuck host, and the server ends it, so
      // the row locks of its fence (`FOR SHARE` of a lease row) never block a take-over.
      idle_in_transaction_session_timeout: settings.idleInTransactionMs ?? IDLE_IN_TRANSACTION_MS,
    },
  });
}

/** PostgreSQL SQLSTATE classes and client codes that mean "the server cannot be used". */
const UNAVAILABLE =
  /^(08|28|3D|53|57P0[1-3])|^(ECONNREFUSED|ECONNRESET|ENOTFOUND|EAI_AGAIN|EHOSTUNREACH|ENETUNREACH|ETIMEDOUT|CONNECT_TIMEOUT|CONNECTION_CLOSED|CONNECTION_ENDED|CONNECTION_DESTROYED|SASL_SIGNATURE_MISMATCH|UNSAFE_TRANSACTION)$/;

/**
 * Whether an error says the server is unreachable or refuses this login (rather than a SQL
 * error of a reachable server).
 *
 * @param error anything a query threw
 * @returns `true` for a connection, authentication or missing-database failure
 */
export function isUnavailable(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code === "string" && UNAVAILABLE.test(code)) return true;
  // Deno's TCP errors carry no code on every path: the name says it.
  const name = (error as { name?: unknown } | null)?.name;
  return name === "ConnectionRefused" || name === "ConnectionReset" || name === "TimedOut";
}

/** The `storage_unavailable` error of a server that cannot be used (the URL redacted). */
export const unavailable = storageUnavailable;

/** The `schema_rejected` error of a foreign `chime` schema (the URL redacted). */
export const rejectedPostgres = schemaRejected;

/** Reads what {@linkcode classifyPostgres} needs (no write). */
export async function readPostgresState(
  sql: postgres.Sql | postgres.TransactionSql,
): Promise<PostgresState> {
  const [schema] =
    await sql`SELECT EXISTS (SELECT 1 FROM pg_namespace WHERE nspname = 'chime') AS e`;
  const layout = (await sql.unsafe(POSTGRES_LAYOUT_QUERY)).map((r) => String(r.layout));
  const hasMarker = layout.some((l) => l.startsWith("column|schema_info|"));
  const marker = hasMarker
    ? (await sql`SELECT application, version FROM chime.schema_info`).map((r) => ({
      application: String(r.application),
      version: Number(r.version),
    }))
    : undefined;
  return {
    schemaExists: schema!.e === true,
    layout,
    ...(marker === undefined ? {} : { marker }),
  };
}

/**
 * Classifies the database and, for an empty or older owned schema, runs every step in ONE
 * transaction holding an advisory lock, re-classified inside it (another host may have created
 * it first): each step's statements, then the checksums it asks for (v2: every event's, v3:
 * every header's, `_pg_upgrade.ts`), then its version in the marker. A refused database is
 * never written.
 *
 * @param sql the pool
 * @param url the configured URL (for messages)
 * @throws {SessionError} `schema_rejected` for a foreign or newer schema, `storage_unavailable`
 *   when the server cannot be reached or refuses the login
 */
export async function preparePostgres(sql: Sql, url: string): Promise<void> {
  try {
    const first = classifyPostgres(await readPostgresState(sql));
    if (first.kind === "rejected") throw rejectedPostgres(url, first.reason);
    if (first.kind === "current") return;
    await sql.begin(async (tx) => {
      await tx`SELECT pg_advisory_xact_lock(${SCHEMA_LOCK})`;
      const verdict = classifyPostgres(await readPostgresState(tx));
      if (verdict.kind === "rejected") throw rejectedPostgres(url, verdict.reason);
      if (verdict.kind === "current") return;
      for (const step of verdict.steps) {
        for (const statement of step.statements) await tx.unsafe(statement);
        if (step.checksums === true) await fillChecksums(tx);
        if (step.headerChecksums === true) await fillHeaderChecksums(tx);
        if (step.to > 1) await tx`UPDATE chime.schema_info SET version = ${step.to}`;
      }
    });
  } catch (error) {
    if (error instanceof SessionError) throw error;
    if (isUnavailable(error)) throw unavailable(url, error);
    throw rejectedPostgres(
      url,
      `cannot read or prepare the schema: ${redactText(String((error as Error)?.message), url)}`,
    );
  }
}
