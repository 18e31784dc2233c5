// Private: expansion of a parsed rule in local wall-clock time (RFC 5545 §3.3.10), period by
// period, into sorted distinct instants. Calendar math runs on wall milliseconds (the local
// fields read as UTC, so plain `Date.UTC` arithmetic); only the wall → instant step needs the
// zone (see _zone_cache.ts).
import type { Rule } from "./_rrule_parse.ts";
import { type WallMs, ZoneClock } from "./_zone_cache.ts";
import { daysInMonth, MAX_INSTANT_MS } from "./rfc3339.ts";

const MINUTE = 60_000;
const HOUR = 3_600_000;
const DAY = 86_400_000;
/** Walls after this are past year 9999 everywhere (offsets stay within ±1 day). */
const LAST_WALL = MAX_INSTANT_MS + DAY;

/** A rule bound to its DTSTART and zone. */
export interface Compiled {
  readonly rule: Rule;
  /** DTSTART as wall ms. */
  readonly start: WallMs;
  readonly clock: ZoneClock;
}

/** One occurrence: its instant (epoch ms, UTC). */
export type Instant = number;

function isoWeekday(wall: WallMs): number {
  const day = new Date(wall).getUTCDay();
  return day === 0 ? 7 : day;
}

function dayStart(wall: WallMs): WallMs {
  return Math.floor(wall / DAY) * DAY;
}

function fields(wall: WallMs): { y: number; m: number; d: number; h: number; mi: number } {
  const date = new Date(wall);
  return {
    y: date.getUTCFullYear(),
    m: date.getUTCMonth() + 1,
    d: date.getUTCDate(),
    h: date.getUTCHours(),
    mi: date.getUTCMinutes(),
  };
}

function monthDayMatches(days: readonly number[], y: number, m: number, d: number): boolean {
  const dim = daysInMonth(y, m);
  return days.some((v) => v === d || (v < 0 && dim + 1 + v === d));
}

/** BYDAY (plain weekdays) and BYMONTHDAY as limits on a day. */
function dayAllowed(rule: Rule, wall: WallMs): boolean {
  if (rule.byDay !== undefined && !rule.byDay.some((b) => b.weekday === isoWeekday(wall))) {
    return false;
  }
  if (rule.byMonthDay === undefined) return true;
  const { y, m, d } = fields(wall);
  return monthDayMatches(rule.byMonthDay, y, m, d);
}

/** Offsets within a day of the times BYHOUR × BYMINUTE (or DTSTART's), DTSTART's seconds. */
function timesOfDay(rule: Rule, start: WallMs): number[] {
  const { h, mi } = fields(start);
  const second = start - Math.floor(start / MINUTE) * MINUTE;
  const times: number[] = [];
  for (const hour of rule.byHour ?? [h]) {
    for (const minute of rule.byMinute ?? [mi]) times.push(hour * HOUR + minute * MINUTE + second);
  }
  return times.sort((a, b) => a - b);
}

/** Days of one month a MONTHLY rule selects, ascending. */
function monthDays(rule: Rule, y: number, m: number, startDay: number): number[] {
  const dim = daysInMonth(y, m);
  const first = Date.UTC(y, m - 1, 1);
  const weekdayOf = (d: number) => isoWeekday(new Date(first).setUTCDate(d));
  const ordinalDay = (weekday: number, ordinal: number): number | undefined => {
    const firstMatch = 1 + ((weekday - weekdayOf(1) + 7) % 7);
    const all: number[] = [];
    for (let d = firstMatch; d <= dim; d += 7) all.push(d);
    return ordinal > 0 ? all[ordinal - 1] : all[all.length + ordinal];
  };
  const byDayHas = (d: number) =>
    rule.byDay!.some((b) =>
      b.ordinal === undefined ? b.weekday === weekdayOf(d) : ordinalDay(b.weekday, b.ordinal) === d
    );
  let days: number[];
  if (rule.byMonthDay !== undefined) {
    days = rule.byMonthDay.map((v) => (v > 0 ? v : dim + 1 + v)).filter((d) => d >= 1 && d <= dim);
    if (rule.byDay !== undefined) days = days.filter(byDayHas);
  } else if (rule.byDay !== undefined) {
    days = [];
    for (let d = 1; d <= dim; d++) if (byDayHas(d)) days.push(d);
  } else {
    days = startDay <= dim ? [startDay] : [];
  }
  return [...new Set(days)].sort((a, b) => a - b);
}

/** The period grid of a rule: where period `k` starts and which candidates it holds. */
class Grid {
  readonly #c: Compiled;
  readonly #times: number[];
  readonly #base: number; // wall ms, or a month index for MONTHLY
  readonly #step: number;

