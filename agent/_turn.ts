/**
 * One turn of the agent loop (docs/events.md#one-turn, docs/design.md#time-context-reading).
 * Private to `@chime/agent`; {@linkcode Agent} owns the phase and the inbox, this file owns the
 * steps.
 *
 * @module
 */
import type { SessionEvent, StepStartData, UserRpcData } from "@chime/session";
import { abortReason, attempt, errorText, raceAbort } from "./_abort.ts";
import { MAX_ARGUMENT_DEPTH, nestsDeeperThan } from "./_json_depth.ts";
import type { ToolRegistry } from "./_registry.ts";
import type { AgentLogger } from "./agent_options.ts";
import { type ClaimedMessage, forgetClaims, noteClaims } from "./_claims.ts";
import { estimateMessageTokens, estimateToolTokens } from "./context_budget.ts";
import type { History } from "./_history.ts";
import type { WindowState } from "./_window_state.ts";
import type { AssistantMessageData, TurnEndRecord } from "./_transcript.ts";
import { buildWindow } from "./_window.ts";
import { openTurnId } from "./provenance.ts";
import {
  type AgentHandle,
  type ModelAdapter,
  ModelError,
  type ModelMessage,
  type ModelReply,
  type ModelToolCall,
  type PreStepHook,
  type StepBatch,
} from "./types.ts";

/**
 * Closes a turn a stopped process left open (`turn/end { outcome: 'error' }`), so it is never
 * mistaken for the open turn of the new live agent. Bounded: `openTurnId` searches backwards
 * from the end of the session's memory tail.
 */
export function closeDanglingTurn(handle: AgentHandle): void {
  const dangling = openTurnId(handle.session);
  if (dangling === undefined || handle.session.closed) return;
  handle.append("turn/end", {
    turnId: dangling,
    outcome: "error",
    error: "interrupted: Cannot finish the turn: the process stopped during it",
  });
}

/** One queued input. */
export type Input =
  | { readonly kind: "message"; readonly event: SessionEvent<"user-rpc", UserRpcData> }
  | { readonly kind: "followup"; readonly frame: string };

/** Options of `TurnRun.end`. */
export interface EndOptions {
  /** The error text of an `error` outcome. */
  readonly error?: string;
  /** Record `turn/end`. @default true */
  readonly record?: boolean;
  /** Message ids a Stop stopped (recorded as `stoppedMessageIds`). */
  readonly stopped?: readonly string[];
}

/** An event a pre-step hook appended, waiting for `step/start`. */
interface Staged {
  readonly type: string;
  readonly data: unknown;
}

/** What a turn needs from its agent. */
export interface TurnHost {
  readonly handle: AgentHandle;
  readonly model: ModelAdapter | undefined;
  readonly systemPrompt: string | undefined;
  readonly maxSteps: number;
  readonly tools: ToolRegistry;
  /** The session log, read from the end. */
  readonly history: History;
  /** The request budget, estimated tokens. */
  readonly contextTokens: number;
  /** The conversation window kept between requests (held events, older messages). */
  readonly window: WindowState;
  readonly logger: AgentLogger;
  newId(): string;
  /** Removes and returns every queued input. */
  claim(): Input[];
  /** Whether inputs are queued. */
  pending(): boolean;
  hooks(): PreStepHook[];
}

/** A running turn. `end()` is idempotent; after it the loop records nothing more. */
export class TurnRun {
  readonly turnId: string;
  readonly #host: TurnHost;
  readonly #controller = new AbortController();
  #ended = false;
  #staging: Staged[] | undefined;
  readonly #claimed: string[] = [];
  readonly #claimedEvents: ClaimedMessage[] = [];

  constructor(host: TurnHost) {
    this.#host = host;
    this.turnId = host.newId();
  }

  /** Aborted when the turn ends (cancel, error, completion). */
  get signal(): AbortSignal {
    return this.#controller.signal;
  }

  get ended(): boolean {
    return this.#ended;
  }

  /**
   * Ids of the messages this turn claimed, in claim order, including a batch whose pre-step
   * hooks were still running (its `step/start` not yet recorded).
   */
  get claimedMessageIds(): readonly string[] {
    return this.#claimed;
  }

