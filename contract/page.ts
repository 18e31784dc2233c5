/**
 * The page contract (docs/architecture.md "Plugins"): the one registration point of a plugin's
 * page half, a client renderer module (e.g. `@chime/ui/schedule`). It registers event
 * renderers, tool result lines and follow-up labels in the page's
 * `conversation.chat.eventview` registry ({@linkcode EventRenderers}) and may bring panels,
 * hints for the empty page, alerts for new committed views and its own assets (CSS and a
 * service-worker script). The page (`@chime/ui`) implements it; renderer modules import it
 * from here. Types and one pure helper: no npm import, no DOM or Preact type.
 *
 * @module
 */
import type { EventView } from "./web.ts";
import type { WireEvent } from "./wire.ts";

export type { EventView, WireEvent };

/** A UI language: English or Chinese. */
export type Lang = "en" | "zh";

/** A read-only reactive value (structurally a `ReadonlySignal` of `@preact/signals`). */
export interface Readable<T> {
  /** The current value; reading it inside a component or effect subscribes to it. */
  readonly value: T;
  /** Reads the value without subscribing. */
  peek(): T;
  /** Calls `fn` with the value now and on every change; returns an unsubscribe function. */
  subscribe(fn: (value: T) => void): () => void;
}

/** What every renderer receives besides the node. */
export interface RenderContext {
  /** The UI language. */
  readonly lang: Lang;
  /** The viewer's IANA zone (`Intl.DateTimeFormat().resolvedOptions().timeZone`). */
  readonly timeZone: string;
  /**
   * What the page lends renderers by name (actions, state), e.g. the schedule renderer's
   * `ScheduleServices` under `"schedule"`. Absent in static rendering: no buttons then.
   */
  readonly services?: Readonly<Record<string, unknown>>;
}

/** What a renderer returns: a Preact child (a vnode is an `object`); `null` renders nothing. */
export type Rendered = object | string | number | bigint | boolean | null | undefined;

/** One renderable transcript entry. The durable `type` selects the renderer, not the view. */
export interface PresentedEventNode {
  /** Stable key: `${type}#${seq}`. */
  readonly key: string;
  /** The event seq. */
  readonly seq: number;
  /** The durable event type. */
  readonly type: string;
  /** Append instant, UTC RFC 3339. */
  readonly at: string;
  /** The event data. */
  readonly data: unknown;
  /** The commit-aware sidecar view, once attached. */
  readonly view?: EventView;
  /**
   * For a `tool/result`: the tool's name, from the `tool/call` with the same `callId` in the
   * window (docs/events.md#tool-call-tool-result); absent when that call is outside it.
   */
  readonly toolName?: string;
}

/**
 * Renders one node; `null` hides it. The third argument is the registry rendering it, so a
 * generic renderer can ask it for what renderer modules contributed
 * ({@linkcode EventRenderers.summarizeTool}, {@linkcode EventRenderers.followupLabel}).
 */
export type EventRenderer = (
  node: PresentedEventNode,
  ctx: RenderContext,
  registry: EventRenderers,
) => Rendered;

/** A tool result as one human line (the raw value stays behind the row's details). */
export interface ToolSummary {
  /** The sentence shown on the row. */
  readonly text: string;
  /** Whether the tool failed. */
  readonly failed: boolean;
  /** The error code of a failure, if any (docs/errors.md#tool-codes). */
  readonly code?: string;
}

/**
 * Summarizes one tool's result (`tool/result.result`) in the viewer's language and zone.
 * `null` hides the row (another durable row already shows the effect); `undefined` declines,
 * and the conversation shows its neutral line.
 */
export type ToolSummarizer = (
  result: unknown,
  ctx: RenderContext,
) => ToolSummary | null | undefined;

/**
 * Labels a `followup` event's `frame` (docs/events.md#followup) that its module sent, in the UI
 * language; `undefined` for frames it does not own.
 */
export type FollowupLabeler = (frame: unknown, lang: Lang) => string | undefined;

/**
 * The page's `conversation.chat.eventview` registry as a renderer module sees it (implemented
 * by `EventViewRegistry` of `@chime/ui`).
 */