  constructor(c: Compiled) {
    this.#c = c;
    this.#times = timesOfDay(c.rule, c.start);
    const { rule, start } = c;
    const unit = { MINUTELY: MINUTE, HOURLY: HOUR, DAILY: DAY, WEEKLY: 7 * DAY, MONTHLY: 1 };
    this.#step = unit[rule.freq] * rule.interval;
    if (rule.freq === "MONTHLY") {
      const { y, m } = fields(start);
      this.#base = y * 12 + m - 1;
    } else if (rule.freq === "WEEKLY") {
      this.#base = dayStart(start) - (isoWeekday(start) - 1) * DAY;
    } else this.#base = Math.floor(start / unit[rule.freq]) * unit[rule.freq];
  }

  /** The first period whose start is at or after `wall` (`floor` for the one containing it). */
  index(wall: WallMs, round: "floor" | "ceil"): number {
    const position = this.#c.rule.freq === "MONTHLY"
      ? (fields(wall).y * 12 + fields(wall).m - 1 - this.#base) / this.#step
      : (wall - this.#base) / this.#step;
    return Math.max(0, round === "floor" ? Math.floor(position) : Math.ceil(position));
  }

  /** Wall start of period `k`. */
  startOf(k: number): WallMs {
    if (this.#c.rule.freq !== "MONTHLY") return this.#base + k * this.#step;
    const month = this.#base + k * this.#step;
    return Date.UTC(Math.floor(month / 12), month % 12, 1);
  }

  /** Candidates of period `k` (ascending walls) and the next period worth visiting. */
  candidates(k: number): { readonly walls: WallMs[]; readonly next: number } {
    const { rule, start } = this.#c;
    const from = this.startOf(k);
    const second = start - Math.floor(start / MINUTE) * MINUTE;
    const skipTo = (wall: WallMs) => ({
      walls: [],
      next: Math.max(k + 1, this.index(wall, "ceil")),
    });
    switch (rule.freq) {
      case "MINUTELY":
      case "HOURLY": {
        if (!dayAllowed(rule, from)) return skipTo(dayStart(from) + DAY);
        const { h, mi } = fields(from);
        if (rule.byHour !== undefined && !rule.byHour.includes(h)) {
          return skipTo(Math.floor(from / HOUR) * HOUR + HOUR);
        }
        if (rule.freq === "HOURLY") {
          const minutes = rule.byMinute ?? [fields(start).mi];
          return { walls: minutes.map((m) => from + m * MINUTE + second), next: k + 1 };
        }
        const ok = rule.byMinute === undefined || rule.byMinute.includes(mi);
        return { walls: ok ? [from + second] : [], next: k + 1 };
      }
      case "DAILY":
        return {
          walls: dayAllowed(rule, from) ? this.#times.map((t) => from + t) : [],
          next: k + 1,
        };
      case "WEEKLY": {
        const weekdays = rule.byDay?.map((b) => b.weekday) ?? [isoWeekday(start)];
        const walls = weekdays.flatMap((w) => this.#times.map((t) => from + (w - 1) * DAY + t));
        return { walls: walls.sort((a, b) => a - b), next: k + 1 };
      }
      case "MONTHLY": {
        const { y, m } = fields(from);
        const days = monthDays(rule, y, m, fields(start).d);
        const walls = days.flatMap((d) => this.#times.map((t) => from + (d - 1) * DAY + t));
        return { walls, next: k + 1 };
      }
    }
  }
}

/**
 * Sorted, distinct occurrence instants of `c` from period `k` on. A wall time in a DST gap moves
 * forward by the gap, so its instant can pass later candidates'; each instant is held back until
 * a candidate wall reaches the instant's own wall time, which no later candidate can precede.
 */
export function* occurrences(c: Compiled, k: number): Generator<Instant> {
  const grid = new Grid(c);
  const held: { instant: Instant; wall: WallMs }[] = [];
  let last = -Infinity;
  for (let period = k;;) {
    if (grid.startOf(period) > LAST_WALL) break;
    const { walls, next } = grid.candidates(period);
    period = next;
    for (const wall of walls) {
      if (wall < c.start) continue;
      const instant = c.clock.instant(wall);
      if (instant > last && !held.some((h) => h.instant === instant)) {
        held.push({ instant, wall: c.clock.wall(instant) });
        held.sort((a, b) => a.instant - b.instant);
      }
      while (held.length > 0 && held[0]!.wall <= wall) {
        last = held.shift()!.instant;
        if (last > MAX_INSTANT_MS) return;
        yield last;
      }
    }
  }
  for (const { instant } of held) if (instant <= MAX_INSTANT_MS) yield instant;
}

/** The period to start from so that no occurrence after `instant` is missed. */
export function periodNear(c: Compiled, instant: Instant): number {
  let wall = c.clock.wall(instant);
  const transition = c.clock.recentTransition(instant, 2 * DAY);
  if (transition !== undefined) wall = Math.min(wall, c.clock.wall(transition - 1) - DAY);
  return new Grid(c).index(wall, "floor");
}

export { ZoneClock };
