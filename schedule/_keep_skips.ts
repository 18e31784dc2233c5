// Private: a moved series keeps the days a person skipped (docs/recurring.md "Transitions").
// An `update` to another rule, DTSTART or zone drops the old `exdates` in the fold (an excluded
// instant names an occurrence of that series only); the update's transaction then excludes,
// for each coming skipped occurrence, the new series' first occurrence on the same local date
// ("skip next Monday's standup", then "move standup to 10:00": next Monday stays skipped).
import { carryOver } from "./_apply.ts";
import { excludeChange } from "./decoder.ts";
import type { ExcludeChange, RecurringRecord, ScheduleRecord } from "./protocol.ts";
import { nextOccurrence } from "./recurrence.ts";
import { formatInstant } from "./rfc3339.ts";

/** The excludes that carry the skipped days over, and the record they leave. */
export interface KeptSkips {
  readonly changes: readonly ExcludeChange[];
  readonly record: ScheduleRecord;
}

/** The instant range `[from, to)` of a local date in a zone. */
function dayRange(date: Temporal.PlainDate, zone: string): [number, number] {
  const start = date.toZonedDateTime({ timeZone: zone }).epochMilliseconds;
  return [start, date.add({ days: 1 }).toZonedDateTime({ timeZone: zone }).epochMilliseconds];
}

/**
 * The excludes an update of `current` into `next` appends so the skipped days stay skipped; none
 * when the series is the same (the fold keeps its `exdates`) or either side is a one-shot. An
 * exclusion that would leave no occurrence is not carried (a skip never ends a series here).
 */
export function keptSkips(current: ScheduleRecord, next: ScheduleRecord, now: number): KeptSkips {
  const folded = carryOver(current, next);
  if (
    current.kind !== "recurring" || folded.kind !== "recurring" ||
    current.exdates === undefined || folded.exdates !== undefined
  ) return { changes: [], record: folded };
  let record: RecurringRecord = folded;
  const changes: ExcludeChange[] = [];
  for (const skipped of current.exdates) {
    if (Date.parse(skipped) <= now) continue;
    const day = Temporal.Instant.from(skipped).toZonedDateTimeISO(current.timeZone).toPlainDate();
    const [from, to] = dayRange(day, record.timeZone);
    const occurrence = nextOccurrence(record, Math.max(from, now + 1) - 1);
    if (occurrence === undefined || occurrence >= to) continue;
    const at = formatInstant(occurrence);
    const exdates = [...(record.exdates ?? []), at].sort();
    let nextAt = record.scheduledAt;
    if (at === record.scheduledAt) {
      const after = nextOccurrence({ ...record, exdates }, occurrence);
      if (after === undefined) continue;
      nextAt = formatInstant(after);
    }
    changes.push(excludeChange(record.id, at, nextAt));
    record = { ...record, exdates, scheduledAt: nextAt };
  }
  return { changes, record };
}
