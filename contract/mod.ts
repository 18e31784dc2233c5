/**
 * `@chime/contract`: the extension contracts every other member speaks, in one small core with no
 * npm import, safe in a browser bundle (docs/architecture.md "Seams"):
 *
 * - the plugin contract (`./plugin`): {@linkcode Plugin}, {@linkcode AgentScope},
 *   {@linkcode AgentHandle}, tools, `agent/pre-step` hooks and {@linkcode AgentError};
 * - the web contract (`./web`): {@linkcode PluginWeb} (routes, views, the after-commit hook
 *   `onDurable`), {@linkcode WebHost}, {@linkcode EventView};
 * - the page contract (`./page`): {@linkcode ClientRenderer} (renderers, panels, alerts, assets);
 * - the generic wire shapes (`./wire`): stream messages, history and session pages, errors.
 *
 * The agent, the host and the page implement these; plugins import them from here.
 *
 * @example A plugin with a tool and an after-commit hook, typed by the contract alone
 * ```ts
 * import type { Plugin } from "@chime/contract";
 * const seen: number[] = [];
 * const plugin: Plugin = {
 *   name: "@example/echo",
 *   setup(scope) {
 *     scope.registerTool({
 *       name: "echo",
 *       description: "Echoes its input.",
 *       parameters: { type: "object" },
 *       execute: (args) => Promise.resolve(args),
 *     });
 *   },
 *   web: { onDurable: (_session, events) => void seen.push(...events.map((e) => e.seq)) },
 * };
 * console.assert(plugin.web?.onDurable !== undefined);
 * ```
 *
 * @module
 */
export {
  AgentError,
  type AgentErrorCode,
  type AgentHandle,
  type AgentPhase,
  type AgentScope,
  type CancelResult,
  type EndingSession,
  type ModelToolSpec,
  type Plugin,
  type PreStepHook,
  type StepBatch,
  type ToolContext,
  type ToolDefinition,
} from "./plugin.ts";
export {
  type ApiRoute,
  type ApiRouteContext,
  type ContextScan,
  enabledPanels,
  type EventView,
  type LinkKeys,
  type PluginWeb,
  type RouteAccess,
  type RouteContext,
  type RouteHandler,
  type RouteMethod,
  type SessionCounts,
  type SessionRoute,
  type ViewSource,
  type WebHost,
} from "./web.ts";
export { clientAssetPaths, notificationTag } from "./page.ts";
export type {
  ApiRequest,
  ClientAssetPaths,
  ClientAssets,
  ClientRenderer,
  Delivery,
  DeliveryHost,
  EventRenderer,
  EventRenderers,
  FollowupLabeler,
  Lang,
  OpenTarget,
  PageHints,
  PageViewDefinition,
  PageViewHost,
  PageViewModel,
  PageViewProps,
  PageWindow,
  PanelDefinition,
  PanelHost,
  PanelModel,
  PanelRequest,
  PanelViewProps,
  PresentedEventNode,
  Readable,
  RenderContext,
  Rendered,
  ToolSummarizer,
  ToolSummary,
  ViewAlert,
} from "./page.ts";
export type {
  AcknowledgedMessage,
  AlertMessage,
  ClientConfigWire,
  DeletedMessage,
  FlushedMessage,
  HistoryPage,
  SessionsPage,
  SessionSummary,
  StreamMessage,
  WireError,
  WireEvent,
  WireHeader,
} from "./wire.ts";
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

// Types the signatures above name, re-exported so each entry point documents whole
// (`deno doc --lint` per entry point, tests/doc_lint.ts).
export type { LogCheck, LogFinding, StoredTypes, TypeAcrossPage, TypedEvent } from "@chime/session";
