/**
 * A real OpenAI-compatible HTTP endpoint (`POST /v1/chat/completions`, streamed SSE chunks)
 * whose answers come from the keyless `OfflineModel`, behind a gate the test holds: while the
 * gate is shut a model call stays in flight, so a turn is observably running (steering, cancel).
 * With `missing: true` every call answers `404 model_not_found`, like an endpoint that has no
 * such model. Not published.
 *
 * @module
 */
import { OfflineModel } from "@chime/offline";
import type { ModelMessage, ModelToolSpec } from "../../agent/types.ts";
import { textEvents, toolCallEvents } from "../../agent/testing/fake_openai.ts";

interface WireMessage {
  role: string;
  content?: string | null;
  tool_calls?: { id: string; function: { name: string; arguments: string } }[];
  tool_call_id?: string;
}

function toModelMessages(messages: readonly WireMessage[]): ModelMessage[] {
  return messages.map((m): ModelMessage => {
    const content = m.content ?? "";
    if (m.role === "assistant") {
      const calls = (m.tool_calls ?? []).map((c) => ({
        id: c.id,
        name: c.function.name,
        arguments: c.function.arguments,
      }));
      return { role: "assistant", content, ...(calls.length > 0 ? { toolCalls: calls } : {}) };
    }
    if (m.role === "tool") return { role: "tool", toolCallId: m.tool_call_id ?? "", content };
    return { role: m.role === "system" ? "system" : "user", content };
  });
}

/** Options of {@linkcode GatedModelServer}. */
export interface GatedModelOptions {
  /** The zone the offline model reads clock phrases in (the session zone). */
  readonly timeZone: string;
  /** Answer every call `404 model_not_found`. @default false */
  readonly missing?: boolean;
}

/** The endpoint. `await using model = new GatedModelServer({ timeZone })`. */
export class GatedModelServer implements AsyncDisposable {
  readonly #server: Deno.HttpServer<Deno.NetAddr>;
  readonly #model = new OfflineModel();
  readonly #options: GatedModelOptions;
  #gate: PromiseWithResolvers<void> | undefined;
  #waiting = 0;
  #arrived = Promise.withResolvers<void>();
  /** Calls received so far. */
  calls = 0;

  constructor(options: GatedModelOptions) {
    this.#options = options;
    this.#server = Deno.serve(
      { hostname: "127.0.0.1", port: 0, onListen: () => {} },
      (request) => this.#handle(request),
    );
  }

  /** Base URL for `CHIME_MODEL_BASE_URL`. */
  get baseURL(): string {
    return `http://127.0.0.1:${this.#server.addr.port}/v1`;
  }

  /** Shuts the gate: later calls wait in flight until {@linkcode release}. */
  hold(): void {
    this.#gate ??= Promise.withResolvers<void>();
    this.#arrived = Promise.withResolvers<void>();
  }

  /** Resolves once a call is waiting at the shut gate. */
  waiting(): Promise<void> {
    return this.#waiting > 0 ? Promise.resolve() : this.#arrived.promise;
  }

  /** Opens the gate: waiting calls answer, later ones answer at once. */
  release(): void {
    this.#gate?.resolve();
    this.#gate = undefined;
  }

  async #handle(request: Request): Promise<Response> {
    const url = new URL(request.url);
    if (request.method !== "POST" || url.pathname !== "/v1/chat/completions") {
      return Response.json({ error: { message: "not found" } }, { status: 404 });
    }
    const body = await request.json() as {
      model: string;
      messages: WireMessage[];
      tools?: { function: ModelToolSpec }[];
    };
    this.calls++;
    if (this.#options.missing) {
      return Response.json({
        error: {
          message: `The model \`${body.model}\` does not exist`,
          type: "invalid_request_error",
          code: "model_not_found",
        },
      }, { status: 404 });
    }
    const gate = this.#gate;
    if (gate !== undefined) {
      // A cancelled turn aborts its request; the answer written after release then goes
      // nowhere, which is harmless (and avoids `request.signal`'s legacy abort semantics).
      this.#waiting++;
      this.#arrived.resolve();
      try {
        await gate.promise;
      } finally {
        this.#waiting--;
      }
    }
    const reply = await this.#model.complete({
      messages: toModelMessages(body.messages),
      tools: (body.tools ?? []).map((t) => t.function),
      signal: new AbortController().signal,
      context: { now: Date.now(), timeZone: this.#options.timeZone },
    });
    const events = reply.toolCalls.length > 0
      ? toolCallEvents(reply.toolCalls, 2, reply.text)
      : textEvents(reply.text || "…", 2);
    const lines = [...events.map((e) => `data: ${JSON.stringify(e)}\n\n`), "data: [DONE]\n\n"];
    return new Response(lines.join(""), {
      headers: { "content-type": "text/event-stream", "cache-control": "no-cache" },
    });
  }

  /** Opens the gate and shuts the server down. */
  async [Symbol.asyncDispose](): Promise<void> {
    this.release();
    await this.#server.shutdown();
  }
}
