/**
 * OpenTelemetry for the host, through Deno's built-in exporter (`OTEL_DENO=true`,
 * docs/operations.md). Everything here speaks `@opentelemetry/api`; Deno registers its own
 * tracer and meter providers behind it, so without `OTEL_DENO` every call is a no-op and
 * nothing is sent. No SDK, no exporter of our own.
 *
 * What the host records (plugins record their own through the same API):
 *
 * - the HTTP server span Deno opens for each request is renamed to its route template
 *   (`POST /api/sessions/:id/messages`, never an id) with `http.route`;
 * - `agent.turn` spans from `turn/start` to `turn/end` (outcome), `tool <name>` spans from
 *   `tool/call` to `tool/result` (`chime.tool.code`: `ok` or the result's error code) and
 *   `chat <model>` spans around each model call (`gen_ai.request.model`, estimated
 *   `gen_ai.usage.input_tokens` / `output_tokens`, `chime.model.outcome`);
 * - metrics `chime.sessions.live`, `chime.commit.duration`, `chime.events.acknowledged`,
 *   `chime.lease.renewals`, `chime.lease.losses`.
 *
 * No prompt, message or reply text and no token reaches a span unless
 * {@linkcode TelemetryOptions.content} is on (`CHIME_OTEL_CONTENT=true`).
 *
 * @module
 */
import { context, metrics, type Span, SpanStatusCode, trace } from "@opentelemetry/api";
import { withContext } from "@logtape/logtape";
import type { MiddlewareHandler } from "hono";
import { routePath } from "hono/route";
import {
  estimateMessageTokens,
  estimateTextTokens,
  estimateToolTokens,
  type ModelAdapter,
  type ModelReply,
  type ModelRequest,
} from "@chime/agent";
import type { Session, SessionEvent, SessionStore } from "@chime/session";

/** The instrumentation scope name of the host's tracer and meter. */
export const TELEMETRY_SCOPE = "chime";

const tracer = trace.getTracer(TELEMETRY_SCOPE);
const meter = metrics.getMeter(TELEMETRY_SCOPE);
const leaseRenewals = meter.createCounter("chime.lease.renewals", {
  description: "Session leases renewed by this host (shared storage).",
  unit: "{renewal}",
});
const leaseLosses = meter.createCounter("chime.lease.losses", {
  description: "Session leases this host lost to another host or to expiry.",
  unit: "{loss}",
});
const acknowledged = meter.createCounter("chime.events.acknowledged", {
  description: "Events newly covered by session/flushed (durable and acknowledged).",
  unit: "{event}",
});
const commitDuration = meter.createHistogram("chime.commit.duration", {
  description: "From the first append not yet durable to the session/flushed that covers it.",
  unit: "ms",
});

/** Options of the host's instrumentation. */
export interface TelemetryOptions {
  /**
   * Record content: the last user message and the reply text on model spans
   * (`gen_ai.prompt`, `gen_ai.completion`). Off unless `CHIME_OTEL_CONTENT=true`.
   * @default false
   */
  readonly content?: boolean;
}

/**
 * Reads {@linkcode TelemetryOptions.content} from the environment.
 *
 * @param env the environment (`CHIME_OTEL_CONTENT`: `true` or `1` turns content on)
 * @returns the options
 *
 * @example
 * ```ts
 * import { telemetryOptions } from "@chime/host";
 * console.assert(telemetryOptions({}).content === false);
 * console.assert(telemetryOptions({ CHIME_OTEL_CONTENT: "true" }).content === true);
 * ```
 */
export function telemetryOptions(env: Readonly<Record<string, string>>): TelemetryOptions {
  const value = env.CHIME_OTEL_CONTENT?.trim().toLowerCase();
  return { content: value === "true" || value === "1" };
}

/**
 * Counts one lease event on `chime.lease.renewals` or `chime.lease.losses`.
 *
 * @param kind `renewed` or `lost`
 */
export function countLease(kind: "renewed" | "lost"): void {
  (kind === "renewed" ? leaseRenewals : leaseLosses).add(1);
}

/** The session id in a path below `/api/sessions/`, if any. */
function sessionIdOf(path: string): string | undefined {
  return /^\/api\/sessions\/([^/]+)/.exec(path)?.[1];
}

/**
 * Hono middleware naming the request's server span (Deno's, under `OTEL_DENO`) by its route
 * template, `GET /api/sessions/:id`, with `http.route` and `chime.session.id`. A request no
 * route matched is named by its method alone. Deno records `url.full` and `url.query` itself
 * and an attribute set here cannot replace them (docs/operations.md "What is never sent"). Log lines written while a
 * request below `/api/sessions/:id` runs carry that `sessionId` (logtape's implicit context).
 *
 * @returns the middleware (mount it first)
 */
