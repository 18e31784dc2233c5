/**
 * {@linkcode createApp}: the Hono app of the host: sub-apps mounted with `app.route()`, one
 * `onError` mapping error codes to statuses, JSON errors `{ error: { code, message, … } }`
 * (docs/errors.md#http).
 *
 * @module
 */
import { Hono } from "hono";
import { HTTPException } from "hono/http-exception";
import { jsonBodies } from "./_body.ts";
import { noTokenAuth, tokenAuth } from "../auth/auth.ts";
import type { SignIns } from "../auth/sign_ins.ts";
import { leaseRouting } from "../leases/leases.ts";
import { messageRoutes } from "../sessions/routes_messages.ts";
import {
  clientConfig,
  linkPaths,
  pluginApiRoutes,
  pluginRoutes,
  webHost,
} from "../plugins/plugin_routes.ts";
import type { HostRuntime } from "../sessions/runtime.ts";
import { sessionRoutes } from "../sessions/routes_sessions.ts";
import { hostGuard, originGuard, type OriginOptions, securityHeaders } from "./security.ts";
import type { StreamOptions } from "../feed/sse.ts";
import { requestLog } from "../log.ts";
import { traceRequests } from "../telemetry.ts";
import { alertRoutes } from "../feed/alerts.ts";
import { readyRoute } from "./_ready.ts";

/** One static file served by the host (the embedded UI island). */
export interface StaticAsset {
  /** The file content. */
  readonly body: string;
  /** Its `Content-Type`. */
  readonly contentType: string;
  /** Further headers, e.g. `Service-Worker-Allowed: /` for a renderer's worker. @default none */
  readonly headers?: Readonly<Record<string, string>>;
}

/** The HTTP surface of the host app (a Hono app). */
export interface HostApp {
  /**
   * Answers one request (pass to `Deno.serve`).
   *
   * @param request the request
   * @returns the response
   */
  fetch(request: Request): Response | Promise<Response>;
  /**
   * Answers a request without a network, for tests.
   *
   * @param input a path such as `/healthz`, a URL or a request
   * @param init request options
   * @returns the response
   */
  request(input: string | URL | Request, init?: RequestInit): Response | Promise<Response>;
}

/**
 * The default request body limit, bytes: 256 KiB, so the longest message (`MAX_TEXT`, 32,768
 * UTF-16 code units) always fits, in any script and however its JSON is written: 3 bytes a unit
 * in UTF-8 (Chinese), at most 6 when escaped (`\u0001`), plus the other fields (README "HTTP API").
 */
const DEFAULT_BODY_LIMIT = 256 * 1024;

/** Options of {@linkcode createApp}. */
export interface AppOptions extends StreamOptions, OriginOptions {
  /** Largest accepted request body, bytes. @default 262144 (256 KiB: the longest message always fits) */
  readonly bodyLimitBytes?: number;
  /** A request body must arrive whole within this time, ms (else `408`). @default 30000 */
  readonly bodyTimeoutMs?: number;
  /**
   * The access token every client must present (README "Security"); `startServer` requires
   * one for a non-loopback bind. @default none (no token asked)
   */
  readonly token?: string;
  /** Name of the sign-in cookie (cookies ignore ports: one name per port). @default "chime_auth" */
  readonly cookieName?: string;
  /**
   * The browser sign-ins, opened with the same {@linkcode AppOptions.token} (`startServer`
   * keeps them in the data directory). @default in memory: they end with the process
   */
  readonly signIns?: SignIns;
  /** Static files by URL path (`/`, `/app.js`, `/style.css`). @default none */
  readonly assets?: Readonly<Record<string, StaticAsset>>;
  /** Where unexpected errors go. @default globalThis.reportError */
  readonly reportError?: (error: unknown) => void;
}

/** HTTP status of every error code the host answers with. */
export const STATUS_BY_CODE: Readonly<
  Record<string, 400 | 401 | 403 | 404 | 408 | 409 | 413 | 415 | 429 | 500 | 503>
> = {
  invalid_json: 400,
  body_incomplete: 400,
  unauthorized: 401,
  // Wrong tokens are throttled (host/auth/auth.ts); `details.retryAfterSeconds`, and `Retry-After`.
  too_many_attempts: 429,
  // Sign out of a request without a sign-in cookie; a sign-ins file that cannot be written
  // (host/auth/sign_ins.ts).
  not_signed_in: 409,
  sign_ins_unwritable: 503,
  forbidden_origin: 403,
  forbidden_host: 403,
  body_timeout: 408,
  unsupported_media_type: 415,
  invalid_request: 400,
  invalid_arguments: 400,
  invalid_query: 400,
  invalid_time_zone: 400,
  invalid_session_id: 400,
  invalid_seq: 400,
  not_found: 404,
  // An acknowledge of a tag no loaded plugin names in that session (host/feed/alerts.ts).
  tag_not_found: 404,
  // A body field a route does not take, `details.field` (`PATCH /api/sessions/:id`).
  unknown_field: 400,
  session_not_found: 404,
  message_not_found: 404,
  payload_too_large: 413,
  time_zone_conflict: 409,
  session_exists: 409,
  session_closed: 409,
  no_running_turn: 409,
  // The same Idempotency-Key with another message (host/sessions/_idempotency.ts).
  idempotency_key_reused: 409,
  session_cold: 409,
  // Another host holds the session's lease; `{ url }` names it (docs/deploy.md).
  session_owned_elsewhere: 409,
  // The storage fence refused an append (lease lost); `leaseRouting` answers it with the URL.
  lease_lost: 409,
  busy: 409,
  disposed: 503,
  shutting_down: 503,
  persistence_failed: 503,
  // The database or its -wal vanished under the host: nothing more is acknowledged
  // (session/libsql/_identity.ts); /readyz says so too.
  storage_lost: 503,
  // Damaged storage for one session: the code and `{ sessionId, seq }`, never a stack.
  storage_corrupt: 500,
};

