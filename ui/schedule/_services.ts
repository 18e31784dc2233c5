/**
 * The {@linkcode ScheduleServices} the page lends the schedule renderer (docs/recurring.md "Host
 * and page"): the actions a reminder card or panel row offers (snooze, stop, pause, resume, skip
 * next, edit), their outcomes, a series' history, and what the host's list says of each active
 * reminder.
 *
 * @module
 */
import type { ReminderAction } from "./_strings.ts";
import type { LocalParts } from "./_local_time.ts";
import type { RenderContext } from "../registry.ts";
import type { CardState } from "./_outcomes.ts";
import type { ActiveReminderWire, ReminderHistoryEntryWire, ReminderUpdateBody } from "../wire.ts";

/** What a click led to (or, for a card, what the durable log says came of it). */
export interface ReminderOutcome {
  /** `pending` while the request runs. */
  readonly state:
    | "pending"
    | "snoozed"
    | "stopped"
    | "paused"
    | "resumed"
    | "skipped"
    | "changed"
    | "failed";
  /** Snoozed: the new target, UTC RFC 3339. */
  readonly until?: string;
  /** Failed: the host's error code (shown as a sentence, never raw). */
  readonly code?: string;
  /** Failed: what was tried. */
  readonly action?: ReminderAction;
  /**
   * The window's durable bound when the click was made: a durable outcome at or above it is
   * newer than the click and is shown instead.
   */
  readonly since?: number;
}

/** A reminder's history as the panel fetched it. */
export interface HistoryState {
  /** `loading` while the request runs. */
  readonly state: "loading" | "loaded" | "failed";
  /** Loaded: the entries, oldest first. */
  readonly entries?: readonly ReminderHistoryEntryWire[];
  /** Failed: the host's error code. */
  readonly code?: string;
}

/**
 * What a page lends the renderer through `RenderContext.services[SCHEDULE_SERVICES]`: the
 * card and row actions (docs/recurring.md "Host and page"), their outcomes, which recurring
 * reminders are still active, and the prompts of records the window holds. The members after
 * `stop` are optional: a page without them shows only Snooze and Stop repeating.
 */
export interface ScheduleServices {
  /** Ids of active recurring reminders (the host's fold, `GET /reminders`). */
  readonly activeRecurring: ReadonlySet<string>;
  /** The prompt of a record created or changed in the window, by id. */
  promptOf(scheduleId: string): string | undefined;
  /** The outcome of the last click on the card or row `key` in this page (memory only). */
  outcome(key: string): ReminderOutcome | undefined;
  /**
   * The card of a delivered occurrence as the durable log tells it: whether it may act (it is
   * its reminder's latest delivered occurrence, the one the host snoozes) and what came of it
   * (snoozed until …, stopped), so the outcome survives a reload.
   *
   * @param scheduleId the delivered reminder
   * @param occurrenceAt the delivered occurrence, UTC RFC 3339
   * @param seq the card's dispatch seq
   */
  card?(scheduleId: string, occurrenceAt: string, seq: number): CardState;
  /** Snoozes a reminder by `seconds` (60 ≤ seconds ≤ 7 days). */
  snooze(scheduleId: string, seconds: number, key: string): void;
  /** Stops a recurring reminder. */
  stop(scheduleId: string, key: string): void;
  /** The host's listed row of an active reminder (paused, preview), by id. */
  reminder?(scheduleId: string): ActiveReminderWire | undefined;
  /** The instant a click happens (injected in tests). */
  now?(): Date;
  /** Snoozes a reminder until a local date and time in the session's zone. */
  snoozeUntil?(scheduleId: string, until: LocalParts, key: string): void;
  /** Pauses a series. */
  pause?(scheduleId: string, key: string): void;
  /** Resumes a paused series at its next future occurrence. */
  resume?(scheduleId: string, key: string): void;
  /** Skips a series' next occurrence. */
  skip?(scheduleId: string, key: string): void;
  /**
   * Changes a reminder's text, time or rule.
   *
   * @returns whether the host accepted it
   */
  update?(scheduleId: string, body: ReminderUpdateBody, key: string): Promise<boolean>;
  /** A reminder's fetched history, if asked for. */
  history?(scheduleId: string): HistoryState | undefined;
  /** Fetches (or refetches) a reminder's history. */
  loadHistory?(scheduleId: string): void;
}

/** The key of {@linkcode ScheduleServices} in `RenderContext.services`. */
export const SCHEDULE_SERVICES = "schedule";

/**
 * The page's schedule services, if it lends them.
 *
 * @param ctx the render context
 * @returns the services, or `undefined`
 */
export function servicesOf(ctx: RenderContext): ScheduleServices | undefined {
  return ctx.services?.[SCHEDULE_SERVICES] as ScheduleServices | undefined;
}
