/**
 * The page's HTTP client for the host's chat API (docs/architecture.md#http).
 *
 * @module
 */
import type { EventSnapshot, HistoryQuery, OlderPage } from "../window_types.ts";
import type { ApiRequest, ClientConfigWire, PanelRequest } from "../client_renderer.ts";
import type { HistoryPage, SessionsPage, WireError, WireHeader } from "../wire.ts";

/** A failed API call: the host's error code (or `network`) and message. */
export class ApiError extends Error {
  /** The host's error code, `network` when the request never got an answer. */
  readonly code: string;
  /** The owner's base URL of a `409 session_owned_elsewhere` (docs/deploy.md). */
  readonly url: string | undefined;
  /** The error's other facts (`limit`, `field`, `retryAfterSeconds`, …), as the host sent them. */
  readonly details: Readonly<Record<string, unknown>>;
  /**
   * @param code the error code
   * @param message the message
   * @param url the owner's base URL, for `session_owned_elsewhere`
   * @param details the error's other facts, e.g. `{ field: "text", limit: 32768 }`
   */
  constructor(
    code: string,
    message: string,
    url?: string,
    details: Readonly<Record<string, unknown>> = {},
  ) {
    super(message);
    this.name = "ApiError";
    this.code = code;
    this.url = url;
    this.details = details;
  }
}

async function call<T>(
  path: string,
  init?: RequestInit,
  extra: Readonly<Record<string, string>> = {},
): Promise<T> {
  let res: Response;
  try {
    res = await fetch(path, {
      ...init,
      headers: { "content-type": "application/json", accept: "application/json", ...extra },
    });
  } catch (err) {
    throw new ApiError("network", err instanceof Error ? err.message : String(err));
  }
  const body = await res.json().catch(() => null) as T | WireError | null;
  if (!res.ok) {
    const { code, message, url, ...details } = (body as WireError | null)?.error ?? {};
    throw new ApiError(code ?? `http_${res.status}`, message ?? res.statusText, url, details);
  }
  return body as T;
}

const base = (id: string) => `/api/sessions/${encodeURIComponent(id)}`;

/**
 * The viewer's IANA zone, sampled per request (provenance is per prompt:
 * docs/design.md#request-provenance).
 */
export function browserTimeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone;
}

/**
 * Lists sessions, newest first, one page at a time (`GET /api/sessions?limit&before`).
 *
 * @param query page size and the `nextBefore` cursor of the previous page
 * @returns the page; `nextBefore` is `null` on the last page (and from hosts without paging)
 */
export async function listSessions(
  query: { readonly limit: number; readonly before?: string | null },
): Promise<SessionsPage> {
  const params = new URLSearchParams({ limit: String(query.limit) });
  if (query.before) params.set("before", query.before);
  const page = await call<Partial<SessionsPage>>(`/api/sessions?${params}`);
  return { sessions: page.sessions ?? [], nextBefore: page.nextBefore ?? null };
}

/** Creates a session with the browser's zone. */
export async function createSession(): Promise<WireHeader> {
  const body = JSON.stringify({ timeZone: browserTimeZone() });
  return (await call<{ header: WireHeader }>("/api/sessions", { method: "POST", body })).header;
}

/** Renames a session (`PATCH /api/sessions/:id`); `null` goes back to its first message. */
export async function renameSession(id: string, title: string | null): Promise<void> {
  await call(base(id), { method: "PATCH", body: JSON.stringify({ title }) });
}

/** Deletes a session (`DELETE /api/sessions/:id`): its reminders end, it leaves the list. */
export async function deleteSession(id: string): Promise<void> {
  await call(base(id), { method: "DELETE" });
}

/** Makes a session live (idempotent). */
export async function resumeSession(id: string): Promise<void> {
  await call(`${base(id)}/resume`, { method: "POST" });
}

/** Forks a session at its current end; returns the live child's header. */
export async function forkSession(id: string): Promise<WireHeader> {
  return (await call<{ header: WireHeader }>(`${base(id)}/fork`, { method: "POST", body: "{}" }))
    .header;
}

/**
 * Sends a prompt (`POST /api/sessions/:id/messages`) with the browser's zone sampled now and its
 * `Idempotency-Key`: a retry with
 * the same key (after a lost answer or a refusal) is answered with the original message, never
 * stored twice (README "HTTP API").
 *
 * @param id the session
 * @param text the prompt
 * @param key the send's idempotency key (the same for each retry of this send)
 * @returns the stored message's id and seq
 * @throws {ApiError} the host's code
 */
export async function sendMessage(
  id: string,
  text: string,
  key: string = crypto.randomUUID(),
): Promise<{ messageId: string; seq: number }> {
  const body = JSON.stringify({ text, clientTimeZone: browserTimeZone() });
  return await call(`${base(id)}/messages`, { method: "POST", body }, { "idempotency-key": key });
}

/** Loads a history page. */
export async function loadHistory(id: string, q: HistoryQuery): Promise<HistoryPage> {
  const params = new URLSearchParams({ limit: String(q.limit) });
  if (q.before !== undefined) params.set("before", String(q.before));
  return await call<HistoryPage>(`${base(id)}/history?${params}`);
}

