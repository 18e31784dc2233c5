// A series value's preview (docs/recurring.md "Preview"): DST gaps and overlaps and skipped
// months are named, so a person and the model can check a rule before trusting it.
import assert from "node:assert/strict";
import { id } from "./_fixtures_test.ts";
import type { RecurringRecord } from "./protocol.ts";
import { scheduleValue, seriesPreview } from "./value.ts";

function series(rrule: string, dtstart: string, timeZone: string, scheduledAt: string) {
  return {
    id: id("p"),
    kind: "recurring",
    prompt: "p",
    rrule,
    dtstart,
    timeZone,
    scheduledAt,
  } as RecurringRecord;
}

Deno.test("the preview moves a gap time forward and says so, in the rule's zone", () => {
  const record = series(
    "FREQ=DAILY;BYHOUR=2;BYMINUTE=30",
    "2027-03-12T02:30:00",
    "America/New_York",
    "2027-03-13T07:30:00.000Z",
  );
  const preview = seriesPreview(record, Date.parse("2027-03-13T00:00:00Z"));
  assert.deepEqual(preview.slice(0, 3), [
    { at: "2027-03-13T07:30:00.000Z", local: "2027-03-13T02:30", offset: "-05:00" },
    { at: "2027-03-14T07:30:00.000Z", local: "2027-03-14T03:30", offset: "-04:00", dst: "gap" },
    { at: "2027-03-15T06:30:00.000Z", local: "2027-03-15T02:30", offset: "-04:00" },
  ]);
  const later = series(
    "FREQ=DAILY;BYHOUR=4;BYMINUTE=0",
    "2027-03-12T04:00:00",
    "America/New_York",
    "2027-03-13T09:00:00.000Z",
  );
  assert.equal(seriesPreview(later, Date.parse("2027-03-13T00:00:00Z"))[1]!.dst, undefined);
});

Deno.test("the preview names the repeated autumn hour", () => {
  const record = series(
    "FREQ=DAILY;BYHOUR=1;BYMINUTE=30",
    "2027-11-05T01:30:00",
    "America/New_York",
    "2027-11-06T05:30:00.000Z",
  );
  const [, overlap] = seriesPreview(record, Date.parse("2027-11-06T00:00:00Z"));
  assert.equal(overlap!.local, "2027-11-07T01:30");
  assert.equal(overlap!.dst, "overlap");
  assert.equal(overlap!.offset, "-04:00", "the earlier instant");
});

Deno.test("the preview counts months a BYMONTHDAY=31 rule passes over", () => {
  const record = series(
    "FREQ=MONTHLY;BYMONTHDAY=31;BYHOUR=9;BYMINUTE=0",
    "2030-01-31T09:00:00",
    "UTC",
    "2030-01-31T09:00:00.000Z",
  );
  const value = scheduleValue(record, Date.parse("2030-01-01T00:00:00Z"));
  assert.deepEqual(value.preview!.slice(0, 3).map((p) => [p.local, p.skippedPeriods]), [
    ["2030-01-31T09:00", undefined],
    ["2030-03-31T09:00", 1],
    ["2030-05-31T09:00", 1],
  ]);
});

Deno.test("a skipped next occurrence is named on the first item of the preview", () => {
  // Skipped on 2027-01-02 (its exclude moved the target to the 3rd); asked on the 1st at noon.
  const record = {
    ...series(
      "FREQ=DAILY;BYHOUR=9;BYMINUTE=0",
      "2027-01-01T09:00:00",
      "UTC",
      "2027-01-03T09:00:00.000Z",
    ),
    exdates: ["2027-01-02T09:00:00.000Z"],
  } as RecurringRecord;
  const [first, second] = seriesPreview(record, Date.parse("2027-01-01T12:00:00Z"));
  assert.deepEqual(first, {
    at: "2027-01-03T09:00:00.000Z",
    local: "2027-01-03T09:00",
    offset: "+00:00",
    excluded: ["2027-01-02T09:00:00.000Z"],
  });
  assert.equal(second!.excluded, undefined);
  // Asked after the skipped one, it is history, not news.
  assert.equal(seriesPreview(record, Date.parse("2027-01-02T12:00:00Z"))[0]!.excluded, undefined);
});
