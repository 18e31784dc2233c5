/**
 * The static plugin and renderer registry. Names in `chime.jsonc` resolve here, never through a
 * dynamic `import()` of a path, so `deno compile` embeds everything a config can name.
 *
 * @module
 */
import type { Plugin } from "@chime/agent";
import {
  SCHEDULE_CHANGE,
  scheduleChangeView,
  schedulePlugin,
  scheduleReminderPresentations,
  tryDecodeScheduleChange,
} from "@chime/schedule";
import { timeContextPlugin } from "@chime/timecontext";
import { ConfigError } from "./errors.ts";
import type { EventView } from "./frame.ts";
import type { ViewSource } from "./views.ts";

/** What a plugin name brings: the plugin and, optionally, its commit-gated views. */
export interface PluginEntry {
  /** Builds a fresh plugin instance. */
  create(): Plugin;
  /** Views for the durable events the plugin writes. */
  readonly views?: ViewSource;
}

/** Views of `schedule/change` dispatches (seed §"Commit-aware Web 回执"). */
export const scheduleViews: ViewSource = {
  gated: (event) =>
    event.type === SCHEDULE_CHANGE && tryDecodeScheduleChange(event.data)?.op === "dispatch",
  build(header, events, seqs) {
    const through = Math.max(...seqs);
    const receipts = scheduleReminderPresentations(header, events, { through });
    const out = new Map<number, EventView>();
    for (const seq of seqs) {
      const receipt = receipts.get(seq);
      if (receipt !== undefined) out.set(seq, scheduleChangeView(receipt));
    }
    return out;
  },
};

/** Plugins a configuration may name. */
export const PLUGINS: Readonly<Record<string, PluginEntry>> = {
  "@chime/timecontext": { create: () => timeContextPlugin() as unknown as Plugin },
  "@chime/schedule": { create: () => schedulePlugin(), views: scheduleViews },
};

/** Client renderers a configuration may enable (bundled in the page). */
export const RENDERERS: readonly string[] = ["@chime/ui/schedule"];

/**
 * Resolves configured names against the registry.
 *
 * @param plugins plugin names, in load order
 * @param renderers renderer names
 * @returns the plugin entries in order
 * @throws {ConfigError} `config_invalid` naming the unknown entry and the known ones
 *
 * @example The web-schedule names resolve
 * ```ts
 * import { resolveRegistry } from "./registry.ts";
 * const entries = resolveRegistry(["@chime/timecontext", "@chime/schedule"], ["@chime/ui/schedule"]);
 * console.assert(entries.length === 2);
 * ```
 */
export function resolveRegistry(
  plugins: readonly string[],
  renderers: readonly string[],
): PluginEntry[] {
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
    return entry;
  });
}