export function traceRequests(): MiddlewareHandler {
  return async (c, next) => {
    const id = sessionIdOf(c.req.path);
    // Every log line of the request names its session (host/log.ts `configureLogging`).
    await (id === undefined ? next() : withContext({ sessionId: id }, next));
    const span = trace.getActiveSpan();
    if (span === undefined || !span.isRecording()) return;
    const route = routePath(c);
    const named = route !== "" && route !== "*" && !route.endsWith("/*");
    span.updateName(named ? `${c.req.method} ${route}` : c.req.method);
    if (named) span.setAttribute("http.route", route);
    if (id !== undefined) span.setAttribute("chime.session.id", id);
  };
}

function errorCode(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === "string" ? code : "error";
}

function outputTokens(reply: ModelReply): number {
  let tokens = estimateTextTokens(reply.text);
  for (const call of reply.toolCalls) tokens += estimateTextTokens(call.name + call.arguments);
  return tokens;
}

/** One live session's open spans and commit state. */
interface Tracked {
  readonly session: Session;
  readonly turns: Map<string, Span>;
  readonly tools: Map<string, Span>;
  /** The turn whose model calls are running (the latest started). */
  current: Span | undefined;
  /** `performance.now()` of the first append not yet covered by session/flushed. */
  pendingSince: number | undefined;
  /** The durable bound last seen. */
  durable: number;
  readonly subscription: Disposable;
}

/**
 * The host's instrumentation of a store: turn and tool spans from each live session's appends,
 * model spans through {@linkcode HostTelemetry.model}, commit latency and acknowledged events
 * from `session/flushed`, and the `chime.sessions.live` gauge. Dispose it to stop (open spans
 * end as they are). `HostRuntime` makes one; without `OTEL_DENO` it records nothing.
 *
 * @example Instrument a store and the model of one of its sessions
 * ```ts
 * import { HostTelemetry } from "@chime/host";
 * import { ScriptedModel } from "@chime/agent";
 * import { SessionStore } from "@chime/session";
 * import { MemoryBackend } from "@chime/session/testing";
 * await using store = new SessionStore({ backend: new MemoryBackend() });
 * using telemetry = new HostTelemetry(store, { content: false });
 * const session = await store.create({ cwd: "/tmp", timeZone: "UTC" });
 * const model = telemetry.model(new ScriptedModel(() => ({ text: "hi" })), session);
 * const reply = await model.complete({
 *   messages: [{ role: "user", content: "hello" }],
 *   tools: [],
 *   signal: new AbortController().signal,
 *   context: { now: 0 },
 * });
 * console.assert(reply.text === "hi");
 * ```
 */
