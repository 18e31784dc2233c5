// Private: the calendar side of RRULE expansion (RFC 5545 §3.3.10) on wall milliseconds (local
// fields read as UTC): day limits, the day sets of a month and a year, BYSETPOS, and the skip to
// the next allowed day. No zone here; see _rrule_expand.ts for periods and instants.
import type { ByDay, Rule } from "./_rrule_parse.ts";
import type { WallMs } from "./_zone_cache.ts";
import { daysInMonth, MAX_INSTANT_MS } from "./rfc3339.ts";

export const MINUTE = 60_000;
export const HOUR = 3_600_000;
export const DAY = 86_400_000;
/** Walls after this are past year 9999 everywhere (offsets stay within ±1 day). */
export const LAST_WALL = MAX_INSTANT_MS + DAY;

/** The work left to a walk; a walk that runs out ends, with `spent` set. */
export interface Budget {
  left: number;
  spent: boolean;
  /**
   * Pause instead of ending when `left` runs out at a period start: the walk yields `PAUSE` and
   * goes on once the consumer refills `left` (the probe's slices, `_probe.ts`).
   */
  pause?: boolean;
}

export function isoWeekday(wall: WallMs): number {
  const day = new Date(wall).getUTCDay();
  return day === 0 ? 7 : day;
}

export function dayStart(wall: WallMs): WallMs {
  return Math.floor(wall / DAY) * DAY;
}

export function fields(wall: WallMs): { y: number; m: number; d: number; h: number; mi: number } {
  const date = new Date(wall);
  return {
    y: date.getUTCFullYear(),
    m: date.getUTCMonth() + 1,
    d: date.getUTCDate(),
    h: date.getUTCHours(),
    mi: date.getUTCMinutes(),
  };
}

/** Wall ms of day `d` of month `m` (1-based) of year `y`, proleptic (years < 100 kept). */
export function dateWall(y: number, m: number, d: number): WallMs {
  const ms = Date.UTC(y, m - 1, d);
  return y < 100 ? new Date(ms).setUTCFullYear(y) : ms;
}

/** Month index (y·12 + m − 1) → first day's wall. */
export function monthWall(month: number): WallMs {
  return dateWall(Math.floor(month / 12), (month % 12) + 1, 1);
}

export function monthIndex(wall: WallMs): number {
  const { y, m } = fields(wall);
  return y * 12 + m - 1;
}

export function mod(a: number, n: number): number {
  return ((a % n) + n) % n;
}

/** BYMONTH, BYDAY (plain weekdays) and BYMONTHDAY as limits on one day. */
export function dayAllowed(rule: Rule, wall: WallMs): boolean {
  const { y, m, d } = fields(wall);
  if (rule.byMonth !== undefined && !rule.byMonth.includes(m)) return false;
  if (rule.byDay !== undefined && !rule.byDay.some((b) => b.weekday === isoWeekday(wall))) {
    return false;
  }
  if (rule.byMonthDay === undefined) return true;
  const dim = daysInMonth(y, m);
  return rule.byMonthDay.some((v) => v === d || (v < 0 && dim + 1 + v === d));
}

/**
 * The first day at or after `wall` the day limits allow: one unit of work per month looked at
 * (a month's days are checked with plain arithmetic, whole months skipped at once).
 */
export function nextAllowedDay(rule: Rule, wall: WallMs, budget: Budget): WallMs {
  let month = monthIndex(wall);
  let fromDay = fields(wall).d;
  while (monthWall(month) <= LAST_WALL && budget.left-- > 0) {
    const m = (month % 12) + 1;
    if (rule.byMonth === undefined || rule.byMonth.includes(m)) {
      const first = monthWall(month);
      const dim = daysInMonth(Math.floor(month / 12), m);
      const days = rule.byMonthDay === undefined
        ? Array.from({ length: dim - fromDay + 1 }, (_, i) => fromDay + i)
        : rule.byMonthDay.map((v) => (v > 0 ? v : dim + 1 + v))
          .filter((d) => d >= fromDay && d <= dim).sort((a, b) => a - b);
      const firstWeekday = isoWeekday(first);
      for (const d of days) {
        const weekday = mod(firstWeekday - 1 + d - 1, 7) + 1;
        if (rule.byDay === undefined || rule.byDay.some((b) => b.weekday === weekday)) {
          return first + (d - 1) * DAY;
        }
      }
    }
    month++;
    fromDay = 1;
  }
  // A pausing budget (the sliced probe, `_probe.ts`) resumes here: the first wall not searched
  // yet, so the walk pauses at the next period start and goes on from it once refilled.
  if (budget.pause && budget.left <= 0 && monthWall(month) <= LAST_WALL) {
    return month === monthIndex(wall) ? wall : monthWall(month);
  }
  budget.spent ||= budget.left <= 0;
  return LAST_WALL + DAY;
}

