/**
 * The page side of one registration point per plugin (docs/architecture.md "Plugins"): a client
 * renderer module (e.g. `@chime/ui/schedule`) registers its event renderers and may bring page
 * panels (a side panel with a chip on phones), hints for the empty page and alerts for new
 * committed views. The page is generic: it enables the modules `GET /api/client-config` lists
 * and shows a module's panel only when that answer names it (its plugin is loaded, so its
 * routes exist).
 *
 * @module
 */
import type { Lang } from "./i18n.ts";
import type { EventViewRegistry, RenderContext, Rendered } from "./registry.ts";
import type { SessionWindow } from "./window.ts";
import type { Readable } from "./window_types.ts";
import type { EventView } from "./wire.ts";

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
  readonly win: Readable<SessionWindow | null>;
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

/** What the page says of a new committed view (announcement, notification while hidden). */
export interface ViewAlert {
  /** A short title, e.g. "Reminder". */
  readonly title: string;
  /** The text, e.g. the reminder prompt. */
  readonly body: string;
}

/** Texts of the empty page a renderer module may replace, by language. */
export interface PageHints {
  /** The composer's placeholder. */
  readonly placeholder?: Readonly<Record<Lang, string>>;
  /** The line shown in an empty conversation. */
  readonly hello?: Readonly<Record<Lang, string>>;
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
  register(registry: EventViewRegistry): () => void;
  /** Panels it can show (each only when the client configuration names it). @default none */
  readonly panels?: readonly PanelDefinition[];
  /** Texts of the empty page. @default the page's own */
  readonly hints?: PageHints;
  /**
   * Whether a newly committed view deserves an alert, and what it says.
   *
   * @param view a sidecar view that arrived after the window loaded
   * @param lang the UI language
   * @returns the alert, or `undefined` for none
   */
  alertOf?(view: EventView, lang: Lang): ViewAlert | undefined;
}

/** Answer of `GET /api/client-config`. */
export interface ClientConfigWire {
  /** Enabled renderer modules. */
  readonly renderers: readonly string[];
  /** Panels whose plugin is loaded and whose renderer is enabled. */
  readonly panels?: readonly string[];
}