export interface EventRenderers {
  /**
   * Registers (or replaces) the renderer of a durable event type.
   *
   * @param type e.g. `schedule/change`
   * @param renderer the renderer
   * @returns a function that unregisters it again
   */
  register(type: string, renderer: EventRenderer): () => void;
  /**
   * Renders a node with its type's renderer (the JSON fallback for unknown types).
   *
   * @param node the node
   * @param ctx language and zone
   * @returns what to mount
   */
  render(node: PresentedEventNode, ctx: RenderContext): Rendered;
  /**
   * Registers (or replaces) the summarizer of one tool's results.
   *
   * @param tool the tool name, e.g. `schedule_list`
   * @param summarizer the summarizer
   * @returns a function that unregisters it again
   */
  registerToolSummary(tool: string, summarizer: ToolSummarizer): () => void;
  /**
   * Summarizes a tool result with its tool's registered summarizer.
   *
   * @param tool the tool name; `undefined` when unknown
   * @param result the `tool/result` event's `result`
   * @param ctx language and viewer zone
   * @returns the summary, `null` to hide the row, or `undefined` when no summarizer answers
   */
  summarizeTool(
    tool: string | undefined,
    result: unknown,
    ctx: RenderContext,
  ): ToolSummary | null | undefined;
  /**
   * Registers a follow-up labeler.
   *
   * @param labeler labels the frames its module sends
   * @returns a function that unregisters it again
   */
  registerFollowupLabel(labeler: FollowupLabeler): () => void;
  /**
   * The first registered label for a follow-up frame.
   *
   * @param frame the `followup` event's `frame`
   * @param lang the UI language
   * @returns the label, or `undefined` when no labeler owns the frame
   */
  followupLabel(frame: unknown, lang: Lang): string | undefined;
}

/** The open session's window as a panel reads it (implemented by `SessionWindow` of `@chime/ui`). */
export interface PageWindow {
  /** The window's events, dense and ascending. */
  readonly events: Readable<readonly WireEvent[]>;
  /** Commit-aware views by seq. */
  readonly views: Readable<ReadonlyMap<number, EventView>>;
  /** The durable bound: every `seq` below it is durable (the host's watermark as last seen). */
  readonly durableBefore: Readable<number>;
}

/**
 * What a client renderer module brings to the page besides code: a style sheet and a
 * service-worker script, as text. The page build (`ui/build.ts`) copies them into the built
 * page and the host serves them at {@linkcode clientAssetPaths} under the page's content
 * security policy (`'self'`: nothing inline, nothing from elsewhere); the page links the sheet
 * and registers the worker (scope `/`) for each enabled module.
 */
export interface ClientAssets {
  /** A CSS style sheet. @default none */
  readonly css?: string;
  /** A service-worker script (classic, not a module). @default none */
  readonly worker?: string;
}

/** Where the host serves a renderer module's {@linkcode ClientAssets}. */
export interface ClientAssetPaths {
  /** The style sheet, e.g. `/renderers/chime-ui-schedule.css`. */
  readonly css: string;
  /** The service worker, e.g. `/renderers/chime-ui-schedule.sw.js` (served with `Service-Worker-Allowed: /`). */
  readonly worker: string;
}

/**
 * The URL paths of a renderer module's assets: its name with every run of characters other
 * than letters and digits made one `-` (`@chime/ui/schedule` → `chime-ui-schedule`), below
 * `/renderers/`. The host and the page both derive them from the name.
 *
 * @param name the module's name, as `renderers` in `chime.jsonc` names it
 * @returns the two paths
 *
 * @example The schedule renderer's paths
 * ```ts
 * import { clientAssetPaths } from "@chime/contract/page";
 * const paths = clientAssetPaths("@chime/ui/schedule");
 * console.assert(paths.css === "/renderers/chime-ui-schedule.css");
 * console.assert(paths.worker === "/renderers/chime-ui-schedule.sw.js");
 * ```
 */
export function clientAssetPaths(name: string): ClientAssetPaths {
  const slug = name.replace(/[^A-Za-z0-9]+/g, "-").replace(/^-|-$/g, "");
  return { css: `/renderers/${slug}.css`, worker: `/renderers/${slug}.sw.js` };
}

/** A request below `/api/sessions/:id` (JSON body, JSON answer). */
export interface PanelRequest {
  /** `GET` unless given. */
  readonly method?: "GET" | "POST";
  /** Sent as JSON. */
  readonly body?: unknown;
}

/** What the page lends a panel model. */
export interface PanelHost {
  /** The open session's id, `null` when none is open. */
  readonly current: Readable<string | null>;
  /** The open session's window (events, views, durable bound). */
  readonly win: Readable<PageWindow | null>;
  /**
   * Where the open session's own events start: a fork's `seedLength` (the events below it are
   * its parent's, whose reminders the fork cannot change), else `0`. Absent: `0`.
   */
  readonly seedLength?: Readable<number>;
  /**
   * Calls the host below one session (`/api/sessions/:id<path>`).
   *
   * @param id the session id
   * @param path e.g. `/reminders`
   * @param init method and JSON body
   * @returns the JSON answer
   * @throws {Error} the page's API error (its `code` is the host's error code)
   */
  request<T>(id: string, path: string, init?: PanelRequest): Promise<T>;
  /**
   * Shows an error in the page's banner.
   *
   * @param error what failed
   */
  fail(error: unknown): void;
}

