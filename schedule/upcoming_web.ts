/**
 * The schedule plugin's routes across sessions and its calendar feeds (docs/upcoming.md):
 *
 * - `GET /api/reminders?before=&limit=&cursor=` → {@linkcode UpcomingPage} (read-only);
 * - `GET /api/reminders.ics?key=` and `GET /api/sessions/:id/reminders.ics?key=` → the feed,
 *   `text/calendar` (`access: "link"`: no host token, the link key instead; `&alarm=1` adds the
 *   opt-in `VALARM`);
 * - `GET /api/reminders/feed?session=` → `{ url: string | null }` (the feed's path with its key,
 *   `null` when none is issued), `POST /api/reminders/feed { session? }` → `{ url }` (issues one),
 *   `DELETE /api/reminders/feed?session=` → `{ revoked }` (one click in the page).
 *
 * None of them makes a session live, arms a timer or writes a log. A deleted session has no feed:
 * its key is revoked at the delete (`PluginWeb.onDeleted`) and the routes answer
 * `404 session_not_found` for it.
 *
 * @module
 */
import type { ApiRoute, RouteContext, SessionRoute, WebHost } from "@chime/contract";
import { isSessionId, SessionError } from "@chime/session";
import { foldSession } from "./fold.ts";
import { type FeedReminder, remindersCalendar } from "./ics.ts";
import { durableChanges } from "./reminders.ts";
import { UPCOMING_LIMIT, UpcomingProjection, type UpcomingQuery } from "./upcoming.ts";

/** The link scope of the all-sessions feed. */
export const ALL_FEED_SCOPE = "reminders.ics";

/**
 * The link scope of one session's feed.
 *
 * @param id the session id
 * @returns `sessions/<id>/reminders.ics`
 */
export function sessionFeedScope(id: string): string {
  return `sessions/${id}/reminders.ics`;
}

function problem(code: string, message: string, status: number, field?: string): Response {
  return Response.json({ error: { code, message, ...(field ? { field } : {}) } }, { status });
}

/** `400 invalid_arguments` for a bad query value. */
function badQuery(field: string, message: string): Response {
  return problem("invalid_arguments", `Cannot list reminders: ${message}`, 400, field);
}

/**
 * Reads the Upcoming query.
 *
 * @param url the request URL
 * @returns the query, or the `400` answer
 */
export function upcomingQuery(url: string): UpcomingQuery | Response {
  const params = new URL(url).searchParams;
  const out: { before?: number; limit?: number; cursor?: string } = {};
  const before = params.get("before");
  if (before !== null) {
    const ms = Date.parse(before);
    if (!/^\d{4}-\d\d-\d\dT/.test(before) || Number.isNaN(ms)) {
      return badQuery("before", "before is not an RFC 3339 instant");
    }
    out.before = ms;
  }
  const limit = params.get("limit");
  if (limit !== null) {
    const n = Number(limit);
    if (!/^\d+$/.test(limit) || n < 1 || n > UPCOMING_LIMIT.max) {
      return badQuery("limit", `limit is not an integer 1..${UPCOMING_LIMIT.max}`);
    }
    out.limit = n;
  }
  const cursor = params.get("cursor");
  if (cursor !== null) out.cursor = cursor;
  return out;
}

const calendarHeaders = {
  "content-type": "text/calendar; charset=utf-8",
  "cache-control": "no-store",
  "content-disposition": 'inline; filename="reminders.ics"',
};

/** The feed's reminders of some sessions (cold ones from their stored changes). */
async function feedReminders(
  host: WebHost,
  ids: readonly string[],
): Promise<FeedReminder[]> {
  const out: FeedReminder[] = [];
  for (const id of ids) {
    const stored = await durableChanges(host, id);
    if (stored === undefined || stored.header.delegationDepth > 0) continue;
    const sessionTitle = host.sessionTitle === undefined
      ? null
      : await host.sessionTitle(stored.header);
    for (const record of foldSession(stored.header, stored.events).active.values()) {
      out.push({ header: stored.header, sessionTitle, record });
    }
  }
  return out;
}

function calendarAnswer(
  host: WebHost,
  url: string,
  reminders: readonly FeedReminder[],
  name: string,
): Response {
  const alarm = new URL(url).searchParams.get("alarm") === "1";
  const text = remindersCalendar(reminders, { name, now: host.store.clock.now(), alarm });
  return new Response(text, { headers: calendarHeaders });
}

/** `404` for a missing or revoked key: the same answer for both, nothing to probe. */
async function keyRefused(
  host: WebHost,
  scope: string,
  url: string,
): Promise<Response | undefined> {
  const key = new URL(url).searchParams.get("key") ?? undefined;
  if (host.links !== undefined && await host.links.verify(scope, key)) return undefined;
  return problem("feed_not_found", "Cannot read feed: no such feed (the link was revoked?)", 404);
}

/** The feed's path with its key. */
function feedUrl(scope: string, key: string): string {
  const path = scope === ALL_FEED_SCOPE ? "/api/reminders.ics" : `/api/${scope}`;
  return `${path}?key=${encodeURIComponent(key)}`;
}

