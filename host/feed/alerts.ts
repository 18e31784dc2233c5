/**
 * `GET /api/alerts?sessions=a,b`: one stream per page of the views that just became durable in
 * the sessions the browser watches (open now or opened before), with their titles, and
 * `POST /api/sessions/:id/acknowledge { tag }`: one notification acknowledged on some device,
 * broadcast to every page and offered to the plugins (`PluginWeb.onAcknowledged`) once a loaded
 * plugin says the tag is one of its notifications in that session (`PluginWeb.ownsTag`).
 * Generic: the host knows views, not reminders (README "The page", docs/push.md). A watched
 * session that is deleted gets a last `event: deleted` and nothing more.
 *
 * @module
 */
import { Hono } from "hono";
import type { Plugin } from "@chime/contract";
import { isSessionId, type Session } from "@chime/session";
import { HostError } from "../errors.ts";
import { readJsonObject, sessionIdParam } from "../http/_http.ts";
import { FeedClient, type FeedLimits } from "./feed_client.ts";
import type { FeedItem } from "./frame.ts";
import { pumpClient, type StreamOptions } from "./sse.ts";
import type { CoveredRange } from "./watermark.ts";

/** Sessions one page may watch. */
export const MAX_WATCHED = 200;

/** Longest notification tag accepted by the acknowledge route, characters. */
const MAX_TAG = 300;

/** Options of {@linkcode AlertFeed}. */
export interface AlertFeedOptions {
  /** The views of a newly covered range (`Feeds.viewsOf`). */
  readonly views: (session: Session, range: CoveredRange) => Promise<FeedItem[]>;
  /** A session's title. */
  readonly title: (session: Session) => Promise<string | null>;
  /** The loaded plugins (for `onAcknowledged`), read at each call. */
  readonly plugins: readonly Plugin[];
  /** Where a failing view build or hook goes. */
  readonly reportError: (error: unknown) => void;
  /** Per-client queue bounds. */
  readonly limits?: FeedLimits;
}

interface Watcher {
  readonly client: FeedClient;
  /** What it still watches (a deleted session leaves it). */
  readonly ids: Set<string>;
}

function frame(name: string, data: unknown): string {
  return `event: ${name}\ndata: ${JSON.stringify(data)}\n\n`;
}

/**
 * The page alert streams of one runtime. Called at the one commit point (the runtime's
 * `session/flushed` observer, after the watermark moved), so a view is sent only once a flush
 * covers its event, never for a rejected flush and never twice in one process.
 *
 * @example A watcher receives nothing for a session it does not watch
 * ```ts
 * import { AlertFeed } from "@chime/host";
 * const alerts = new AlertFeed({
 *   views: () => Promise.resolve([]), title: () => Promise.resolve(null), plugins: [],
 *   reportError: () => {},
 * });
 * using client = alerts.attach(new Set(["a"]));
 * alerts.acknowledged("b", "chime:b:x");
 * console.assert(client.queued === 0);
 * ```
 */
export class AlertFeed {
  readonly #options: AlertFeedOptions;
  readonly #watchers = new Set<Watcher>();
  readonly #chains = new WeakMap<Session, Promise<void>>();

  /**
   * Creates the feed.
   *
   * @param options the view builder, titles, plugins and limits
   */
  constructor(options: AlertFeedOptions) {
    this.#options = options;
  }

  /** Attached pages. */
  get clientCount(): number {
    return this.#watchers.size;
  }