/** One panel's state for one page (a `createModel` instance). */
export interface PanelModel extends Disposable {
  /** The number the chip shows (phones). */
  readonly count: Readable<number>;
  /**
   * What the panel lends the event renderers, merged into `RenderContext.services` (e.g. the
   * schedule renderer's snooze and stop under `"schedule"`).
   */
  readonly services: Readable<Readonly<Record<string, unknown>>>;
  /**
   * A session was opened or its stream reconnected (after the page resumed it).
   *
   * @param id the session id
   */
  opened(id: string): void;
  /** The page left the session (another one, or none): forget its state. */
  reset(): void;
}

/** What a panel's component receives. */
export interface PanelViewProps {
  /** The panel's model, as {@linkcode PanelDefinition.create} made it. */
  readonly model: PanelModel;
  /** Language, zone and services. */
  readonly ctx: RenderContext;
  /** Open as a sheet (phones). */
  readonly open: boolean;
  /** Closes the sheet. */
  onClose(): void;
  /**
   * What to highlight and scroll to, when a page view opened the session at it
   * ({@linkcode OpenTarget.item}); `null` or absent: nothing.
   */
  readonly focus?: string | null;
}

/** A page panel a renderer module contributes. */
export interface PanelDefinition {
  /** Its name, as `GET /api/client-config` lists it (e.g. `reminders`); also its element id. */
  readonly name: string;
  /** The chip's icon: a name of the page's icon set (`ui/icons.ts`), e.g. `bell`. */
  readonly icon: string;
  /**
   * The chip's accessible label.
   *
   * @param lang the UI language
   * @returns the label
   */
  label(lang: Lang): string;
  /**
   * Creates the panel's model for one page.
   *
   * @param host what the page lends it
   * @returns the model; the page disposes it with the page
   */
  create(host: PanelHost): PanelModel;
  /**
   * The panel's component.
   *
   * @param props model, render context, sheet state
   * @returns the panel element
   */
  view(props: PanelViewProps): Rendered;
}

/** A request below `/api` (JSON body, JSON answer). */
export interface ApiRequest {
  /** `GET` unless given. */
  readonly method?: "GET" | "POST" | "DELETE";
  /** Sent as JSON. */
  readonly body?: unknown;
}

/** Where a page view sends the person: a session, and what to show there. */
export interface OpenTarget {
  /** The session to open (the page resumes it, as when it is picked from the list). */
  readonly sessionId: string;
  /** A panel of that session to bring into view (a sheet on phones), by name. */
  readonly panel?: string;
  /** What the panel highlights and scrolls to (its own key, e.g. a reminder id). */
  readonly item?: string;
}

/** What the page lends a page view's model. */
export interface PageViewHost {
  /**
   * Calls the host below `/api` (`/api<path>`), e.g. a plugin's `apiRoutes`.
   *
   * @param path e.g. `/reminders?limit=50`
   * @param init method and JSON body
   * @returns the JSON answer
   * @throws {Error} the page's API error (its `code` is the host's error code)
   */
  api<T>(path: string, init?: ApiRequest): Promise<T>;
  /** Calls the host below one session, as {@linkcode PanelHost.request}. */
  request<T>(id: string, path: string, init?: PanelRequest): Promise<T>;
  /**
   * Leaves the view for a session (routes to it; the page resumes it).
   *
   * @param target the session and what to show there
   */
  open(target: OpenTarget): void;
  /** Shows an error in the page's banner. */
  fail(error: unknown): void;
}

/** One page view's state for one page. */
export interface PageViewModel extends Disposable {
  /** The view was shown (again): load what it lists. */
  shown(): void;
}

/** What a page view's component receives. */
export interface PageViewProps {
  /** The view's model, as {@linkcode PageViewDefinition.create} made it. */
  readonly model: PageViewModel;
  /** Language and zone (no services: a view lends its own). */
  readonly ctx: RenderContext;
}

/**
 * A page view a renderer module contributes: it takes the page's main column in place of a
 * session (route `#/v/<name>`), and the session list links to it. The page knows nothing of
 * what it shows.
 */
export interface PageViewDefinition {
  /** Its name, as `GET /api/client-config` lists it among `panels` (e.g. `upcoming`). */
  readonly name: string;
  /** The link's icon: a name of the page's icon set (`ui/icons.ts`). */
  readonly icon: string;
  /**
   * The link's label and the view's heading.
   *
   * @param lang the UI language
   * @returns the label
   */
  label(lang: Lang): string;
  /**
   * Creates the view's model for one page.
   *
   * @param host what the page lends it
   * @returns the model; the page disposes it with the page
   */
  create(host: PageViewHost): PageViewModel;
  /**
   * The view's component.
   *
   * @param props model and render context
   * @returns the view element
   */
  view(props: PageViewProps): Rendered;
}