/** Offsets within a day of the times BYHOUR × BYMINUTE (or DTSTART's), DTSTART's seconds. */
export function timesOfDay(rule: Rule, start: WallMs): number[] {
  const { h, mi } = fields(start);
  const second = start - Math.floor(start / MINUTE) * MINUTE;
  const times: number[] = [];
  for (const hour of rule.byHour ?? [h]) {
    for (const minute of rule.byMinute ?? [mi]) times.push(hour * HOUR + minute * MINUTE + second);
  }
  return times.sort((a, b) => a - b);
}

/** The day of month of the `ordinal`-th `weekday` among `days` (ascending), or undefined. */
export function nth(days: readonly number[], ordinal: number): number | undefined {
  return ordinal > 0 ? days[ordinal - 1] : days[days.length + ordinal];
}

/** BYDAY entries matched against the days of one span (a month or a year), as day walls. */
export function byDaySpan(entries: readonly ByDay[], first: WallMs, length: number): Set<WallMs> {
  const out = new Set<WallMs>();
  const firstWeekday = isoWeekday(first);
  for (const { weekday, ordinal } of entries) {
    const matches: number[] = [];
    for (let i = mod(weekday - firstWeekday, 7); i < length; i += 7) matches.push(i);
    const picked = ordinal === undefined ? matches : [nth(matches, ordinal)];
    for (const i of picked) if (i !== undefined) out.add(first + i * DAY);
  }
  return out;
}

/** Days of one month a MONTHLY or YEARLY rule selects, as ascending day walls. */
export function monthDays(rule: Rule, month: number, startDay: number): WallMs[] {
  const first = monthWall(month);
  const y = Math.floor(month / 12);
  const dim = daysInMonth(y, (month % 12) + 1);
  let days: WallMs[];
  if (rule.byMonthDay !== undefined) {
    days = rule.byMonthDay.map((v) => (v > 0 ? v : dim + 1 + v)).filter((d) => d >= 1 && d <= dim)
      .map((d) => first + (d - 1) * DAY);
    if (rule.byDay !== undefined) {
      const allowed = byDaySpan(rule.byDay, first, dim);
      days = days.filter((d) => allowed.has(d));
    }
  } else if (rule.byDay !== undefined) {
    days = [...byDaySpan(rule.byDay, first, dim)];
  } else {
    days = startDay <= dim ? [first + (startDay - 1) * DAY] : [];
  }
  return [...new Set(days)].sort((a, b) => a - b);
}

/** Days of one year a YEARLY rule selects (RFC 5545 §3.3.10's expand/limit table). */
export function yearDays(rule: Rule, year: number, start: WallMs): WallMs[] {
  const { m: startMonth, d: startDay } = fields(start);
  if (rule.byDay !== undefined && rule.byMonth === undefined) {
    // BYDAY without BYMONTH counts its ordinals in the whole year.
    const first = dateWall(year, 1, 1);
    const length = (dateWall(year + 1, 1, 1) - first) / DAY;
    let days = [...byDaySpan(rule.byDay, first, length)];
    if (rule.byMonthDay !== undefined) {
      const limit: Rule = { freq: rule.freq, interval: 1, byMonthDay: rule.byMonthDay };
      days = days.filter((d) => dayAllowed(limit, d));
    }
    return days.sort((a, b) => a - b);
  }
  const months = rule.byMonth ??
    (rule.byMonthDay !== undefined || rule.byDay !== undefined
      ? [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]
      : [startMonth]);
  return months.flatMap((m) => monthDays(rule, year * 12 + m - 1, startDay));
}

/** BYSETPOS: the positions of one period's sorted set (RFC 5545 §3.3.10). */
export function setPositions(walls: WallMs[], positions: readonly number[] | undefined): WallMs[] {
  if (positions === undefined) return walls;
  const picked = new Set<WallMs>();
  for (const p of positions) {
    const wall = nth(walls, p);
    if (wall !== undefined) picked.add(wall);
  }
  return [...picked].sort((a, b) => a - b);
}

export function gcd(a: number, b: number): number {
  return b === 0 ? a : gcd(b, a % b);
}
