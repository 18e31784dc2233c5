/**
 * The web contract (docs/architecture.md "Plugins"): what a plugin brings to a web host besides
 * its agent scope: session routes, commit-gated views, an after-commit hook
 * ({@linkcode PluginWeb.onDurable}) and the names of the client renderer and page panels that
 * show them. It lives in `@chime/contract`, beside {@linkcode Plugin}, because a plugin may not
 * import the host (docs/architecture.md "Dependency arrows"); the host implements
 * {@linkcode WebHost} and mounts whatever the loaded plugins contribute, knowing none of them by
 * name.
 *
 * @module
 */
import type { Session, SessionEvent, SessionHeader, SessionStore } from "@chime/session";
import type { AgentHandle, Plugin } from "./plugin.ts";

/* ------------------------------------------------------------------ views */

/** A commit-aware presentation sent beside a durable event (docs/architecture.md "Views"). */
export interface EventView {
  /** The durable event type that selects the client renderer, e.g. `schedule/change`. */
  readonly type: string;
  /** Renderer-specific JSON. */
  readonly presentation: unknown;
}

/**
 * Finds the earlier events some gated events need for their views. It is offered the events
 * before the largest gated seq, newest first, until it is {@linkcode ContextScan.done}.
 */
export interface ContextScan {
  /**
   * Offers one earlier event (newest first).
   *
   * @param event an event below the largest gated seq
   * @returns `true` to keep it for {@linkcode ViewSource.build}
   */
  offer(event: SessionEvent): boolean;
  /** `true` once no older event can change any view. */
  readonly done: boolean;
}

/** Builds views for one kind of durable event (e.g. schedule dispatches). */
export interface ViewSource {
  /** `true` for events that get a view once a flush covers them. */
  gated(event: SessionEvent): boolean;
  /**
   * Builds the views of some gated events.
   *
   * @param header the session header
   * @param events ascending events holding the requested gated events and their context: the
   *   dense log from seq 0, or only what {@linkcode ViewSource.context} kept
   * @param seqs gated seqs to present
   * @returns views by seq; a seq may be missing when it cannot be presented
   */
  build(
    header: SessionHeader,
    events: readonly SessionEvent[],
    seqs: readonly number[],
  ): ReadonlyMap<number, EventView>;
  /**
   * Optional sparse context: which earlier events the views of `gated` depend on. Without it,
   * {@linkcode ViewSource.build} gets the dense log from seq 0.
   *
   * @param header the session header
   * @param gated the gated events to present, ascending
   * @returns a fresh scan
   */
  context?(header: SessionHeader, gated: readonly SessionEvent[]): ContextScan;
}

/* ------------------------------------------------------------------ routes */

