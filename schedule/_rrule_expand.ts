// Private: expansion of a parsed rule in local wall-clock time (RFC 5545 §3.3.10), period by
// period, into sorted distinct instants. Calendar math runs on wall milliseconds (the local
// fields read as UTC, so plain `Date.UTC` arithmetic); only the wall → instant step needs the
// zone (see _zone_cache.ts). Work is bounded, not time: every step that can find nothing
// (a day, a week, a month or a year without a candidate) spends one unit of a budget that is
// renewed at each occurrence, and a walk that spends it ends (see `MAX_WORK`).
import {
  type Budget,
  DAY,
  dayAllowed,
  dayStart,
  fields,
  HOUR,
  isoWeekday,
  LAST_WALL,
  MINUTE,
  mod,
  monthDays,
  monthIndex,
  monthWall,
  nextAllowedDay,
  setPositions,
  timesOfDay,
  yearDays,
} from "./_rrule_days.ts";
import type { Rule } from "./_rrule_parse.ts";
import { type WallMs, ZoneClock } from "./_zone_cache.ts";
import { MAX_INSTANT_MS } from "./rfc3339.ts";

export type { Budget } from "./_rrule_days.ts";

/**
 * Elementary steps a walk may take between two occurrences (about a millisecond of CPU). A
 * rule whose first occurrence is not found within it is refused (`rule_never_occurs`); for an
 * accepted rule the structure repeats, so no later gap needs more (docs/recurring.md "Records").
 */
export const MAX_WORK = 10_000;

/** What a pausing walk yields when its budget ran out (never an instant). */
export const PAUSE: Instant = Number.NEGATIVE_INFINITY;

/** A rule bound to its DTSTART and zone. */
export interface Compiled {
  readonly rule: Rule;
  /** DTSTART as wall ms. */
  readonly start: WallMs;
  readonly clock: ZoneClock;
}

/** One occurrence: its instant (epoch ms, UTC). */
export type Instant = number;

/** The candidates of one period (ascending walls) and the next period worth visiting. */
interface Period {
  readonly walls: WallMs[];
  readonly next: number;
}

/** The period grid of a rule: where period `k` starts and which candidates it holds. */
export class Grid {
  readonly #c: Compiled;
  readonly #times: number[];
  /** Day index origin (sub-daily, DAILY, WEEKLY: a wall ms; MONTHLY, YEARLY: a month index). */
  readonly #base: number;
  /** Period length: wall ms (sub-daily: one day; DAILY, WEEKLY), or months (MONTHLY, YEARLY). */
  readonly #step: number;

  constructor(c: Compiled) {
    this.#c = c;
    this.#times = timesOfDay(c.rule, c.start);
    const { rule, start } = c;
    switch (rule.freq) {
      case "MINUTELY":
      case "HOURLY":
        this.#base = dayStart(start);
        this.#step = DAY;
        break;
      case "DAILY":
        this.#base = dayStart(start);
        this.#step = rule.interval * DAY;
        break;
      case "WEEKLY":
        this.#base = dayStart(start) - (isoWeekday(start) - 1) * DAY;
        this.#step = rule.interval * 7 * DAY;
        break;
      case "MONTHLY":
        this.#base = monthIndex(start);
        this.#step = rule.interval;
        break;
      case "YEARLY":
        this.#base = fields(start).y * 12;
        this.#step = rule.interval * 12;
        break;
    }
  }

