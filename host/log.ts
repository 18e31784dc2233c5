/**
 * Structured logging with `@logtape/logtape`. Library code only ever asks for a logger under the
 * `chime` category; nothing is printed until the application configures a sink (the host's
 * `main.ts` does, with {@linkcode configureLogging}). What is logged: each HTTP request (method,
 * path without its query, status, duration; never bodies or tokens), session lifecycle (live,
 * resumed, forked), plugin faults (the schedule owner's under `chime.schedule`) and failures
 * with no caller (storage errors among them).
 *
 * Categories: `chime.http`, `chime.session`, `chime.<plugin>` (e.g. `chime.schedule`),
 * `chime.host`.
 *
 * @module
 */
import { AsyncLocalStorage } from "node:async_hooks";
import { trace } from "@opentelemetry/api";
import {
  configure,
  type ConsoleSinkOptions,
  getConsoleSink,
  getLogger,
  getTextFormatter,
  isLogLevel,
  type Logger,
  type LogRecord,
  reset,
} from "@logtape/logtape";
import type { MiddlewareHandler } from "hono";
import type { PersistenceBackend, SessionStore } from "@chime/session";
import { ConfigError } from "./errors.ts";

/** The root category of every chime logger. */
export const LOG_CATEGORY = "chime";

/** A log level, lowest first (logtape's levels). */
export type ChimeLogLevel = "trace" | "debug" | "info" | "warning" | "error" | "fatal";

/** The level the host logs at unless told otherwise. */
export const DEFAULT_LOG_LEVEL: ChimeLogLevel = "info";

/** A logger under the `chime` category, silent until a sink is configured. */
function chimeLogger(name: string): Logger {
  return getLogger([LOG_CATEGORY, name]);
}

/**
 * Reads a log level from a flag or `CHIME_LOG_LEVEL`.
 *
 * @param value `trace`, `debug`, `info`, `warning`, `error` or `fatal` (any case); `warn` is read
 *   as `warning`
 * @returns the level; {@linkcode DEFAULT_LOG_LEVEL} when `value` is undefined or empty
 * @throws {ConfigError} `config_invalid` for any other value
 *
 * @example
 * ```ts
 * import { parseLogLevel } from "@chime/host";
 * console.assert(parseLogLevel("WARN") === "warning");
 * ```
 */
export function parseLogLevel(value: string | undefined): ChimeLogLevel {
  const level = value?.trim().toLowerCase();
  if (level === undefined || level === "") return DEFAULT_LOG_LEVEL;
  const named = level === "warn" ? "warning" : level;
  if (isLogLevel(named)) return named;
  throw new ConfigError(
    "config_invalid",
    `Cannot start: log level "${value}" is not trace, debug, info, warning, error or fatal`,
  );
}

/** Options of {@linkcode configureLogging}. */
export interface LoggingOptions {
  /** Lowest level written. @default "info" */
  readonly level?: ChimeLogLevel;
  /** Where lines go (its `debug`, `info`, `warn` and `error`). @default the global `console` */
  readonly console?: Pick<Console, "debug" | "info" | "warn" | "error">;
}

/** The session a log record is about, from its properties (request context, lifecycle, plugins). */
function sessionOf(record: LogRecord): string | undefined {
  const p = record.properties as Record<string, unknown>;
  const details = p.details as { session?: unknown } | undefined;
  const id = p.sessionId ?? p.session ?? details?.session ??
    (record.category[1] === "session" ? p.id : undefined);
  return typeof id === "string" ? id : undefined;
}

const textLine = getTextFormatter({ value: "bare" });

/**
 * The host's line format: logtape's text line, then `session=<id>` when the record is about a
 * session and `trace_id=<id> span_id=<id>` when a span is active (a request, a turn), so a line
 * read from the console or from the OpenTelemetry logs (Deno exports console output under
 * `OTEL_DENO`, docs/operations.md) leads to its trace.
 *
 * @param record a log record
 * @returns the line, ending in a newline
 */
export function formatLogLine(record: LogRecord): string {
  let line = textLine(record).replace(/\n$/, "");
  const session = sessionOf(record);
  if (session !== undefined) line += ` session=${session}`;
  const span = trace.getActiveSpan()?.spanContext();
  if (span !== undefined && span.traceId !== "00000000000000000000000000000000") {
    line += ` trace_id=${span.traceId} span_id=${span.spanId}`;
  }
  return `${line}\n`;
}

/**
 * Sends the `chime` categories to the console as text lines
 * (`2026-11-30 12:00:00.000 +00:00 [INF] chime·http: GET /api/sessions/:id 200 3ms session=… trace_id=…`,
 * {@linkcode formatLogLine}). Replaces any earlier logtape configuration.
 *
 * @param options the lowest level and the console
 * @returns a handle whose disposal flushes and removes the configuration
 */
