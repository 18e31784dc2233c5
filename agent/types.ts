/**
 * The model wire of `@chime/agent`: messages, tool calls and the model adapter port. The plugin
 * contract (tools, pre-step hooks, the agent surface, plugins) is `@chime/contract`'s
 * (`contract/plugin.ts`); it is re-exported from here so agent code names it in one place.
 *
 * @module
 */
import type { ModelToolSpec } from "@chime/contract";

export type {
  AgentErrorCode,
  AgentHandle,
  AgentPhase,
  AgentScope,
  CancelResult,
  ModelToolSpec,
  Plugin,
  PreStepHook,
  StepBatch,
  ToolContext,
  ToolDefinition,
} from "@chime/contract";
export { AgentError } from "@chime/contract";

/* ------------------------------------------------------------------ model wire */

/** One tool call the model asked for. `arguments` is the raw JSON text the model produced. */
export interface ModelToolCall {
  /** Call id, unique within the turn. */
  readonly id: string;
  /** Tool name. */
  readonly name: string;
  /** Raw JSON arguments text (may be malformed; the agent reports that as a tool error). */
  readonly arguments: string;
}

/** A chat message in OpenAI chat-completions shape (the lingua franca of adapters). */
export type ModelMessage =
  | { readonly role: "system"; readonly content: string }
  | { readonly role: "user"; readonly content: string }
  | {
    readonly role: "assistant";
    readonly content: string;
    readonly toolCalls?: readonly ModelToolCall[];
  }
  | { readonly role: "tool"; readonly toolCallId: string; readonly content: string };

/** What one model call returns: text and/or tool calls. */
export interface ModelReply {
  /** Assistant text (may be empty when only tools are called). */
  readonly text: string;
  /** Tool calls, in order (parallel calls allowed). */
  readonly toolCalls: readonly ModelToolCall[];
}

/** Input of one model call. */
export interface ModelRequest {
  /** The conversation so far, including this step's batch and pre-step additions. */
  readonly messages: readonly ModelMessage[];
  /** Tools currently registered in the agent scope. */
  readonly tools: readonly ModelToolSpec[];
  /** Aborted when the turn ends early (cancel, dispose) or otherwise ends. */
  readonly signal: AbortSignal;
  /** The live session header's zone and the wall clock, for offline adapters. */
  readonly context: { readonly now: number; readonly timeZone?: string };
}

/**
 * A model adapter (openai-compatible, offline, scripted). Rejects with {@linkcode ModelError}
 * for endpoint failures (401, 429, 5xx, time-outs, malformed tool-call JSON chunks).
 */
export interface ModelAdapter {
  /** Name for logs, e.g. `offline`, `openai-compatible:deepseek-chat`. */
  readonly name: string;
  /**
   * The request budget this model takes, in estimated tokens (`context_budget.ts`); the agent
   * fits each request into it unless `AgentOptions.contextTokens` says otherwise.
   * @default absent: 32,000
   */
  readonly contextTokens?: number;
  /** Produces one assistant reply. */
  complete(request: ModelRequest): Promise<ModelReply>;
}

/** Codes a model adapter failure carries. */
export type ModelErrorCode =
  | "model_unavailable"
  | "model_unauthorized"
  | "model_rate_limited"
  | "model_server_error"
  | "model_timeout"
  | "model_bad_response"
  | "model_missing";

/** A model call failure; the turn ends `turn/end { outcome: 'error', error }`. */
export class ModelError extends Error {
  /** The failure code. */
  readonly code: ModelErrorCode;
  /**
   * Creates a model failure.
   *
   * @param code failure code
   * @param message `Cannot <action>: <reason>`
   * @param options optional cause
   */
  constructor(code: ModelErrorCode, message: string, options: { cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = "ModelError";
    this.code = code;
  }
}
