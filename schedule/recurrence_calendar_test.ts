/**
 * Calendar-grade expansion (docs/recurring.md "Records"). The DST-instant faults (each failed
 * before the zone-cache fix), rules that never occur (refused, bounded work), YEARLY, BYMONTH,
 * BYSETPOS and Feb 29, and a property test against plain Temporal arithmetic
 * (_rrule_reference_test.ts) with random rules, zones and query orders, shared cache against a
 * fresh one.
 */
import assert from "node:assert/strict";
import fc from "fast-check";
import { throwsCode } from "./_fixtures_test.ts";
import { type Compiled, occurrences, periodNear } from "./_rrule_expand.ts";
import { formatRule, parseRule, type Rule } from "./_rrule_parse.ts";
import { ruleArb, ZONES } from "./_rrule_arbitrary_test.ts";
import { referenceInstants } from "./_rrule_reference_test.ts";
import { wallOfPlain, ZoneClock } from "./_zone_cache.ts";
import {
  canonicalRule,
  catchUp,
  describeRule,
  nextOccurrence,
  previewOccurrences,
  type RecurrenceSeries,
  validateSeries,
} from "./recurrence.ts";

const iso = (ms: number | undefined) => (ms === undefined ? undefined : new Date(ms).toISOString());
const at = (text: string) => Date.parse(text);

function take(series: RecurrenceSeries, from: string, n: number): string[] {
  const out: string[] = [];
  let t = at(from);
  for (let i = 0; i < n; i++) {
    const next = nextOccurrence(series, t);
    if (next === undefined) break;
    out.push(
      Temporal.Instant.fromEpochMilliseconds(next).toZonedDateTimeISO(series.timeZone)
        .toPlainDateTime().toString({ smallestUnit: "minute" }),
    );
    t = next;
  }
  return out;
}

Deno.test("an occurrence on a DST transition does not corrupt the zone cache", () => {
  const twoAm = {
    rrule: "FREQ=DAILY;BYHOUR=2;BYMINUTE=0,30",
    dtstart: "2027-03-13T07:01:00",
    timeZone: "America/New_York",
  };
  // 02:00 and 02:30 do not exist on 2027-03-14: both move forward by the gap (03:00, 03:30 EDT).
  assert.equal(iso(nextOccurrence(twoAm, at("2027-03-13T12:00:00Z"))), "2027-03-14T07:00:00.000Z");
  assert.equal(iso(nextOccurrence(twoAm, at("2027-03-14T07:00:00Z"))), "2027-03-14T07:30:00.000Z");
  assert.equal(iso(nextOccurrence(twoAm, at("2027-03-14T07:30:00Z"))), "2027-03-15T06:00:00.000Z");
  assert.equal(iso(nextOccurrence(twoAm, at("2027-03-13T12:00:00Z"))), "2027-03-14T07:00:00.000Z");

  const hourly = {
    rrule: "FREQ=HOURLY;COUNT=8",
    dtstart: "2027-03-14T00:00:00",
    timeZone: "America/New_York",
  };
  const walk: string[] = [];
  for (let t = at("2027-03-13T00:00:00Z");;) {
    const next = nextOccurrence(hourly, t);
    assert.equal(nextOccurrence(hourly, t), next, "the identical call gives the same answer");
    if (next === undefined) break;
    walk.push(iso(next)!);
    t = next;
  }
  assert.equal(walk.length, 8, walk.join(" "));
  assert.equal(walk.at(-1), "2027-03-14T12:00:00.000Z");

  const daily = {
    rrule: "FREQ=DAILY;BYHOUR=2;BYMINUTE=30",
    dtstart: "2027-03-10T02:30:00",
    timeZone: "America/New_York",
  };
  const caught = catchUp(daily, at("2027-03-13T07:30:00Z"), at("2027-03-14T12:00:00Z"));
  assert.equal(caught.count, 2, "the spring-forward day's 03:30 is one of them: missed 1");
  assert.equal(iso(caught.latest), "2027-03-14T07:30:00.000Z");

  const autumn = {
    rrule: "FREQ=DAILY;BYHOUR=1;BYMINUTE=20",
    dtstart: "2027-11-01T01:20:00",
    timeZone: "America/New_York",
  };
  // The change is at 06:00Z; the second 01:20 (EST, 06:20Z) is not an occurrence.
  assert.equal(iso(nextOccurrence(autumn, at("2027-11-07T06:00:00Z"))), "2027-11-08T06:20:00.000Z");
  assert.equal(iso(nextOccurrence(autumn, at("2027-11-07T05:00:00Z"))), "2027-11-07T05:20:00.000Z");
});