/** What the host lends a plugin's routes (implemented by `@chime/host`). */
export interface WebHost {
  /** The host's store: `live(id)`, `clock`, reads of stored sessions. */
  readonly store: SessionStore;
  /**
   * The durable bound of a live session: every `seq` below it is stored and may be shown (the
   * host's watermark, the same cursor that gates views; never above `session.length`).
   *
   * @param session a live session of {@linkcode WebHost.store}
   * @returns the exclusive bound
   */
  durableLength(session: Session): number;
  /**
   * Makes a session live (cold → live, idempotent) and publishes its agent.
   *
   * @param id a session id
   * @returns the live session
   * @throws {SessionError} `session_not_found`
   */
  resume(id: string): Promise<Session>;
  /**
   * The one agent of a live root session.
   *
   * @param session a live root session
   * @returns its agent
   */
  agentFor(session: Session): Promise<AgentHandle>;
  /**
   * A session's title as the sessions list shows it (its first user message, shortened;
   * README "HTTP API"), read from storage without activating the session.
   *
   * @param id a session id
   * @returns the title, or `null` before any user message (or for an unknown id)
   */
  title(id: string): Promise<string | null>;
  /**
   * A session's title as the host lists it (its first own user message, shortened), never
   * activating it. Optional: a host without titles leaves it out.
   *
   * @param header the session's header (a fork's title is its own first message)
   * @returns the title, or `null` before any message
   */
  sessionTitle?(header: SessionHeader): Promise<string | null>;
  /**
   * The host's revocable link keys (docs/upcoming.md "Calendar feed"): durable secrets kept in
   * the host's data directory, never logged, that let one {@linkcode RouteAccess} `"link"` route
   * answer without the host token. Optional: a host without them serves no link route.
   */
  readonly links?: LinkKeys;
  /**
   * Whether other hosts write the same storage (shared mode, docs/deploy.md). When `false`,
   * every write of this host's store happens in a session live here (`SessionStore.onLive`
   * sees it go live), so a projection of stored logs needs no polling. @default false
   */
  readonly sharedStorage?: boolean;
  /**
   * Whether a person deleted the session (its log holds `session/deleted`, README.md "The
   * page"): a deleted session answers `404 session_not_found` on every route, a plugin's routes
   * across sessions included. Optional: a host without deletes leaves it out (nothing is
   * deleted).
   *
   * @param id a well-formed session id
   * @returns `true` once deleted; `false` for a session that is not (or an unknown id)
   */
  deleted?(id: string): Promise<boolean>;
}

/**
 * What a plugin counts of one session for the sessions list (`GET /api/sessions` rows'
 * `counts`): items waiting (`pending`) and items whose time has passed without them being
 * delivered (`late`, e.g. an overdue reminder of a cold session). The host sums the counts of
 * every plugin; it knows nothing of what is counted.
 */
export interface SessionCounts {
  /** Items still to come. */
  readonly pending: number;
  /** Items whose time passed and that were not delivered yet. */
  readonly late: number;
}

/**
 * Revocable per-link secrets, one per scope (a string a plugin chooses, e.g.
 * `reminders.ics` or `sessions/<id>/reminders.ics`). A key is 32 random bytes, base64url.
 */
export interface LinkKeys {
  /**
   * The scope's key, made (and stored durably) on first use.
   *
   * @param scope the link's scope
   * @returns the key
   */
  issue(scope: string): Promise<string>;
  /**
   * The scope's key when one was issued and not revoked.
   *
   * @param scope the link's scope
   * @returns the key, or `undefined`
   */
  get(scope: string): Promise<string | undefined>;
  /**
   * Whether `key` is the scope's current key (compared in constant time).
   *
   * @param scope the link's scope
   * @param key what the request carried
   * @returns `true` only for the current key
   */
  verify(scope: string, key: string | undefined): Promise<boolean>;
  /**
   * Revokes the scope's key (durably): every URL holding it stops working at once.
   *
   * @param scope the link's scope
   * @returns `true` when a key was revoked
   */
  revoke(scope: string): Promise<boolean>;
}

/**
 * Who may call a route: `"token"` (the default: the host's guards, its token included) or
 * `"link"` (a `GET` a calendar app fetches without the host token: the host's name guard still
 * applies, and the route itself must refuse a request whose link key
 * {@linkcode LinkKeys.verify} does not accept).
 */
export type RouteAccess = "token" | "link";

/** What one route call sees besides the request. */
export interface RouteContext {
  /** The host. */
  readonly host: WebHost;
  /** The `:id` of `/api/sessions/:id/…`, already checked to be a well-formed session id. */
  readonly sessionId: string;
  /** The request URL (its query: `new URL(url).searchParams`). */
  readonly url: string;
  /**
   * A named path parameter of {@linkcode SessionRoute.path}.
   *
   * @param name e.g. `scheduleId` for `/reminders/:scheduleId/snooze`
   * @returns its decoded value
   */
  param(name: string): string;
  /**
   * The request body as one JSON object, read under the host's size and time limits.
   *
   * @returns the object
   * @throws {Error} `invalid_json` or `invalid_request` (answered `400` by the host)
   */
  json(): Promise<Record<string, unknown>>;
}

