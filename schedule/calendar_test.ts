import assert from "node:assert/strict";
import fc from "fast-check";
import { throwsCode } from "./_fixtures_test.ts";
import { parseLocalDateTime, resolveLocal } from "./calendar.ts";
import { formatInstant } from "./rfc3339.ts";

type Row = readonly [zone: string, date: string, time: string, expected: string];

/** Resolvable wall times: [zone, date, time, UTC instant (overlaps: the earlier one)]. */
const RESOLVES: readonly Row[] = [
  // America/New_York: gap 2025-03-09 02:00→03:00, overlap 2025-11-02 01:00–02:00.
  ["America/New_York", "2025-03-09", "01:59:59", "2025-03-09T06:59:59.000Z"],
  ["America/New_York", "2025-03-09", "03:00", "2025-03-09T07:00:00.000Z"],
  ["America/New_York", "2025-11-02", "01:30", "2025-11-02T05:30:00.000Z"],
  ["America/New_York", "2025-11-02", "02:00", "2025-11-02T07:00:00.000Z"],
  // Europe/London: gap 2025-03-30 01:00→02:00, overlap 2025-10-26 01:00–02:00.
  ["Europe/London", "2025-03-30", "02:00", "2025-03-30T01:00:00.000Z"],
  ["Europe/London", "2025-10-26", "01:30", "2025-10-26T00:30:00.000Z"],
  // Australia/Lord_Howe shifts by 30 minutes: gap 2025-10-05 02:00→02:30, overlap 2025-04-06
  // 01:30–02:00 (+11:00 then +10:30).
  ["Australia/Lord_Howe", "2025-10-05", "02:30", "2025-10-04T15:30:00.000Z"],
  ["Australia/Lord_Howe", "2025-04-06", "01:45", "2025-04-05T14:45:00.000Z"],
  ["Australia/Lord_Howe", "2025-04-06", "02:00", "2025-04-05T15:30:00.000Z"],
  // Fixed and unusual offsets.
  ["Asia/Kathmandu", "2030-01-01", "09:00", "2030-01-01T03:15:00.000Z"],
  ["Etc/GMT+5", "2030-01-01", "00:00", "2030-01-01T05:00:00.000Z"], // POSIX sign: UTC−5
  ["Etc/GMT-14", "2030-01-01", "00:00", "2029-12-31T10:00:00.000Z"],
  ["UTC", "2030-06-15", "12:34:56", "2030-06-15T12:34:56.000Z"],
  // Legacy links resolve like their targets.
  ["Asia/Calcutta", "2030-01-01", "09:00", "2030-01-01T03:30:00.000Z"],
  ["Asia/Kolkata", "2030-01-01", "09:00", "2030-01-01T03:30:00.000Z"],
  ["US/Eastern", "2030-07-01", "09:00", "2030-07-01T13:00:00.000Z"],
  ["Europe/Kiev", "2030-01-01", "09:00", "2030-01-01T07:00:00.000Z"],
  ["america/new_york", "2030-01-01", "09:00", "2030-01-01T14:00:00.000Z"],
  // Leap days.
  ["UTC", "2028-02-29", "09:00", "2028-02-29T09:00:00.000Z"],
  ["UTC", "2000-02-29", "09:00", "2000-02-29T09:00:00.000Z"],
];

const GAPS: readonly (readonly [string, string, string])[] = [
  ["America/New_York", "2025-03-09", "02:00"],
  ["America/New_York", "2025-03-09", "02:30"],
  ["America/New_York", "2025-03-09", "02:59:59"],
  ["US/Eastern", "2025-03-09", "02:30"],
  ["Europe/London", "2025-03-30", "01:30"],
  ["Australia/Lord_Howe", "2025-10-05", "02:00"],
  ["Australia/Lord_Howe", "2025-10-05", "02:15"],
];

