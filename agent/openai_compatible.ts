/**
 * {@linkcode OpenAICompatibleAdapter}: streaming chat completions with tools against any
 * OpenAI-compatible endpoint (DeepSeek by default, docs/architecture.md#configuration).
 *
 * @module
 */
import OpenAI from "openai";
import { type Clock, systemClock } from "@chime/session";
import { abortReason } from "./_abort.ts";
import { checkContextTokens, OPENAI_COMPATIBLE_CONTEXT_TOKENS } from "./context_budget.ts";
import { ReplyAssembler } from "./_stream_assembler.ts";
import {
  type ModelAdapter,
  ModelError,
  type ModelMessage,
  type ModelReply,
  type ModelRequest,
} from "./types.ts";

/** Options of {@linkcode OpenAICompatibleAdapter}. */
export interface OpenAICompatibleOptions {
  /** API root, e.g. `https://api.deepseek.com`. */
  readonly baseURL: string;
  /** Model id, e.g. `deepseek-chat`. */
  readonly model: string;
  /** Bearer key. */
  readonly apiKey: string;
  /**
   * Longest wait without progress, in ms: until the response headers, then between stream
   * chunks. Past it the call fails `model_timeout`.
   *
   * @default 60000
   */
  readonly timeoutMs?: number;
  /** Timers for the timeout. @default systemClock */
  readonly clock?: Clock;
  /**
   * The request budget in estimated tokens (`context_budget.ts`; the agent fits each request
   * into it). At least 1,000. @default 64000
   */
  readonly contextTokens?: number;
}

type WireMessage = OpenAI.Chat.Completions.ChatCompletionMessageParam;

function toWire(message: ModelMessage): WireMessage {
  switch (message.role) {
    case "system":
    case "user":
      return { role: message.role, content: message.content };
    case "tool":
      return { role: "tool", tool_call_id: message.toolCallId, content: message.content };
    case "assistant": {
      const calls = message.toolCalls ?? [];
      if (calls.length === 0) return { role: "assistant", content: message.content };
      return {
        role: "assistant",
        content: message.content === "" ? null : message.content,
        tool_calls: calls.map((c) => ({
          id: c.id,
          type: "function" as const,
          function: { name: c.name, arguments: c.arguments },
        })),
      };
    }
  }
}

/** Maps an SDK or transport failure onto a {@linkcode ModelError}. */
function classify(error: unknown, timedOut: boolean): ModelError {
  if (error instanceof ModelError) return error;
  if (timedOut || error instanceof OpenAI.APIConnectionTimeoutError) {
    return new ModelError("model_timeout", "Cannot complete: the model endpoint timed out", {
      cause: error,
    });
  }
  if (error instanceof OpenAI.APIError && typeof error.status === "number") {
    const status = error.status;
    const [code, reason] = status === 401 || status === 403
      ? ["model_unauthorized", "the API key was refused"] as const
      : status === 429
      ? ["model_rate_limited", "the endpoint is rate limiting"] as const
      : status >= 500
      ? ["model_server_error", "the endpoint failed"] as const
      : ["model_unavailable", "the endpoint rejected the request"] as const;
    return new ModelError(code, `Cannot complete: ${reason} (HTTP ${status})`, { cause: error });
  }
  if (error instanceof OpenAI.APIError && !(error instanceof OpenAI.APIConnectionError)) {
    // An `error` object inside the stream.
    return new ModelError("model_server_error", `Cannot complete: ${error.message}`, {
      cause: error,
    });
  }
  if (error instanceof SyntaxError) {
    return new ModelError("model_bad_response", "Cannot complete: the stream is malformed", {
      cause: error,
    });
  }
  return new ModelError("model_unavailable", "Cannot complete: the endpoint is unreachable", {
    cause: error,
  });
}

