// Private: counting a long catch-up without walking every occurrence (docs/recurring.md "Records").
// Between DST transitions a zone's offset is constant, so wall → instant is a bijection and an
// occurrence is just a candidate wall minus the offset: such spans are counted period by period
// from the candidate lists; the days around each transition are walked by the exact generator.
import { DAY } from "./_rrule_days.ts";
import { type Compiled, Grid, occurrences, periodNear } from "./_rrule_expand.ts";

/** What a count over a span found. */
export interface Span {
  count: number;
  latest?: number;
}

/** Transitions of `zone` in `[fromMs, toMs]`, epoch ms. */
function transitions(zone: string, fromMs: number, toMs: number): number[] {
  const out: number[] = [];
  let at: Temporal.ZonedDateTime | null = Temporal.Instant.fromEpochMilliseconds(fromMs)
    .toZonedDateTimeISO(zone);
  while ((at = at.getTimeZoneTransition("next")) !== null && at.epochMilliseconds <= toMs) {
    out.push(at.epochMilliseconds);
  }
  return out;
}

/** Walks occurrences in `[a, b)` with the exact generator. */
function walkSpan(c: Compiled, a: number, b: number, found: Span): void {
  for (const instant of occurrences(c, periodNear(c, a))) {
    if (instant >= b) return;
    if (instant < a) continue;
    found.count++;
    found.latest = instant;
  }
}

/** Counts `[a, b)` where no transition lies within a day of it: constant offset, no reordering. */
function bulkSpan(c: Compiled, a: number, b: number, found: Span): void {
  const offset = Temporal.Instant.fromEpochMilliseconds(a).toZonedDateTimeISO(c.clock.zone)
    .offsetNanoseconds / 1_000_000;
  const grid = new Grid(c);
  const budget = { left: Number.POSITIVE_INFINITY, spent: false };
  for (let k = grid.index(a + offset, "floor"); grid.startOf(k) <= b + offset;) {
    const { walls, next } = grid.candidates(k, budget);
    k = next;
    for (const wall of walls) {
      const instant = wall - offset;
      if (wall < c.start || instant < a || instant >= b) continue;
      found.count++;
      found.latest = instant;
    }
  }
}

/**
 * Occurrences in `[fromMs, toMs)` (COUNT and EXDATE not applied: callers without them only),
 * with the latest: walked within two days of each DST transition, counted in bulk elsewhere.
 */
export function countOccurrences(c: Compiled, fromMs: number, toMs: number): Span {
  const found: Span = { count: 0 };
  let cursor = fromMs;
  for (const t of transitions(c.clock.zone, fromMs - 2 * DAY, toMs + 2 * DAY)) {
    const walkFrom = Math.max(cursor, t - 2 * DAY);
    const walkTo = Math.min(toMs, t + 2 * DAY);
    if (walkFrom > cursor) bulkSpan(c, cursor, walkFrom, found);
    if (walkTo > walkFrom) walkSpan(c, walkFrom, walkTo, found);
    cursor = Math.max(cursor, walkTo);
  }
  if (toMs > cursor) bulkSpan(c, cursor, toMs, found);
  return found;
}
