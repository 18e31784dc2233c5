/**
 * `@chime/push`: Web Push while a session is live, a plugin on the after-commit hook
 * (docs/push.md, docs/architecture.md "Seams"). VAPID keys generated once and kept with the
 * host's data (mode `0600`), subscriptions stored durably per session, payloads encrypted as RFC
 * 8291 `aes128gcm` by `web-push`, sent fire-and-forget under a timeout.
 *
 * @example Enable it next to the schedule plugin
 * ```jsonc
 * { "plugins": ["@chime/timecontext", "@chime/schedule", "@chime/push"],
 *   "renderers": ["@chime/ui/schedule", "@chime/ui/push"] }
 * ```
 *
 * @module
 */
export { PUSH_RENDERER, type PushPlugin, pushPlugin, type PushPluginOptions } from "./plugin.ts";
export {
  type CloseMessage,
  PUSH_BODY_MAX,
  PUSH_SNOOZE_SECONDS,
  type PushAction,
  type PushMessage,
  reminderMessage,
  type ShowMessage,
} from "./payload.ts";
export { loadVapidKeys, VAPID_FILE, type VapidKeys } from "./keys.ts";
export { type PushLogger, PushQueue, type PushQueueOptions, type PushUrgency } from "./sender.ts";
export {
  MAX_SESSIONS_PER_SUBSCRIPTION,
  PushSubscriptions,
  type StoredSubscription,
  type SubscriptionKeys,
  SUBSCRIPTIONS_FILE,
} from "./subscriptions.ts";

// Types the signatures above name, re-exported so each entry point documents whole
// (`deno doc --lint` per entry point, tests/doc_lint.ts).
export type {
  AgentHandle,
  AgentPhase,
  AgentScope,
  ApiRoute,
  ApiRouteContext,
  ContextScan,
  EndingSession,
  EventView,
  LinkKeys,
  ModelToolSpec,
  Plugin,
  PluginWeb,
  PreStepHook,
  RouteAccess,
  RouteContext,
  RouteHandler,
  RouteMethod,
  SessionCounts,
  SessionRoute,
  StepBatch,
  ToolContext,
  ToolDefinition,
  ViewSource,
  WebHost,
} from "@chime/contract";
export type {
  LateCause,
  Lateness,
  OccurrencePreview,
  ReminderPresentation,
  ScheduleId,
  SnoozeOf,
} from "@chime/schedule";
export type {
  AppendListener,
  Clock,
  CreateSessionOptions,
  EventPage,
  FlushedObserver,
  FlushListener,
  ForkOptions,
  LiveCause,
  LiveObserver,
  LogCheck,
  LogFinding,
  MessageSource,
  PersistenceBackend,
  ReadByTypeOptions,
  Session,
  SessionEvent,
  SessionHeader,
  SessionLineage,
  SessionStore,
  StorageHealth,
  StorageLoss,
  StoredCursor,
  StoredSession,
  StoredTail,
  StoredTypes,
  TimerHandle,
  TypeAcrossPage,
  TypedEvent,
  UserRpcData,
  WithdrawnObserver,
} from "@chime/session";
