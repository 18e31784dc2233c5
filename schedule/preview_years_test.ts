// Found from outside (docs/recurring.md "Records", `skippedPeriods`): a YEARLY rule's skipped
// years are counted as whole 12-month spans from the previous instant, not as the calendar years
// (the rule's periods) that hold no occurrence. A Feb 29 birthday set in December 2026 previews
// 2028-02-29 with no note, although 2027 has no occurrence; from one day later in the cycle the
// same years are counted.
import assert from "node:assert/strict";
import { previewOccurrences } from "./recurrence.ts";

const FEB29 = {
  rrule: "FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=29;BYHOUR=9;BYMINUTE=0",
  dtstart: "2024-02-29T09:00:00",
  timeZone: "Europe/Berlin",
};

Deno.test("a Feb 29 preview made in December names the year before the next leap year", () => {
  const [first, second] = previewOccurrences(FEB29, Date.parse("2026-12-02T02:00:00Z"), 2);
  assert.equal(first!.local, "2028-02-29T09:00");
  assert.equal(first!.skippedPeriods, 1, "2027 has no February 29");
  assert.equal(second!.skippedPeriods, 3, "2029, 2030 and 2031");
});

Deno.test("the years a Feb 29 preview passes over do not depend on the month it is made in", () => {
  // 2025, 2026 and 2027 lie wholly between now and the occurrence, whenever in 2024 it is asked.
  for (const now of ["2024-03-01T00:00:00Z", "2024-06-01T00:00:00Z", "2024-12-31T00:00:00Z"]) {
    const [first] = previewOccurrences(FEB29, Date.parse(now), 1);
    assert.equal(first!.skippedPeriods, 3, now);
  }
});
