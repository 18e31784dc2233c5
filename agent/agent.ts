/**
 * {@linkcode Agent}: the live loop of one root session: inbox, turns, steering, maintenance,
 * follow-ups, tools and pre-step hooks (ARCHITECTURE.md §4, seed §"Live 交付生命周期").
 *
 * @module
 */
import {
  type Clock,
  type MessageSource,
  type Session,
  type SessionEvent,
  type SessionStore,
  systemClock,
  type UserRpcData,
} from "@chime/session";
import { abortReason } from "./_abort.ts";
import { HookList, ToolRegistry } from "./_registry.ts";
import { type Input, TurnRun } from "./_turn.ts";
import { openTurnId } from "./provenance.ts";
import {
  AgentError,
  type AgentHandle,
  type AgentPhase,
  type ModelAdapter,
  type PreStepHook,
  type ToolDefinition,
} from "./types.ts";

/** Options of {@linkcode Agent}. */
export interface AgentOptions {
  /** The live root session. */
  readonly session: Session;
  /** The store that owns `session` (tools use it for `flush`). */
  readonly store: SessionStore;
  /** The model; `undefined` makes every turn end `outcome: 'error'` with `model_missing`. */
  readonly model: ModelAdapter | undefined;
  /** Wall clock and timers. @default the store's clock */
  readonly clock?: Clock;
  /** A system message put first in every model call. @default none */
  readonly systemPrompt?: string;
  /** Model calls per turn. @default 8 */
  readonly maxSteps?: number;
  /** Id generator for messages and turns. @default crypto.randomUUID */
  readonly generateId?: () => string;
  /** Where failures with no caller go. @default globalThis.reportError */
  readonly reportError?: (error: unknown) => void;
}