  #byMonths(): boolean {
    return this.#c.rule.freq === "MONTHLY" || this.#c.rule.freq === "YEARLY";
  }

  /** The period holding `wall` (`floor`) or the first starting at or after it (`ceil`), ≥ 0. */
  index(wall: WallMs, round: "floor" | "ceil"): number {
    let position: number;
    if (this.#byMonths()) {
      const month = monthIndex(wall);
      const inside = round === "ceil" && wall > monthWall(month) ? 1 : 0;
      position = (month + inside - this.#base) / this.#step;
    } else position = (wall - this.#base) / this.#step;
    return Math.max(0, round === "floor" ? Math.floor(position) : Math.ceil(position));
  }

  /** Wall start of period `k`. */
  startOf(k: number): WallMs {
    return this.#byMonths() ? monthWall(this.#base + k * this.#step) : this.#base + k * this.#step;
  }

  /** Candidates of period `k`; spends the budget on what it passes over. */
  candidates(k: number, budget: Budget): Period {
    const { rule, start } = this.#c;
    const from = this.startOf(k);
    const skipTo = (wall: WallMs): Period => ({
      walls: [],
      next: Math.max(k + 1, this.index(wall, "ceil")),
    });
    const timed = (days: readonly WallMs[]) => days.flatMap((d) => this.#times.map((t) => d + t));
    budget.left--;
    switch (rule.freq) {
      case "MINUTELY":
      case "HOURLY":
        return this.#subDaily(k, from, budget);
      case "DAILY": {
        if (dayAllowed(rule, from)) {
          return { walls: setPositions(timed([from]), rule.bySetPos), next: k + 1 };
        }
        return skipTo(nextAllowedDay(rule, from + DAY, budget));
      }
      case "WEEKLY": {
        const weekdays = rule.byDay?.map((b) => b.weekday) ?? [isoWeekday(start)];
        const days = weekdays.map((w) => from + (w - 1) * DAY).filter((d) =>
          rule.byMonth === undefined || rule.byMonth.includes(fields(d).m)
        );
        if (days.length === 0) return { walls: [], next: k + 1 };
        return {
          walls: setPositions(timed(days.sort((a, b) => a - b)), rule.bySetPos),
          next: k + 1,
        };
      }
      case "MONTHLY": {
        const month = this.#base + k * this.#step;
        if (rule.byMonth !== undefined && !rule.byMonth.includes((month % 12) + 1)) {
          return { walls: [], next: k + 1 };
        }
        const days = monthDays(rule, month, fields(start).d);
        return { walls: setPositions(timed(days), rule.bySetPos), next: k + 1 };
      }
      case "YEARLY": {
        const days = yearDays(rule, Math.floor((this.#base + k * this.#step) / 12), start);
        budget.left -= 12; // one month's day set per month of the year
        return { walls: setPositions(timed(days), rule.bySetPos), next: k + 1 };
      }
    }
  }

  /** MINUTELY and HOURLY, one day at a time: the grid points of day `k` the limits keep. */
  #subDaily(k: number, day: WallMs, budget: Budget): Period {
    const { rule, start } = this.#c;
    if (!dayAllowed(rule, day)) {
      const next = this.index(nextAllowedDay(rule, day + DAY, budget), "floor");
      return { walls: [], next: Math.max(k + 1, next) };
    }
    const unit = rule.freq === "MINUTELY" ? MINUTE : HOUR;
    const step = rule.interval * unit;
    const origin = Math.floor(start / unit) * unit;
    const second = start - Math.floor(start / MINUTE) * MINUTE;
    const firstAt = (wall: WallMs) =>
      origin + Math.max(0, Math.ceil((wall - origin) / step)) * step;
    const walls: WallMs[] = [];
    for (const h of rule.byHour ?? HOURS) {
      const hour = day + h * HOUR;
      budget.left--;
      if (rule.freq === "HOURLY") {
        if (mod(hour - origin, step) !== 0) continue;
        for (const m of rule.byMinute ?? [fields(start).mi]) walls.push(hour + m * MINUTE + second);
      } else if (rule.byMinute !== undefined) {
        for (const m of rule.byMinute) {
          if (mod(hour + m * MINUTE - origin, step) === 0) walls.push(hour + m * MINUTE + second);
        }
        budget.left -= rule.byMinute.length >> 3;
      } else {
        for (let t = firstAt(hour); t < hour + HOUR; t += step) walls.push(t + second);
      }
    }
    // A step longer than a day jumps to the day of the next grid point.
    const next = walls.length === 0 ? this.index(firstAt(day + DAY), "floor") : k + 1;
    return { walls, next: Math.max(k + 1, next) };
  }
}

/** Every hour of a day. */
export const HOURS: readonly number[] = Array.from({ length: 24 }, (_, h) => h);

/**
 * Sorted, distinct occurrence instants of `c` from period `k` on. A wall time in a DST gap moves
 * forward by the gap, so its instant can pass later candidates'; each instant is held back until
 * a candidate wall reaches the instant's own wall time, which no later candidate can precede.
 * Ends past year 9999, or when `budget` runs out between two occurrences (`budget.spent`).
 */
export function* occurrences(
  c: Compiled,
  k: number,
  budget: Budget = { left: MAX_WORK, spent: false },
): Generator<Instant> {
  const grid = new Grid(c);
  const held: { instant: Instant; wall: WallMs }[] = [];
  let last = -Infinity;
  for (let period = k;;) {
    if (grid.startOf(period) > LAST_WALL) break;
    if (budget.left <= 0) {
      if (budget.pause) {
        yield PAUSE; // the consumer refills the budget, or stops
        continue;
      }
      budget.spent = true;
      return;
    }
    const { walls, next } = grid.candidates(period, budget);
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
        budget.left = MAX_WORK;
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
