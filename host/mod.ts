/**
 * `@chime/host`: the Hono host of chime — chat API, SSE with commit-aware sidecars, attached
 * and detached history, configuration and the server (docs/architecture.md#contracts;
 * docs/design.md#zone-host-boundary and docs/design.md#commit-aware-web-receipt).
 *
 * @example Serve the web-schedule example on a free port
 * ```ts ignore
 * import { loadConfig, startServer } from "@chime/host";
 * const config = await loadConfig("examples/web-schedule/chime.jsonc", { env: Deno.env.toObject() });
 * await using server = await startServer({ config, port: 0 });
 * console.log(`listening on ${server.url}`);
 * ```
 *
 * @module
 */
// Types of other members that this package's API names, re-exported so its docs stand alone.
export type {
  AgentHandle,
  AgentPhase,
  AgentScope,
  ModelAdapter,
  ModelMessage,
  ModelReply,
  ModelRequest,
  ModelToolCall,
  ModelToolSpec,
  Plugin,
  PluginWeb,
  PreStepHook,
  RouteContext,
  RouteHandler,
  RouteMethod,
  SessionRoute,
  StepBatch,
  ToolContext,
  ToolDefinition,
  WebHost,
} from "@chime/agent";
export type {
  AcquireResult,
  AppendListener,
  Clock,
  CreateSessionOptions,
  EventPage,
  FlushedObserver,
  FlushListener,
  ForkOptions,
  Lease,
  LeaseOwner,
  LiveCause,
  LiveObserver,
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
  TimerHandle,
  UserRpcData,
  WithdrawnObserver,
} from "@chime/session";
export {
  type AppOptions,
  createApp,
  type HostApp,
  type StaticAsset,
  STATUS_BY_CODE,
} from "./http/app.ts";
export { defaultAssets } from "./http/assets.ts";
export { loginPage } from "./auth/auth.ts";
export { type NewSignIn, type SignIn, SignIns, type SignInsOptions } from "./auth/sign_ins.ts";
export {
  CONTENT_SECURITY_POLICY,
  isLoopbackName,
  type OriginOptions,
  SECURITY_HEADERS,
} from "./http/security.ts";
export {
  type HostConfig,
  type HttpTimeouts,
  loadConfig,
  type LoadConfigOptions,
  type ModelSettings,
  parseJsonc,
  type SignInSettings,
  storageDirectory,
  type StorageSettings,
} from "./config/config.ts";
export { ConfigError, type ConfigErrorCode, HostError, type HostErrorCode } from "./errors.ts";
/** The model the environment and configuration chose, before its context budget is added. */
export type { ModelSettings as ModelChoice } from "./config/_env.ts";
export {
  type BacklogSource,
  type EventRange,
  FeedClient,
  type FeedLimits,
  Feeds,
  type FeedsOptions,
  type FrameSink,
} from "./feed/feed.ts";
export { type EventView, type FeedItem, HEARTBEAT_FRAME, sseFrame } from "./feed/frame.ts";
export {
  attachedHistory,
  detachedHistory,
  type HistoryPage,
  type HistoryQuery,
  type ProvenPrefix,
  provenPrefix,
  seedVerifiedPrefix,
} from "./sessions/history.ts";
export {
  LOCATION_DRIVER,
  type PluginFactory,
  type PluginHostContext,
  pluginLogChecks,
  PLUGINS,
  type RegistryEntry,
  RENDERERS,
  resolveRegistry,
  STORAGE_DRIVERS,
  storageAt,
  storageDriver,
} from "./registry.ts";
export { type ClientConfig, clientConfig, webHost } from "./plugins/plugin_routes.ts";
export { createModel, type HostAgent, openBackend } from "./config/adapters.ts";
export {
  type ChimeLogLevel,
  configureLogging,
  DEFAULT_LOG_LEVEL,
  LOG_CATEGORY,
  type LoggingOptions,
  logLifecycle,
  logUnexpected,
  parseLogLevel,
  type PluginLogger,
  pluginLogger,
} from "./log.ts";
export { HostRuntime, type RuntimeOptions } from "./sessions/runtime.ts";
export {
  HostTelemetry,
  TELEMETRY_SCOPE,
  type TelemetryOptions,
  telemetryOptions,
} from "./telemetry.ts";
export {
  HostLeases,
  type HostLeasesOptions,
  type LeaseSettings,
  openLeases,
  type OpenLeasesOptions,
  sharedStorage,
} from "./leases/leases.ts";
export { type RunningServer, startServer, type StartServerOptions } from "./server.ts";
export type { StreamOptions } from "./feed/sse.ts";
export {
  type ContextScan,
  type EventReader,
  type SyncEventReader,
  Views,
  type ViewSource,
} from "./plugins/views.ts";
export { type CoveredRange, Watermark } from "./feed/watermark.ts";
export { DurableHooks, type DurableHooksOptions } from "./plugins/durable.ts";
export { type SessionRow, SessionTitles } from "./sessions/titles.ts";
export { AlertFeed, type AlertFeedOptions, MAX_WATCHED, watchedIds } from "./feed/alerts.ts";

// Types in the signatures above, re-exported for documentation.
export type { Agent } from "@chime/agent";
export type { ClientAssets } from "@chime/contract";
export type { LeaseTable, StorageDriver, StorageDriverSettings } from "@chime/session";
export type { CancelResult, SubmitInput } from "@chime/agent";
export type { LeaseTableOptions, StorageParseContext, StorageReport } from "@chime/session";
export type { StorageDamage } from "@chime/session";

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
export type {
  CheckOptions,
  LogCheck,
  LogFinding,
  StoredTypes,
  TypeAcrossPage,
  TypedEvent,
} from "@chime/session";