export class HostTelemetry implements Disposable {
  readonly #sessions = new Map<Session, Tracked>();
  readonly #content: boolean;
  readonly #live: Disposable;
  readonly #flushed: Disposable;
  readonly #gauge = meter.createObservableGauge("chime.sessions.live", {
    description: "Sessions live (open) in this host.",
    unit: "{session}",
  });
  readonly #observe = (result: { observe(value: number): void }) => {
    for (const [session, tracked] of this.#sessions) {
      if (session.closed) this.#forget(tracked);
    }
    result.observe(this.#sessions.size);
  };

  /**
   * Starts instrumenting a store.
   *
   * @param store the host's store (its `onLive` and `onFlushed`)
   * @param options whether content is recorded
   */
  constructor(
    store: Pick<SessionStore, "onLive" | "onFlushed">,
    options: TelemetryOptions = {},
  ) {
    this.#content = options.content ?? false;
    this.#gauge.addCallback(this.#observe);
    // Exported as zero from the start: an alert on losses needs the series to exist.
    leaseRenewals.add(0);
    leaseLosses.add(0);
    this.#live = store.onLive((session) => this.#track(session));
    this.#flushed = store.onFlushed((session, through) => this.#covered(session, through));
  }

  #track(session: Session): void {
    if (this.#sessions.has(session)) return;
    const tracked: Tracked = {
      session,
      turns: new Map(),
      tools: new Map(),
      current: undefined,
      pendingSince: undefined,
      durable: session.length,
      subscription: session.subscribe((event) => this.#appended(tracked, event)),
    };
    this.#sessions.set(session, tracked);
  }

  #forget(tracked: Tracked): void {
    tracked.subscription[Symbol.dispose]();
    for (const span of [...tracked.tools.values(), ...tracked.turns.values()]) span.end();
    this.#sessions.delete(tracked.session);
  }

  #appended(tracked: Tracked, event: SessionEvent): void {
    tracked.pendingSince ??= performance.now();
    const data = (event.data ?? {}) as Record<string, unknown>;
    const turnId = String(data.turnId ?? "");
    const sessionId = tracked.session.id;
    switch (event.type) {
      case "turn/start": {
        const span = tracer.startSpan("agent.turn", {
          attributes: { "chime.session.id": sessionId, "chime.turn.id": turnId },
        });
        tracked.turns.set(turnId, span);
        tracked.current = span;
        return;
      }
      case "turn/end": {
        const span = tracked.turns.get(turnId);
        if (span === undefined) return;
        const outcome = String(data.outcome ?? "");
        span.setAttribute("chime.turn.outcome", outcome);
        if (outcome === "error") {
          span.setStatus({ code: SpanStatusCode.ERROR, message: String(data.error ?? "error") });
        }
        span.end();
        tracked.turns.delete(turnId);
        if (tracked.current === span) tracked.current = undefined;
        return;
      }
      case "followup": {
        // A follow-up is admitted into the running turn (its data names no turn).
        (tracked.turns.get(turnId) ?? tracked.current)?.addEvent("followup", {
          "chime.seq": event.seq,
        });
        return;
      }
      case "tool/call": {
        const parent = tracked.turns.get(turnId);
        const name = String(data.name ?? "");
        const span = tracer.startSpan(`tool ${name}`, {
          attributes: {
            "chime.session.id": sessionId,
            "gen_ai.tool.name": name,
            "gen_ai.tool.call.id": String(data.callId ?? ""),
          },
        }, parent === undefined ? undefined : trace.setSpan(context.active(), parent));
        tracked.tools.set(String(data.callId ?? ""), span);
        return;
      }
      case "tool/result": {
        const key = String(data.callId ?? "");
        const span = tracked.tools.get(key);
        if (span === undefined) return;
        const result = data.result as { ok?: unknown; error?: { code?: unknown } } | undefined;
        const failed = result?.ok === false;
        const code = failed ? String(result?.error?.code ?? "error") : "ok";
        span.setAttribute("chime.tool.code", code);
        if (failed) span.setStatus({ code: SpanStatusCode.ERROR, message: code });
        span.end();
        tracked.tools.delete(key);
        return;
      }
    }
  }

  #covered(session: Session, through: number): void {
    const tracked = this.#sessions.get(session);
    if (tracked === undefined || through <= tracked.durable) return;
    acknowledged.add(through - tracked.durable);
    tracked.durable = through;
    const now = performance.now();
    if (tracked.pendingSince !== undefined) commitDuration.record(now - tracked.pendingSince);
    tracked.pendingSince = session.length > through ? now : undefined;
  }

  /**
   * A model adapter whose calls are `chat <model>` spans, children of the session's running
   * turn: `gen_ai.request.model`, `gen_ai.usage.input_tokens` and `output_tokens` (estimated
   * as the agent's budget does, `chime.tokens.estimated: true`) and `chime.model.outcome`
   * (`ok` or the `ModelError` code).
   *
   * @param model the adapter to wrap
   * @param session the live session whose agent calls it
   * @returns the wrapped adapter (same name and budget)
   */
  model(model: ModelAdapter, session: Session): ModelAdapter {
    const content = this.#content;
    const sessions = this.#sessions;
    const complete = async (request: ModelRequest): Promise<ModelReply> => {
      const parent = sessions.get(session)?.current;
      const base = parent === undefined
        ? context.active()
        : trace.setSpan(context.active(), parent);
      let input = estimateToolTokens(request.tools);
      for (const message of request.messages) input += estimateMessageTokens(message);
      const span = tracer.startSpan(`chat ${model.name}`, {
        attributes: {
          "chime.session.id": session.id,
          "gen_ai.operation.name": "chat",
          "gen_ai.request.model": model.name,
          "gen_ai.usage.input_tokens": input,
          "chime.tokens.estimated": true,
        },
      }, base);
      if (content) {
        const last = request.messages.findLast((m) => m.role === "user");
        if (last !== undefined) span.setAttribute("gen_ai.prompt", last.content);
      }
      try {
        const reply = await context.with(
          trace.setSpan(base, span),
          () => model.complete(request),
        );
        span.setAttribute("gen_ai.usage.output_tokens", outputTokens(reply));
        span.setAttribute("chime.model.outcome", "ok");
        if (content) span.setAttribute("gen_ai.completion", reply.text);
        return reply;
      } catch (error) {
        const code = errorCode(error);
        span.setAttribute("chime.model.outcome", code);
        span.setStatus({ code: SpanStatusCode.ERROR, message: code });
        throw error;
      } finally {
        span.end();
      }
    };
    return {
      name: model.name,
      ...(model.contextTokens === undefined ? {} : { contextTokens: model.contextTokens }),
      complete,
    };
  }

  /** Stops observing; open spans end now. */
  [Symbol.dispose](): void {
    this.#live[Symbol.dispose]();
    this.#flushed[Symbol.dispose]();
    this.#gauge.removeCallback(this.#observe);
    for (const tracked of [...this.#sessions.values()]) this.#forget(tracked);
  }
}