  /**
   * While pre-step hooks run, stages an append for `step/start` and returns a provisional
   * envelope; otherwise returns `undefined` (the caller appends normally).
   */
  stage<T extends string, D>(type: T, data: D): SessionEvent<T, D> | undefined {
    const staging = this.#staging;
    if (staging === undefined) return undefined;
    staging.push({ type, data: structuredClone(data) });
    const { session, clock } = this.#host.handle;
    return Object.freeze({
      seq: session.length + staging.length - 1,
      type,
      at: new Date(clock.now()).toISOString(),
      data: Object.freeze(structuredClone(data)),
    });
  }

  /**
   * Records `turn/end` (unless `options.record` is false, e.g. the session already closed) and
   * aborts the turn's model call and tool signal. A Stop names the messages it stopped
   * (`stoppedMessageIds`: this turn's claims and the queue behind it).
   *
   * @returns `false` when the turn had already ended
   */
  end(outcome: "completed" | "error" | "cancelled", options: EndOptions = {}): boolean {
    if (this.#ended) return false;
    this.#ended = true;
    this.#staging = undefined;
    forgetClaims(this.#host.handle.session, this.turnId);
    try {
      if (options.record ?? true) {
        const data: TurnEndRecord = {
          turnId: this.turnId,
          outcome,
          ...(options.error === undefined ? {} : { error: options.error }),
          ...(options.stopped === undefined ? {} : { stoppedMessageIds: [...options.stopped] }),
        };
        this.#host.handle.append("turn/end", data);
      }
    } finally {
      this.#controller.abort(abortReason(`turn ${this.turnId} ended: ${outcome}`));
    }
    return true;
  }

  /** Runs the turn to its end; never rejects for model, tool or hook failures. */
  async run(): Promise<void> {
    const host = this.#host;
    host.handle.append("turn/start", { turnId: this.turnId });
    let continuing = false;
    try {
      for (let step = 0;; step++) {
        if (!continuing && !host.pending()) {
          this.end("completed");
          return;
        }
        if (step >= host.maxSteps) {
          this.end("error", {
            error: `max_steps: Cannot continue: the turn reached ${host.maxSteps} steps`,
          });
          return;
        }
        const extra = await this.#admit(step, host.claim());
        if (extra === undefined) return;
        const reply = await raceAbort(this.#callModel(extra), this.signal);
        if (this.#ended) return;
        const calls = reply.toolCalls;
        const data: AssistantMessageData = {
          turnId: this.turnId,
          text: reply.text,
          ...(calls.length > 0
            ? { toolCalls: calls.map(({ id, name, arguments: a }) => ({ id, name, arguments: a })) }
            : {}),
        };
        host.handle.append("assistant/message", data);
        for (const call of calls) {
          await this.#runTool(call);
          if (this.#ended) return;
        }
        continuing = calls.length > 0;
      }
    } catch (error) {
      if (!this.#ended) this.end("error", { error: errorText(error) });
    }
  }

  /**
   * Runs the pre-step hooks on the claimed batch, then records the followups, the staged hook
   * events and `step/start` in one synchronous block.
   *
   * @returns the hooks' model-visible strings, or `undefined` when the turn ended meanwhile
   */
  async #admit(step: number, inputs: Input[]): Promise<string[] | undefined> {
    const messages = inputs.flatMap((i) => i.kind === "message" ? [i.event] : []);
    for (const m of messages) this.#claimed.push(m.data.messageId);
    this.#claimedEvents.push(...messages);
    noteClaims(this.#host.handle.session, this.turnId, messages);
    const followups = inputs.flatMap((i) => i.kind === "followup" ? [i.frame] : []);
    const extra: string[] = [];
    if (inputs.length > 0) {
      const batch: StepBatch = Object.freeze({
        turnId: this.turnId,
        step,
        messages: Object.freeze(messages),
        followups: Object.freeze(followups),
      });
      const staged: Staged[] = [];
      for (const hook of this.#host.hooks()) {
        this.#staging = staged;
        let added: readonly string[] | void;
        try {
          added = await raceAbort(attempt(() => hook(batch, this.#host.handle)), this.signal);
        } finally {
          if (this.#staging === staged) this.#staging = undefined;
        }
        if (this.#ended) return undefined;
        for (const text of added ?? []) {
          if (typeof text !== "string") {
            throw new TypeError("Cannot run pre-step hook: it returned a non-string");
          }
          extra.push(text);
        }
      }
      if (this.#ended) return undefined;
      for (const frame of followups) this.#host.handle.append("followup", { frame });
      for (const { type, data } of staged) this.#host.handle.append(type, data);
    }
    if (this.#ended) return undefined;
    const start: StepStartData = {
      turnId: this.turnId,
      step,
      messageIds: messages.map((m) => m.data.messageId),
    };
    this.#host.handle.append("step/start", start);
    return extra;
  }

  /**
   * The request's messages: the system text, the conversation window that fits the budget
   * (docs/long-sessions.md "Model context within a budget") and this step's hook additions.
   */
  async #messages(extra: readonly string[], toolTokens: number): Promise<ModelMessage[]> {
    const host = this.#host;
    const head: ModelMessage[] = host.systemPrompt === undefined
      ? []
      : [{ role: "system", content: host.systemPrompt }];
    const tail = extra.map((content): ModelMessage => ({ role: "user", content }));
    const fixed = [...head, ...tail].reduce((n, m) => n + estimateMessageTokens(m), toolTokens);
    const window = await buildWindow(host.history, {
      budget: host.contextTokens,
      fixed,
      turnId: this.turnId,
      known: this.#claimedEvents,
      state: host.window,
    });
    if (window.over) {
      host.logger.warn("Model request over its budget: the current turn alone exceeds it", {
        session: host.handle.session.id,
        turnId: this.turnId,
        estimatedTokens: fixed + window.tokens,
        contextTokens: host.contextTokens,
      });
    }
    return [...head, ...window.messages, ...tail];
  }

  async #callModel(extra: readonly string[]): Promise<ModelReply> {
    const { handle, model } = this.#host;
    if (model === undefined) {
      throw new ModelError(
        "model_missing",
        "Cannot call the model: no model adapter is configured",
      );
    }
    const tools = this.#host.tools.specs();
    const messages = await this.#messages(extra, estimateToolTokens(tools));
    const timeZone = handle.session.header.timeZone;
    const reply = await model.complete({
      messages,
      tools,
      signal: this.signal,
      context: { now: handle.clock.now(), ...(timeZone === undefined ? {} : { timeZone }) },
    });
    if (typeof reply?.text !== "string" || !Array.isArray(reply.toolCalls)) {
      throw new ModelError("model_bad_response", `Cannot use the reply of ${model.name}`);
    }
    return reply;
  }

  async #runTool(call: ModelToolCall): Promise<void> {
    const { handle, tools } = this.#host;
    let args: unknown;
    let parsed = true;
    const tooDeep = nestsDeeperThan(call.arguments, MAX_ARGUMENT_DEPTH);
    try {
      if (tooDeep) throw new RangeError("too deep");
      args = call.arguments.trim() === "" ? {} : JSON.parse(call.arguments);
    } catch {
      parsed = false;
    }
    handle.append("tool/call", {
      turnId: this.turnId,
      callId: call.id,
      name: call.name,
      args: parsed ? args : call.arguments,
    });
    let result: unknown;
    const tool = tools.get(call.name);
    if (tooDeep) {
      result = failure(
        "invalid_arguments",
        `Cannot call ${call.name}: arguments nest deeper than ${MAX_ARGUMENT_DEPTH} levels`,
      );
    } else if (!parsed) {
      result = failure("invalid_arguments", `Cannot call ${call.name}: arguments are not JSON`);
    } else if (tool === undefined) {
      result = failure("unknown_tool", `Cannot call ${call.name}: no such tool`);
    } else {
      const ctx = { agent: handle, turnId: this.turnId, callId: call.id, signal: this.signal };
      try {
        const value = await raceAbort(attempt(() => tool.execute(args, ctx)), this.signal);
        result = JSON.parse(JSON.stringify(value ?? null));
      } catch (error) {
        if (this.#ended) return;
        result = failure("tool_failed", error instanceof Error ? error.message : String(error));
      }
    }
    if (this.#ended) return;
    handle.append("tool/result", { turnId: this.turnId, callId: call.id, result });
  }
}

function failure(code: string, message: string) {
  return { ok: false, error: { code, message } } as const;
}
