/**
 * The embedded UI island served at `/`, `/index.html`, `/app.js` and `/style.css`, and the
 * assets the enabled client renderer modules bring (`ClientRenderer.assets`, contract/page.ts)
 * at `clientAssetPaths(name)`. The page is imported as strings from `@chime/ui/assets`, so a
 * compiled binary needs no file system path.
 *
 * @module
 */
import { clientAssetPaths, type ClientAssets } from "@chime/contract";
import { RENDERER_ASSETS, UI_ASSETS } from "@chime/ui/assets";
import type { StaticAsset } from "./app.ts";

/**
 * The static files of the page, by URL path: the page itself and the assets of the enabled
 * renderer modules (a style sheet as `text/css`, a service worker as `text/javascript` with
 * `Service-Worker-Allowed: /` so it may control the whole page). The content security policy
 * of every answer stays the host's own.
 *
 * @param renderers the enabled renderer modules (`renderers` in `chime.jsonc`) @default none
 * @param table the assets of the renderer modules, by name @default those of the built page
 * @returns the assets with their content types
 *
 * @example The page is HTML; a renderer's worker is served beside it
 * ```ts
 * import { defaultAssets } from "@chime/host";
 * console.assert(defaultAssets()["/"]?.contentType.startsWith("text/html"));
 * const assets = defaultAssets(["@x/push"], { "@x/push": { worker: "self.onpush = () => {};" } });
 * console.assert(assets["/renderers/x-push.sw.js"]?.headers?.["Service-Worker-Allowed"] === "/");
 * ```
 */
export function defaultAssets(
  renderers: readonly string[] = [],
  table: Readonly<Record<string, ClientAssets>> = RENDERER_ASSETS,
): Record<string, StaticAsset> {
  const assets: Record<string, StaticAsset> = { ...UI_ASSETS };
  for (const name of renderers) {
    const own = Object.hasOwn(table, name) ? table[name]! : {};
    const paths = clientAssetPaths(name);
    if (own.css !== undefined) {
      assets[paths.css] = { contentType: "text/css; charset=utf-8", body: own.css };
    }
    if (own.worker !== undefined) {
      assets[paths.worker] = {
        contentType: "text/javascript; charset=utf-8",
        body: own.worker,
        headers: { "Service-Worker-Allowed": "/" },
      };
    }
  }
  return assets;
}
