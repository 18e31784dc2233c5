/**
 * The plugin contract (docs/architecture.md "Plugins"): what a plugin is, the agent scope it is
 * set up in, the agent surface it may use, its tools and `agent/pre-step` hooks, and the one
 * agent error a plugin reacts to ({@linkcode AgentError} `busy` from `runMaintenance()`,
 * docs/design.md#admission). The agent (`@chime/agent`) implements it; plugins
 * (`@chime/schedule`, `@chime/timecontext`) import it from here, never from the agent.
 *
 * Types only, plus the error class: no npm import, safe in a browser bundle.
 *
 * @module
 */
import type {
  Clock,
  LogCheck,
  Session,
  SessionEvent,
  SessionStore,
  UserRpcData,
} from "@chime/session";
import type { PluginWeb } from "./web.ts";

/** A tool as the model sees it. */
export interface ModelToolSpec {
  /** Tool name, `[a-z_]+`. */
  readonly name: string;
  /** What it does and how to use each field (model-facing prose). */
  readonly description: string;
  /** JSON Schema of the arguments object. */
  readonly parameters: Record<string, unknown>;
}

/* ------------------------------------------------------------------ tools */

/** What a tool execution sees. */
export interface ToolContext {
  /** The agent running the tool. */
  readonly agent: AgentHandle;
  /** The open turn's id. */
  readonly turnId: string;
  /** This call's id. */
  readonly callId: string;
  /**
   * Aborted when the turn ends: cancelled (the call's result is then never recorded), failed,
   * or completed (work the tool left running is no longer wanted).
   */
  readonly signal: AbortSignal;
}

/**
 * A tool. `execute` returns any JSON value (it becomes `tool/result.result` and the model-visible
 * tool message); a throw becomes `{ ok: false, error: { code: 'tool_failed', message } }` and
 * never crashes the turn.
 */
export interface ToolDefinition extends ModelToolSpec {
  /** Runs the tool with the parsed JSON arguments. */
  execute(args: unknown, ctx: ToolContext): Promise<unknown>;
}

/* ------------------------------------------------------------------ pre-step */

/** The final, non-empty batch claimed for one step. */
export interface StepBatch {
  /** The turn. */
  readonly turnId: string;
  /** 0-based step number in the turn. */
  readonly step: number;
  /** `user-rpc` events claimed into this step, with their bound provenance. */
  readonly messages: readonly SessionEvent<"user-rpc", UserRpcData>[];
  /** Follow-up frames admitted into this step. */
  readonly followups: readonly string[];
}

/**
 * An `agent/pre-step` hook (docs/design.md#time-context-reading). Hooks run in
 * registration order after the batch is claimed and before `step/start`, only for a non-empty
 * batch (an empty continuation step after tool results runs none). Returned strings become
 * user-role content for this step's model call only (never persisted).
 *
 * Events appended through `agent.append` while hooks run (e.g. `time-context/marker`) are
 * staged: they are recorded, in order, immediately before `step/start`, and dropped when the
 * step never starts (cancelled, rejected, or a hook threw). The envelope `append` returns
 * meanwhile is provisional (its `seq` and `at` are re-assigned at commit). A throw fails the
 * turn before `step/start` (`turn/end { outcome: 'error' }`).
 */
export type PreStepHook = (
  batch: StepBatch,
  agent: AgentHandle,
) => Promise<readonly string[] | void> | readonly string[] | void;

/* ------------------------------------------------------------------ agent surface */

/** The agent's phase: idle, running a turn, or running a maintenance task. */
export type AgentPhase = "idle" | "turn" | "maintenance";

/** Codes of {@linkcode AgentError}. */
export type AgentErrorCode = "busy" | "disposed" | "no_running_turn" | "message_not_found";

/** Agent-layer failure. */
export class AgentError extends Error {
  /** The failure code. */
  readonly code: AgentErrorCode;
  /**
   * Creates an agent failure.
   *
   * @param code failure code
   * @param message `Cannot <action>: <reason>`
   */
  constructor(code: AgentErrorCode, message: string) {
    super(message);
    this.name = "AgentError";
    this.code = code;
  }
}

/** What `Agent.cancel()` stopped. */
export interface CancelResult {
  /** The turn that ended `cancelled`. */
  readonly turnId: string;
  /**
   * Every message the Stop covers, as recorded in `turn/end.stoppedMessageIds`: the messages the
   * turn had claimed (claim order), then those queued behind it (queue order).
   */
  readonly stoppedMessageIds: readonly string[];
}