/** Body failures after which the rest of the request body may still be in flight. */
const UNREAD_BODY: ReadonlySet<string> = new Set([
  "body_timeout",
  "body_incomplete",
  "payload_too_large",
]);

function codeOf(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return error instanceof Error && typeof code === "string" && code in STATUS_BY_CODE
    ? code
    : undefined;
}

/**
 * Builds the host app for a runtime.
 *
 * @param runtime the host runtime
 * @param options body limit, assets, heartbeat
 * @returns the Hono app; serve it with `Deno.serve(app.fetch)` or test it with `app.request()`
 *
 * @example Health check without a network
 * ```ts ignore
 * import { createApp } from "@chime/host";
 * const app = createApp(runtime);
 * const response = await app.request("/healthz");
 * console.assert((await response.json()).ok === true);
 * ```
 */
export function createApp(runtime: HostRuntime, options: AppOptions = {}): HostApp {
  const report = options.reportError ?? ((e: unknown) => globalThis.reportError(e));
  const app = new Hono();
  const timeoutMs = options.bodyTimeoutMs ?? 30_000;
  // Order matters: headers wrap every answer; names and origins are checked before the token,
  // and the token before any body is read.
  app.use("*", traceRequests());
  app.use("*", requestLog());
  app.use("*", securityHeaders());
  app.use("*", hostGuard(options));
  app.use("*", originGuard(options));
  if (options.token !== undefined) {
    app.use(
      "*",
      tokenAuth({
        token: options.token,
        bodyTimeoutMs: timeoutMs,
        linkPath: linkPaths(runtime),
        ...(options.cookieName === undefined ? {} : { cookieName: options.cookieName }),
        ...(options.signIns === undefined ? {} : { signIns: options.signIns }),
      }),
    );
  } else {
    app.use("/api/auth/*", noTokenAuth());
    app.use("/api/auth", noTokenAuth());
  }
  const maxBytes = options.bodyLimitBytes ?? DEFAULT_BODY_LIMIT;
  app.use("/api/*", jsonBodies({ maxBytes, timeoutMs }));
  app.get("/healthz", (c) => c.json({ ok: true }));
  app.get("/readyz", readyRoute(runtime));
  app.get("/api/client-config", (c) => c.json(clientConfig(runtime)));
  app.use("/api/sessions/:id/*", leaseRouting(runtime));
  // The pages' alert stream and the acknowledgement (README "The page", docs/push.md).
  // A deleted session acknowledges nothing (README.md "The page": every route of it is gone).
  const present = async (id: string) => await runtime.exists(id) && !await runtime.isDeleted(id);
  const host = webHost(runtime);
  const ownsTag = async (id: string, tag: string) => {
    for (const plugin of runtime.plugins) {
      const owns = plugin.web?.ownsTag;
      if (owns !== undefined && await owns.call(plugin.web, host, id, tag)) return true;
    }
    return false;
  };
  app.route("/api", alertRoutes(runtime.alerts, present, ownsTag, options));
  app.route("/api/sessions", sessionRoutes(runtime, options));
  app.route("/api/sessions", messageRoutes(runtime));
  // Whatever the loaded plugins contribute (docs/architecture.md "Plugins").
  app.route("/api/sessions", pluginRoutes(runtime));
  app.route("/api", pluginApiRoutes(runtime));
  for (const [path, asset] of Object.entries(options.assets ?? {})) {
    app.get(path, (c) => {
      c.header("Content-Type", asset.contentType);
      c.header("Cache-Control", "no-cache");
      for (const [name, value] of Object.entries(asset.headers ?? {})) c.header(name, value);
      return c.body(asset.body);
    });
  }
  app.notFound((c) =>
    c.json(
      { error: { code: "not_found", message: `Cannot route: ${c.req.method} ${c.req.path}` } },
      404,
    )
  );
  app.onError((error, c) => {
    const code = codeOf(error);
    if (code !== undefined) {
      const details = (error as { details?: Record<string, unknown> }).details ?? {};
      // A body that was not read to its end leaves the connection's framing unknown: close it
      // rather than read the rest of that body as the next request.
      if (UNREAD_BODY.has(code)) c.header("Connection", "close");
      if (typeof details.retryAfterSeconds === "number") {
        c.header("Retry-After", String(details.retryAfterSeconds));
      }
      return c.json({ error: { ...details, code, message: error.message } }, STATUS_BY_CODE[code]);
    }
    if (error instanceof HTTPException && error.status < 500) {
      return c.json({ error: { code: "invalid_request", message: error.message } }, error.status);
    }
    report(error);
    return c.json(
      { error: { code: "internal_error", message: "Cannot answer: internal error" } },
      500,
    );
  });
  return app;
}