/**
 * A fetch-style route handler. It answers with any `Response`; a thrown error whose `code` the
 * host knows (e.g. `session_not_found`, `invalid_json`) is answered with that code's status,
 * anything else with `500 internal_error`.
 */
export type RouteHandler = (
  request: Request,
  context: RouteContext,
) => Response | Promise<Response>;

/** HTTP methods a plugin route may answer. */
export type RouteMethod = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

/**
 * One route under one session: everything a plugin keeps is session-local, so its routes live
 * below `/api/sessions/:id` and pass the host's guards (host names, origins, token, bodies).
 */
export interface SessionRoute {
  /** The method. */
  readonly method: RouteMethod;
  /** The path below `/api/sessions/:id`, e.g. `/reminders/:scheduleId/snooze`. */
  readonly path: string;
  /** Answers the request. */
  readonly handle: RouteHandler;
  /** Who may call it. @default "token" */
  readonly access?: RouteAccess;
}

/** What one {@linkcode ApiRoute} call sees besides the request. */
export interface ApiRouteContext {
  /** The host. */
  readonly host: WebHost;
  /** The request URL. */
  readonly url: string;
  /**
   * The request body as one JSON object, read under the host's size and time limits.
   *
   * @returns the object
   * @throws {Error} `invalid_json` or `invalid_request` (answered `400` by the host)
   */
  json(): Promise<Record<string, unknown>>;
}

/**
 * One route across sessions, below `/api` (e.g. `GET /api/reminders`): a read of many
 * sessions' durable logs. It must not make a session live; an action on one session goes
 * through that session's own {@linkcode SessionRoute}s.
 */
export interface ApiRoute {
  /** The method. */
  readonly method: RouteMethod;
  /** The path below `/api`, e.g. `/reminders`; never `/sessions/…` or a host path. */
  readonly path: string;
  /** Answers the request. */
  readonly handle: (request: Request, context: ApiRouteContext) => Response | Promise<Response>;
  /** Who may call it. @default "token" */
  readonly access?: RouteAccess;
}

/* ------------------------------------------------------------------ the contribution */

