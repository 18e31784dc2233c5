/**
 * The time-context plugin: one `agent/pre-step` hook (docs/design.md#time-context-reading).
 *
 * The public types below are the narrow slices of `@chime/agent`'s `Plugin`, `AgentScope`,
 * `StepBatch` and `AgentHandle` that this plugin reads; they are structurally compatible (the
 * tests assert `TimeContextPlugin` is assignable to `Plugin`) and keep this package's documented
 * surface self-contained.
 *
 * @module
 */
import { TIME_CONTEXT_MARKER, type TimeContextMarkerData } from "./marker.ts";
import { formatTimeReading } from "./reading.ts";
import { deriveZones, type ZoneSourceMessage } from "./zones.ts";

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

/** What the hook reads of a step's batch (a slice of `StepBatch` from `@chime/agent`). */
export interface TimeContextBatch {
  /** The open turn. */
  readonly turnId: string;
  /** The `user-rpc` events claimed into this step, with their bound provenance. */
  readonly messages: readonly ZoneSourceMessage[];
  /** Follow-up frames admitted into this step. */
  readonly followups: readonly string[];
}

/** What the hook uses of the agent (a slice of `AgentHandle` from `@chime/agent`). */
export interface TimeContextAgent {
  /** The live session; only the immutable `header.timeZone` is read. */
  readonly session: { readonly header: { readonly timeZone?: string } };
  /** The agent's wall clock, epoch ms (UTC); used unless the options inject one. */
  readonly clock: { now(): number };
  /** Appends the marker; the agent records it only if the step then starts. */
  append(type: typeof TIME_CONTEXT_MARKER, data: TimeContextMarkerData): unknown;
}

/** The `agent/pre-step` hook this plugin registers; structurally a `PreStepHook`. */
export type TimeContextHook = (
  batch: TimeContextBatch,
  agent: TimeContextAgent,
) => readonly string[] | undefined;

/** The plugin; structurally a `Plugin` of `@chime/agent`. */
export interface TimeContextPlugin {
  /** Always `@chime/timecontext`. */
  readonly name: typeof TIME_CONTEXT_PLUGIN_NAME;
  /**
   * Registers the pre-step hook in the agent scope; the scope removes it when it ends.
   *
   * @param scope the agent scope (only `addPreStep` is used)
   */
  setup(scope: { addPreStep(hook: TimeContextHook): unknown }): void;
}

function timeContextHook(options: TimeContextOptions): TimeContextHook {
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
