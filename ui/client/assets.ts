/**
 * The browser half of `ClientRenderer.assets` (contract/page.ts): the enabled renderer modules'
 * style sheets are linked and their service workers registered, each from the path the host
 * serves it at (`clientAssetPaths`), so the page's content security policy (`'self'` only) holds.
 *
 * @module
 */
import { clientAssetPaths } from "@chime/contract";
import type { ClientRenderer } from "../client_renderer.ts";

/** What {@linkcode installAssets} uses of the browser (the real one by default). */
export interface AssetsEnv {
  /** Whether a style sheet with this `href` is already linked. */
  hasSheet(href: string): boolean;
  /** Links a style sheet. */
  linkSheet(href: string): void;
  /** Registers a service worker for scope `/`; absent without the Service Worker API. */
  readonly registerWorker?: (url: string) => Promise<unknown>;
}

function browserEnv(): AssetsEnv {
  const workers = globalThis.navigator?.serviceWorker;
  return {
    hasSheet: (href) =>
      [...document.querySelectorAll('link[rel="stylesheet"]')].some((link) =>
        link.getAttribute("href") === href
      ),
    linkSheet: (href) => {
      const link = document.createElement("link");
      link.rel = "stylesheet";
      link.href = href;
      document.head.append(link);
    },
    ...(workers === undefined ? {} : {
      registerWorker: (url: string) => workers.register(url, { scope: "/" }),
    }),
  };
}

/**
 * Links the style sheets and registers the service workers of the enabled modules. A worker
 * that fails to register (an insecure origin, a private window) leaves the page as it is.
 *
 * @param modules the enabled renderer modules
 * @param env the browser's document and service workers @default the real ones
 * @returns the paths it linked or registered, in module order
 *
 * @example A module with a style sheet and a worker
 * ```ts
 * import { installAssets } from "@chime/ui";
 * const linked: string[] = [];
 * const done = installAssets([{ name: "@x/push", register: () => () => {},
 *   assets: { css: "p{}", worker: "self.onpush=()=>{}" } }], {
 *   hasSheet: () => false,
 *   linkSheet: (href) => void linked.push(href),
 *   registerWorker: () => Promise.resolve(),
 * });
 * console.assert(done.join() === "/renderers/x-push.css,/renderers/x-push.sw.js");
 * ```
 */
export function installAssets(
  modules: readonly ClientRenderer[],
  env: AssetsEnv = browserEnv(),
): string[] {
  const done: string[] = [];
  for (const module of modules) {
    const paths = clientAssetPaths(module.name);
    if (module.assets?.css !== undefined && !env.hasSheet(paths.css)) {
      env.linkSheet(paths.css);
      done.push(paths.css);
    }
    if (module.assets?.worker !== undefined && env.registerWorker !== undefined) {
      env.registerWorker(paths.worker).catch(() => {});
      done.push(paths.worker);
    }
  }
  return done;
}