/** The web part of a {@linkcode Plugin}: everything it adds to a host and its page. */
export interface PluginWeb {
  /** Session routes (`GET /api/sessions/:id/reminders`, …). @default none */
  readonly routes?: readonly SessionRoute[];
  /** Routes across sessions below `/api` (`GET /api/reminders`, …). @default none */
  readonly apiRoutes?: readonly ApiRoute[];
  /** Commit-gated views of the durable events the plugin writes. @default none */
  readonly views?: ViewSource;
  /**
   * The client renderer module (bundled in the page) that shows this plugin's events and
   * panels, e.g. `@chime/ui/schedule`. @default none
   */
  readonly renderer?: string;
  /**
   * Page panels and page views of {@linkcode PluginWeb.renderer} this plugin's routes serve
   * (e.g. `reminders`, `upcoming`); the page shows one only when the configuration enables the
   * renderer.
   * @default none
   */
  readonly panels?: readonly string[];
  /**
   * The after-commit hook: called by the host each time `session/flushed` advances the
   * watermark of a live session (docs/design.md#receipt-watermark), whether or not a page is
   * attached, with exactly the events that just became durable, ascending by `seq`. It runs at
   * the same commit point as the sidecar views: never for an event before an acknowledged flush
   * covers it, never for a rejected flush, never twice for one event in one host process. What a
   * session loads from storage when it goes live (resume, a restart) is its durable prefix and
   * is not offered again, nor is a fork's inherited prefix (its parent's events); a host that
   * dies between a commit and its hook skips that hook, so a hook is a reaction, not a ledger.
   * The host awaits nothing: a returned promise that rejects, and a throw, are logged and
   * contained (the commit stands).
   *
   * @param session the live session whose log grew durably
   * @param events the newly durable events, dense and ascending
   * @default absent: the plugin does not react to commits
   */
  onDurable?(
    session: Session,
    events: readonly SessionEvent[],
    host: WebHost,
  ): void | Promise<void>;
  /**
   * One notification was acknowledged (opened, snoozed or stopped) on some device: the host
   * broadcast `POST /api/sessions/:id/acknowledge { tag }` to its pages' alert streams and calls
   * this so a plugin can close the same notification elsewhere (a push plugin sends a close
   * message; docs/push.md). Errors are logged and contained.
   *
   * @param sessionId the session the notification belongs to
   * @param tag the notification tag (`notificationTag` of `contract/page.ts`)
   * @default absent
   */
  onAcknowledged?(sessionId: string, tag: string): void | Promise<void>;
  /**
   * Whether `tag` names a notification of this plugin in the session: the host accepts
   * `POST /api/sessions/:id/acknowledge { tag }` only when some loaded plugin answers `true`,
   * and answers `404 tag_not_found` (broadcasting nothing, calling no
   * {@linkcode PluginWeb.onAcknowledged}) otherwise (docs/errors.md). The schedule plugin
   * knows the tags of its durable reminder cards (dispatched occurrences). Read from durable
   * state only, never activating a cold session.
   *
   * @param host the host
   * @param sessionId a stored or live session that is not deleted
   * @param tag the tag the request carried (1..300 characters)
   * @returns `true` for a tag of one of its notifications there
   * @default absent: the plugin raises no notifications
   */
  ownsTag?(host: WebHost, sessionId: string, tag: string): Promise<boolean>;
  /**
   * A person deleted the session and its `session/deleted` is durable (README.md "The page"):
   * the plugin forgets what it keeps outside the log for it (the schedule plugin revokes the
   * session's calendar feed key; the push plugin removes the session from every
   * subscription). Called once per delete through this host, after the session's streams were
   * told; the host awaits it before answering the delete, and a rejection is logged and
   * contained (the delete stands).
   *
   * @param sessionId the deleted session
   * @param host the host
   * @default absent: the plugin keeps nothing outside the log
   */
  onDeleted?(sessionId: string, host: WebHost): Promise<void>;
  /**
   * Counts for one session's row in the sessions list, from durable state only and never
   * activating a cold session.
   *
   * @param host the host
   * @param sessionId a stored or live session
   * @returns the counts, or `undefined` when the plugin has nothing to count there
   * @default absent: nothing counted
   */
  sessionCounts?(host: WebHost, sessionId: string): Promise<SessionCounts | undefined>;
  /**
   * Called once when the host mounts the plugin's routes (at start): the plugin may warm, in
   * the background, what its routes read (e.g. the schedule's Upcoming projection,
   * docs/upcoming.md). The host awaits nothing: the plugin contains its own failures.
   *
   * @param host what the host lends routes
   * @default absent: nothing is warmed
   */
  warm?(host: WebHost): void;
}

/**
 * The panels a page may show: those of plugins whose renderer module is enabled.
 *
 * @param plugins the loaded plugins
 * @param renderers the enabled client renderers
 * @returns panel names, in plugin order
 *
 * @example A plugin's panel needs its renderer
 * ```ts
 * import { enabledPanels } from "@chime/contract";
 * const plugin = { name: "p", setup() {}, web: { renderer: "r", panels: ["list"] } };
 * console.assert(enabledPanels([plugin], ["r"])[0] === "list");
 * console.assert(enabledPanels([plugin], []).length === 0);
 * ```
 */
export function enabledPanels(
  plugins: readonly Plugin[],
  renderers: readonly string[],
): string[] {
  return plugins.flatMap(({ web }) =>
    web?.renderer !== undefined && renderers.includes(web.renderer) ? web.panels ?? [] : []
  );
}
