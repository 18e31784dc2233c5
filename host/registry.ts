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
import type { Plugin } from "@chime/contract";
import { schedulePlugin } from "@chime/schedule";
import { timeContextPlugin } from "@chime/timecontext";
import { RENDERER_NAMES } from "@chime/ui/assets";
import { ConfigError } from "./errors.ts";
import { pluginLogger } from "./log.ts";

/** Builds a fresh plugin instance. */
export type PluginFactory = () => Plugin;

/** One plugin a configuration may name. */
export interface RegistryEntry {
  /** The keys its `pluginOptions` entry may hold. */
  readonly options: readonly string[];
  /**
   * Checks the values of its options (the keys are checked against `options` first).
   *
   * @param where `pluginOptions["name"]`, for messages
   * @throws {ConfigError} `config_invalid` for a value out of range
   */
  readonly check: (options: Readonly<Record<string, unknown>>, where: string) => void;
  /** Builds a fresh instance from checked options. */
  readonly create: (options: Readonly<Record<string, unknown>>) => Plugin;
}

function checkWholeNumber(where: string, value: unknown, min: number, max: number): void {
  if (value === undefined) return;
  if (typeof value !== "number" || !Number.isInteger(value) || value < min || value > max) {
    throw new ConfigError(
      "config_invalid",
      `Cannot load config: ${where} must be an integer ${min}..${max}`,
    );
  }
}

/** Plugins a configuration may name, by name. */
export const PLUGINS: Readonly<Record<string, RegistryEntry>> = {
  "@chime/timecontext": {
    options: [],
    check: () => {},
    create: () => timeContextPlugin(),
  },
  "@chime/schedule": {
    // The hourly reminder budget (docs/recurring.md "Delivery").
    options: ["maxRemindersPerHour"],
    check: (options, where) =>
      checkWholeNumber(`${where}.maxRemindersPerHour`, options.maxRemindersPerHour, 1, 10_000),
    create: (options) =>
      schedulePlugin({
        logger: pluginLogger("schedule"),
        ...(options.maxRemindersPerHour === undefined
          ? {}
          : { maxRemindersPerHour: options.maxRemindersPerHour as number }),
      }),
  },
};

/** Client renderers a configuration may enable (bundled in the page). */
export const RENDERERS: readonly string[] = RENDERER_NAMES;

/**
 * Resolves configured names against the registry and checks each plugin's options.
 *
 * @param plugins plugin names, in load order
 * @param renderers renderer names
 * @param pluginOptions options by plugin name (`HostConfig.pluginOptions`) @default {}
 * @returns the plugin factories in order (each builds a fresh instance with its options)
 * @throws {ConfigError} `config_invalid` naming the unknown entry and the known ones, an option
 *   the plugin does not take, or a value out of range
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
  pluginOptions: Readonly<Record<string, Readonly<Record<string, unknown>>>> = {},
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
    const entry = Object.hasOwn(PLUGINS, name) ? PLUGINS[name] : undefined;
    if (entry === undefined) {
      throw new ConfigError(
        "config_invalid",
        `Cannot load config: unknown plugin "${name}" (known: ${Object.keys(PLUGINS).join(", ")})`,
      );
    }
    const options = Object.hasOwn(pluginOptions, name) ? pluginOptions[name]! : {};
    const where = `pluginOptions["${name}"]`;
    for (const key of Object.keys(options)) {
      if (!entry.options.includes(key)) {
        throw new ConfigError(
          "config_invalid",
          `Cannot load config: unknown option ${where}.${key} (known: ${
            entry.options.join(", ") || "none"
          })`,
        );
      }
    }
    // Out-of-range values fail here, at startup, not when the first session goes live.
    entry.check(options, where);
    return () => entry.create(options);
  });
}
