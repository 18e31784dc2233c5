import assert from "node:assert/strict";
import fc from "fast-check";
import { throwsCode } from "./_fixtures_test.ts";
import {
  daysInMonth,
  formatInstant,
  isCanonicalInstant,
  isStrictInstant,
  MAX_INSTANT_MS,
  MIN_INSTANT_MS,
  parseStrictInstant,
} from "./rfc3339.ts";

const VALID: ReadonlyArray<readonly [string, string]> = [
  ["2030-01-01T00:00:00Z", "2030-01-01T00:00:00.000Z"],
  ["2030-01-01T00:00:00-00:00", "2030-01-01T00:00:00.000Z"],
  ["2030-01-01T00:00:00+00:00", "2030-01-01T00:00:00.000Z"],
  ["2030-01-01T05:45:00+05:45", "2030-01-01T00:00:00.000Z"],
  ["2030-01-01T00:00:00+05:30", "2029-12-31T18:30:00.000Z"],
  ["2029-12-31T19:00:00-05:00", "2030-01-01T00:00:00.000Z"],
  ["2030-01-01T00:00:00.1Z", "2030-01-01T00:00:00.100Z"],
  ["2030-01-01T00:00:00.12Z", "2030-01-01T00:00:00.120Z"],
  ["2030-01-01T00:00:00.123Z", "2030-01-01T00:00:00.123Z"],
  ["2030-01-01T00:00:00.123999999Z", "2030-01-01T00:00:00.123Z"],
  ["2030-01-01T00:00:00.999999999+01:00", "2029-12-31T23:00:00.999Z"],
  ["2028-02-29T12:00:00Z", "2028-02-29T12:00:00.000Z"],
  ["2000-02-29T12:00:00Z", "2000-02-29T12:00:00.000Z"],
  ["2030-06-30T23:59:59+23:59", "2030-06-30T00:00:59.000Z"],
  ["2030-06-30T00:00:00-23:59", "2030-06-30T23:59:00.000Z"],
  ["0000-01-01T00:00:00Z", "0000-01-01T00:00:00.000Z"],
  ["9999-12-31T23:59:59.999Z", "9999-12-31T23:59:59.999Z"],
];

const INVALID: readonly string[] = [
  "2030-01-01t00:00:00Z", // lowercase t
  "2030-01-01T00:00:00z", // lowercase z
  "2030-01-01 00:00:00Z", // space separator
  "2030-01-01T00:00Z", // missing seconds
  "2030-01-01T00:00:60Z", // leap second
  "2030-01-01T24:00:00Z", // 24:00
  "2030-01-01T00:60:00Z",
  "2030-01-01T00:00:00+24:00", // offset hours > 23
  "2030-01-01T00:00:00+05:60", // offset minutes > 59
  "2030-01-01T00:00:00+0530", // no colon in offset
  "2030-01-01T00:00:00+05", // offset without minutes
  "2030-01-01T00:00:00", // no offset
  "2030-01-01T00:00:00Z[Europe/Paris]", // bracketed zone
  "2030-01-01T00:00:00+01:00[Europe/Paris]",
  "30-01-01T00:00:00Z", // two-digit year
  "+002030-01-01T00:00:00Z", // expanded year
  "2030-W01-1T00:00:00Z", // week date
  "2030-001T00:00:00Z", // ordinal date
  "20300101T000000Z", // basic format
  "2030-01-01T00:00:00.Z", // empty fraction
  "2030-01-01T00:00:00.1234567890Z", // 10-digit fraction
  "2030-01-01T00:00:00,5Z", // comma fraction
  "2030-01-01T00:00:00\u221205:00", // minus sign
  "2027-02-29T00:00:00Z", // not a leap year
  "2100-02-29T00:00:00Z",
  "2030-04-31T00:00:00Z",
  "2030-13-01T00:00:00Z",
  "2030-00-01T00:00:00Z",
  "2030-01-00T00:00:00Z",
  " 2030-01-01T00:00:00Z",
  "2030-01-01T00:00:00Z\n",
  "\uff12030-01-01T00:00:00Z", // full-width digit
  "0000-01-01T00:00:00+00:01", // UTC year -1
  "9999-12-31T23:59:59-00:01", // UTC year 10000
  "",
];

