/**
 * `@chime/agent`: the agent runtime (loop, pre-step hooks, tools, maintenance, follow-ups,
 * plugins, model adapters).
 *
 * @module
 */
export * from "./types.ts";
