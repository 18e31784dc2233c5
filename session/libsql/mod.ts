/**
 * `@chime/session/libsql`: the libSQL storage driver ({@linkcode libsqlDriver}), its backend
 * ({@linkcode LibsqlBackend}, schema v15 of `@chime/migrations`) and its lease table
 * ({@linkcode SessionLeases}); docs/long-sessions.md "Schema v15" and "Fenced appends".
 *
 * @example Open an in-memory database through the driver
 * ```ts
 * import { libsqlDriver } from "@chime/session/libsql";
 * const settings = libsqlDriver.parse({ kind: "libsql", url: ":memory:" }, {
 *   file: "chime.jsonc",
 *   baseDir: "/",
 * });
 * await using backend = await libsqlDriver.open(settings, {});
 * console.assert((await backend.list()).length === 0);
 * ```
 *
 * @module
 */
export { libsqlDriver, type LibsqlSettings, libsqlUrl } from "./driver.ts";
export { LibsqlBackend, type LibsqlBackendOptions } from "./libsql_backend.ts";
export { SessionLeases, type SessionLeasesOptions } from "./lease.ts";

// Types in the signatures above, re-exported for documentation.
export type {
  AcquireResult,
  EventPage,
  Lease,
  LeaseOwner,
  LeaseTable,
  PersistenceBackend,
  SessionEvent,
  SessionHeader,
  StorageDriver,
  StorageHealth,
  StorageLoss,
  StoredCursor,
  StoredSession,
  StoredTail,
} from "../mod.ts";
export type {
  LeaseTableOptions,
  SessionLineage,
  StorageDriverSettings,
  StorageParseContext,
  StorageReport,
} from "../mod.ts";
export type { Clock, StorageDamage } from "../mod.ts";
export type { TimerHandle } from "../mod.ts";

// Types the signatures above name, re-exported so each entry point documents whole
// (`deno doc --lint` per entry point, tests/doc_lint.ts).
export type { CheckOptions, LogCheck, TypeAcrossPage, TypedEvent } from "../mod.ts";
export type { LogFinding } from "../_log_checks.ts";
export type { SqlBackend } from "../mod.ts";