Deno.test("a rule that can never occur is refused at validation, cheaply", () => {
  const never = [
    ["FREQ=MINUTELY;INTERVAL=12;BYMINUTE=10,11,25,39,50", "2027-01-01T00:00:00"],
    ["FREQ=HOURLY;INTERVAL=48;BYHOUR=1", "2027-01-01T00:00:00"],
    ["FREQ=MONTHLY;BYMONTH=2;BYMONTHDAY=30", "2027-01-01T09:00:00"],
    ["FREQ=YEARLY;INTERVAL=4;BYMONTH=2;BYMONTHDAY=29", "2027-01-01T09:00:00"],
    ["FREQ=YEARLY;INTERVAL=2;BYMONTH=2;BYMONTHDAY=29", "2027-01-01T09:00:00"],
    ["FREQ=WEEKLY;BYMONTH=4;BYDAY=MO;BYSETPOS=3", "2027-01-01T09:00:00"],
  ];
  for (const [rrule, dtstart] of never) {
    const started = performance.now();
    throwsCode(
      () => validateSeries({ rrule: rrule!, dtstart: dtstart!, timeZone: "Europe/Berlin" }),
      "rule_never_occurs",
    );
    // Not a timing assertion: a guard that the refusal did not walk to year 9999.
    assert.ok(performance.now() - started < 2_000, rrule);
  }
  // The same structures with a reachable phase are fine.
  validateSeries({
    rrule: "FREQ=MINUTELY;INTERVAL=12;BYMINUTE=0,12,25",
    dtstart: "2027-01-01T00:00:00",
    timeZone: "UTC",
  });
  validateSeries({
    rrule: "FREQ=YEARLY;INTERVAL=4;BYMONTH=2;BYMONTHDAY=29",
    dtstart: "2028-01-01T09:00:00",
    timeZone: "UTC",
  });
});

Deno.test("YEARLY, BYMONTH and BYSETPOS: birthdays, last Sunday of March, last weekday", () => {
  const z = "Europe/Berlin";
  const s = (rrule: string, dtstart = "2027-01-01T09:00:00") => ({
    rrule: canonicalRule(rrule),
    dtstart,
    timeZone: z,
  });
  assert.deepEqual(take(s("FREQ=YEARLY;BYMONTH=3;BYMONTHDAY=3"), "2027-01-01T00:00:00Z", 3), [
    "2027-03-03T09:00",
    "2028-03-03T09:00",
    "2029-03-03T09:00",
  ]);
  assert.deepEqual(take(s("FREQ=YEARLY;BYMONTH=3;BYDAY=-1SU"), "2027-01-01T00:00:00Z", 3), [
    "2027-03-28T09:00",
    "2028-03-26T09:00",
    "2029-03-25T09:00",
  ]);
  assert.deepEqual(
    take(s("FREQ=MONTHLY;BYDAY=MO,TU,WE,TH,FR;BYSETPOS=-1"), "2027-01-01T00:00:00Z", 3),
    ["2027-01-29T09:00", "2027-02-26T09:00", "2027-03-31T09:00"],
  );
  assert.deepEqual(take(s("FREQ=MONTHLY;BYDAY=MO,TU;BYSETPOS=1"), "2027-01-01T00:00:00Z", 3), [
    "2027-01-04T09:00",
    "2027-02-01T09:00",
    "2027-03-01T09:00",
  ]);
  // Feb 29 yearly follows RFC 5545: non-leap years have no occurrence.
  assert.deepEqual(take(s("FREQ=YEARLY", "2028-02-29T08:00:00"), "2028-03-01T00:00:00Z", 2), [
    "2032-02-29T08:00",
    "2036-02-29T08:00",
  ]);
  assert.deepEqual(take(s("FREQ=YEARLY;BYDAY=20MO"), "2027-01-01T00:00:00Z", 1), [
    "2027-05-17T09:00",
  ]);
  assert.deepEqual(take(s("FREQ=DAILY;BYMONTH=12"), "2027-11-30T12:00:00Z", 2), [
    "2027-12-01T09:00",
    "2027-12-02T09:00",
  ]);
  assert.deepEqual(take(s("FREQ=WEEKLY;INTERVAL=2;BYDAY=TU"), "2027-01-01T00:00:00Z", 2), [
    "2027-01-12T09:00", // DTSTART's week (of 2026-12-28) is period 0; Jan 5 is in period 1
    "2027-01-26T09:00",
  ]);
  assert.equal(
    canonicalRule("FREQ=MONTHLY;BYSETPOS=-1;BYDAY=FR,MO,TU,WE,TH;BYMONTH=3,1"),
    "FREQ=MONTHLY;BYMONTH=1,3;BYDAY=MO,TU,WE,TH,FR;BYSETPOS=-1",
  );
  throwsCode(() => canonicalRule("FREQ=MONTHLY;BYSETPOS=1"), "invalid_arguments");
  throwsCode(() => canonicalRule("FREQ=YEARLY;BYDAY=54MO"), "invalid_arguments");
  throwsCode(() => canonicalRule("FREQ=YEARLY;BYMONTH=3;BYDAY=6MO"), "invalid_arguments");
  throwsCode(() => canonicalRule("FREQ=YEARLY;BYMONTH=13"), "invalid_arguments");
});

