// Test helper: a slow, independent RRULE expansion written only with plain Temporal arithmetic
// (PlainDate loops, `toZonedDateTime(zone, { disambiguation: "compatible" })`), following
// RFC 5545 §3.3.10's table literally. The engine (_rrule_expand.ts) must agree with it.
import type { ByDay, Rule } from "./_rrule_parse.ts";

function weekdayIndex(date: Temporal.PlainDate, span: "month" | "year"): [number, number] {
  // 1-based position among the same weekdays of the span, from the start and from the end.
  const first = span === "month" ? date.with({ day: 1 }) : date.with({ month: 1, day: 1 });
  const last = span === "month"
    ? date.with({ day: date.daysInMonth })
    : date.with({ month: 12, day: 31 });
  const fromStart = Math.floor(date.since(first).days / 7) + 1;
  const fromEnd = -(Math.floor(last.since(date).days / 7) + 1);
  return [fromStart, fromEnd];
}

function byDayHas(days: readonly ByDay[], date: Temporal.PlainDate, span: "month" | "year") {
  const [fromStart, fromEnd] = weekdayIndex(date, span);
  return days.some((b) =>
    b.weekday === date.dayOfWeek &&
    (b.ordinal === undefined || b.ordinal === fromStart || b.ordinal === fromEnd)
  );
}

function monthDayHas(days: readonly number[], date: Temporal.PlainDate): boolean {
  return days.some((v) => v === date.day || (v < 0 && date.daysInMonth + 1 + v === date.day));
}

/** Whether a day belongs to a DAILY-or-longer period's day set. */
function dayInSet(rule: Rule, start: Temporal.PlainDateTime, date: Temporal.PlainDate): boolean {
  const monthOk = rule.byMonth === undefined || rule.byMonth.includes(date.month);
  const dayOk = rule.byMonthDay === undefined || monthDayHas(rule.byMonthDay, date);
  switch (rule.freq) {
    case "YEARLY": {
      if (rule.byMonth === undefined && rule.byMonthDay === undefined && rule.byDay === undefined) {
        return date.month === start.month && date.day === start.day;
      }
      if (!monthOk) return false;
      if (rule.byMonthDay === undefined && rule.byDay === undefined) return date.day === start.day;
      const span = rule.byMonth === undefined ? "year" : "month";
      return dayOk && (rule.byDay === undefined || byDayHas(rule.byDay, date, span));
    }
    case "MONTHLY":
      if (!monthOk) return false;
      if (rule.byMonthDay === undefined && rule.byDay === undefined) return date.day === start.day;
      return dayOk && (rule.byDay === undefined || byDayHas(rule.byDay, date, "month"));
    case "WEEKLY": {
      const days = rule.byDay?.map((b) => b.weekday) ?? [start.dayOfWeek];
      return monthOk && days.includes(date.dayOfWeek);
    }
    default:
      return monthOk && dayOk &&
        (rule.byDay === undefined || rule.byDay.some((b) => b.weekday === date.dayOfWeek));
  }
}

function instantOf(wall: Temporal.PlainDateTime, zone: string): number {
  return wall.toZonedDateTime(zone, { disambiguation: "compatible" }).epochMilliseconds;
}

/** Period `k`'s first day (DAILY and longer), from DTSTART by Temporal calendar arithmetic. */
function periodDays(rule: Rule, start: Temporal.PlainDateTime, k: number): Temporal.PlainDate[] {
  const d0 = start.toPlainDate();
  const n = k * rule.interval;
  switch (rule.freq) {
    case "DAILY":
      return [d0.add({ days: n })];
    case "WEEKLY": {
      const monday = d0.subtract({ days: d0.dayOfWeek - 1 }).add({ weeks: n });
      return Array.from({ length: 7 }, (_, i) => monday.add({ days: i }));
    }
    case "MONTHLY": {
      const first = d0.with({ day: 1 }).add({ months: n });
      return Array.from({ length: first.daysInMonth }, (_, i) => first.add({ days: i }));
    }
    default: {
      const first = d0.with({ month: 1, day: 1 }).add({ years: n });
      return Array.from({ length: first.daysInYear }, (_, i) => first.add({ days: i }));
    }
  }
}

/**
 * Every occurrence instant (epoch ms) whose wall time falls in periods overlapping
 * `[fromWall, toWall]`, sorted and distinct, COUNT/UNTIL ignored.
 */
export function referenceInstants(
  rule: Rule,
  dtstart: string,
  zone: string,
  fromWall: Temporal.PlainDateTime,
  toWall: Temporal.PlainDateTime,
): number[] {
  const start = Temporal.PlainDateTime.from(dtstart);
  const out = new Set<number>();
  const keep = (wall: Temporal.PlainDateTime) => {
    if (Temporal.PlainDateTime.compare(wall, start) >= 0) out.add(instantOf(wall, zone));
  };
  if (rule.freq === "MINUTELY" || rule.freq === "HOURLY") {
    const unit = rule.freq === "MINUTELY" ? "minutes" : "hours";
    const origin = start.round({
      smallestUnit: unit === "minutes" ? "minute" : "hour",
      roundingMode: "floor",
    });
    const span = fromWall.since(origin, { largestUnit: unit })[unit];
    let k = Math.max(0, Math.floor(span / rule.interval) - 1);
    for (;; k++) {
      const at = origin.add({ [unit]: k * rule.interval });
      if (Temporal.PlainDateTime.compare(at, toWall) > 0) break;
      const date = at.toPlainDate();
      if (!dayInSet({ ...rule, freq: "DAILY" }, start, date)) continue;
      if (rule.byHour !== undefined && !rule.byHour.includes(at.hour)) continue;
      if (rule.freq === "MINUTELY") {
        if (rule.byMinute !== undefined && !rule.byMinute.includes(at.minute)) continue;
        keep(at.with({ second: start.second }));
      } else {
        for (const m of rule.byMinute ?? [start.minute]) {
          keep(at.with({ minute: m, second: start.second }));
        }
      }
    }
    return [...out].sort((a, b) => a - b);
  }
  for (let k = 0;; k++) {
    const days = periodDays(rule, start, k);
    if (Temporal.PlainDate.compare(days[0]!, toWall.toPlainDate()) > 0) break;
    const last = days.at(-1)!;
    if (Temporal.PlainDate.compare(last, fromWall.toPlainDate().subtract({ days: 1 })) < 0) {
      continue;
    }
    const walls: Temporal.PlainDateTime[] = [];
    for (const date of days) {
      if (!dayInSet(rule, start, date)) continue;
      for (const h of rule.byHour ?? [start.hour]) {
        for (const m of rule.byMinute ?? [start.minute]) {
          walls.push(date.toPlainDateTime({ hour: h, minute: m, second: start.second }));
        }
      }
    }
    walls.sort(Temporal.PlainDateTime.compare);
    const picked = rule.bySetPos === undefined
      ? walls
      : rule.bySetPos.map((p) => (p > 0 ? walls[p - 1] : walls[walls.length + p]))
        .filter((w): w is Temporal.PlainDateTime => w !== undefined);
    for (const wall of picked) keep(wall);
  }
  return [...out].sort((a, b) => a - b);
}