/** What the page says of a new committed view (announcement, notification while hidden). */
export interface ViewAlert {
  /** A short title, e.g. "Reminder". */
  readonly title: string;
  /** The text, e.g. the reminder prompt. */
  readonly body: string;
  /**
   * What names the occurrence within its session, e.g. `sch_…@2030-01-01T08:00:00.000Z`: every
   * notification of one occurrence, on every device, carries
   * {@linkcode notificationTag}`(sessionId, key)` (docs/push.md). @default the event's seq
   */
  readonly key?: string;
}

/**
 * The one notification tag of an occurrence, the same in the page and in a push (docs/push.md
 * "One acknowledgement everywhere"): a browser replaces a notification with the same tag, and
 * acknowledging it closes every notification carrying it.
 *
 * @param sessionId the session id
 * @param key the occurrence within it ({@linkcode ViewAlert.key})
 * @returns `chime:<sessionId>:<key>`
 *
 * @example
 * ```ts
 * import { notificationTag } from "@chime/contract/page";
 * console.assert(notificationTag("s1", "sch_a@2030") === "chime:s1:sch_a@2030");
 * ```
 */
export function notificationTag(sessionId: string, key: string): string {
  return `chime:${sessionId}:${key}`;
}

/** What the page lends a module's {@linkcode ClientRenderer.delivery}. */
export interface DeliveryHost {
  /** The sessions this browser watches (open now or opened before), newest first. */
  readonly watched: Readable<readonly string[]>;
  /** The notification permission (`default`, `granted`, `denied`, `unsupported`). */
  readonly permission: Readable<string>;
  /** The UI language. */
  readonly lang: Readable<Lang>;
  /**
   * Calls the host below one session (`/api/sessions/:id<path>`).
   *
   * @param id the session id
   * @param path e.g. `/push/subscribe`
   * @param init method and JSON body
   * @returns the JSON answer
   * @throws {Error} the page's API error
   */
  request<T>(id: string, path: string, init?: PanelRequest): Promise<T>;
}

/** A way to reach this browser when its tabs are closed (e.g. Web Push), per browser. */
export interface Delivery extends Disposable {
  /** Whether this browser receives it now. */
  readonly on: Readable<boolean>;
  /** Whether the browser can (a service worker and push manager exist). */
  readonly supported: boolean;
  /**
   * Turns it on (subscribes, then registers the watched sessions) or off (unsubscribes).
   *
   * @param on the wanted state
   * @returns settles when done; a failure leaves {@linkcode Delivery.on} as it was
   */
  set(on: boolean): Promise<void>;
}

/** Texts of the empty page a renderer module may replace, by language. */
export interface PageHints {
  /** The composer's placeholder. */
  readonly placeholder?: Readonly<Record<Lang, string>>;
  /** The line shown in an empty conversation. */
  readonly hello?: Readonly<Record<Lang, string>>;
  /** The line shown while the host cannot be reached (what waits for it, e.g. reminders). */
  readonly hostDown?: Readonly<Record<Lang, string>>;
  /** What deleting a session ends, in the delete confirmation (e.g. its reminders). */
  readonly deleteBody?: Readonly<Record<Lang, string>>;
}

/** A client renderer module: its one registration point in the page. */
export interface ClientRenderer {
  /** Its name, as `renderers` in `chime.jsonc` names it, e.g. `@chime/ui/schedule`. */
  readonly name: string;
  /**
   * Registers its event renderers.
   *
   * @param registry the page's `conversation.chat.eventview` registry
   * @returns a function that unregisters them
   */
  register(registry: EventRenderers): () => void;
  /** Panels it can show (each only when the client configuration names it). @default none */
  readonly panels?: readonly PanelDefinition[];
  /**
   * Page views it can show (each only when the client configuration names it among `panels`).
   * @default none
   */
  readonly views?: readonly PageViewDefinition[];
  /** Texts of the empty page. @default the page's own */
  readonly hints?: PageHints;
  /**
   * Styles and a service-worker script the module brings to the page (served by the host from
   * the built page, under the page's unchanged content security policy).
   * @default none
   */
  readonly assets?: ClientAssets;
  /**
   * Whether a newly committed view deserves an alert, and what it says.
   *
   * @param view a sidecar view that arrived after the window loaded
   * @param lang the UI language
   * @returns the alert, or `undefined` for none
   */
  alertOf?(view: EventView, lang: Lang): ViewAlert | undefined;
  /**
   * Delivery to this browser while its tabs are closed, turned on from the page's
   * notification control (docs/push.md).
   *
   * @param host the watched sessions, the permission and requests
   * @returns the delivery; the page disposes it with the page
   * @default none
   */
  delivery?(host: DeliveryHost): Delivery;
}
