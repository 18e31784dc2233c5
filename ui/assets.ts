/**
 * `@chime/ui/assets`: the built page embedded as strings, so the host serves it with no file
 * system path (works under `deno compile` from any working directory), and the names of the
 * client renderer modules bundled in it ({@linkcode RENDERER_NAMES}). Rebuild with
 * `deno run -A ui/build.ts`.
 *
 * @example Serve the page
 * ```ts
 * import { uiAsset } from "@chime/ui/assets";
 * const asset = uiAsset("/");
 * console.assert(asset?.contentType.startsWith("text/html"));
 * ```
 *
 * @module
 */
import type { ClientAssets } from "@chime/contract";
import { APP_JS, INDEX_HTML, RENDERER_ASSETS_JSON, STYLE_CSS } from "./assets_generated.ts";

export { RENDERER_NAMES } from "./renderer_names.ts";

/**
 * The assets each bundled renderer module brings (`ClientRenderer.assets`, contract/page.ts),
 * by module name, as the page build collected them; the host serves those of the enabled
 * modules at `clientAssetPaths(name)`.
 */
export const RENDERER_ASSETS: Readonly<Record<string, ClientAssets>> = JSON.parse(
  RENDERER_ASSETS_JSON,
);

/** One static asset of the page. */
export interface UiAsset {
  /** The `content-type` header value. */
  readonly contentType: string;
  /** The body (UTF-8 text). */
  readonly body: string;
}

const html: UiAsset = { contentType: "text/html; charset=utf-8", body: INDEX_HTML };

/** The page's assets by URL path (`/`, `/index.html`, `/app.js`, `/style.css`). */
export const UI_ASSETS: Readonly<Record<string, UiAsset>> = {
  "/": html,
  "/index.html": html,
  "/app.js": { contentType: "text/javascript; charset=utf-8", body: APP_JS },
  "/style.css": { contentType: "text/css; charset=utf-8", body: STYLE_CSS },
};

/**
 * Looks up an asset by URL path.
 *
 * @param pathname e.g. `/app.js`
 * @returns the asset, or `undefined` for any other path
 */
export function uiAsset(pathname: string): UiAsset | undefined {
  return Object.hasOwn(UI_ASSETS, pathname) ? UI_ASSETS[pathname] : undefined;
}

// Types in the signatures above, re-exported for documentation.
export type { ClientAssets } from "@chime/contract";