const BAD_DATE_TIMES: readonly (readonly [string, string])[] = [
  ["2027-02-29", "09:00"], // not a leap year
  ["2100-02-29", "09:00"],
  ["2025-02-30", "09:00"],
  ["2025-04-31", "09:00"],
  ["2025-13-01", "09:00"],
  ["2025-00-10", "09:00"],
  ["2025-01-00", "09:00"],
  ["25-01-01", "09:00"], // two-digit year
  ["2025-1-01", "09:00"],
  ["2025/01/01", "09:00"],
  ["2025-01-01T09:00", "09:00"],
  ["2025-01-01", "24:00"],
  ["2025-01-01", "23:60"],
  ["2025-01-01", "12:00:60"],
  ["2025-01-01", "9:00"],
  ["2025-01-01", "09:00:00.5"],
  ["2025-01-01", "09:00Z"],
  ["2025-01-01", "0900"],
  ["2025-01-01", "9am"],
];

Deno.test("`resolveLocal()` resolves wall times, overlaps to the earlier instant", async (t) => {
  for (const [zone, date, time, expected] of RESOLVES) {
    await t.step(`${date} ${time} ${zone}`, () => {
      assert.equal(formatInstant(resolveLocal({ date, time }, zone).epochMs), expected);
    });
  }
});

Deno.test("`resolveLocal()` reports overlaps and the normalized zone", () => {
  const overlap = resolveLocal({ date: "2025-11-02", time: "01:30" }, "america/new_york");
  assert.deepEqual(overlap, {
    epochMs: Date.UTC(2025, 10, 2, 5, 30),
    timeZone: "America/New_York",
    overlap: true,
  });
  const plain = resolveLocal({ date: "2025-11-02", time: "03:30" }, "Asia/Calcutta");
  assert.equal(plain.overlap, false);
  assert.equal(plain.timeZone, "Asia/Calcutta");
});

Deno.test("`resolveLocal()` rejects DST gaps with `nonexistent_local_time`", async (t) => {
  for (const [zone, date, time] of GAPS) {
    await t.step(`${date} ${time} ${zone}`, () => {
      throwsCode(() => resolveLocal({ date, time }, zone), "nonexistent_local_time");
    });
  }
});

Deno.test("`resolveLocal()` rejects impossible dates and malformed times", async (t) => {
  for (const [date, time] of BAD_DATE_TIMES) {
    await t.step(`${date} ${time}`, () => {
      throwsCode(() => resolveLocal({ date, time }, "UTC"), "invalid_arguments");
    });
  }
});

Deno.test("`resolveLocal()` rejects unknown zones and bare offsets", () => {
  for (const zone of ["Mars/Olympus", "+05:00", "UTC+5", "GMT-3", "", "Europe/Londres"]) {
    throwsCode(
      () => resolveLocal({ date: "2030-01-01", time: "09:00" }, zone),
      "invalid_time_zone",
    );
  }
});

Deno.test("`resolveLocal()` rejects instants outside the four-digit UTC years", () => {
  throwsCode(
    () => resolveLocal({ date: "9999-12-31", time: "23:00" }, "Etc/GMT+5"),
    "invalid_arguments",
  );
  throwsCode(
    () => resolveLocal({ date: "0000-01-01", time: "00:30" }, "Etc/GMT-1"),
    "invalid_arguments",
  );
  assert.equal(
    resolveLocal({ date: "0000-01-01", time: "00:00" }, "UTC").epochMs,
    -62_167_219_200_000,
  );
});

Deno.test("`parseLocalDateTime()` defaults seconds to zero", () => {
  assert.equal(
    parseLocalDateTime({ date: "2030-01-02", time: "03:04" }).toString(),
    "2030-01-02T03:04:00",
  );
  assert.equal(parseLocalDateTime({ date: "2030-01-02", time: "03:04:05" }).second, 5);
});

