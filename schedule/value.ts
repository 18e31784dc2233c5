/**
 * The value the schedule tools, the host's reminders list and the page show for an active
 * record (docs/architecture.md#tools; docs/recurring.md "Tools" for `repeat` and `snoozeOf`).
 *
 * @module
 */
import { scheduledAtMs, type ScheduleId, type ScheduleRecord, type SnoozeOf } from "./protocol.ts";
import { describeRule } from "./recurrence.ts";

/** The only delivery mode: reminders run only while the original session is live. */
export const DELIVERY_MODE = "session-local" as const;

/** How a recurring record repeats, as the tools and the page list it. */
export interface RepeatValue {
  /** Canonical RRULE text. */
  readonly rrule: string;
  /** IANA zone the rule is expanded in. */
  readonly timeZone: string;
  /** Local DTSTART. */
  readonly dtstart: string;
  /** The rule in words: `{ en: "daily at 09:00 (Asia/Shanghai)", zh: "每天 09:00（Asia/Shanghai）" }`. */
  readonly text: { readonly en: string; readonly zh: string };
  /** The catch-up window, seconds, when set. */
  readonly catchUpSeconds?: number;
}

/** A record as the tools return it. */
export interface ScheduleValue {
  /** Stable id. */
  readonly id: ScheduleId;
  /** Rule kind. */
  readonly kind: ScheduleRecord["kind"];
  /** The reminder text. */
  readonly prompt: string;
  /** Target instant (a series' next occurrence), canonical UTC with milliseconds. */
  readonly scheduledAt: string;
  /** Delay in seconds, for `after` records only. */
  readonly afterSeconds?: number;
  /** How it repeats, for `recurring` records only. */
  readonly repeat?: RepeatValue;
  /** The reminder occurrence a snooze record snoozes. */
  readonly snoozeOf?: SnoozeOf;
  /** `overdue` once `now ≥ scheduledAt` (it fires when the live session can deliver it). */
  readonly status: "scheduled" | "overdue";
  /** Always `session-local`. */
  readonly deliveryMode: typeof DELIVERY_MODE;
}

/**
 * The `repeat` member of a recurring record's value, with the rule in English and Chinese.
 *
 * @param record a recurring record
 * @returns `{ rrule, timeZone, dtstart, text: { en, zh }, catchUpSeconds? }`
 */
export function repeatValue(record: Extract<ScheduleRecord, { kind: "recurring" }>): RepeatValue {
  const { rrule, timeZone, dtstart, catchUpSeconds } = record;
  const text = { en: describeRule(record, "en"), zh: describeRule(record, "zh") };
  return {
    rrule,
    timeZone,
    dtstart,
    text,
    ...(catchUpSeconds === undefined ? {} : { catchUpSeconds }),
  };
}

/**
 * The tool value of an active record.
 *
 * @param record an active record (a folded series' `scheduledAt` is its next occurrence)
 * @param now the decision instant, epoch milliseconds (UTC)
 * @returns the value with a derived `status` and `deliveryMode: 'session-local'`
 */
export function scheduleValue(record: ScheduleRecord, now: number): ScheduleValue {
  const status = now >= scheduledAtMs(record) ? "overdue" : "scheduled";
  if (record.kind !== "recurring") return { ...record, status, deliveryMode: DELIVERY_MODE };
  const { id, kind, prompt, scheduledAt } = record;
  const repeat = repeatValue(record);
  return { id, kind, prompt, scheduledAt, repeat, status, deliveryMode: DELIVERY_MODE };
}

/** A record value with `ok: true`: what create, update and snooze answer. */
export type RecordResult = { readonly ok: true } & ScheduleValue;