  /**
   * Attaches one page watching some sessions.
   *
   * @param ids the session ids it watches
   * @returns its client; close it when the stream ends
   */
  attach(ids: ReadonlySet<string>): FeedClient {
    const watcher: Watcher = {
      ids: new Set(ids),
      client: new FeedClient(this.#options.limits ?? {}, () => this.#watchers.delete(watcher)),
    };
    watcher.client.goLive();
    this.#watchers.add(watcher);
    return watcher.client;
  }

  /**
   * A range the watermark newly covers: its views go to the pages watching the session, in
   * order per session.
   *
   * @param session the exact live object
   * @param range the newly durable range
   * @returns settles once sent (errors are reported)
   */
  covered(session: Session, range: CoveredRange): Promise<void> {
    if (!this.#watched(session.id)) return this.#chains.get(session) ?? Promise.resolve();
    const run = (this.#chains.get(session) ?? Promise.resolve())
      .then(async () => {
        const items = await this.#options.views(session, range);
        if (items.length === 0) return;
        const title = await this.#options.title(session);
        for (const item of items) {
          if (item.kind !== "view") continue;
          const data = { sessionId: session.id, title, event: item.event, view: item.view };
          this.#send(session.id, frame("alert", data));
        }
      })
      .catch(this.#options.reportError);
    this.#chains.set(session, run);
    return run;
  }

  /**
   * A notification was acknowledged: every page watching the session hears it, and every
   * plugin's `onAcknowledged` is called (errors reported, never thrown).
   *
   * @param sessionId the session
   * @param tag the notification tag
   */
  acknowledged(sessionId: string, tag: string): void {
    this.#send(sessionId, frame("acknowledged", { sessionId, tag }));
    for (const plugin of this.#options.plugins) {
      const hook = plugin.web?.onAcknowledged;
      if (hook === undefined) continue;
      try {
        Promise.resolve(hook.call(plugin.web, sessionId, tag)).catch(this.#options.reportError);
      } catch (error) {
        this.#options.reportError(error);
      }
    }
  }

  /**
   * A watched session was deleted (README.md "The page"): every page watching it gets
   * `event: deleted` (`DeletedMessage` of `@chime/contract`) and nothing more of it; a page
   * that watched only deleted sessions then has its stream ended.
   *
   * @param sessionId the deleted session
   */
  deleted(sessionId: string): void {
    const text = frame("deleted", { sessionId, code: "session_not_found" });
    for (const watcher of [...this.#watchers]) {
      if (!watcher.ids.delete(sessionId)) continue;
      if (watcher.ids.size === 0) watcher.client.end(text);
      else watcher.client.push(text);
    }
  }

  /** Closes every page's stream (shutdown). */
  closeAll(): void {
    for (const watcher of [...this.#watchers]) watcher.client.close();
  }

  #watched(id: string): boolean {
    for (const watcher of this.#watchers) if (watcher.ids.has(id)) return true;
    return false;
  }

  #send(id: string, text: string): void {
    for (const watcher of [...this.#watchers]) if (watcher.ids.has(id)) watcher.client.push(text);
  }
}

/**
 * Reads `?sessions=a,b,c`.
 *
 * @param raw the query value
 * @returns the ids
 * @throws {HostError} `invalid_query` for a malformed id or more than {@linkcode MAX_WATCHED}
 */
export function watchedIds(raw: string | undefined): Set<string> {
  const ids = (raw ?? "").split(",").filter((id) => id !== "");
  const bad = ids.find((id) => !isSessionId(id));
  if (bad !== undefined || ids.length > MAX_WATCHED) {
    throw new HostError(
      "invalid_query",
      `Cannot watch sessions: sessions must be at most ${MAX_WATCHED} comma-separated session ids`,
      { field: "sessions" },
    );
  }
  return new Set(ids);
}

/**
 * The alert routes as one sub-app mounted at `/api`: `GET /alerts?sessions=…` (SSE:
 * `event: alert` with `AlertMessage` data of `@chime/contract`, `event: acknowledged`,
 * `event: deleted`) and `POST /sessions/:id/acknowledge { tag }` → `200 {}`.
 *
 * @param alerts the runtime's alert feed
 * @param exists whether a session exists and is not deleted (the acknowledge route answers
 *   `404 session_not_found` otherwise)
 * @param ownsTag whether a loaded plugin names `tag` in that session (`PluginWeb.ownsTag`;
 *   the route answers `404 tag_not_found` otherwise, broadcasting nothing)
 * @param options heartbeat and retry intervals
 * @returns a Hono app
 */
export function alertRoutes(
  alerts: AlertFeed,
  exists: (id: string) => Promise<boolean>,
  ownsTag: (id: string, tag: string) => Promise<boolean>,
  options: StreamOptions = {},
): Hono {
  return new Hono()
    .get("/alerts", (c) => {
      const ids = watchedIds(c.req.query("sessions"));
      return pumpClient(c, () => alerts.attach(ids), () => false, options);
    })
    .post("/sessions/:id/acknowledge", async (c) => {
      const id = sessionIdParam(c);
      const { tag } = await readJsonObject(c);
      if (typeof tag !== "string" || tag === "" || tag.length > MAX_TAG) {
        throw new HostError(
          "invalid_request",
          `Cannot acknowledge: tag must be a string of 1..${MAX_TAG} characters`,
          { field: "tag" },
        );
      }
      if (!await exists(id)) {
        throw new HostError("session_not_found", `Cannot acknowledge: no session ${id}`);
      }
      // Only a notification the session has (a durable card's tag): nothing is broadcast or
      // pushed for any other string.
      if (!await ownsTag(id, tag)) {
        throw new HostError(
          "tag_not_found",
          `Cannot acknowledge: session ${id} has no notification with that tag`,
          { field: "tag" },
        );
      }
      alerts.acknowledged(id, tag);
      return c.json({});
    });
}