/** The `session` query value of the feed routes: a stored session id, or absent. */
async function feedScope(host: WebHost, url: string, body?: Record<string, unknown>) {
  const raw = body?.session ?? new URL(url).searchParams.get("session") ?? undefined;
  if (raw === undefined || raw === null || raw === "") return ALL_FEED_SCOPE;
  if (!isSessionId(raw)) {
    return problem("invalid_arguments", "Cannot manage feed: bad session", 400, "session");
  }
  const stored = host.store.live(raw) !== undefined ||
    (await host.store.backend.cursor(raw)) !== undefined;
  if (!stored || await host.deleted?.(raw) === true) {
    throw new SessionError("session_not_found", `Cannot find session: no session ${raw}`);
  }
  return sessionFeedScope(raw);
}

function noLinks(): Response {
  return problem("not_found", "Cannot manage feed: this host keeps no link keys", 404);
}

/**
 * The routes across sessions and the session feed route of the schedule plugin.
 *
 * @param options `cacheDir`: the Upcoming projection's start-up cache folder
 *   (docs/upcoming.md "The start-up cache"), @default none
 * @returns `{ apiRoutes, sessionRoutes, warm, onDeleted }` (`warm` starts reading the
 *   projection at host start, `PluginWeb.warm`; `onDeleted` revokes a deleted session's feed
 *   key, `PluginWeb.onDeleted`)
 */
export function upcomingRoutes(options: { readonly cacheDir?: string } = {}): {
  apiRoutes: ApiRoute[];
  sessionRoutes: SessionRoute[];
  warm(host: WebHost): void;
  onDeleted(sessionId: string, host: WebHost): Promise<void>;
} {
  const projections = new WeakMap<object, UpcomingProjection>();
  const projection = (host: WebHost) => {
    let found = projections.get(host.store);
    if (found === undefined) projections.set(host.store, found = new UpcomingProjection(options));
    return found;
  };
  const upcoming: ApiRoute = {
    method: "GET",
    path: "/reminders",
    async handle(_request, { host, url }) {
      const query = upcomingQuery(url);
      if (query instanceof Response) return query;
      try {
        return Response.json(await projection(host).page(host, query));
      } catch (error) {
        if (error instanceof RangeError) {
          return badQuery("cursor", "cursor is not one this list gave");
        }
        throw error;
      }
    },
  };
  const allFeed: ApiRoute = {
    method: "GET",
    path: "/reminders.ics",
    access: "link",
    async handle(_request, { host, url }) {
      const refused = await keyRefused(host, ALL_FEED_SCOPE, url);
      if (refused !== undefined) return refused;
      const rows = await projection(host).records(host);
      const titles = new Map<string, string | null>();
      const reminders: FeedReminder[] = [];
      for (const { header, record } of rows) {
        if (!titles.has(header.id)) {
          titles.set(header.id, host.sessionTitle ? await host.sessionTitle(header) : null);
        }
        reminders.push({ header, record, sessionTitle: titles.get(header.id)! });
      }
      return calendarAnswer(host, url, reminders, "chime reminders");
    },
  };
  const feedState: ApiRoute = {
    method: "GET",
    path: "/reminders/feed",
    async handle(_request, { host, url }) {
      if (host.links === undefined) return noLinks();
      const scope = await feedScope(host, url);
      if (scope instanceof Response) return scope;
      const key = await host.links.get(scope);
      return Response.json({ url: key === undefined ? null : feedUrl(scope, key) });
    },
  };
  const feedIssue: ApiRoute = {
    method: "POST",
    path: "/reminders/feed",
    async handle(_request, { host, url, json }) {
      if (host.links === undefined) return noLinks();
      const body = await json();
      const scope = await feedScope(host, url, body);
      if (scope instanceof Response) return scope;
      return Response.json({ url: feedUrl(scope, await host.links.issue(scope)) });
    },
  };
  const feedRevoke: ApiRoute = {
    method: "DELETE",
    path: "/reminders/feed",
    async handle(_request, { host, url }) {
      if (host.links === undefined) return noLinks();
      const scope = await feedScope(host, url);
      if (scope instanceof Response) return scope;
      return Response.json({ revoked: await host.links.revoke(scope) });
    },
  };
  const sessionFeed: SessionRoute = {
    method: "GET",
    path: "/reminders.ics",
    access: "link",
    async handle(_request, context: RouteContext) {
      const { host, sessionId, url } = context;
      const refused = await keyRefused(host, sessionFeedScope(sessionId), url);
      if (refused !== undefined) return refused;
      const reminders = await feedReminders(host, [sessionId]);
      if (reminders.length === 0 && (await durableChanges(host, sessionId)) === undefined) {
        throw new SessionError("session_not_found", `Cannot find session: no session ${sessionId}`);
      }
      return calendarAnswer(host, url, reminders, "chime reminders");
    },
  };
  return {
    apiRoutes: [upcoming, allFeed, feedState, feedIssue, feedRevoke],
    sessionRoutes: [sessionFeed],
    warm: (host) => void projection(host).warm(host),
    onDeleted: async (sessionId, host) => {
      await host.links?.revoke(sessionFeedScope(sessionId));
    },
  };
}