/**
 * A {@linkcode ModelAdapter} for OpenAI-compatible `POST /chat/completions` with
 * `stream: true`. It assembles streamed tool calls (parallel calls by `index`, arguments split
 * across chunks), never retries (`maxRetries: 0`, so failures surface fast), and maps failures:
 * 401/403 → `model_unauthorized`, 429 → `model_rate_limited`, 5xx → `model_server_error`, no
 * progress for `timeoutMs` → `model_timeout`, malformed stream or tool-call JSON →
 * `model_bad_response`, other transport failures → `model_unavailable`. A call aborted through
 * `request.signal` rejects with the signal's reason.
 *
 * @example Point it at DeepSeek
 * ```ts
 * import { OpenAICompatibleAdapter } from "@chime/agent";
 * const model = new OpenAICompatibleAdapter({
 *   baseURL: "https://api.deepseek.com",
 *   model: "deepseek-chat",
 *   apiKey: "sk-…",
 * });
 * console.assert(model.name === "openai-compatible:deepseek-chat");
 * ```
 */
export class OpenAICompatibleAdapter implements ModelAdapter {
  /** `openai-compatible:<model>`. */
  readonly name: string;
  /** The request budget, estimated tokens. */
  readonly contextTokens: number;
  readonly #client: OpenAI;
  readonly #model: string;
  readonly #timeoutMs: number;
  readonly #clock: Clock;

  /**
   * Creates the adapter; no request is made until {@linkcode OpenAICompatibleAdapter.complete}.
   *
   * @param options endpoint, model, key, timeout, request budget
   * @throws {RangeError} when `timeoutMs` is not a positive number, or `contextTokens` is not
   *   an integer from 1,000 to 10,000,000
   */
  constructor(options: OpenAICompatibleOptions) {
    this.#timeoutMs = options.timeoutMs ?? 60_000;
    if (!(this.#timeoutMs > 0)) {
      throw new RangeError(`Cannot create adapter: timeoutMs ${this.#timeoutMs} is not positive`);
    }
    this.contextTokens = checkContextTokens(
      options.contextTokens ?? OPENAI_COMPATIBLE_CONTEXT_TOKENS,
    );
    this.#model = options.model;
    this.#clock = options.clock ?? systemClock;
    this.name = `openai-compatible:${options.model}`;
    this.#client = new OpenAI({
      baseURL: options.baseURL,
      apiKey: options.apiKey,
      organization: null,
      project: null,
      maxRetries: 0,
      timeout: this.#timeoutMs,
      // Failures surface as ModelError codes; the library itself never logs.
      logLevel: "off",
    });
  }

  /**
   * Streams one completion.
   *
   * @param request conversation, tools, abort signal
   * @returns the assembled reply
   * @throws {ModelError} see the class description
   */
  async complete(request: ModelRequest): Promise<ModelReply> {
    if (request.signal.aborted) throw request.signal.reason;
    const controller = new AbortController();
    let timedOut = false;
    let timer = this.#clock.setTimer(() => expire(), this.#timeoutMs);
    const expire = () => {
      timedOut = true;
      controller.abort(abortReason("model call timed out"));
    };
    const onAbort = () => controller.abort(request.signal.reason);
    request.signal.addEventListener("abort", onAbort, { once: true });
    try {
      const stream = await this.#client.chat.completions.create({
        model: this.#model,
        stream: true,
        messages: request.messages.map(toWire),
        ...(request.tools.length === 0 ? {} : {
          tools: request.tools.map((t) => ({
            type: "function" as const,
            function: { name: t.name, description: t.description, parameters: t.parameters },
          })),
        }),
      }, { signal: controller.signal });
      const assembler = new ReplyAssembler();
      for await (const chunk of stream) {
        timer.cancel();
        timer = this.#clock.setTimer(() => expire(), this.#timeoutMs);
        assembler.push(chunk);
      }
      if (controller.signal.aborted) throw controller.signal.reason;
      return assembler.finish();
    } catch (error) {
      if (request.signal.aborted) throw request.signal.reason;
      throw classify(error, timedOut);
    } finally {
      timer.cancel();
      request.signal.removeEventListener("abort", onAbort);
    }
  }
}
