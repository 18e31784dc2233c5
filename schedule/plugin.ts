/**
 * The `@chime/schedule` plugin (docs/design.md#decision): for each root agent published after the
 * plugin loaded it installs, in that agent's scope only, the five management tools, the page
 * actions (snooze, stop), one pre-step hook that tells the model about changes made outside its own
 * tool calls, and one disposable live owner, all sharing one FIFO. Cold history, earlier roots,
 * child agents and other hosts never activate it.
 *
 * @module
 */
import type { AgentScope, Plugin } from "@chime/contract";
import type { Clock } from "@chime/session";
import { activityHook } from "./_activity.ts";
import { bindScheduleActions, ScheduleActions } from "./actions.ts";
import { endSchedules } from "./end_session.ts";
import { ScheduleFifo } from "./fifo.ts";
import { LiveSchedule } from "./live.ts";
import { type ScheduleLogger, ScheduleOwner } from "./owner.ts";
import { isPaused, type RandomBytes } from "./protocol.ts";
import type { ScheduleChangeReader } from "./reader.ts";
import { defaultRandom, scheduleTools } from "./tools.ts";
import { scheduleLogCheck } from "./log_check.ts";
import { scheduleWeb } from "./web.ts";

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
  /** Dispatches per session in any trailing hour (docs/recurring.md "Delivery"). @default 60 */
  readonly maxRemindersPerHour?: number;
  /** Longest owner timer segment, ms. @default 60_000 */
  readonly maxSegmentMs?: number;
  /** Owner clock check cadence while armed, ms (docs/recurring.md "Delivery"). @default 1000 */
  readonly clockCheckMs?: number;
  /**
   * Where each agent's live state reads its `schedule/change` events on start.
   * @default {@linkcode storeReader} of the agent's store (its `readByType` index when it has one)
   */
  readonly readChanges?: ScheduleChangeReader;
  /**
   * The folder of the Upcoming projection's start-up cache (docs/upcoming.md "The start-up
   * cache"; the host passes `<dataDir>/schedule`). @default none: every start reads the logs
   */
  readonly upcomingCacheDir?: string;
}

function install(scope: AgentScope, options: SchedulePluginOptions): void | Promise<void> {
  const { agent } = scope;
  // Only root agents (defensive: the loader already publishes roots only).
  if ((agent.session.header.delegationDepth ?? 0) !== 0) return;
  const fifo = new ScheduleFifo();
  const clock = options.clock === undefined ? {} : { clock: options.clock };
  const owner = new ScheduleOwner(agent, {
    fifo,
    ...clock,
    ...(options.logger === undefined ? {} : { logger: options.logger }),
    ...(options.maxRemindersPerHour === undefined
      ? {}
      : { maxRemindersPerHour: options.maxRemindersPerHour }),
    ...(options.maxSegmentMs === undefined ? {} : { maxSegmentMs: options.maxSegmentMs }),
    ...(options.clockCheckMs === undefined ? {} : { clockCheckMs: options.clockCheckMs }),
  });
  const shared = { fifo, onConfirmed: () => owner.recompute(), ...clock };
  const random = options.random ?? defaultRandom;
  const tools = scheduleTools({ ...shared, random });
  const handles: Disposable[] = [];
  const revoke = () => {
    for (const handle of handles.splice(0).reverse()) handle[Symbol.dispose]();
  };
  try {
    for (const tool of tools) handles.push(scope.registerTool(tool));
    handles.push(scope.addPreStep(activityHook));
    handles.push(bindScheduleActions(agent, new ScheduleActions(agent, { ...shared, random })));
  } catch (error) {
    revoke();
    throw error;
  }
  const read = options.readChanges === undefined ? {} : { read: options.readChanges };
  const schedule = LiveSchedule.for(agent, read);
  scope.own({
    async [Symbol.asyncDispose]() {
      revoke();
      await owner[Symbol.asyncDispose]();
      schedule[Symbol.dispose](); // last: the owner's in-flight work still reads it
    },
  });
  // The state is complete before setup settles, so the first answer of `keepsLive` is exact.
  if (schedule.loaded) return owner.start();
  return schedule.ready.then(() => owner.start());
}

/**
 * Creates the schedule plugin. For each root agent scope it registers `schedule_create`,
 * `schedule_list`, `schedule_delete`, `schedule_update` and `schedule_snooze`, one pre-step hook
 * (the `[schedule-activity]` note), publishes the page actions (`scheduleActions(agent)`) and
 * owns one {@linkcode ScheduleOwner}; ending the scope (agent or plugin dispose) revokes the
 * tools, the hook and the actions and disposes the owner, which cancels its timer and awaits its
 * in-flight work. A registration failure rolls back the tools registered so
 * far. No durable record is ever deleted by teardown. Each agent's {@linkcode LiveSchedule} is
 * built on setup from its `schedule/change` events only and kept current at each append;
 * `keepsLive(agent)` answers from it whether the session has an active record that can fire, a
 * paused series not counted (a host keeps such a session live; `true` while the state still
 * loads, `false` for an agent the plugin never set up). Its `web` part ({@linkcode scheduleWeb}) brings the reminders routes, the
 * dispatch views and the names of its client renderer and page panel to a web host.
 *
 * @param options clock, logger, id randomness, hourly budget, segment @default `{}`
 * @returns the plugin, named `@chime/schedule`
 *
 * @example Load it with the time-context plugin
 * ```ts
 * import { Loader } from "@chime/agent";
 * import { schedulePlugin } from "@chime/schedule";
 * await using loader = new Loader();
 * await using _handle = await loader.load(schedulePlugin());
 * ```
 */
export function schedulePlugin(options: SchedulePluginOptions = {}): Plugin {
  return {
    name: SCHEDULE_PLUGIN_NAME,
    setup: (scope) => install(scope, options),
    // An active record is delivered only while its session is live (docs/design.md#decision).
    keepsLive(agent) {
      const schedule = LiveSchedule.of(agent.session);
      if (schedule === undefined) return false; // not set up for this agent: no owner to keep
      if (!schedule.loaded) return true;
      for (const record of schedule.state.active.values()) if (!isPaused(record)) return true;
      return false; // nothing can fire: a paused series alone does not keep a session live
    },
    // A deleted session ends its reminders with recorded deletes (`./end_session.ts`).
    endSession: async (target) => {
      await endSchedules(target, options.readChanges);
    },
    web: scheduleWeb(
      options.upcomingCacheDir === undefined ? {} : { upcomingCacheDir: options.upcomingCacheDir },
    ),
    logCheck: scheduleLogCheck,
  };
}
