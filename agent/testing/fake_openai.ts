/**
 * A local OpenAI-compatible endpoint for tests: `POST /chat/completions` over `Deno.serve` on
 * 127.0.0.1, speaking the real SSE wire format (`data: {chat.completion.chunk}` lines, then
 * `data: [DONE]`). Replies are queued per request. Not published.
 *
 * @module
 */

/** A tool call to stream. */
export interface FakeToolCall {
  readonly id: string;
  readonly name: string;
  /** Raw arguments text (may be malformed on purpose). */
  readonly arguments: string;
}

/** What the server answers to one request. */
export type FakeReply =
  /** SSE lines: each object becomes `data: <json>`, each string is sent verbatim as `data: …`. */
  | {
    readonly kind: "stream";
    readonly events: readonly (object | string)[];
    readonly done?: boolean;
  }
  /** A JSON error with this status. */
  | { readonly kind: "status"; readonly status: number; readonly body?: object }
  /** Headers and `events`, then silence until the client gives up. */
  | { readonly kind: "stall"; readonly events?: readonly object[] }
  /** No response at all until the client gives up. */
  | { readonly kind: "stall-headers" }
  /** Nothing until `until` settles, then `events` as a `stream` reply (a model call the test holds). */
  | {
    readonly kind: "gate";
    readonly until: Promise<void>;
    readonly events: readonly (object | string)[];
  };

/** One received request. */
export interface FakeRequest {
  /** The `Authorization` header. */
  readonly authorization: string | null;
  /** The parsed JSON body. */
  readonly body: Record<string, unknown>;
}

function chunk(delta: object, finish: string | null = null): object {
  return {
    id: "chatcmpl-fake",
    object: "chat.completion.chunk",
    created: 1767225600,
    model: "fake-model",
    choices: [{ index: 0, delta, finish_reason: finish }],
  };
}

/**
 * SSE events for a text reply split into `pieces` deltas.
 */
export function textEvents(text: string, pieces = 3): object[] {
  const size = Math.max(1, Math.ceil(text.length / pieces));
  const out: object[] = [chunk({ role: "assistant", content: "" })];
  for (let i = 0; i < text.length; i += size) out.push(chunk({ content: text.slice(i, i + size) }));
  out.push(chunk({}, "stop"));
  return out;
}

/**
 * SSE events for parallel tool calls: each call's id and name come first, then its arguments
 * in `pieces` fragments, interleaved round-robin across calls (as real endpoints may do).
 */
export function toolCallEvents(calls: readonly FakeToolCall[], pieces = 3, text = ""): object[] {
  const out: object[] = [chunk({ role: "assistant", content: text === "" ? null : text })];
  calls.forEach((c, index) => {
    out.push(chunk({
      tool_calls: [{
        index,
        id: c.id,
        type: "function",
        function: { name: c.name, arguments: "" },
      }],
    }));
  });
  const fragments = calls.map((c) => {
    const size = Math.max(1, Math.ceil(c.arguments.length / pieces));
    const parts: string[] = [];
    for (let i = 0; i < c.arguments.length; i += size) parts.push(c.arguments.slice(i, i + size));
    return parts;
  });
  for (let round = 0; fragments.some((f) => f.length > round); round++) {
    fragments.forEach((parts, index) => {
      const part = parts[round];
      if (part !== undefined) {
        out.push(chunk({ tool_calls: [{ index, function: { arguments: part } }] }));
      }
    });
  }
  out.push(chunk({}, "tool_calls"));
  return out;
}

/** The fake endpoint. `await using server = new FakeOpenAIServer()`. */
export class FakeOpenAIServer implements AsyncDisposable {
  /** Requests in arrival order. */
  readonly requests: FakeRequest[] = [];
  readonly #replies: FakeReply[] = [];
  readonly #server: Deno.HttpServer<Deno.NetAddr>;
  readonly #open = new Set<() => void>();

  constructor() {
    this.#server = Deno.serve(
      { hostname: "127.0.0.1", port: 0, onListen: () => {} },
      (request) => this.#handle(request),
    );
  }

  /** Base URL for the adapter, e.g. `http://127.0.0.1:4711/v1`. */
  get baseURL(): string {
    return `http://127.0.0.1:${this.#server.addr.port}/v1`;
  }

  /** Queues replies for the next requests. */
  reply(...replies: FakeReply[]): void {
    this.#replies.push(...replies);
  }

  async #handle(request: Request): Promise<Response> {
    const url = new URL(request.url);
    if (request.method !== "POST" || url.pathname !== "/v1/chat/completions") {
      return Response.json({ error: { message: "not found" } }, { status: 404 });
    }
    this.requests.push({
      authorization: request.headers.get("authorization"),
      body: await request.json(),
    });
    let reply: FakeReply = this.#replies.shift() ??
      { kind: "status", status: 500, body: { error: { message: "no reply queued" } } };
    if (reply.kind === "gate") {
      await reply.until;
      reply = { kind: "stream", events: reply.events };
    }
    const headers = { "content-type": "text/event-stream", "cache-control": "no-cache" };
    switch (reply.kind) {
      case "status":
        return Response.json(reply.body ?? { error: { message: `status ${reply.status}` } }, {
          status: reply.status,
        });
      case "stall-headers": {
        const { promise, resolve } = Promise.withResolvers<void>();
        this.#open.add(resolve);
        await promise;
        this.#open.delete(resolve);
        return new Response(null, { status: 504 });
      }
      case "stall": {
        const encoder = new TextEncoder();
        let close = () => {};
        const body = new ReadableStream<Uint8Array>({
          start: (controller) => {
            for (const e of reply.events ?? []) {
              controller.enqueue(encoder.encode(`data: ${JSON.stringify(e)}\n\n`));
            }
            close = () => {
              try {
                controller.close();
              } catch { /* already closed by the client */ }
            };
            this.#open.add(close);
          },
          cancel: () => {
            this.#open.delete(close);
          },
        });
        return new Response(body, { headers });
      }
      case "stream": {
        const lines = reply.events.map((e) =>
          `data: ${typeof e === "string" ? e : JSON.stringify(e)}\n\n`
        );
        if (reply.done ?? true) lines.push("data: [DONE]\n\n");
        const encoder = new TextEncoder();
        const body = new ReadableStream<Uint8Array>({
          pull(controller) {
            const line = lines.shift();
            if (line === undefined) controller.close();
            else controller.enqueue(encoder.encode(line));
          },
        });
        return new Response(body, { headers });
      }
    }
  }

  /** Releases stalled responses and shuts the server down. */
  async [Symbol.asyncDispose](): Promise<void> {
    for (const release of [...this.#open]) release();
    this.#open.clear();
    await this.#server.shutdown();
  }
}
