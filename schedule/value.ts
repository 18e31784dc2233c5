/**
 * The value the schedule tools, the host's reminders list and the page show for an active
 * record (docs/architecture.md#tools; docs/recurring.md "Tools" for `repeat` and `snoozeOf`).
 *
 * @module
 */
import { scheduledAtMs, type ScheduleId, type ScheduleRecord, type SnoozeOf } from "./protocol.ts";
import { describeRule, type OccurrencePreview, previewOccurrences } from "./recurrence.ts";

/** How many occurrences a series' value previews (docs/recurring.md "Preview"). */
export const PREVIEW_LENGTH = 5;

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
  /** A paused series (it never fires until resumed). */
  readonly paused?: true;
  /** A series' excluded occurrences (skipped one by one), canonical UTC, ascending. */
  readonly exdates?: readonly string[];
  /**
   * A series' next occurrences (at most 5, excluded ones left out and noted on the next): from
   * its current target on (an overdue one first), or, while paused, those strictly after the
   * decision instant and from its target on, i.e. what resuming now would give.
   */
  readonly preview?: readonly OccurrencePreview[];
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
 * A series' preview (docs/recurring.md "Preview"): from its current target on (the occurrences
 * excluded between now and it reported on the first item's `excluded`), or, while it is paused,
 * strictly after `now` and from its target on (what resuming now would give).
 *
 * @param record a recurring record (its `exdates` are left out)
 * @param now the decision instant, epoch milliseconds (UTC)
 * @returns up to {@linkcode PREVIEW_LENGTH} occurrences
 */
export function seriesPreview(
  record: Extract<ScheduleRecord, { kind: "recurring" }>,
  now: number,
): OccurrencePreview[] {
  const target = scheduledAtMs(record) - 1;
  const after = record.paused ? Math.max(now, target) : target;
  const list = previewOccurrences(record, after, PREVIEW_LENGTH);
  // Occurrences skipped between now and the target (an `exclude` of the next one) are reported
  // on the first item, as those the preview itself passes over.
  const early = (record.exdates ?? []).filter((at) => {
    const ms = Date.parse(at);
    return ms > now && ms <= after;
  });
  const first = list[0];
  if (early.length === 0 || first === undefined) return list;
  return [{ ...first, excluded: [...early, ...(first.excluded ?? [])] }, ...list.slice(1)];
}

/**
 * The tool value of an active record.
 *
 * @param record an active record (a folded series' `scheduledAt` is its next occurrence)
 * @param now the decision instant, epoch milliseconds (UTC)
 * @returns the value with a derived `status` and `deliveryMode: 'session-local'`; a series adds
 *   `repeat`, `preview` and, when set, `paused` and `exdates`. A paused series shows as
 *   `scheduledAt` the occurrence resuming now would target, and is never `overdue`.
 */
export function scheduleValue(record: ScheduleRecord, now: number): ScheduleValue {
  if (record.kind !== "recurring") {
    const status = now >= scheduledAtMs(record) ? "overdue" : "scheduled";
    return { ...record, status, deliveryMode: DELIVERY_MODE };
  }
  const { id, kind, prompt, paused, exdates } = record;
  const repeat = repeatValue(record);
  const preview = seriesPreview(record, now);
  const scheduledAt = paused ? preview[0]?.at ?? record.scheduledAt : record.scheduledAt;
  const status = !paused && now >= scheduledAtMs(record) ? "overdue" : "scheduled";
  return {
    id,
    kind,
    prompt,
    scheduledAt,
    repeat,
    ...(paused ? { paused } : {}),
    ...(exdates === undefined ? {} : { exdates }),
    preview,
    status,
    deliveryMode: DELIVERY_MODE,
  };
}

export type { OccurrencePreview } from "./recurrence.ts";

/** A record value with `ok: true`: what create, update and snooze answer. */
export type RecordResult = { readonly ok: true } & ScheduleValue;
