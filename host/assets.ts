/**
 * The embedded UI island served at `/`, `/index.html`, `/app.js` and `/style.css`. The page is
 * imported as strings from `@chime/ui/assets`, so a compiled binary needs no file system path.
 *
 * @module
 */
import { UI_ASSETS } from "@chime/ui/assets";
import type { StaticAsset } from "./app.ts";

/**
 * The static files of the page, by URL path.
 *
 * @returns the page's assets with their content types
 *
 * @example The page is HTML
 * ```ts
 * import { defaultAssets } from "@chime/host";
 * console.assert(defaultAssets()["/"]?.contentType.startsWith("text/html"));
 * ```
 */
export function defaultAssets(): Record<string, StaticAsset> {
  return { ...UI_ASSETS };
}
