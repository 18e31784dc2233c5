/**
 * `@chime/timecontext` gives the model a time reading before each step
 * (docs/design.md#time-context-reading). Its one `agent/pre-step` hook derives the zones of the
 * final, non-empty batch — the session zone from the immutable `SessionHeader.timeZone` (absent ⇒
 * unavailable) and the client zones from the messages' bound `source.clientTimeZone` — adds one
 * model-visible `[time-context]` reading for that step, and records a plain
 * `time-context/marker { turnId }` that copies no zone facts. Schedule requires the marker in the
 * open turn ({@linkcode hasTimeContextMarker}) and re-derives the zones itself
 * ({@linkcode deriveZones}).
 *
 * @example Derive the zones of a batch and read the time
 * ```ts
 * import assert from "node:assert/strict";
 * import { deriveZones, formatTimeReading } from "@chime/timecontext";
 * const zones = deriveZones({ timeZone: "Asia/Kolkata" }, [
 *   { data: { source: { clientTimeZone: "Asia/Calcutta" } } },
 * ]);
 * const reading = formatTimeReading(Date.UTC(2026, 0, 1, 18, 45), zones);
 * assert.ok(reading.startsWith("[time-context]"));
 * assert.ok(reading.includes("Friday 2026-01-02 00:15 (UTC+05:30)"));
 * ```
 *
 * @example Load the plugin
 * ```ts
 * import assert from "node:assert/strict";
 * import { timeContextPlugin } from "@chime/timecontext";
 * const plugins = [timeContextPlugin()]; // passed to the agent's plugin loader
 * assert.ok(plugins[0]?.name === "@chime/timecontext");
 * ```
 *
 * @module
 */
export { hasTimeContextMarker, TIME_CONTEXT_MARKER, type TimeContextMarkerData } from "./marker.ts";
export {
  TIME_CONTEXT_PLUGIN_NAME,
  type TimeContextOptions,
  type TimeContextPlugin,
  timeContextPlugin,
} from "./plugin.ts";
export { formatTimeReading, TIME_CONTEXT_HEADING } from "./reading.ts";
export { type DerivedZones, deriveZones, zonesAgree, type ZoneSourceMessage } from "./zones.ts";

// Types in the signatures above, re-exported for documentation.
export type { Plugin } from "@chime/contract";
export type { AgentHandle, AgentScope, PluginWeb } from "@chime/contract";
export type {
  AgentPhase,
  Clock,
  PreStepHook,
  Session,
  SessionEvent,
  SessionRoute,
  SessionStore,
  ToolDefinition,
  ViewSource,
} from "@chime/contract";
export type {
  AppendListener,
  ContextScan,
  CreateSessionOptions,
  EventPage,
  EventView,
  FlushedObserver,
  FlushListener,
  ForkOptions,
  LiveObserver,
  ModelToolSpec,
  PersistenceBackend,
  ReadByTypeOptions,
  RouteHandler,
  RouteMethod,
  SessionHeader,
  StepBatch,
  StorageHealth,
  StorageLoss,
  StoredSession,
  TimerHandle,
  ToolContext,
  WithdrawnObserver,
} from "@chime/contract";
export type {
  LiveCause,
  RouteContext,
  SessionLineage,
  StoredCursor,
  StoredTail,
  UserRpcData,
} from "@chime/contract";
export type { MessageSource, WebHost } from "@chime/contract";

// Types the signatures above name, re-exported so each entry point documents whole
// (`deno doc --lint` per entry point, tests/doc_lint.ts).
export type {
  ApiRoute,
  ApiRouteContext,
  EndingSession,
  LinkKeys,
  RouteAccess,
  SessionCounts,
} from "@chime/contract";
export type { LogCheck, LogFinding, StoredTypes, TypeAcrossPage, TypedEvent } from "@chime/session";
