/**
 * `@chime/session` owns the session log: the immutable {@linkcode SessionHeader}, the event
 * envelope, the append-only {@linkcode Session}, the {@linkcode SessionStore} with its `flush`
 * checkpoint and `session/flushed` observation, the persistence coordinator, the storage seam
 * ({@linkcode StorageDriver}, {@linkcode LeaseTable}), the libSQL and JSONL drivers (also at
 * `@chime/session/libsql` and `@chime/session/jsonl`), `inspect` and the storage doctor
 * ({@linkcode checkStorage}).
 *
 * @example Create a session and make an event durable
 * ```ts
 * import { SessionStore } from "@chime/session";
 * import { MemoryBackend } from "@chime/session/testing";
 * await using store = new SessionStore({ backend: new MemoryBackend() });
 * const session = await store.create({ cwd: "/", timeZone: "Europe/Berlin" });
 * store.append(session, "note", { text: "hello" });
 * await store.flush(session);
 * ```
 *
 * @module
 */
export {
  type AcquireResult,
  type EventPage,
  type Lease,
  type LeaseOwner,
  type LeaseTable,
  type LeaseTableOptions,
  type PersistenceBackend,
  type StorageDriver,
  type StorageDriverSettings,
  type StorageHealth,
  type StorageLoss,
  type StorageParseContext,
  StorageSettingsError,
  type StoredCursor,
  type StoredSession,
  type StoredTail,
  type TypeAcrossPage,
  type TypedEvent,
} from "./backend.ts";
export { type Clock, MAX_TIMER_MS, systemClock, type TimerHandle } from "./clock.ts";
export { type CommitObserver, PersistenceController } from "./coordinator.ts";
export { SessionError, type SessionErrorCode } from "./errors.ts";
export {
  type EndSeedData,
  isoMillis,
  type MessageSource,
  type SessionEvent,
  type StepStartData,
  type TurnEndData,
  type TurnStartData,
  type UserRpcData,
} from "./event.ts";
export {
  headersIdentical,
  isSessionId,
  normalizeHeader,
  type SessionHeader,
  type SessionLineage,
} from "./header.ts";
export {
  type AppendListener,
  DEFAULT_LIVE_TAIL_EVENTS,
  Session,
  type SessionInit,
} from "./session.ts";
export {
  type CreateSessionOptions,
  type FlushedObserver,
  type FlushListener,
  type ForkOptions,
  type LiveCause,
  type LiveObserver,
  type ReadByTypeOptions,
  SessionStore,
  type SessionStoreOptions,
  type StoredTypes,
  type WithdrawnObserver,
} from "./store.ts";
export { isTimeZone, normalizeTimeZone, timeZonesEqual } from "./zone.ts";
export { redactUrl } from "./_redact.ts";
export { SqlBackend } from "./_sql_backend.ts";
export {
  LibsqlBackend,
  type LibsqlBackendOptions,
  libsqlDriver,
  type LibsqlSettings,
  SessionLeases,
  type SessionLeasesOptions,
} from "./libsql/mod.ts";
export {
  JsonlBackend,
  type JsonlBackendOptions,
  jsonlDriver,
  type JsonlSettings,
} from "./jsonl/mod.ts";
export {
  type CheckOptions,
  checkStorage,
  doctorMain,
  formatReport,
  type LogCheck,
  type LogFinding,
  type StorageDamage,
  type StorageReport,
  type StorageTarget,
} from "./doctor.ts";
