/**
 * The fixed reminder follow-up frame the model receives when a record is dispatched
 * (docs/design.md#admission: a complete fixed frame with JSON-escaped id and prompt).
 *
 * @module
 */
import type { OccurrenceFacts, ScheduleRecord } from "./protocol.ts";
import { describeRule } from "./recurrence.ts";

/**
 * Lateness from which a reminder is reported as `overdue` instead of `due`: 60 000 ms. Below it
 * the delay is timer and admission jitter (a busy agent, bounded timer segments) that the user
 * would not call late; from one minute on, the model is asked to say how late it is.
 */
export const OVERDUE_THRESHOLD_MS: number = 60_000;

/** The frame's tag name: the JSON line sits between `<schedule-reminder>` and its closing tag. */
export const REMINDER_FRAME_TAG = "schedule-reminder";

/** The instruction line after the frame; fixed text. */
export const REMINDER_INSTRUCTION: string =
  "A reminder the user scheduled earlier in this session is now due. Tell the user about it " +
  "now (session-local delivery; if it is overdue, say how late it is).";

/**
 * Builds the follow-up text for a due record:
 *
 * ```text
 * <schedule-reminder>
 * {"id":…,"prompt":…,"scheduledAt":…,"status":"due"|"overdue","lateBySeconds":N}
 * </schedule-reminder>
 * A reminder the user scheduled earlier … say how late it is).
 * ```
 *
 * The JSON line comes from `JSON.stringify`, so the id and prompt are escaped and cannot break
 * the line structure. `lateBySeconds` is `floor((decisionNowMs − scheduledAt) / 1000)`, at least
 * 0; `status` is `overdue` when the lateness is at least {@linkcode OVERDUE_THRESHOLD_MS}.
 * A recurring delivery (docs/recurring.md "Delivery") adds `occurrenceAt` (also its
 * `scheduledAt`), `missed` (occurrences before it that were not delivered, whatever the cause),
 * `coalesced: true` only when the hourly reminder budget held this delivery back (then `missed`
 * counts what the wait swallowed; a miss caused only by downtime is just `missed: N`), and
 * `recurring: { rrule, timeZone, text: { en, zh }, nextAt }`; a snooze record adds `snoozeOf`.
 *
 * @param record the active record being dispatched
 * @param decisionNowMs the single decision-clock sample, epoch milliseconds (UTC)
 * @param occurrence for a recurring record: the delivered occurrence, `missed`, `nextAt`, and
 *   `coalesced: true` when the owner waited for the hourly budget before delivering it
 * @returns the frame (lines joined by `\n`, no trailing newline)
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { reminderFrame } from "@chime/schedule";
 * const record = {
 *   id: "sch_AbCd1234" as never, kind: "at" as const, prompt: "stretch",
 *   scheduledAt: "1970-01-01T00:00:00.000Z",
 * };
 * assert(reminderFrame(record, 90_500).includes('"status":"overdue","lateBySeconds":90'));
 * ```
 */
export function reminderFrame(
  record: ScheduleRecord,
  decisionNowMs: number,
  occurrence?: OccurrenceFacts & { readonly coalesced?: boolean },
): string {
  const scheduledAt = occurrence?.occurrenceAt ?? record.scheduledAt;
  const lateMs = Math.max(0, decisionNowMs - Date.parse(scheduledAt));
  const fields: Record<string, unknown> = {
    id: record.id,
    prompt: record.prompt,
    scheduledAt,
    status: lateMs >= OVERDUE_THRESHOLD_MS ? "overdue" : "due",
    lateBySeconds: Math.floor(lateMs / 1000),
  };
  if (occurrence !== undefined && record.kind === "recurring") {
    fields.occurrenceAt = occurrence.occurrenceAt;
    fields.missed = occurrence.missed;
    if (occurrence.coalesced === true) fields.coalesced = true;
    fields.recurring = {
      rrule: record.rrule,
      timeZone: record.timeZone,
      text: { en: describeRule(record, "en"), zh: describeRule(record, "zh") },
      nextAt: occurrence.nextAt,
    };
  }
  if (record.kind !== "recurring" && record.snoozeOf !== undefined) {
    fields.snoozeOf = record.snoozeOf;
  }
  const tag = REMINDER_FRAME_TAG;
  return `<${tag}>\n${JSON.stringify(fields)}\n</${tag}>\n${REMINDER_INSTRUCTION}`;
}
