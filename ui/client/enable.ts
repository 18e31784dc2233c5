/**
 * What the page enables from its client configuration (docs/architecture.md "Plugins"): the
 * renderer modules it bundles that `GET /api/client-config` lists, their event renderers, and
 * those of their panels the answer names (whose plugin is loaded). Generic: it knows no module
 * by name.
 *
 * @module
 */
import type {
  ClientConfigWire,
  ClientRenderer,
  PageHints,
  PageViewDefinition,
  PageViewHost,
  PageViewModel,
  PanelDefinition,
  PanelHost,
  PanelModel,
  ViewAlert,
} from "../client_renderer.ts";
import type { Lang } from "../i18n.ts";
import type { EventViewRegistry } from "../registry.ts";
import type { EventView } from "../wire.ts";

/** A panel the client configuration enabled, with its model for this page. */
export interface ShownPanel {
  /** What the renderer module declared. */
  readonly definition: PanelDefinition;
  /** Its state. */
  readonly model: PanelModel;
}

/** A page view the client configuration enabled, with its model for this page. */
export interface ShownView {
  /** What the renderer module declared. */
  readonly definition: PageViewDefinition;
  /** Its state. */
  readonly model: PageViewModel;
}

/** What {@linkcode enable} turned on. */
export interface Enabled {
  /** The enabled modules, in configuration order. */
  readonly modules: readonly ClientRenderer[];
  /** Their panels the configuration names. */
  readonly panels: readonly ShownPanel[];
  /** Their page views the configuration names (none without a `viewHost`). */
  readonly views: readonly ShownView[];
  /** Unregisters the modules' renderers and disposes the panels and views. */
  off(): void;
}

/**
 * Enables what a client configuration lists. Unknown module names are skipped (a page older
 * than its host); a panel shows only when the configuration names it.
 *
 * @param config the answer of `GET /api/client-config`
 * @param known the modules the page bundles, by name
 * @param registry where the modules register their event renderers
 * @param host what panels get from the page
 * @param viewHost what page views get from the page; absent: no page views
 * @returns modules, panels, views and the way to turn them off
 */
export function enable(
  config: ClientConfigWire,
  known: Readonly<Record<string, ClientRenderer>>,
  registry: EventViewRegistry,
  host: PanelHost,
  viewHost?: PageViewHost,
): Enabled {
  const modules = config.renderers.flatMap((name) =>
    Object.hasOwn(known, name) ? [known[name]!] : []
  );
  const offs = modules.map((module) => module.register(registry));
  const panels = modules.flatMap((module) => module.panels ?? [])
    .filter((definition) => config.panels?.includes(definition.name))
    .map((definition) => ({ definition, model: definition.create(host) }));
  const views = viewHost === undefined ? [] : modules.flatMap((module) => module.views ?? [])
    .filter((definition) => config.panels?.includes(definition.name))
    .map((definition) => ({ definition, model: definition.create(viewHost) }));
  return {
    modules,
    panels,
    views,
    off() {
      for (const p of panels) p.model[Symbol.dispose]();
      for (const v of views) v.model[Symbol.dispose]();
      for (const unregister of offs) unregister();
    },
  };
}

/**
 * The first hint the modules give for a text of the empty page.
 *
 * @param modules enabled modules
 * @param key which text
 * @param lang the UI language
 * @returns the hint, or `undefined` (the page's own text then)
 */
export function hintOf(
  modules: readonly ClientRenderer[],
  key: keyof PageHints,
  lang: Lang,
): string | undefined {
  return modules.map((m) => m.hints?.[key]?.[lang]).find((t) => t !== undefined);
}

/**
 * The first alert the modules raise for a new committed view.
 *
 * @param modules enabled modules
 * @param view the view
 * @param lang the UI language
 * @returns the alert, or `undefined` for none
 */
export function alertOf(
  modules: readonly ClientRenderer[],
  view: EventView,
  lang: Lang,
): ViewAlert | undefined {
  return modules.map((m) => m.alertOf?.(view, lang)).find((a) => a !== undefined);
}
