/**
 * The schedule tools' names and argument shapes, as a model (or a model adapter such as
 * `@chime/offline`) sends them (docs/recurring.md "Tools"). The JSON Schemas the tools publish
 * are generated from the same definitions the tools validate with; these types are held equal
 * to them by a compile-time test.
 *
 * @module
 */

/** The eight tool names (docs/recurring.md "Tools"). */
export const SCHEDULE_TOOL_NAMES: {
  readonly create: "schedule_create";
  readonly list: "schedule_list";
  readonly delete: "schedule_delete";
  readonly update: "schedule_update";
  readonly snooze: "schedule_snooze";
  readonly pause: "schedule_pause";
  readonly resume: "schedule_resume";
  readonly skip: "schedule_skip";
} = {
  create: "schedule_create",
  list: "schedule_list",
  delete: "schedule_delete",
  update: "schedule_update",
  snooze: "schedule_snooze",
  pause: "schedule_pause",
  resume: "schedule_resume",
  skip: "schedule_skip",
};

/** A local wall-clock target `{ date, time, time_zone? }` read in the session's zone. */
export interface LocalAtArgs {
  /** Local calendar date `YYYY-MM-DD`. */
  readonly date: string;
  /** Local 24-hour time `HH:MM` or `HH:MM:SS`. */
  readonly time: string;
  /** Explicit IANA zone, only when the user named or confirmed one. */
  readonly time_zone?: string | undefined;
}

/** The recurring selector `repeat` (an RFC 5545 RRULE in local time of the zone). */
export interface RepeatArgs {
  /** RRULE value without the `RRULE:` prefix, e.g. `FREQ=DAILY;BYHOUR=9;BYMINUTE=0`. */
  readonly rrule: string;
  /** Local DTSTART; default: the next whole minute after the decision instant. */
  readonly start?: { readonly date: string; readonly time: string } | undefined;
  /** Explicit IANA zone, only when the user named or confirmed one. */
  readonly time_zone?: string | undefined;
  /** Skip an occurrence missed by more than this many seconds (positive integer). */
  readonly catch_up_seconds?: number | undefined;
}

/** The three selectors; `schedule_create` takes exactly one, `schedule_update` at most one. */
export interface SelectorArgs {
  /** Delay from now, whole seconds (positive). */
  readonly after_seconds?: number | undefined;
  /** RFC 3339 instant with seconds and `Z` or an offset, or a local `{ date, time }`. */
  readonly at?: string | LocalAtArgs | undefined;
  /** A repeating reminder. */
  readonly repeat?: RepeatArgs | undefined;
}

/** Arguments of `schedule_create`: the prompt (at most 1,000 code points) and one selector. */
export interface CreateArgs extends SelectorArgs {
  /** What to remind the user about (non-empty after trimming). */
  readonly prompt: string;
}

/** Arguments of `schedule_update`: the id, and a new prompt and/or one new selector. */
export interface UpdateArgs extends SelectorArgs {
  /** The reminder id (`sch_…`). */
  readonly id: string;
  /** The new prompt. */
  readonly prompt?: string | undefined;
}

/** Arguments of `schedule_delete`. */
export interface DeleteArgs {
  /** The reminder id (`sch_…`). */
  readonly id: string;
}

/** Arguments of `schedule_snooze`: `60 ≤ after_seconds ≤ 604800` (7 days). */
export interface SnoozeArgs {
  /** The reminder id (`sch_…`). */
  readonly id: string;
  /** Delay from now, whole seconds. */
  readonly after_seconds: number;
}

/** Arguments of `schedule_pause` and `schedule_resume`. */
export interface SeriesArgs {
  /** The repeating reminder's id (`sch_…`). */
  readonly id: string;
}

/** Arguments of `schedule_skip`: the series and, optionally, which occurrence. */
export interface SkipArgs {
  /** The repeating reminder's id (`sch_…`). */
  readonly id: string;
  /** The occurrence to skip, an RFC 3339 instant; default: the next occurrence. */
  readonly occurrence_at?: string | undefined;
}
