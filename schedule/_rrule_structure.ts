// Private: exact, cheap checks of a rule's period structure before any walk: a rule that can
// never occur is refused at validation, never walked toward year 9999 (docs/recurring.md
// "Records").
import { daysInMonth } from "./rfc3339.ts";
import { fields, gcd, mod } from "./_rrule_days.ts";
import { type Compiled, HOURS } from "./_rrule_expand.ts";

/**
 * Exact checks of a rule's period structure, cheap and before any walk: whether a sub-daily
 * grid can meet its BYHOUR × BYMINUTE (the times of day a step of `interval` units reaches are
 * those congruent to DTSTART's modulo gcd(step, 1 day)), whether some allowed month has the
 * days asked for (Feb has at most 29), whether MONTHLY's interval reaches an allowed month,
 * whether a Feb-29-only YEARLY rule's interval reaches a leap year, and whether BYSETPOS can
 * fit in a period's set. `false` means never; `true` leaves the rest to the bounded probe.
 */
export function structureCanOccur(c: Compiled): boolean {
  const { rule, start } = c;
  const { y, m: startMonth, d: startDay, h, mi } = fields(start);
  const months = rule.byMonth ?? [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12];
  const longest = (m: number) => daysInMonth(2000, m);
  const fits = (m: number) => {
    if (rule.byMonthDay !== undefined) {
      return rule.byMonthDay.some((v) => Math.abs(v) <= longest(m));
    }
    const defaultDay = rule.byDay === undefined &&
      (rule.freq === "MONTHLY" || (rule.freq === "YEARLY" && rule.byMonth !== undefined));
    return !defaultDay || startDay <= longest(m);
  };
  let reachable = rule.freq === "YEARLY" && rule.byMonth === undefined &&
      rule.byMonthDay === undefined && rule.byDay === undefined
    ? [startMonth]
    : months.filter(fits);
  if (rule.freq === "MONTHLY") {
    const g = gcd(rule.interval, 12);
    reachable = reachable.filter((m) => mod(m - startMonth, g) === 0);
  }
  if (reachable.length === 0) return false;
  if (rule.freq === "YEARLY") {
    const leapOnly = reachable.every((m) => m === 2) &&
      (rule.byMonthDay !== undefined
        ? rule.byMonthDay.every((v) => Math.abs(v) === 29)
        : rule.byDay === undefined && startDay === 29);
    // Years y + k·interval: with interval ≡ 0 (mod 4) they keep y's residue, ≡ 2 its parity.
    if (leapOnly && rule.interval % 4 === 0 && y % 4 !== 0) return false;
    if (leapOnly && rule.interval % 4 === 2 && y % 2 !== 0) return false;
  }
  if (rule.bySetPos !== undefined) {
    const times = (rule.byHour?.length ?? 1) * (rule.byMinute?.length ?? 1);
    const plain = rule.byDay?.filter((b) => b.ordinal === undefined).length ?? 0;
    const days = {
      DAILY: 1,
      WEEKLY: rule.byDay?.length ?? 1,
      MONTHLY: rule.byMonthDay?.length ??
        (rule.byDay ? (rule.byDay.length - plain) + 5 * plain : 1),
      YEARLY: 366,
      MINUTELY: 1,
      HOURLY: 1,
    }[rule.freq];
    if (rule.bySetPos.every((p) => Math.abs(p) > days * times)) return false;
  }
  if (rule.freq !== "MINUTELY" && rule.freq !== "HOURLY") return true;
  const unit = rule.freq === "MINUTELY" ? 1 : 60;
  const g = gcd(rule.interval * unit, 1440);
  const origin = rule.freq === "MINUTELY" ? h * 60 + mi : h * 60;
  for (const hour of rule.byHour ?? HOURS) {
    const minutes = rule.freq === "HOURLY" ? [0] : rule.byMinute ?? [...Array(60).keys()];
    for (const m of minutes) if (mod(hour * 60 + m - origin, g) === 0) return true;
  }
  return false;
}
