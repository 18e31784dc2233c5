/**
 * {@linkcode Agent}: the live loop of one root session: inbox, turns, steering, maintenance,
 * follow-ups, tools and pre-step hooks (docs/events.md#one-turn,
 * docs/design.md#live-delivery-lifecycle).
 *
 * @module
 */
import type { Clock, Session, SessionEvent, SessionStore, UserRpcData } from "@chime/session";
import { systemClock } from "@chime/session";
import type { AgentOptions, SubmitInput } from "./agent_options.ts";
import { abortReason } from "./_abort.ts";
import { checkContextTokens, OFFLINE_CONTEXT_TOKENS } from "./context_budget.ts";
import {
  defaultMessageReader,
  defaultReader,
  History,
  type MessageEvent,
  tailStartOf,
} from "./_history.ts";
import { WindowState } from "./_window_state.ts";
import { OwnerStack } from "./_owners.ts";
import { HookList, ToolRegistry } from "./_registry.ts";
import { PhaseMachine } from "./_phase.ts";
import { closeDanglingTurn, TurnRun } from "./_turn.ts";
import { findMessage } from "./provenance.ts";
import { AgentError, type AgentHandle, type AgentPhase, type CancelResult } from "./types.ts";
import type { PreStepHook, ToolDefinition } from "./types.ts";

export type { AgentOptions, SubmitInput } from "./agent_options.ts";

/**
 * The agent of one live root session. A queued input starts a turn at once when the agent is
 * idle; each step claims every pending input (messages and follow-ups) as its batch, runs the
 * pre-step hooks, records `step/start`, calls the model and runs the requested tools in order,
 * looping while the model calls tools. Inputs arriving after a claim join the next step of the
 * running turn (steering).
 *
 * @example Run one turn against a scripted model
 * ```ts
 * import { Agent, ScriptedModel } from "@chime/agent";
 * import { SessionStore } from "@chime/session";
 * import { MemoryBackend } from "@chime/session/testing";
 * await using store = new SessionStore({ backend: new MemoryBackend() });
 * const session = await store.create({ cwd: "/" });
 * await using agent = new Agent({ session, store, model: new ScriptedModel([{ text: "hi" }]) });
 * agent.submit({ text: "hello", source: { kind: "web" } });
 * await agent.whenIdle();
 * ```
 */
