/**
 * `@chime/session/postgres`: the PostgreSQL storage driver ({@linkcode postgresDriver}), its
 * backend ({@linkcode PostgresBackend}, the `chime` schema of `@chime/migrations`) and its lease
 * table ({@linkcode PostgresLeases}, expiry on the database's clock); README "Many hosts on
 * PostgreSQL", docs/deploy.md. The client is the npm `postgres` package (porsager).
 *
 * @example Parse settings
 * ```ts
 * import { postgresDriver } from "@chime/session/postgres";
 * const settings = postgresDriver.parse({ kind: "postgres", url: "postgres://db/chime" }, {
 *   file: "chime.jsonc",
 *   baseDir: "/",
 * });
 * console.assert(settings.url === "postgres://db/chime");
 * ```
 *
 * @module
 */
export { postgresDriver, type PostgresSettings, postgresUrl } from "./driver.ts";
export {
  POSTGRES_DEFAULTS,
  PostgresBackend,
  type PostgresBackendOptions,
} from "./postgres_backend.ts";
export { PostgresLeases, RELEASE_CHANNEL } from "./lease.ts";

// Types in the signatures above, re-exported for documentation.
export type {
  AcquireResult,
  EventPage,
  Lease,
  LeaseOwner,
  LeaseTable,
  LeaseTableOptions,
  PersistenceBackend,
  SessionEvent,
  SessionHeader,
  StorageDriver,
  StorageDriverSettings,
  StorageHealth,
  StorageLoss,
  StorageParseContext,
  StorageReport,
  StoredCursor,
  StoredSession,
  StoredTail,
} from "../mod.ts";
export type { Clock, SessionLineage, StorageDamage, TimerHandle } from "../mod.ts";

// Types the signatures above name, re-exported so each entry point documents whole
// (`deno doc --lint` per entry point, tests/doc_lint.ts).
export type { CheckOptions, LogCheck, TypeAcrossPage, TypedEvent } from "../mod.ts";
export type { LogFinding } from "../_log_checks.ts";
export type { SqlBackend } from "../mod.ts";