Deno.test("`parseStrictInstant()` accepts the narrow profile", async (t) => {
  for (const [text, iso] of VALID) {
    await t.step(text, () => {
      assert.equal(formatInstant(parseStrictInstant(text)), iso);
      assert.equal(isStrictInstant(text), true);
    });
  }
});

Deno.test("`parseStrictInstant()` rejects everything outside the profile", async (t) => {
  for (const text of INVALID) {
    await t.step(JSON.stringify(text), () => {
      throwsCode(() => parseStrictInstant(text), "invalid_arguments");
      assert.equal(isStrictInstant(text), false);
    });
  }
  for (const value of [undefined, null, 0, {}]) {
    throwsCode(() => parseStrictInstant(value), "invalid_arguments");
  }
});

Deno.test("`parseStrictInstant()` treats `-00:00` as the same instant as `Z`", () => {
  fc.assert(fc.property(fc.integer({ min: 0, max: MAX_INSTANT_MS - 1000 }), (ms) => {
    const z = formatInstant(ms - (ms % 1000)).replace(".000Z", "Z");
    assert.equal(parseStrictInstant(z.replace("Z", "-00:00")), parseStrictInstant(z));
  }));
});

Deno.test("`parseStrictInstant()` inverts `formatInstant()` and honours any offset", () => {
  const offsetMinutes = fc.integer({ min: -(23 * 60 + 59), max: 23 * 60 + 59 });
  const ms = fc.integer({ min: MIN_INSTANT_MS + 86_400_000, max: MAX_INSTANT_MS - 86_400_000 });
  fc.assert(fc.property(ms, offsetMinutes, (epochMs, offset) => {
    assert.equal(parseStrictInstant(formatInstant(epochMs)), epochMs);
    const zoned = Temporal.Instant.fromEpochMilliseconds(epochMs)
      .toZonedDateTimeISO("UTC")
      .add({ minutes: offset });
    const sign = offset < 0 ? "-" : "+";
    const abs = Math.abs(offset);
    const text = `${zoned.toPlainDateTime().toString({ fractionalSecondDigits: 3 })}${sign}${
      String(Math.floor(abs / 60)).padStart(2, "0")
    }:${String(abs % 60).padStart(2, "0")}`;
    assert.equal(parseStrictInstant(text), epochMs);
  }));
});

Deno.test("`formatInstant()` refuses non-storable epochs", () => {
  for (const bad of [0.5, NaN, MIN_INSTANT_MS - 1, MAX_INSTANT_MS + 1]) {
    assert.throws(() => formatInstant(bad), RangeError);
  }
});

Deno.test("`isCanonicalInstant()` accepts exactly the stored form", () => {
  assert.equal(isCanonicalInstant("2030-01-01T00:00:00.000Z"), true);
  for (
    const bad of [
      "2030-01-01T00:00:00Z",
      "2030-01-01T00:00:00.000+00:00",
      "2030-01-01T00:00:00.0000Z",
      "2030-02-30T00:00:00.000Z",
      42,
    ]
  ) {
    assert.equal(isCanonicalInstant(bad), false, String(bad));
  }
});

Deno.test("`daysInMonth()` follows Gregorian leap years", () => {
  assert.deepEqual([2028, 2027, 2000, 1900, 2100].map((y) => daysInMonth(y, 2)), [
    29,
    28,
    29,
    28,
    28,
  ]);
  assert.deepEqual([1, 4, 6, 9, 11, 12].map((m) => daysInMonth(2030, m)), [31, 30, 30, 30, 30, 31]);
});