Deno.test("the new forms in words, English and Chinese", () => {
  const d = (rrule: string, dtstart = "2027-01-01T09:00:00") => {
    const series = { rrule, dtstart, timeZone: "UTC" };
    return [describeRule(series, "en"), describeRule(series, "zh")];
  };
  assert.deepEqual(d("FREQ=YEARLY;BYMONTH=3;BYMONTHDAY=3"), [
    "yearly on March 3 at 09:00 (UTC)",
    "每年3月3日 09:00（UTC）",
  ]);
  assert.deepEqual(d("FREQ=YEARLY", "2027-06-05T09:00:00"), [
    "yearly on June 5 at 09:00 (UTC)",
    "每年6月5日 09:00（UTC）",
  ]);
  assert.deepEqual(d("FREQ=YEARLY;BYMONTH=3;BYDAY=-1SU"), [
    "yearly on the last Sunday of March at 09:00 (UTC)",
    "每年3月最后一个周日 09:00（UTC）",
  ]);
  assert.deepEqual(d("FREQ=MONTHLY;BYDAY=MO,TU,WE,TH,FR;BYSETPOS=-1"), [
    "monthly on the last weekday at 09:00 (UTC)",
    "每月最后一个工作日 09:00（UTC）",
  ]);
  assert.deepEqual(d("FREQ=MONTHLY;BYDAY=-1FR"), [
    "monthly on the last Friday at 09:00 (UTC)",
    "每月最后一个周五 09:00（UTC）",
  ]);
  assert.deepEqual(d("FREQ=DAILY;BYMONTH=12"), [
    "daily at 09:00 in December (UTC)",
    "每天 09:00（限12月）（UTC）",
  ]);
  assert.deepEqual(d("FREQ=YEARLY;INTERVAL=2;BYDAY=20MO"), [
    "every 2 years on the 20th Monday of the year at 09:00 (UTC)",
    "每隔2年的全年第20个周一 09:00（UTC）",
  ]);
});

