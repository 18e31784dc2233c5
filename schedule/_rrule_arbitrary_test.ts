// Test and bench helper: random RRULEs of the accepted subset (fast-check), in a spread that
// reaches every frequency and limit, and ten zones with every kind of DST (none, ±1 h, 30 min,
// southern hemisphere, 45 min offsets, historic changes).
import fc from "fast-check";
import type { Rule } from "./_rrule_parse.ts";

/** Ten zones: none, northern and southern DST, a 30-minute shift, a 45-minute offset. */
export const ZONES: readonly string[] = [
  "America/New_York",
  "Europe/Berlin",
  "Australia/Lord_Howe",
  "Australia/Sydney",
  "Asia/Shanghai",
  "UTC",
  "America/Santiago",
  "Pacific/Chatham",
  "Asia/Kolkata",
  "Europe/London",
];

const weekday = fc.integer({ min: 1, max: 7 });

/** Random rules, possibly refused by the parser (e.g. BYSETPOS alone): callers skip those. */
export const ruleArb: fc.Arbitrary<Rule> = fc.oneof(
  fc.record({
    freq: fc.constantFrom("MINUTELY" as const, "HOURLY" as const),
    interval: fc.oneof(fc.constantFrom(1, 2, 7, 15, 30, 45, 90), fc.integer({ min: 1, max: 200 })),
    byHour: fc.option(
      fc.uniqueArray(fc.integer({ min: 0, max: 23 }), { minLength: 1, maxLength: 4 }),
      { nil: undefined },
    ),
    byMinute: fc.option(
      fc.uniqueArray(fc.integer({ min: 0, max: 59 }), { minLength: 1, maxLength: 4 }),
      { nil: undefined },
    ),
    byDay: fc.option(
      fc.uniqueArray(weekday, { minLength: 1, maxLength: 3 }).map((w) =>
        w.map((weekday) => ({ weekday }))
      ),
      { nil: undefined },
    ),
  }, { requiredKeys: ["freq", "interval"] }),
  fc.record({
    freq: fc.constantFrom("DAILY" as const, "WEEKLY" as const),
    interval: fc.integer({ min: 1, max: 3 }),
    byHour: fc.option(
      fc.uniqueArray(fc.integer({ min: 0, max: 23 }), { minLength: 1, maxLength: 3 }),
      { nil: undefined },
    ),
    byMinute: fc.option(
      fc.uniqueArray(fc.constantFrom(0, 15, 30, 45, 59), { minLength: 1, maxLength: 2 }),
      { nil: undefined },
    ),
    byDay: fc.option(
      fc.uniqueArray(weekday, { minLength: 1, maxLength: 3 }).map((w) =>
        w.map((weekday) => ({ weekday }))
      ),
      { nil: undefined },
    ),
    byMonth: fc.option(
      fc.uniqueArray(fc.integer({ min: 1, max: 12 }), { minLength: 1, maxLength: 4 }),
      { nil: undefined },
    ),
    bySetPos: fc.option(fc.constantFrom([1], [-1], [1, -1], [2]), { nil: undefined }),
  }, { requiredKeys: ["freq", "interval"] }),
  fc.record({
    freq: fc.constantFrom("MONTHLY" as const, "YEARLY" as const),
    interval: fc.integer({ min: 1, max: 3 }),
    byHour: fc.option(
      fc.uniqueArray(fc.constantFrom(0, 1, 2, 3, 9, 23), { minLength: 1, maxLength: 2 }),
      { nil: undefined },
    ),
    byMinute: fc.option(fc.uniqueArray(fc.constantFrom(0, 30), { minLength: 1, maxLength: 2 }), {
      nil: undefined,
    }),
    byDay: fc.option(
      fc.uniqueArray(
        fc.record({
          weekday,
          ordinal: fc.option(fc.constantFrom(1, 2, -1, -2, 5), { nil: undefined }),
        }, { requiredKeys: ["weekday"] }),
        { minLength: 1, maxLength: 2, selector: (d) => `${d.ordinal}${d.weekday}` },
      ),
      { nil: undefined },
    ),
    byMonthDay: fc.option(
      fc.uniqueArray(fc.constantFrom(1, 13, 29, 30, 31, -1, -7), { minLength: 1, maxLength: 2 }),
      { nil: undefined },
    ),
    byMonth: fc.option(
      fc.uniqueArray(fc.integer({ min: 1, max: 12 }), { minLength: 1, maxLength: 3 }),
      { nil: undefined },
    ),
    bySetPos: fc.option(fc.constantFrom([1], [-1], [2, -2]), { nil: undefined }),
  }, { requiredKeys: ["freq", "interval"] }),
) as fc.Arbitrary<Rule>;