/** What {@linkcode Agent.submit} takes: one web prompt and its bound provenance. */
export interface SubmitInput {
  /** The prompt text. */
  readonly text: string;
  /** Immutable provenance (the host validated `clientTimeZone`). */
  readonly source: MessageSource;
  /** The message id this one edits. */
  readonly edits?: string;
}

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
 * const session = await store.create({ cwd: "/", timeZone: "Europe/Paris" });
 * await using agent = new Agent({ session, store, model: new ScriptedModel([{ text: "hi" }]) });
 * agent.submit({ text: "hello", source: { kind: "web", clientTimeZone: "Europe/Paris" } });
 * await agent.whenIdle();
 * console.assert(session.events().at(-1)?.type === "turn/end");
 * ```
 */
export class Agent implements AgentHandle, AsyncDisposable {
  /** The live root session. */
  readonly session: Session;
  /** The store that owns the session. */
  readonly store: SessionStore;
  /** The injected clock. */
  readonly clock: Clock;
  readonly #model: ModelAdapter | undefined;
  readonly #systemPrompt: string | undefined;
  readonly #maxSteps: number;
  readonly #newId: () => string;
  readonly #reportError: (error: unknown) => void;
  readonly #tools = new ToolRegistry();
  readonly #hooks = new HookList();
  readonly #owners = new Set<AsyncDisposable>();
  readonly #controller = new AbortController();
  readonly #inbox: Input[] = [];
  #idleWaiters: (() => void)[] = [];
  #phase: AgentPhase = "idle";
  #run: TurnRun | undefined;
  #loop: Promise<void> | undefined;
  #maintenance: Promise<unknown> | undefined;
  #disposing: Promise<void> | undefined;

  /**
   * @param options session, store, model and optional clock, system prompt, step limit
   * @throws {RangeError} when `maxSteps` is not a positive integer
   */
  constructor(options: AgentOptions) {
    this.session = options.session;
    this.store = options.store;
    this.clock = options.clock ?? options.store.clock ?? systemClock;
    this.#model = options.model;
    this.#systemPrompt = options.systemPrompt;
    this.#maxSteps = options.maxSteps ?? 8;
    if (!Number.isSafeInteger(this.#maxSteps) || this.#maxSteps < 1) {
      throw new RangeError(`Cannot create agent: maxSteps ${this.#maxSteps} is not positive`);
    }
    this.#newId = options.generateId ?? (() => crypto.randomUUID());
    this.#reportError = options.reportError ?? ((e) => globalThis.reportError(e));
    // A turn left open by a stopped process is closed, so it is never mistaken for the open one.
    const dangling = openTurnId(this.session);
    if (dangling !== undefined && !this.session.closed) {
      this.append("turn/end", {
        turnId: dangling,
        outcome: "error",
        error: "interrupted: Cannot finish the turn: the process stopped during it",
      });
    }
  }

  /** The current phase. */
  get phase(): AgentPhase {
    return this.#phase;
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
    return this.#run?.ended === false ? this.#run.turnId : undefined;
  }

  /** @inheritdoc */
  append<T extends string, D>(type: T, data: D): SessionEvent<T, D> {
    const staging = this.#run?.staging;
    if (staging === undefined) return this.store.append(this.session, type, data);
    staging.push({ type, data: structuredClone(data) });
    return Object.freeze({
      seq: this.session.length + staging.length - 1,
      type,
      at: new Date(this.clock.now()).toISOString(),
      data: Object.freeze(structuredClone(data)),
    });
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
    };
    const event = this.store.append(this.session, "user-rpc", data);
    this.#enqueue({ kind: "message", event });
    return event;
  }

  /**
   * Queues a new turn for an existing message; its batch is that message with its own
   * original provenance.
   *
   * @throws {AgentError} `message_not_found`, `disposed`
   */
  retry(messageId: string): void {
    this.#live("retry");
    this.#enqueue({ kind: "message", event: this.#message(messageId, "retry") });
  }

  /**
   * Appends an edit of `messageId` (a new `user-rpc` with `edits` and the original `source`)
   * and queues it.
   *
   * @returns the new event
   * @throws {AgentError} `message_not_found`, `disposed`
   */
  edit(messageId: string, text: string): SessionEvent<"user-rpc", UserRpcData> {
    this.#live("edit");
    const original = this.#message(messageId, "edit");
    return this.submit({ text, source: original.data.source, edits: messageId });
  }

  /**
   * Ends the running turn now with `turn/end { outcome: 'cancelled' }` and aborts its model
   * call and tool signal; nothing more is recorded for it.
   *
   * @throws {AgentError} `no_running_turn`
   */
  cancel(): void {
    const run = this.#run;
    if (run === undefined || run.ended) {
      throw new AgentError("no_running_turn", "Cannot cancel: no turn is running");
    }
    run.end("cancelled");
  }

  /** @inheritdoc */
  followup(frame: string): void {
    this.#live("follow up");
    if (typeof frame !== "string") throw new TypeError("Cannot follow up: frame is not a string");
    this.#enqueue({ kind: "followup", frame });
  }

  /** @inheritdoc */
  async runMaintenance<T>(task: () => Promise<T>): Promise<T> {
    this.#live("run maintenance");
    if (this.#phase !== "idle") {
      throw new AgentError("busy", `Cannot run maintenance: the agent is in a ${this.#phase}`);
    }
    this.#phase = "maintenance";
    const done = Promise.withResolvers<void>();
    this.#maintenance = done.promise;
    try {
      return await task();
    } finally {
      this.#phase = "idle";
      this.#maintenance = undefined;
      done.resolve();
      this.#pump();
    }
  }

  /** @inheritdoc */
  whenIdle(): Promise<void> {
    if (this.#phase === "idle" || this.disposed) return Promise.resolve();
    const { promise, resolve } = Promise.withResolvers<void>();
    this.#idleWaiters.push(resolve);
    return promise;
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
    this.#owners.add(owner);
    return { [Symbol.dispose]: () => this.#owners.delete(owner) };
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
    this.#inbox.length = 0;
    const run = this.#run;
    if (run !== undefined && !run.ended) run.end("cancelled", undefined, !this.session.closed);
    const errors: unknown[] = [];
    for (const owner of [...this.#owners].reverse()) {
      this.#owners.delete(owner);
      try {
        await owner[Symbol.asyncDispose]();
      } catch (error) {
        errors.push(error);
      }
    }
    await Promise.allSettled([this.#loop, this.#maintenance]);
    this.#tools.clear();
    this.#hooks.clear();
    this.#wakeIdleWaiters();
    if (errors.length === 1) throw errors[0];
    if (errors.length > 1) throw new AggregateError(errors, "Cannot dispose agent: owners failed");
  }

  #live(action: string): void {
    if (this.disposed) throw new AgentError("disposed", `Cannot ${action}: the agent is disposed`);
  }

  #message(messageId: string, action: string): SessionEvent<"user-rpc", UserRpcData> {
    for (const event of this.session.events()) {
      if (event.type === "user-rpc" && (event.data as UserRpcData).messageId === messageId) {
        return event as SessionEvent<"user-rpc", UserRpcData>;
      }
    }
    throw new AgentError("message_not_found", `Cannot ${action}: no message ${messageId}`);
  }

  #enqueue(input: Input): void {
    this.#inbox.push(input);
    this.#pump();
  }

  /** Starts a turn when idle with queued inputs; otherwise wakes idle waiters. */
  #pump(): void {
    if (this.#phase !== "idle") return;
    if (this.#inbox.length === 0 || this.disposed || this.session.closed) {
      this.#wakeIdleWaiters();
      return;
    }
    this.#phase = "turn";
    const run = new TurnRun({
      handle: this,
      model: this.#model,
      systemPrompt: this.#systemPrompt,
      maxSteps: this.#maxSteps,
      tools: this.#tools,
      newId: this.#newId,
      claim: () => this.#inbox.splice(0),
      pending: () => this.#inbox.length > 0,
      hooks: () => this.#hooks.snapshot(),
    });
    this.#run = run;
    this.#loop = run.run().catch(this.#reportError).finally(() => {
      this.#run = undefined;
      this.#loop = undefined;
      this.#phase = "idle";
      this.#pump();
    });
  }

  #wakeIdleWaiters(): void {
    const waiters = this.#idleWaiters;
    this.#idleWaiters = [];
    for (const resolve of waiters) resolve();
  }
}