Deno.test("preview: next occurrences with DST notes, skipped months and exclusions", () => {
  const gap = previewOccurrences(
    {
      rrule: "FREQ=DAILY;BYHOUR=2;BYMINUTE=30",
      dtstart: "2027-03-10T02:30:00",
      timeZone: "America/New_York",
    },
    at("2027-03-13T12:00:00Z"),
    2,
  );
  assert.deepEqual(gap.map((p) => [p.local, p.offset, p.dst]), [
    ["2027-03-14T03:30", "-04:00", "gap"],
    ["2027-03-15T02:30", "-04:00", undefined],
  ]);
  // The rule's own 03:15 on the spring-forward day is no gap note, though 02:15 does not exist.
  const own = previewOccurrences(
    {
      rrule: "FREQ=DAILY;BYHOUR=3;BYMINUTE=15",
      dtstart: "2027-03-10T03:15:00",
      timeZone: "America/New_York",
    },
    at("2027-03-13T12:00:00Z"),
    1,
  );
  assert.deepEqual(own.map((p) => [p.local, p.dst]), [["2027-03-14T03:15", undefined]]);
  const overlap = previewOccurrences(
    {
      rrule: "FREQ=DAILY;BYHOUR=1;BYMINUTE=30",
      dtstart: "2027-11-01T01:30:00",
      timeZone: "America/New_York",
    },
    at("2027-11-06T12:00:00Z"),
    1,
  );
  assert.equal(overlap[0]!.dst, "overlap");
  const afterFallBack = previewOccurrences(
    { rrule: "FREQ=HOURLY", dtstart: "2027-11-07T00:00:00", timeZone: "America/New_York" },
    at("2027-11-07T06:30:00Z"),
    1,
  );
  assert.deepEqual(afterFallBack.map((p) => [p.local, p.offset, p.dst]), [
    ["2027-11-07T02:00", "-05:00", undefined],
  ]);
  const skipped = {
    rrule: "FREQ=DAILY",
    dtstart: "2027-01-01T09:00:00",
    timeZone: "UTC",
    exdates: ["2027-01-02T09:00:00.000Z"],
  };
  assert.equal(
    iso(nextOccurrence(skipped, at("2027-01-01T10:00:00Z"))),
    "2027-01-03T09:00:00.000Z",
  );
  assert.equal(catchUp(skipped, at("2027-01-01T09:00:00Z"), at("2027-01-03T10:00:00Z")).count, 2);
  const months = previewOccurrences(
    {
      rrule: "FREQ=MONTHLY;BYMONTHDAY=31",
      dtstart: "2027-01-31T09:00:00",
      timeZone: "UTC",
      exdates: ["2027-05-31T09:00:00.000Z"],
    },
    at("2027-03-01T00:00:00Z"),
    3,
  );
  assert.deepEqual(months.map((p) => [p.local, p.skippedPeriods, p.excluded]), [
    ["2027-03-31T09:00", undefined, undefined],
    ["2027-07-31T09:00", 2, ["2027-05-31T09:00:00.000Z"]],
    ["2027-08-31T09:00", undefined, undefined],
  ]);
  // An excluded occurrence still counts for COUNT (RFC 5545 §3.8.5.1).
  const counted = {
    rrule: "FREQ=DAILY;COUNT=3",
    dtstart: "2027-01-01T09:00:00",
    timeZone: "UTC",
    exdates: ["2027-01-02T09:00:00.000Z"],
  };
  assert.deepEqual(previewOccurrences(counted, at("2026-12-31T00:00:00Z")).map((p) => p.at), [
    "2027-01-01T09:00:00.000Z",
    "2027-01-03T09:00:00.000Z",
  ]);
});

// ---- property: the engine against plain Temporal, shared cache against a fresh one ----

const HORIZON_DAYS = { MINUTELY: 4, HOURLY: 8, DAILY: 40, WEEKLY: 200, MONTHLY: 800, YEARLY: 6000 };

/** A wall time, instant or exact DST transition near which to ask. */
function transitionsOf(zone: string): number[] {
  const out: number[] = [];
  let z: Temporal.ZonedDateTime | null = Temporal.Instant.from("2026-06-01T00:00:00Z")
    .toZonedDateTimeISO(zone);
  for (let i = 0; i < 6 && z !== null; i++) {
    z = z.getTimeZoneTransition("next");
    if (z !== null) out.push(z.epochMilliseconds);
  }
  return out;
}

Deno.test("property: nextOccurrence equals plain Temporal arithmetic, whatever was asked before", () => {
  let checked = 0;
  fc.assert(
    fc.property(
      ruleArb,
      fc.constantFrom(...ZONES),
      fc.date({
        min: new Date("2026-01-01T00:00:00Z"),
        max: new Date("2027-06-01T00:00:00Z"),
        noInvalidDate: true,
      }),
      fc.array(fc.oneof(fc.integer({ min: 0, max: 5 }), fc.integer({ min: -2, max: 2 })), {
        minLength: 2,
        maxLength: 6,
      }),
      fc.array(fc.integer({ min: 0, max: 400 * 86_400_000 }), { minLength: 1, maxLength: 4 }),
      (raw, zone, startDate, picks, offsets) => {
        let rule: Rule;
        try {
          rule = parseRule(formatRule({ ...raw }));
        } catch {
          return; // the generator made a refused combination (e.g. BYSETPOS alone)
        }
        const dtstart = Temporal.Instant.fromEpochMilliseconds(startDate.getTime())
          .toZonedDateTimeISO("UTC").toPlainDateTime().round({ smallestUnit: "minute" })
          .toString({ smallestUnit: "second" });
        const series = { rrule: formatRule(rule), dtstart, timeZone: zone };
        try {
          validateSeries(series);
        } catch (error) {
          if ((error as { code?: string }).code === "rule_never_occurs") return;
          throw error;
        }
        const transitions = transitionsOf(zone);
        const queries = picks.map((p, i) =>
          p >= 0 && transitions.length > 0
            ? transitions[p % transitions.length]! + (picks[(i + 1) % picks.length]! % 2) * 1
            : startDate.getTime() + offsets[i % offsets.length]!
        );
        checked++;
        for (const after of queries) {
          const shared = nextOccurrence(series, after);
          const fresh = freshNext(rule, dtstart, zone, after);
          assert.equal(
            iso(shared),
            iso(fresh),
            `${series.rrule} ${dtstart} ${zone} after ${iso(after)}`,
          );
          const horizon = HORIZON_DAYS[rule.freq] * 86_400_000;
          const fromWall = Temporal.Instant.fromEpochMilliseconds(after - 2 * 86_400_000)
            .toZonedDateTimeISO(zone).toPlainDateTime();
          const toWall = Temporal.Instant.fromEpochMilliseconds(after + horizon)
            .toZonedDateTimeISO(zone).toPlainDateTime();
          const expected = referenceInstants(rule, dtstart, zone, fromWall, toWall)
            .find((t) => t > after && t <= after + horizon - 2 * 86_400_000);
          if (expected !== undefined) {
            assert.equal(
              iso(shared),
              iso(expected),
              `reference: ${series.rrule} ${dtstart} ${zone} after ${iso(after)}`,
            );
          } else {
            assert.ok(
              shared === undefined || shared > after + horizon - 3 * 86_400_000,
              `reference finds none: ${series.rrule} ${dtstart} ${zone} after ${iso(after)} got ${
                iso(shared)
              }`,
            );
          }
        }
      },
    ),
    { numRuns: 300 },
  );
  assert.ok(checked > 200, `${checked} of 300 random rules were accepted and compared`);
});