export class Agent implements AgentHandle, AsyncDisposable {
  /** The live root session. */
  readonly session: Session;
  /** The store that owns the session. */
  readonly store: SessionStore;
  /** The injected clock. */
  readonly clock: Clock;
  readonly #options: AgentOptions & { readonly maxSteps: number; readonly contextTokens: number };
  readonly #history: History;
  /** The conversation window kept between model requests (`_window_state.ts`). */
  readonly #window = new WindowState();
  readonly #newId: () => string;
  readonly #reportError: (error: unknown) => void;
  readonly #tools = new ToolRegistry();
  readonly #hooks = new HookList();
  readonly #owners = new OwnerStack();
  readonly #controller = new AbortController();
  readonly #phases: PhaseMachine = new PhaseMachine({
    canStart: () => !this.disposed && !this.session.closed,
    newRun: () =>
      new TurnRun({
        handle: this,
        model: this.#options.model,
        systemPrompt: this.#options.systemPrompt,
        maxSteps: this.#options.maxSteps,
        tools: this.#tools,
        history: this.#history,
        contextTokens: this.#options.contextTokens,
        window: this.#window,
        logger: this.#options.logger ?? console,
        newId: this.#newId,
        claim: () => this.#phases.claim(),
        pending: () => this.#phases.pending(),
        hooks: () => this.#hooks.snapshot(),
      }),
    reportError: (error) => this.#reportError(error),
  });
  #disposing: Promise<void> | undefined;

  /**
   * Creates the agent of a live root session. A turn a stopped process left open in the
   * session's own suffix is closed first with `turn/end { outcome: 'error' }`.
   *
   * @param options session, store, model and optional clock, system prompt, step limit,
   *   request budget, reader of older events
   * @throws {RangeError} when `maxSteps` is not a positive integer, or `contextTokens` (or the
   *   model's) is not an integer from 1,000 to 10,000,000
   */
  constructor(options: AgentOptions) {
    this.session = options.session;
    this.store = options.store;
    this.clock = options.clock ?? options.store.clock ?? systemClock;
    const maxSteps = options.maxSteps ?? 8;
    if (!Number.isSafeInteger(maxSteps) || maxSteps < 1) {
      throw new RangeError(`Cannot create agent: maxSteps ${maxSteps} is not positive`);
    }
    const contextTokens = checkContextTokens(
      options.contextTokens ?? options.model?.contextTokens ?? OFFLINE_CONTEXT_TOKENS,
    );
    this.#options = { ...options, maxSteps, contextTokens };
    // A reader of its own may serve a session the store does not hold: no index reads then.
    const readMessages = options.readEvents === undefined
      ? defaultMessageReader(options.session, options.store)
      : undefined;
    this.#history = new History(
      options.session,
      options.readEvents ?? defaultReader(options.session, options.store),
      readMessages,
    );
    this.#newId = options.generateId ?? (() => crypto.randomUUID());
    this.#reportError = options.reportError ?? ((e) => globalThis.reportError(e));
    closeDanglingTurn(this);
  }

  /** The current phase. */
  get phase(): AgentPhase {
    return this.#phases.phase;
  }

  /** Aborted when disposal begins. */
  get signal(): AbortSignal {
    return this.#controller.signal;
  }

  /** `true` once disposal began. */
  get disposed(): boolean {
    return this.#disposing !== undefined;
  }

  /** The id of the running turn, if any. */
  get turnId(): string | undefined {
    const run = this.#phases.run;
    return run?.ended === false ? run.turnId : undefined;
  }

  /**
   * Appends an event to the session now, or stages it while pre-step hooks run (recorded right
   * before `step/start`, dropped if the step never starts; the returned `seq` is then
   * provisional).
   *
   * @param type the event type
   * @param data JSON-compatible data
   * @returns the envelope
   * @throws {SessionError} `session_closed`
   */
  append<T extends string, D>(type: T, data: D): SessionEvent<T, D> {
    return this.#phases.run?.stage(type, data) ?? this.store.append(this.session, type, data);
  }

  /**
   * Appends a `user-rpc` prompt with a fresh `messageId` and queues it.
   *
   * @param input text, bound source and optional `edits`
   * @returns the recorded event
   * @throws {AgentError} `disposed`
   * @throws {TypeError} when `text` is not a string
   */
  submit(input: SubmitInput): SessionEvent<"user-rpc", UserRpcData> {
    this.#live("submit");
    if (typeof input?.text !== "string") throw new TypeError("Cannot submit: text is not a string");
    const data: UserRpcData = {
      messageId: this.#newId(),
      text: input.text,
      source: input.source,
      ...(input.edits === undefined ? {} : { edits: input.edits }),
      ...(input.idempotencyKey === undefined ? {} : { idempotencyKey: input.idempotencyKey }),
    };
    const event = this.store.append(this.session, "user-rpc", data);
    this.#phases.enqueue({ kind: "message", event });
    return event;
  }

  /**
   * Queues a new turn for an existing message; its batch is that message with its own
   * original provenance. The message is searched newest first: in the session's memory tail
   * (then it is queued before this returns), else in older pages through the reader.
   *
   * @returns a promise settled once the message is queued
   * @throws {AgentError} `message_not_found`, `disposed` (as a rejection)
   */
  async retry(messageId: string): Promise<void> {
    this.#live("retry");
    const event = findMessage(this.session, messageId) ?? await this.#older(messageId, "retry");
    this.#live("retry");
    this.#phases.enqueue({ kind: "message", event });
  }

  /**
   * Appends an edit of `messageId` (a new `user-rpc` with `edits` and the original `source`)
   * and queues it. The original is searched like {@linkcode Agent.retry}'s message.
   *
   * @returns the new event
   * @throws {AgentError} `message_not_found`, `disposed` (as a rejection)
   */
  async edit(messageId: string, text: string): Promise<SessionEvent<"user-rpc", UserRpcData>> {
    this.#live("edit");
    const original = findMessage(this.session, messageId) ?? await this.#older(messageId, "edit");
    return this.submit({ text, source: original.data.source, edits: messageId });
  }

  /**
   * Stops the running turn: it ends now with `turn/end { outcome: 'cancelled',
   * stoppedMessageIds }` and its model call and tool signal are aborted; nothing more is
   * recorded for it. The messages queued behind it at this moment are stopped too: taken out of
   * the queue, never run, and named in the same `turn/end` with the turn's own messages, so the
   * page can mark them stopped and every later model call sees them as stopped (retry asks
   * again). Queued follow-ups (reminder frames) still get their turn.
   *
   * @returns the stopped turn and the ids of every message the Stop covers (claimed first)
   * @throws {AgentError} `no_running_turn`
   */
  cancel(): CancelResult {
    const run = this.#phases.run;
    if (run === undefined || run.ended) {
      throw new AgentError("no_running_turn", "Cannot cancel: no turn is running");
    }
    const stopped = [...run.claimedMessageIds];
    for (const id of this.#phases.dropMessages()) if (!stopped.includes(id)) stopped.push(id);
    run.end("cancelled", { stopped });
    return { turnId: run.turnId, stoppedMessageIds: stopped };
  }

  /**
   * Synchronously queues one follow-up input; the step that admits it records
   * `followup { frame }` right before its `step/start`. Queued during maintenance, its turn
   * starts only after the task settles.
   *
   * @param frame the text the model receives
   * @throws {AgentError} `disposed`
   * @throws {TypeError} when `frame` is not a string
   */
  followup(frame: string): void {
    this.#live("follow up");
    if (typeof frame !== "string") throw new TypeError("Cannot follow up: frame is not a string");
    this.#phases.enqueue({ kind: "followup", frame });
  }

  /**
   * Claims the idle phase for `task` (docs/design.md#admission). Inputs arriving meanwhile
   * stay parked; when the task settles a turn for them starts before this promise settles.
   *
   * @param task the maintenance work
   * @returns the task's value
   * @throws {AgentError} `busy` while a turn or another task holds the agent, `disposed`
   */
  async runMaintenance<T>(task: () => Promise<T>): Promise<T> {
    this.#live("run maintenance");
    return await this.#phases.maintain(task);
  }

  /**
   * Resolves when the agent next becomes idle: now if idle, else after the running turn (and
   * any turn for inputs parked behind it) or maintenance task; also on dispose.
   *
   * @returns a promise that never rejects
   */
  whenIdle(): Promise<void> {
    return this.#phases.whenIdle();
  }

  /**
   * Registers a tool for this agent; the model sees it from the next call on.
   *
   * @returns a handle whose disposal revokes it
   * @throws {TypeError} for a duplicate or invalid name
   * @throws {AgentError} `disposed`
   */
  registerTool(tool: ToolDefinition): Disposable {
    this.#live("register tool");
    return this.#tools.register(tool);
  }

  /**
   * Adds an `agent/pre-step` hook; hooks run in registration order.
   *
   * @returns a handle whose disposal removes it
   * @throws {AgentError} `disposed`
   */
  addPreStep(hook: PreStepHook): Disposable {
    this.#live("add pre-step hook");
    return this.#hooks.add(hook);
  }

  /**
   * Holds an owner that disposal disposes and awaits (latest first).
   *
   * @returns a handle that releases the owner without disposing it
   * @throws {AgentError} `disposed`
   */
  own(owner: AsyncDisposable): Disposable {
    this.#live("own");
    return this.#owners.adopt(owner);
  }

  /**
   * Stops new work, cancels the running turn, disposes owners (awaiting their work in flight),
   * waits for the loop and any maintenance task to settle, then revokes tools and hooks.
   * Idempotent. Never touches durable records beyond the cancelled turn's `turn/end`.
   */
  [Symbol.asyncDispose](): Promise<void> {
    this.#disposing ??= this.#dispose();
    return this.#disposing;
  }

  async #dispose(): Promise<void> {
    this.#controller.abort(abortReason("agent disposed"));
    const run = this.#phases.run;
    if (run !== undefined && !run.ended) run.end("cancelled", { record: !this.session.closed });
    const stopped = this.#phases.stop();
    try {
      await this.#owners.disposeAll("agent");
    } finally {
      await stopped;
      this.#tools.clear();
      this.#hooks.clear();
    }
  }

  #live(action: string): void {
    if (this.disposed) throw new AgentError("disposed", `Cannot ${action}: the agent is disposed`);
  }

  /** The message `messageId` from below the memory tail. */
  async #older(messageId: string, action: string): Promise<MessageEvent> {
    const before = tailStartOf(this.session);
    const found = await this.#history.findMessages(new Set([messageId]), { before });
    const event = found.get(messageId);
    if (event !== undefined) {
      this.#window.remember(messageId, event); // the turn's window needs it next
      return event;
    }
    throw new AgentError("message_not_found", `Cannot ${action}: no message ${messageId}`);
  }
}
