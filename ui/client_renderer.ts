/**
 * The page side of one registration point per plugin (docs/architecture.md "Plugins"): a client
 * renderer module (e.g. `@chime/ui/schedule`) registers its event renderers and may bring page
 * panels (a side panel with a chip on phones), hints for the empty page and alerts for new
 * committed views. The page is generic: it enables the modules `GET /api/client-config` lists
 * and shows a module's panel only when that answer names it (its plugin is loaded, so its
 * routes exist).
 *
 * The contract itself is `@chime/contract`'s (`contract/page.ts`); this file re-exports it for the
 * page's own modules.
 *
 * @module
 */
export type {
  ApiRequest,
  ClientAssets,
  ClientConfigWire,
  ClientRenderer,
  OpenTarget,
  PageHints,
  PageViewDefinition,
  PageViewHost,
  PageViewModel,
  PageViewProps,
  PageWindow,
  PanelDefinition,
  PanelHost,
  PanelModel,
  PanelRequest,
  PanelViewProps,
  ViewAlert,
} from "@chime/contract";
