/**
 * {@linkcode ScriptedModel}: a deterministic model adapter for tests.
 *
 * @module
 */
import { attempt, raceAbort } from "./_abort.ts";
import {
  type ModelAdapter,
  ModelError,
  type ModelReply,
  type ModelRequest,
  type ModelToolCall,
} from "./types.ts";

/** A reply with optional fields: `text` defaults to `""`, `toolCalls` to `[]`. */
export interface ScriptedReply {
  /** Assistant text. @default "" */
  readonly text?: string;
  /** Tool calls. @default [] */
  readonly toolCalls?: readonly ModelToolCall[];
}

/**
 * One scripted step: a reply, an error to throw, or a function of the request (which may
 * return a promise the test controls).
 */
export type ScriptStep =
  | ScriptedReply
  | Error
  | ((request: ModelRequest) => ScriptedReply | Promise<ScriptedReply>);

/**
 * A model that replays a script. Each call takes the next step from the queue (or calls the
 * function given instead of a queue); an `Error` step is thrown. Calls honour
 * `request.signal`. Every request is kept in {@linkcode ScriptedModel.requests}.
 *
 * @example Reply once with text, then fail
 * ```ts
 * import { ModelError, ScriptedModel } from "@chime/agent";
 * const model = new ScriptedModel([
 *   { text: "hi" },
 *   new ModelError("model_rate_limited", "Cannot complete: slow down"),
 * ]);
 * const signal = new AbortController().signal;
 * const reply = await model.complete({ messages: [], tools: [], signal, context: { now: 0 } });
 * console.assert(reply.text === "hi" && model.remaining === 1);
 * ```
 */
export class ScriptedModel implements ModelAdapter {
  /** `scripted`. */
  readonly name: string = "scripted";
  /** Every request received, in order. */
  readonly requests: ModelRequest[] = [];
  readonly #queue: ScriptStep[];
  readonly #fn: ((request: ModelRequest) => ScriptedReply | Promise<ScriptedReply>) | undefined;

  /**
   * Creates a scripted model.
   *
   * @param script the steps in order, or one function answering every call @default []
   */
  constructor(
    script:
      | readonly ScriptStep[]
      | ((request: ModelRequest) => ScriptedReply | Promise<ScriptedReply>) = [],
  ) {
    this.#queue = typeof script === "function" ? [] : [...script];
    this.#fn = typeof script === "function" ? script : undefined;
  }

  /** Steps left in the queue. */
  get remaining(): number {
    return this.#queue.length;
  }

  /**
   * Appends steps to the queue.
   *
   * @param steps replies, errors or functions
   */
  push(...steps: ScriptStep[]): void {
    this.#queue.push(...steps);
  }

  /**
   * Answers with the next step.
   *
   * @param request the model request
   * @returns the scripted reply, completed with defaults
   * @throws {ModelError} `model_unavailable` when the script is exhausted; any scripted error
   */
  async complete(request: ModelRequest): Promise<ModelReply> {
    this.requests.push(request);
    const step = this.#fn ?? this.#queue.shift();
    if (step === undefined) {
      throw new ModelError("model_unavailable", "Cannot complete: the script is exhausted");
    }
    if (step instanceof Error) throw step;
    const reply = typeof step === "function"
      ? await raceAbort(attempt(() => step(request)), request.signal)
      : step;
    return { text: reply.text ?? "", toolCalls: reply.toolCalls ?? [] };
  }
}
