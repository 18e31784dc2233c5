/**
 * The model context budget (docs/long-sessions.md "Model context within a budget"): the default
 * budget per adapter and the token estimate the agent fits each request into.
 *
 * The estimate is deliberately simple and tokenizer-free: `ceil(utf8Bytes / 3)` for each text,
 * plus {@linkcode MESSAGE_OVERHEAD_TOKENS} per message (role and framing). Three bytes per
 * token over-counts English (about four bytes per token) and roughly matches CJK text (three
 * bytes per character, about one token each), so a request estimated within the budget fits
 * the model's real window with some room.
 *
 * @module
 */
import type { ModelMessage, ModelToolSpec } from "./types.ts";

/** Default `model.contextTokens` of the offline model (and of adapters that name none). */
export const OFFLINE_CONTEXT_TOKENS = 32_000;
/** Default `model.contextTokens` of the OpenAI-compatible adapter (DeepSeek included). */
export const OPENAI_COMPATIBLE_CONTEXT_TOKENS = 64_000;
/** Tokens added per message for its role and framing. */
export const MESSAGE_OVERHEAD_TOKENS = 4;
/** The smallest budget accepted: the fixed notes alone need some room. */
export const MIN_CONTEXT_TOKENS = 1_000;

/** UTF-8 length of `text` in bytes, without encoding it. */
function utf8Bytes(text: string): number {
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x80) bytes += 1;
    else if (code < 0x800) bytes += 2;
    else if (code >= 0xd800 && code <= 0xdbff && i + 1 < text.length) {
      bytes += 4; // a surrogate pair is one 4-byte code point
      i++;
    } else bytes += 3;
  }
  return bytes;
}

/**
 * The estimated tokens of a text: `ceil(utf8Bytes / 3)`.
 *
 * @param text any text
 * @returns a whole number of tokens, 0 for `""`
 *
 * @example
 * ```ts
 * import { estimateTextTokens } from "@chime/agent";
 * console.assert(estimateTextTokens("abcdef") === 2);
 * console.assert(estimateTextTokens("提醒") === 2); // 6 bytes
 * ```
 */
export function estimateTextTokens(text: string): number {
  return Math.ceil(utf8Bytes(text) / 3);
}

/**
 * The estimated tokens of one request message: its texts (content, tool-call ids, names and
 * arguments, the tool message's call id) at `ceil(utf8Bytes / 3)` each, plus
 * {@linkcode MESSAGE_OVERHEAD_TOKENS}.
 *
 * @param message a request message
 * @returns its estimated tokens
 *
 * @example
 * ```ts
 * import { estimateMessageTokens, MESSAGE_OVERHEAD_TOKENS } from "@chime/agent";
 * const tokens = estimateMessageTokens({ role: "user", content: "hello!" });
 * console.assert(tokens === 2 + MESSAGE_OVERHEAD_TOKENS);
 * ```
 */
export function estimateMessageTokens(message: ModelMessage): number {
  let tokens = MESSAGE_OVERHEAD_TOKENS + estimateTextTokens(message.content);
  if (message.role === "tool") tokens += estimateTextTokens(message.toolCallId);
  if (message.role === "assistant") {
    for (const call of message.toolCalls ?? []) {
      tokens += estimateTextTokens(call.id) + estimateTextTokens(call.name) +
        estimateTextTokens(call.arguments);
    }
  }
  return tokens;
}

/**
 * The estimated tokens the tool list adds to a request: each spec's JSON at
 * `ceil(utf8Bytes / 3)` plus {@linkcode MESSAGE_OVERHEAD_TOKENS}.
 *
 * @param tools the registered tools
 * @returns their estimated tokens
 */
export function estimateToolTokens(tools: readonly ModelToolSpec[]): number {
  let tokens = 0;
  for (const tool of tools) {
    tokens += MESSAGE_OVERHEAD_TOKENS + estimateTextTokens(JSON.stringify(tool));
  }
  return tokens;
}

/**
 * Checks a configured budget.
 *
 * @param tokens the budget, in estimated tokens
 * @param where what to name in the error, e.g. `model.contextTokens`
 * @returns `tokens`
 * @throws {RangeError} unless an integer from {@linkcode MIN_CONTEXT_TOKENS} to 10,000,000
 */
export function checkContextTokens(tokens: number, where = "contextTokens"): number {
  if (!Number.isSafeInteger(tokens) || tokens < MIN_CONTEXT_TOKENS || tokens > 10_000_000) {
    throw new RangeError(
      `Cannot use ${where}: ${tokens} is not an integer ${MIN_CONTEXT_TOKENS}..10000000`,
    );
  }
  return tokens;
}
