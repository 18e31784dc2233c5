/**
 * A local OTLP/HTTP receiver for tests: a real `Deno.serve` on 127.0.0.1 taking what Deno's
 * built-in exporter sends with `OTEL_EXPORTER_OTLP_PROTOCOL=http/json` (`POST /v1/traces`,
 * `/v1/metrics`, `/v1/logs`, the OTLP JSON encoding), keeping every body, and reading spans,
 * metrics and log records back out of them.
 *
 * @module
 */

/** An OTLP `AnyValue` in its JSON encoding. */
type AnyValue = Record<string, unknown>;

/** OTLP JSON attributes as a plain record. */
export function attributesOf(
  list: readonly { key: string; value: AnyValue }[] | undefined,
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const { key, value } of list ?? []) out[key] = valueOf(value);
  return out;
}

function valueOf(value: AnyValue): unknown {
  if ("stringValue" in value) return value.stringValue;
  if ("boolValue" in value) return value.boolValue;
  if ("intValue" in value) return Number(value.intValue);
  if ("doubleValue" in value) return value.doubleValue;
  if ("arrayValue" in value) {
    return ((value.arrayValue as { values?: AnyValue[] }).values ?? []).map(valueOf);
  }
  return undefined;
}

/** A received span. */
export interface ReceivedSpan {
  readonly scope: string;
  readonly name: string;
  readonly traceId: string;
  readonly spanId: string;
  readonly parentSpanId: string;
  readonly startMs: number;
  readonly endMs: number;
  readonly attributes: Record<string, unknown>;
  readonly events: readonly { name: string; timeMs: number }[];
  readonly status: { code?: number; message?: string };
}

/** A received metric: its name, unit and raw data points (JSON). */
export interface ReceivedMetric {
  readonly scope: string;
  readonly name: string;
  readonly unit: string;
  readonly kind: "histogram" | "sum" | "gauge";
  readonly points: readonly Record<string, unknown>[];
}

/** A received log record. */
export interface ReceivedLog {
  readonly body: string;
  readonly traceId: string;
  readonly severity: string;
}

/** OTLP nanoseconds to epoch ms, rounded to the nearest ms. */
const nanosToMs = (value: unknown) =>
  Math.round(Number(BigInt(String(value ?? "0")) / 1_000n) / 1_000);

/** The receiver. Dispose it to stop. */
export class OtlpReceiver implements AsyncDisposable {
  /** Every body received, by path, in arrival order. */
  readonly bodies: { readonly path: string; readonly text: string }[] = [];
  readonly #server: Deno.HttpServer<Deno.NetAddr>;
  #waiters: (() => void)[] = [];

  constructor() {
    this.#server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, async (r) => {
      this.bodies.push({ path: new URL(r.url).pathname, text: await r.text() });
      for (const wake of this.#waiters.splice(0)) wake();
      return Response.json({});
    });
  }

  /** The base URL for `OTEL_EXPORTER_OTLP_ENDPOINT`. */
  get url(): string {
    return `http://127.0.0.1:${this.#server.addr.port}`;
  }

  /** Everything received, as one text (privacy checks). */
  text(): string {
    return this.bodies.map((b) => b.text).join("\n");
  }

  #json(path: string): Record<string, unknown>[] {
    return this.bodies.filter((b) => b.path === path).map((b) => JSON.parse(b.text));
  }

  /** Every span received. */
  spans(): ReceivedSpan[] {
    const out: ReceivedSpan[] = [];
    for (const body of this.#json("/v1/traces")) {
      for (const rs of (body.resourceSpans ?? []) as Record<string, unknown>[]) {
        for (const ss of (rs.scopeSpans ?? []) as Record<string, unknown>[]) {
          const scope = String((ss.scope as { name?: string } | undefined)?.name ?? "");
          for (const s of (ss.spans ?? []) as Record<string, unknown>[]) {
            out.push({
              scope,
              name: String(s.name),
              traceId: String(s.traceId ?? ""),
              spanId: String(s.spanId ?? ""),
              parentSpanId: String(s.parentSpanId ?? ""),
              startMs: nanosToMs(s.startTimeUnixNano),
              endMs: nanosToMs(s.endTimeUnixNano),
              attributes: attributesOf(s.attributes as never),
              events: ((s.events ?? []) as Record<string, unknown>[]).map((e) => ({
                name: String(e.name),
                timeMs: nanosToMs(e.timeUnixNano),
              })),
              status: (s.status ?? {}) as { code?: number; message?: string },
            });
          }
        }
      }
    }
    return out;
  }

  /** Every metric received (one entry per export of it). */
  metrics(): ReceivedMetric[] {
    const out: ReceivedMetric[] = [];
    for (const body of this.#json("/v1/metrics")) {
      for (const rm of (body.resourceMetrics ?? []) as Record<string, unknown>[]) {
        for (const sm of (rm.scopeMetrics ?? []) as Record<string, unknown>[]) {
          const scope = String((sm.scope as { name?: string } | undefined)?.name ?? "");
          for (const m of (sm.metrics ?? []) as Record<string, unknown>[]) {
            const kind = "histogram" in m ? "histogram" : "sum" in m ? "sum" : "gauge";
            const data = m[kind] as { dataPoints?: Record<string, unknown>[] } | undefined;
            out.push({
              scope,
              name: String(m.name),
              unit: String(m.unit ?? ""),
              kind,
              points: data?.dataPoints ?? [],
            });
          }
        }
      }
    }
    return out;
  }

  /** Every log record received. */
  logs(): ReceivedLog[] {
    const out: ReceivedLog[] = [];
    for (const body of this.#json("/v1/logs")) {
      for (const rl of (body.resourceLogs ?? []) as Record<string, unknown>[]) {
        for (const sl of (rl.scopeLogs ?? []) as Record<string, unknown>[]) {
          for (const r of (sl.logRecords ?? []) as Record<string, unknown>[]) {
            out.push({
              body: String(valueOf((r.body ?? {}) as AnyValue) ?? ""),
              traceId: String(r.traceId ?? ""),
              severity: String(r.severityText ?? ""),
            });
          }
        }
      }
    }
    return out;
  }

  /**
   * Waits until `done` holds for what was received.
   *
   * @param done the condition
   * @param what named in the error
   * @param deadlineMs how long to wait at most
   */
  async waitFor(done: () => boolean, what: string, deadlineMs = 30_000): Promise<void> {
    const deadline = Date.now() + deadlineMs;
    while (!done()) {
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`no ${what} within ${deadlineMs} ms`);
      let timer: ReturnType<typeof setTimeout> | undefined;
      await new Promise<void>((resolve) => {
        this.#waiters.push(resolve);
        timer = setTimeout(resolve, Math.min(left, 1000));
      });
      clearTimeout(timer);
    }
  }

  async [Symbol.asyncDispose](): Promise<void> {
    for (const wake of this.#waiters.splice(0)) wake();
    await this.#server.shutdown();
  }
}