export async function configureLogging(options: LoggingOptions = {}): Promise<AsyncDisposable> {
  const sink = getConsoleSink({
    formatter: formatLogLine,
    ...(options.console === undefined
      ? {}
      : { console: options.console as NonNullable<ConsoleSinkOptions["console"]> }),
  });
  await configure({
    reset: true,
    // The request's session reaches every line written while it runs (host/telemetry.ts).
    contextLocalStorage: new AsyncLocalStorage(),
    sinks: { console: sink },
    loggers: [
      { category: LOG_CATEGORY, sinks: ["console"], lowestLevel: options.level ?? "info" },
      { category: ["logtape", "meta"], sinks: ["console"], lowestLevel: "warning" },
    ],
  });
  return { [Symbol.asyncDispose]: () => reset() };
}

/**
 * Hono middleware (used by `createApp`) logging one line per request: method, path (the query is left out: it may
 * carry a sign-in token), status and duration in ms. Every request at info level; a `5xx` at
 * error level with the error's code.
 *
 * @returns the middleware
 */
export function requestLog(): MiddlewareHandler {
  const logger = chimeLogger("http");
  return async (c, next) => {
    const started = performance.now();
    await next();
    const ms = Math.round(performance.now() - started);
    const fields = { method: c.req.method, path: c.req.path, status: c.res.status, ms };
    const message = "{method} {path} {status} {ms}ms";
    if (c.res.status < 500) return logger.info(message, fields);
    const code = (c.error as { code?: unknown } | undefined)?.code;
    logger.error(`${message} {error}`, { ...fields, error: code ?? c.error?.name ?? "" });
  };
}

/** A plugin's logger: contained failures at warning level, faults at error level. */
export interface PluginLogger {
  /**
   * A contained failure (the plugin retries or carries on).
   *
   * @param message what happened
   * @param details structured context
   */
  warn(message: string, details?: unknown): void;
  /**
   * A fault.
   *
   * @param message what happened
   * @param details structured context
   */
  error(message: string, details?: unknown): void;
}

/**
 * A plugin logger writing to `chime.<name>` (the schedule plugin's `logger` option, under
 * `chime.schedule`): contained failures at warning level, faults at error level.
 *
 * @param name the category below `chime`, e.g. `schedule`
 * @returns the logger to pass to the plugin
 */
export function pluginLogger(name: string): PluginLogger {
  const logger = chimeLogger(name);
  return {
    warn: (message, details) => logger.warn("{message}", { message, details }),
    error: (message, details) => logger.error("{message}", { message, details }),
  };
}

/**
 * Logs sessions going live: `created`, `resumed` (read back from storage) or `forked` (with its
 * parent and the last parent seq it copied).
 *
 * @param store the host's store
 * @returns a handle whose disposal stops logging
 */
export function logLifecycle(store: Pick<SessionStore, "onLive">): Disposable {
  const logger = chimeLogger("session");
  return store.onLive((session, durable, cause) => {
    const { id, lineage } = session.header;
    if (cause === "fork" && lineage !== null) {
      logger.info("session {id} forked from {parentId} through seq {throughSeq}", {
        id,
        parentId: lineage.parentId,
        throughSeq: lineage.forkedThroughSeq,
      });
    } else if (cause === "create") {
      logger.info("session {id} created (live)", { id });
    } else {
      logger.info("session {id} resumed (live, {durable} events read back)", { id, durable });
    }
  });
}

/**
 * A `reportError` for failures with no caller (a storage error in a background flush, a throwing
 * listener, a failed agent teardown): logged at error level under `chime.host`; the host keeps
 * serving.
 *
 * @returns the callback
 */
export function logUnexpected(): (error: unknown) => void {
  const logger = chimeLogger("host");
  return (error) => {
    const code = (error as { code?: unknown } | null)?.code;
    logger.error("unexpected error (still serving): {code} {error}", {
      code: typeof code === "string" ? code : "",
      error,
    });
  };
}

/**
 * Logs, once at error level under `chime.host`, that storage was lost under the running host
 * (`storage_lost`: the database or its `-wal` removed or replaced), naming the rescue copy the
 * still-open connection wrote and how to put it back.
 *
 * @param backend the host's backend (one without `onStorageLost` logs nothing)
 * @returns a handle whose disposal stops listening
 */
export function logStorageLoss(backend: Pick<PersistenceBackend, "onStorageLost">): Disposable {
  const logger = chimeLogger("host");
  return backend.onStorageLost?.((loss) => {
    if (loss.rescuedTo !== undefined) {
      logger.error(
        "storage_lost: {message}. Every write the host acknowledged is in {rescuedTo}: stop " +
          "the host, move that file to {path} (remove {path}-wal and {path}-shm) and start it again",
        { ...loss },
      );
    } else {
      logger.error("storage_lost: {message}. No rescue copy could be written: {rescueError}", {
        ...loss,
      });
    }
  }) ?? { [Symbol.dispose]: () => {} };
}
