/**
 * Assembles streamed chat-completion chunks into one {@linkcode ModelReply}. Private to
 * `@chime/agent`; pure, so its rules are tested without a server.
 *
 * @module
 */
import { ModelError, type ModelReply } from "./types.ts";

/** The slice of a `chat.completion.chunk` the assembler reads. */
export interface ChunkLike {
  readonly choices?: readonly {
    readonly delta?: {
      readonly content?: string | null;
      readonly tool_calls?: readonly {
        readonly index?: number;
        readonly id?: string | null;
        readonly function?: { readonly name?: string | null; readonly arguments?: string | null };
      }[];
    } | null;
    readonly finish_reason?: string | null;
  }[];
}

interface PartialCall {
  id: string;
  name: string;
  arguments: string;
}

/**
 * Collects text deltas and tool-call deltas. Tool calls are keyed by `index` (parallel calls
 * interleave), `id` and `name` arrive once, `arguments` arrive split across chunks.
 */
export class ReplyAssembler {
  #text = "";
  readonly #calls = new Map<number, PartialCall>();
  #finished = false;

  /** Feeds one chunk. */
  push(chunk: ChunkLike): void {
    const choice = chunk.choices?.[0];
    if (choice === undefined) return;
    if (typeof choice.delta?.content === "string") this.#text += choice.delta.content;
    for (const delta of choice.delta?.tool_calls ?? []) {
      const index = delta.index ?? 0;
      let call = this.#calls.get(index);
      if (call === undefined) {
        call = { id: "", name: "", arguments: "" };
        this.#calls.set(index, call);
      }
      if (typeof delta.id === "string" && delta.id !== "" && call.id === "") call.id = delta.id;
      const fn = delta.function;
      if (typeof fn?.name === "string" && fn.name !== "" && call.name === "") call.name = fn.name;
      if (typeof fn?.arguments === "string") call.arguments += fn.arguments;
    }
    if (typeof choice.finish_reason === "string") this.#finished = true;
  }

  /**
   * The reply, calls ordered by index.
   *
   * @throws {ModelError} `model_bad_response` when the stream ended without a finish reason, or
   *   a tool call lacks an id or name or its arguments are not a JSON object
   */
  finish(): ModelReply {
    if (!this.#finished) {
      throw new ModelError("model_bad_response", "Cannot read reply: the stream ended early");
    }
    const toolCalls = [...this.#calls.entries()].sort(([a], [b]) => a - b).map(([index, c]) => {
      if (c.id === "" || c.name === "") {
        throw new ModelError("model_bad_response", `Cannot read tool call ${index}: no id or name`);
      }
      const args = c.arguments.trim() === "" ? "{}" : c.arguments;
      let parsed: unknown;
      try {
        parsed = JSON.parse(args);
      } catch (cause) {
        throw new ModelError(
          "model_bad_response",
          `Cannot read tool call ${c.name}: arguments are not JSON`,
          { cause },
        );
      }
      if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed)) {
        throw new ModelError(
          "model_bad_response",
          `Cannot read tool call ${c.name}: not an object`,
        );
      }
      return { id: c.id, name: c.name, arguments: args };
    });
    return { text: this.#text, toolCalls };
  }
}
