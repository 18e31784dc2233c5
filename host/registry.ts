/**
 * The static plugin registry: names in `chime.jsonc` resolve here, never through a dynamic
 * `import()` of a path, so `deno compile` embeds everything a config can name. It is the one
 * place the host names a plugin: everything else a plugin brings (tools, hooks, owners, routes,
 * views, renderer and panel names) arrives through the plugin object itself
 * (docs/architecture.md "Plugins"). Renderer names are those bundled in the page
 * (`RENDERER_NAMES` of `@chime/ui/assets`).
 *
 * @module
 */
import type { Plugin } from "@chime/agent";
import { schedulePlugin } from "@chime/schedule";
import { timeContextPlugin } from "@chime/timecontext";
import { RENDERER_NAMES } from "@chime/ui/assets";
import { ConfigError } from "./errors.ts";
import { pluginLogger } from "./log.ts";

/** Builds a fresh plugin instance. */
export type PluginFactory = () => Plugin;

/** Plugins a configuration may name, by name. */
export const PLUGINS: Readonly<Record<string, PluginFactory>> = {
  "@chime/timecontext": () => timeContextPlugin() as unknown as Plugin,
  "@chime/schedule": () => schedulePlugin({ logger: pluginLogger("schedule") }),
};

/** Client renderers a configuration may enable (bundled in the page). */
export const RENDERERS: readonly string[] = RENDERER_NAMES;

/**
 * Resolves configured names against the registry.
 *
 * @param plugins plugin names, in load order
 * @param renderers renderer names
 * @returns the plugin factories in order
 * @throws {ConfigError} `config_invalid` naming the unknown entry and the known ones
 *
 * @example The web-schedule names resolve
 * ```ts
 * import { resolveRegistry } from "@chime/host";
 * const factories = resolveRegistry(["@chime/timecontext", "@chime/schedule"], ["@chime/ui/schedule"]);
 * console.assert(factories.length === 2);
 * ```
 */
export function resolveRegistry(
  plugins: readonly string[],
  renderers: readonly string[],
): PluginFactory[] {
  for (const name of renderers) {
    if (!RENDERERS.includes(name)) {
      throw new ConfigError(
        "config_invalid",
        `Cannot load config: unknown renderer "${name}" (known: ${RENDERERS.join(", ")})`,
      );
    }
  }
  return plugins.map((name) => {
    const create = Object.hasOwn(PLUGINS, name) ? PLUGINS[name] : undefined;
    if (create === undefined) {
      throw new ConfigError(
        "config_invalid",
        `Cannot load config: unknown plugin "${name}" (known: ${Object.keys(PLUGINS).join(", ")})`,
      );
    }
    return create;
  });
}
