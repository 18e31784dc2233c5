/**
 * `@chime/agent` owns the live agent of a root session: the inbox and turn loop with steering,
 * `agent/pre-step` hooks, the agent-scoped tool registry, idle maintenance
 * (`runMaintenance()`, `whenIdle()`, `followup()`, docs/design.md#admission), the plugin
 * {@linkcode Loader} (only roots published after a plugin loaded, docs/design.md#decision) and the
 * plugin's one registration point, including its web part ({@linkcode PluginWeb}: session routes
 * over a {@linkcode WebHost}, commit-gated views, the names of its client renderer and panels),
 * request provenance helpers ({@linkcode turnMessages}, {@linkcode openTurnId}), the notes the
 * transcript puts on stopped, superseded and edited requests ({@linkcode readMarks}), the model
 * request budget (`contextTokens`, docs/long-sessions.md "Model context within a budget") and the
 * model adapters (OpenAI-compatible streaming, scripted; the keyless offline model is
 * `@chime/offline`).
 *
 * @example Run a turn with a tool against a scripted model
 * ```ts
 * import { Agent, ScriptedModel } from "@chime/agent";
 * import { SessionStore } from "@chime/session";
 * import { MemoryBackend } from "@chime/session/testing";
 *
 * await using store = new SessionStore({ backend: new MemoryBackend() });
 * const session = await store.create({ cwd: "/", timeZone: "Asia/Shanghai" });
 * const model = new ScriptedModel([
 *   { toolCalls: [{ id: "c1", name: "clock", arguments: "{}" }] },
 *   { text: "It is late." },
 * ]);
 * await using agent = new Agent({ session, store, model });
 * agent.registerTool({
 *   name: "clock",
 *   description: "Tells the time.",
 *   parameters: { type: "object" },
 *   execute: () => Promise.resolve({ now: agent.clock.now() }),
 * });
 * agent.submit({ text: "What time is it?", source: { kind: "web", clientTimeZone: "Asia/Shanghai" } });
 * await agent.whenIdle();
 * console.assert(session.events().some((e) => e.type === "tool/result"));
 * ```
 *
 * @module
 */
// Session types that appear in this package's signatures, re-exported for documentation.
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
export { Agent } from "./agent.ts";
export type { AgentLogger, AgentOptions, ReadEvents, SubmitInput } from "./agent_options.ts";
export {
  checkContextTokens,
  estimateMessageTokens,
  estimateTextTokens,
  estimateToolTokens,
  MESSAGE_OVERHEAD_TOKENS,
  MIN_CONTEXT_TOKENS,
  OFFLINE_CONTEXT_TOKENS,
  OPENAI_COMPATIBLE_CONTEXT_TOKENS,
} from "./context_budget.ts";
export { Loader, type PluginHandle } from "./loader.ts";
export {
  type EditAction,
  type EditInfo,
  type Marked,
  markText,
  readMarks,
  STOPPED_NOTE,
  SUPERSEDED_NOTE,
} from "./_marks.ts";
export {
  DEEPSEEK_BASE_URL,
  DEEPSEEK_MODEL,
  type ModelConfig,
  type ModelDecision,
  modelFromEnv,
} from "./model_env.ts";
export { OpenAICompatibleAdapter, type OpenAICompatibleOptions } from "./openai_compatible.ts";
export { findMessage, openTurnId, type SessionLog, turnMessages } from "./provenance.ts";
export { ScriptedModel, type ScriptedReply, type ScriptStep } from "./scripted.ts";
export {
  AgentError,
  type AgentErrorCode,
  type AgentHandle,
  type AgentPhase,
  type AgentScope,
  type CancelResult,
  type ContextScan,
  enabledPanels,
  type EventView,
  type Plugin,
  type PluginWeb,
  type PreStepHook,
  type RouteContext,
  type RouteHandler,
  type RouteMethod,
  type SessionRoute,
  type StepBatch,
  type ToolContext,
  type ToolDefinition,
  type ViewSource,
  type WebHost,
} from "@chime/contract";
export {
  type ModelAdapter,
  ModelError,
  type ModelErrorCode,
  type ModelMessage,
  type ModelReply,
  type ModelRequest,
  type ModelToolCall,
  type ModelToolSpec,
} from "./types.ts";

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
