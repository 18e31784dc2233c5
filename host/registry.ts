/**
 * The static plugin and renderer registry. Names in `chime.jsonc` resolve here, never through a
 * dynamic `import()` of a path, so `deno compile` embeds everything a config can name.
 *
 * @module
 */
import type { Plugin } from "@chime/agent";
import type { SessionEvent } from "@chime/session";
import {
  foldStart,
  SCHEDULE_CHANGE,
  scheduleChangeView,
  schedulePlugin,
  scheduleReminderPresentations,
  tryDecodeScheduleChange,
} from "@chime/schedule";
import { timeContextPlugin } from "@chime/timecontext";
import { ConfigError } from "./errors.ts";
import { scheduleLogger } from "./log.ts";
import type { EventView } from "./frame.ts";
import type { ContextScan, ViewSource } from "./views.ts";

/** What a plugin name brings: the plugin and, optionally, its commit-gated views. */
export interface PluginEntry {
  /** Builds a fresh plugin instance. */
  create(): Plugin;
  /** Views for the durable events the plugin writes. */
  readonly views?: ViewSource;
}

/**
 * The creates (and updates) the dispatches of `gated` pair with, under the rules of
 * `scheduleReminderPresentations` (schedule/presentation.ts): an own dispatch (`seq ≥
 * seedLength`) pairs with the nearest same-id create in `[seedLength, seq)`, an inherited one
 * with the nearest same-id create before it. Keeping exactly those creates (newest first) makes
 * the sparse list present every dispatch as the dense log would.
 */
function dispatchContext(header: Parameters<typeof foldStart>[0], gated: readonly SessionEvent[]) {
  const seedLength = foldStart(header);
  let pending = gated.flatMap((event) => {
    const change = tryDecodeScheduleChange(event.data);
    return change?.op === "dispatch"
      ? [{ seq: event.seq, id: change.id, own: event.seq >= seedLength }]
      : [];
  });
  const scan: ContextScan = {
    offer(event) {
      // Below the boundary an own dispatch can no longer pair: it has no receipt.
      if (event.seq < seedLength) pending = pending.filter((p) => !p.own);
      if (event.type !== SCHEDULE_CHANGE || pending.length === 0) return false;
      const change = tryDecodeScheduleChange(event.data);
      // An update pairs like the create it replaces (schedule/presentation.ts).
      if (change?.op !== "create" && change?.op !== "update") return false;
      const before = pending.length;
      pending = pending.filter((p) => p.id !== change.record.id || p.seq <= event.seq);
      return pending.length < before;
    },
    get done() {
      return pending.length === 0;
    },
  };
  return scan;
}

/**
 * Views of `schedule/change` dispatches (seed §"Commit-aware Web 回执"), one-shot and recurring
 * (docs/recurring.md "Host and page"). Other transitions (`skip`, `stop`, `update`, …) get no
 * view: the page shows them raw.
 */
export const scheduleViews: ViewSource = {
  context: dispatchContext,
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
  "@chime/schedule": {
    create: () => schedulePlugin({ logger: scheduleLogger() }),
    views: scheduleViews,
  },
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
 * import { resolveRegistry } from "@chime/host";
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
