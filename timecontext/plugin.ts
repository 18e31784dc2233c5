/**
 * The time-context plugin: one `agent/pre-step` hook (docs/design.md#time-context-reading),
 * typed by the plugin contract of `@chime/contract` (`contract/plugin.ts`).
 *
 * @module
 */
import type { Plugin, PreStepHook } from "@chime/contract";
import { TIME_CONTEXT_MARKER } from "./marker.ts";
import { formatTimeReading } from "./reading.ts";
import { deriveZones } from "./zones.ts";

/** The plugin name. */
export const TIME_CONTEXT_PLUGIN_NAME = "@chime/timecontext";

/** Options of {@linkcode timeContextPlugin}. */
export interface TimeContextOptions {
  /**
   * Wall clock the reading is sampled from; `now()` returns epoch milliseconds (UTC). Any
   * `Clock` of `@chime/session` fits.
   *
   * @default the agent's own clock (`AgentHandle.clock`)
   */
  readonly clock?: { now(): number };
}

/** The plugin: a `Plugin` of `@chime/contract` named `@chime/timecontext`. */
export interface TimeContextPlugin extends Plugin {
  /** Always `@chime/timecontext`. */
  readonly name: typeof TIME_CONTEXT_PLUGIN_NAME;
}

function timeContextHook(options: TimeContextOptions): PreStepHook {
  return (batch, agent) => {
    // The agent only calls hooks with a non-empty batch; an empty one gets nothing, so no
    // reading and no marker can exist without content to read it with.
    if (batch.messages.length === 0 && batch.followups.length === 0) return undefined;
    const zones = deriveZones(agent.session.header, batch.messages);
    const reading = formatTimeReading((options.clock ?? agent.clock).now(), zones);
    agent.append(TIME_CONTEXT_MARKER, { turnId: batch.turnId });
    return [reading];
  };
}

/**
 * The `@chime/timecontext` plugin (docs/design.md#time-context-reading). It
 * registers one `agent/pre-step` hook on each root agent. For the final, non-empty batch of a step
 * the hook derives the session zone from the immutable header and the client zones from the
 * batch messages' bound provenance ({@linkcode deriveZones}), returns one model-visible reading
 * ({@linkcode formatTimeReading}) for that step only, and appends `time-context/marker { turnId }`
 * through `agent.append`, which the agent records only if the step starts. A follow-up-only batch
 * still gets a reading. The plugin adds no inbox or loop state and copies no zone facts.
 *
 * @param options the clock to sample @default `{}` (the agent's clock)
 * @returns the plugin, named `@chime/timecontext`
 *
 * @example Create the plugin for the agent's plugin loader
 * ```ts
 * import assert from "node:assert/strict";
 * import { timeContextPlugin } from "@chime/timecontext";
 * const plugin = timeContextPlugin();
 * assert.ok(plugin.name === "@chime/timecontext");
 * ```
 */
export function timeContextPlugin(options: TimeContextOptions = {}): TimeContextPlugin {
  return {
    name: TIME_CONTEXT_PLUGIN_NAME,
    setup(scope) {
      scope.addPreStep(timeContextHook(options));
    },
  };
}