const ZONES = [
  "America/New_York",
  "Europe/London",
  "Australia/Lord_Howe",
  "Asia/Kathmandu",
  "Etc/GMT+5",
  "Asia/Calcutta",
  "America/Santiago",
];
const arbLocal = fc.record({
  year: fc.integer({ min: 1971, max: 2100 }),
  month: fc.integer({ min: 1, max: 12 }),
  day: fc.integer({ min: 1, max: 31 }),
  hour: fc.integer({ min: 0, max: 23 }),
  minute: fc.integer({ min: 0, max: 59 }),
});
const pad = (n: number, width = 2) => String(n).padStart(width, "0");

Deno.test("`resolveLocal()` properties: wall time round-trips, earliest of all candidates", () => {
  fc.assert(
    fc.property(arbLocal, fc.constantFrom(...ZONES), (l, zone) => {
      const date = `${pad(l.year, 4)}-${pad(l.month)}-${pad(l.day)}`;
      const time = `${pad(l.hour)}:${pad(l.minute)}`;
      let valid = true;
      try {
        Temporal.PlainDate.from({ year: l.year, month: l.month, day: l.day }, {
          overflow: "reject",
        });
      } catch {
        valid = false;
      }
      if (!valid) {
        return void throwsCode(() => resolveLocal({ date, time }, zone), "invalid_arguments");
      }
      const wall = Temporal.PlainDateTime.from(`${date}T${time}`);
      const later = wall.toZonedDateTime(zone, { disambiguation: "later" });
      const earlier = wall.toZonedDateTime(zone, { disambiguation: "earlier" });
      if (!earlier.toPlainDateTime().equals(wall)) {
        return void throwsCode(() => resolveLocal({ date, time }, zone), "nonexistent_local_time");
      }
      const resolved = resolveLocal({ date, time }, zone);
      const zoned = Temporal.Instant.fromEpochMilliseconds(resolved.epochMs).toZonedDateTimeISO(
        zone,
      );
      assert.ok(zoned.toPlainDateTime().equals(wall));
      assert.ok(resolved.epochMs <= later.epochMilliseconds);
      assert.equal(resolved.overlap, resolved.epochMs < later.epochMilliseconds);
    }),
    { numRuns: 500 },
  );
});

Deno.test("`resolveLocal()` property: links resolve exactly like their targets", () => {
  const pairs = [["Asia/Calcutta", "Asia/Kolkata"], ["US/Eastern", "America/New_York"], [
    "Europe/Kiev",
    "Europe/Kyiv",
  ]] as const;
  fc.assert(fc.property(arbLocal, fc.constantFrom(...pairs), (l, [link, target]) => {
    fc.pre(l.day <= 28);
    const local = {
      date: `${pad(l.year, 4)}-${pad(l.month)}-${pad(l.day)}`,
      time: `${pad(l.hour)}:${pad(l.minute)}`,
    };
    const outcome = (zone: string) => {
      try {
        return resolveLocal(local, zone).epochMs;
      } catch (error) {
        return (error as { code: string }).code;
      }
    };
    assert.equal(outcome(link), outcome(target));
  }));
});

Deno.test("`resolveLocal()` refuses exactly the skipped minutes of each transition day", () => {
  const days = [
    ["America/New_York", "2025-03-09", 60, 0],
    ["America/New_York", "2025-11-02", 0, 60],
    ["Europe/London", "2025-03-30", 60, 0],
    ["Europe/London", "2025-10-26", 0, 60],
    ["Australia/Lord_Howe", "2025-10-05", 30, 0],
    ["Australia/Lord_Howe", "2025-04-06", 0, 30],
  ] as const;
  for (const [zone, date, gapMinutes, overlapMinutes] of days) {
    let gaps = 0;
    let overlaps = 0;
    for (let minute = 0; minute < 24 * 60; minute++) {
      const time = `${pad(Math.floor(minute / 60))}:${pad(minute % 60)}`;
      try {
        overlaps += resolveLocal({ date, time }, zone).overlap ? 1 : 0;
      } catch (error) {
        assert.equal((error as { code: string }).code, "nonexistent_local_time");
        gaps++;
      }
    }
    assert.deepEqual([gaps, overlaps], [gapMinutes, overlapMinutes], `${zone} ${date}`);
  }
});