/**
 * Loads every event after `after`: the latest page, then older pages until the snapshot
 * reaches `after + 1` (the history route only pages backwards).
 */
export async function loadAfter(id: string, after: number, limit = 500): Promise<EventSnapshot> {
  let page: OlderPage = await loadHistory(id, { limit });
  let events = [...page.events];
  let views = { ...page.views };
  while ((events[0]?.seq ?? 0) > after + 1 && page.nextBefore !== null) {
    page = await loadHistory(id, { before: page.nextBefore, limit });
    events = [...page.events, ...events];
    views = { ...page.views, ...views };
  }
  return { events: events.filter((e) => e.seq > after), views };
}

/** Ends the running turn (`409 no_running_turn` when none runs). */
export async function cancelTurn(id: string): Promise<void> {
  await call(`${base(id)}/turns/current/cancel`, { method: "POST" });
}

/** Runs a new turn for a message; the host keeps the message's own original zone. */
export async function retryMessage(id: string, messageId: string): Promise<void> {
  await call(`${base(id)}/messages/${encodeURIComponent(messageId)}/retry`, { method: "POST" });
}

/** Appends an edit of a message; the host keeps the original message's zone. */
export async function editMessage(
  id: string,
  messageId: string,
  text: string,
): Promise<{ messageId: string; seq: number }> {
  const body = JSON.stringify({ text });
  return await call(`${base(id)}/messages/${encodeURIComponent(messageId)}/edit`, {
    method: "POST",
    body,
  });
}

/** The renderer modules and panels the host's configuration enables (`GET /api/client-config`). */
export async function clientConfig(): Promise<ClientConfigWire> {
  const config = await call<Partial<ClientConfigWire>>("/api/client-config");
  return {
    renderers: config.renderers ?? [],
    panels: config.panels ?? [],
    ...(config.alerts === true ? { alerts: true } : {}),
  };
}

/**
 * A panel's call below one session (`/api/sessions/:id<path>`): a `POST` sends its body (or
 * `{}`) as JSON.
 *
 * @param id the session id
 * @param path e.g. `/reminders`
 * @param init method and JSON body
 * @returns the JSON answer
 * @throws {ApiError} the host's error code, or `network`
 */
export async function request<T>(id: string, path: string, init: PanelRequest = {}): Promise<T> {
  const method = init.method ?? "GET";
  return await call<T>(
    `${base(id)}${path}`,
    method === "GET" ? {} : { method, body: JSON.stringify(init.body ?? {}) },
  );
}

/**
 * `POST /api/sessions/:id/acknowledge { tag }`: one notification was seen here; the host closes
 * it on the person's other pages and devices (docs/push.md).
 *
 * @param id the session id
 * @param tag the notification tag
 */
export async function acknowledge(id: string, tag: string): Promise<void> {
  await call<unknown>(`${base(id)}/acknowledge`, { method: "POST", body: JSON.stringify({ tag }) });
}

/** How the page is signed in (`GET /api/auth`, README "Security"). */
export interface AuthStatus {
  /** `cookie` (a browser sign-in), `bearer`, or `none` on a host without a token. */
  readonly via: "none" | "bearer" | "cookie";
  /** When this browser's sign-in ends, RFC 3339 UTC (`cookie` only). */
  readonly expiresAt?: string;
  /** The host's sign-ins that have not expired. */
  readonly signIns: number;
}

/**
 * How the page is signed in (`GET /api/auth`).
 *
 * @returns the status
 * @throws {ApiError} the host's error code, or `network`
 */
export async function authStatus(): Promise<AuthStatus> {
  return await call<AuthStatus>("/api/auth");
}

/**
 * Ends this browser's sign-in, or every sign-in of the host (`POST /api/auth/sign-out`,
 * `…/sign-out-everywhere`); the host clears the cookie.
 *
 * @param everywhere every browser, this one included
 * @returns how many sign-ins ended
 * @throws {ApiError} `sign_ins_unwritable` (nothing changed), `not_signed_in`, or `network`
 */
export async function signOut(everywhere: boolean): Promise<{ signedOut: number }> {
  const path = everywhere ? "/api/auth/sign-out-everywhere" : "/api/auth/sign-out";
  return await call(path, { method: "POST", body: "{}" });
}

/**
 * A page view's call below `/api` (`/api<path>`): a `POST` sends its body (or `{}`) as JSON.
 *
 * @param path e.g. `/reminders?limit=50`
 * @param init method and JSON body
 * @returns the JSON answer
 * @throws {ApiError} the host's error code, or `network`
 */
export async function requestApi<T>(path: string, init: ApiRequest = {}): Promise<T> {
  const method = init.method ?? "GET";
  return await call<T>(
    `/api${path}`,
    method === "GET" || method === "DELETE" && init.body === undefined
      ? { method }
      : { method, body: JSON.stringify(init.body ?? {}) },
  );
}
