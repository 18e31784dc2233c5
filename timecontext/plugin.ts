/**
 * The time-context plugin: one `agent/pre-step` hook (seed §"Session 与请求时区归属").
 *
 * @module
 */
import type { Plugin, PreStepHook } from "@chime/agent";
import type { Clock } from "@chime/session";
import { TIME_CONTEXT_MARKER, type TimeContextMarkerData } from "./marker.ts";
import { formatTimeReading } from "./reading.ts";
import { deriveZones } from "./zones.ts";

/** Options of {@linkcode timeContextPlugin}. */
export interface TimeContextOptions {
  /**
   * Wall clock the reading is sampled from (epoch ms, UTC).
   *
   * @default the agent's own clock (`AgentHandle.clock`)
   */
  readonly clock?: Pick<Clock, "now">;
}

/** The plugin name. */
export const TIME_CONTEXT_PLUGIN_NAME = "@chime/timecontext";

/**
 * Builds the pre-step hook alone (what {@linkcode timeContextPlugin} registers).
 *
 * For the final non-empty batch of a step it derives the session zone from the immutable header
 * and the client zones from the batch messages' bound provenance, returns one model-visible
 * reading, and appends `time-context/marker { turnId }` through `agent.append` (the agent records
 * it only if the step starts). An empty batch gets nothing (empty suppression).
 *
 * @param options the clock to sample
 * @returns the hook
 *
 * @example
 * ```ts
 * import { timeContextHook } from "./plugin.ts";
 * const hook = timeContextHook({ clock: { now: () => Date.UTC(2026, 0, 1) } });
 * console.assert(typeof hook === "function");
 * ```
 */
export function timeContextHook(options: TimeContextOptions = {}): PreStepHook {
  return (batch, agent) => {
    if (batch.messages.length === 0 && batch.followups.length === 0) return;
    const zones = deriveZones(agent.session.header, batch.messages);
    const reading = formatTimeReading((options.clock ?? agent.clock).now(), zones);
    const marker: TimeContextMarkerData = { turnId: batch.turnId };
    agent.append(TIME_CONTEXT_MARKER, marker);
    return [reading];
  };
}

/**
 * The `@chime/timecontext` plugin: registers {@linkcode timeContextHook} on each root agent, so
 * every step that starts carries a time reading and the turn carries a marker Schedule can
 * require (seed §"Session 与请求时区归属"). It adds no inbox or loop state.
 *
 * @param options the clock to sample @default the agent's clock
 * @returns the plugin, named `@chime/timecontext`
 *
 * @example Load it with an agent's plugins
 * ```ts
 * import { timeContextPlugin } from "./plugin.ts";
 * const plugin = timeContextPlugin();
 * console.assert(plugin.name === "@chime/timecontext");
 * ```
 */
export function timeContextPlugin(options: TimeContextOptions = {}): Plugin {
  return {
    name: TIME_CONTEXT_PLUGIN_NAME,
    setup(scope) {
      scope.addPreStep(timeContextHook(options));
    },
  };
}