/** What plugins and tools may use of an agent. */
export interface AgentHandle {
  /** The live root session this agent runs. */
  readonly session: Session;
  /** The store (for `flush`). */
  readonly store: SessionStore;
  /** The injected wall clock and timers. */
  readonly clock: Clock;
  /** Current phase. */
  readonly phase: AgentPhase;
  /**
   * Appends an event to the session (sync). While pre-step hooks run the event is staged and
   * recorded right before `step/start` (see {@linkcode PreStepHook}).
   */
  append<T extends string, D>(type: T, data: D): SessionEvent<T, D>;
  /**
   * Claims the idle phase for `task` (docs/design.md#admission). Rejects with
   * `AgentError('busy')` while a turn or another maintenance task holds the agent (when the
   * agent is idle nothing is queued: a queued input starts a turn at once), and with
   * `AgentError('disposed')` after dispose. Inputs that arrive meanwhile stay parked until the
   * task settles; then a turn starts before the returned promise settles.
   */
  runMaintenance<T>(task: () => Promise<T>): Promise<T>;
  /**
   * Resolves when the agent next becomes idle (immediately if idle now), and on dispose, so an
   * owner waiting for idleness can always finish its teardown.
   */
  whenIdle(): Promise<void>;
  /**
   * Synchronously enqueues one follow-up input; a turn that admits it records `followup
   * { frame }`. Throws `AgentError('disposed')` after dispose.
   */
  followup(frame: string): void;
}

/** The scope a plugin gets for one root agent. */
export interface AgentScope {
  /** The agent. */
  readonly agent: AgentHandle;
  /** Registers a tool for this agent only; dispose the handle to revoke it. */
  registerTool(tool: ToolDefinition): Disposable;
  /** Registers an `agent/pre-step` hook; dispose to remove. */
  addPreStep(hook: PreStepHook): Disposable;
  /**
   * Holds a disposable owner (e.g. the schedule owner); disposed, and awaited, when the agent or
   * the plugin is disposed.
   */
  own(owner: AsyncDisposable): void;
  /** Aborted when the scope ends. */
  readonly signal: AbortSignal;
}

/** What {@linkcode Plugin.endSession} gets: the session being deleted, its store and the time. */
export interface EndingSession {
  /** The live session (no agent runs it). */
  readonly session: Session;
  /** Its store (`flush` makes the plugin's appends durable). */
  readonly store: SessionStore;
  /** The delete's instant, epoch ms. */
  readonly now: number;
}

/** A plugin: called for each root agent published after the plugin loaded. */
export interface Plugin {
  /** Plugin name, e.g. `@chime/schedule`. */
  readonly name: string;
  /** Sets up the scope; may register tools, hooks, and an owner. */
  setup(scope: AgentScope): void | Promise<void>;
  /**
   * Whether this plugin's pending work needs `agent`'s session to stay live (the schedule
   * plugin: an active reminder, delivered only while its session is live, docs/design.md#decision).
   * A host that releases idle sessions asks every plugin and keeps the session live when any
   * answers `true`; the answer may be cached until the session's log grows. A throw counts as
   * `true`. @default absent: the plugin never keeps a session live
   */
  keepsLive?(agent: AgentHandle): boolean;
  /**
   * A person deletes the session (README.md "The page", docs/events.md `session/deleted`): end
   * the plugin's pending work in it with the plugin's own recorded transitions (the schedule
   * plugin deletes each active reminder), appended to `target.session` and flushed. The host
   * calls it with the session live in its store and no agent running (nothing else writes to
   * it), before it records `session/deleted`; a rejection aborts the delete, and the host records
   * nothing more. @default absent: the plugin keeps nothing pending
   */
  endSession?(target: EndingSession): Promise<void>;
  /**
   * What the plugin brings to a web host: session routes, commit-gated views, and the names of
   * its client renderer and page panels (`./web.ts`). A host mounts it generically; an embedder
   * without a web host ignores it. @default absent: nothing beyond the agent scope
   */
  readonly web?: PluginWeb;
  /**
   * The storage doctor's check of the event types this plugin owns (`deno task doctor`,
   * `--check-storage`): decodes and folds each stored session's events of those types and names
   * each one it refuses, so damage the envelope checks cannot see is reported by seq (README
   * "Failure behaviour"). @default absent: the doctor checks only envelopes
   */
  readonly logCheck?: LogCheck;
}