/** The next occurrence through a fresh zone clock (no shared cache). */
function freshNext(rule: Rule, dtstart: string, zone: string, after: number): number | undefined {
  const c: Compiled = {
    rule,
    start: wallOfPlain(Temporal.PlainDateTime.from(dtstart)),
    clock: new ZoneClock(zone),
  };
  for (const t of occurrences(c, periodNear(c, after))) if (t > after) return t;
  return undefined;
}

Deno.test("property: a long catch-up counted in bulk equals walking every occurrence, EXDATEs too", () => {
  let checked = 0;
  fc.assert(
    fc.property(
      ruleArb,
      fc.constantFrom(...ZONES),
      fc.integer({ min: 0, max: 365 * 86_400_000 }),
      fc.integer({ min: 8, max: 400 }),
      fc.array(fc.nat(), { maxLength: 3 }),
      (raw, zone, offset, days, picks) => {
        let rule: Rule;
        try {
          rule = parseRule(formatRule(raw));
        } catch {
          return;
        }
        const subDaily = rule.freq === "MINUTELY" || rule.freq === "HOURLY";
        const span = (subDaily ? Math.min(days, 12) : days) * 86_400_000;
        const series = { rrule: formatRule(rule), dtstart: "2026-03-01T08:15:00", timeZone: zone };
        try {
          validateSeries(series);
        } catch {
          return;
        }
        checked++;
        const from = at("2026-03-01T00:00:00Z") + offset;
        const now = from + span;
        const walked: number[] = [];
        for (let t = nextOccurrence(series, from - 1); t !== undefined && t <= now;) {
          walked.push(t);
          t = nextOccurrence(series, t);
        }
        // Some occurrences skipped (EXDATE), the latest among them when picked.
        const exdates = [...new Set(picks.map((p) => walked[walked.length - 1 - (p % 4)]))]
          .filter((t): t is number => t !== undefined).map((t) => iso(t)!);
        const kept = walked.filter((t) => !exdates.includes(iso(t)!));
        const skipped = { ...series, exdates };
        const bulk = catchUp(skipped, from, now);
        assert.deepEqual(
          [bulk.count, iso(bulk.latest), iso(bulk.next)],
          [kept.length, iso(kept.at(-1)), iso(nextOccurrence(skipped, now))],
          `${series.rrule} ${zone} from ${iso(from)} for ${span / 86_400_000} days`,
        );
      },
    ),
    { numRuns: 120 },
  );
  assert.ok(checked > 60, `${checked} compared`);
  // A year of FREQ=MINUTELY downtime is counted, not walked: every UTC minute but the repeated
  // autumn hour's 60 (the spring gap's walls land on instants the next hour has anyway).
  const minutely = {
    rrule: "FREQ=MINUTELY",
    dtstart: "2027-01-01T00:00:00",
    timeZone: "Europe/Berlin",
  };
  const year = catchUp(minutely, at("2027-01-01T00:00:00Z"), at("2028-01-01T00:00:00Z"));
  assert.equal(year.count, 365 * 1440 + 1 - 60);
});
