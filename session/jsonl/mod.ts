/**
 * `@chime/session/jsonl`: the JSONL storage driver ({@linkcode jsonlDriver}) and its backend
 * ({@linkcode JsonlBackend}): one file per session in a folder, one writer per folder.
 *
 * @example Open a folder through the driver
 * ```ts
 * import { jsonlDriver } from "@chime/session/jsonl";
 * const dir = await Deno.makeTempDir();
 * const settings = jsonlDriver.parse({ kind: "jsonl", dir }, { file: "chime.jsonc", baseDir: "/" });
 * await using backend = await jsonlDriver.open(settings, {});
 * console.assert((await backend.list()).length === 0);
 * ```
 *
 * @module
 */
export { jsonlDriver, type JsonlSettings } from "./driver.ts";
export { JsonlBackend, type JsonlBackendOptions } from "./jsonl_backend.ts";

// Types in the signatures above, re-exported for documentation.
export type {
  EventPage,
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
  LeaseTable,
  LeaseTableOptions,
  SessionLineage,
  StorageDriverSettings,
  StorageParseContext,
  StorageReport,
} from "../mod.ts";
export type { AcquireResult, Clock, Lease, LeaseOwner, StorageDamage } from "../mod.ts";
export type { TimerHandle } from "../mod.ts";

// Types the signatures above name, re-exported so each entry point documents whole
// (`deno doc --lint` per entry point, tests/doc_lint.ts).
export type { CheckOptions, LogCheck, TypeAcrossPage, TypedEvent } from "../mod.ts";
export type { LogFinding } from "../_log_checks.ts";
