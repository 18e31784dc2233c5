/**
 * The `@chime/schedule` plugin (seed §"决策"): for each root agent published after the plugin
 * loaded it installs, in that agent's scope only, the three management tools and one disposable
 * live owner sharing one FIFO. Cold history, earlier roots, child agents and other hosts never
 * activate it.
 *
 * @module
 */
import type { AgentScope, Plugin } from "@chime/agent";
import type { Clock } from "@chime/session";
import { ScheduleFifo } from "./fifo.ts";
import { foldSession } from "./fold.ts";
import { type ScheduleLogger, ScheduleOwner } from "./owner.ts";
import type { RandomBytes } from "./protocol.ts";
import { scheduleTools } from "./tools.ts";

/** The plugin name. */
export const SCHEDULE_PLUGIN_NAME = "@chime/schedule";

/** Options of {@linkcode schedulePlugin}. */
export interface SchedulePluginOptions {
  /** Wall clock and timers for tools and owner. @default each agent's own clock */
  readonly clock?: Clock;
  /** Where owners report contained failures and faults. @default `console` */
  readonly logger?: ScheduleLogger;
  /** Random bytes for new schedule ids. @default `crypto.getRandomValues` */
  readonly random?: RandomBytes;
}

function install(scope: AgentScope, options: SchedulePluginOptions): void {
  const { agent } = scope;
  // Only root agents (defensive: the loader already publishes roots only).
  if ((agent.session.header.delegationDepth ?? 0) !== 0) return;
  const fifo = new ScheduleFifo();
  const owner = new ScheduleOwner(agent, {
    fifo,
    ...(options.clock === undefined ? {} : { clock: options.clock }),
    ...(options.logger === undefined ? {} : { logger: options.logger }),
  });
  const tools = scheduleTools({
    fifo,
    onConfirmed: () => owner.recompute(),
    ...(options.clock === undefined ? {} : { clock: options.clock }),
    ...(options.random === undefined ? {} : { random: options.random }),
  });
  const handles: Disposable[] = [];
  const revoke = () => {
    for (const handle of handles.splice(0).reverse()) handle[Symbol.dispose]();
  };
  try {
    for (const tool of tools) handles.push(scope.registerTool(tool));
  } catch (error) {
    revoke();
    throw error;
  }
  scope.own({
    async [Symbol.asyncDispose]() {
      revoke();
      await owner[Symbol.asyncDispose]();
    },
  });
  owner.start();
}

/**
 * Creates the schedule plugin. For each root agent scope it registers `schedule_create`,
 * `schedule_list` and `schedule_delete`, and owns one {@linkcode ScheduleOwner}; ending the scope
 * (agent or plugin dispose) revokes the three tools and disposes the owner, which cancels its
 * timer and awaits its in-flight work. A registration failure rolls back the tools registered so
 * far. No durable record is ever deleted by teardown. `keepsLive(agent)` answers whether the
 * session's fold has an active record (a host keeps such a session live).
 *
 * @param options clock, logger and id randomness @default `{}`
 * @returns the plugin, named `@chime/schedule`
 *
 * @example Load it with the time-context plugin
 * ```ts
 * import { Loader } from "@chime/agent";
 * import { schedulePlugin } from "./plugin.ts";
 * await using loader = new Loader();
 * await using _handle = await loader.load(schedulePlugin());
 * ```
 */
export function schedulePlugin(options: SchedulePluginOptions = {}): Plugin {
  return {
    name: SCHEDULE_PLUGIN_NAME,
    setup: (scope) => install(scope, options),
    // An active record is delivered only while its session is live (seed "用户可见边界").
    keepsLive: (agent) => foldSession(agent.session.header, agent.session.events()).active.size > 0,
  };
}
