// A moved series keeps the days a person skipped (docs/recurring.md "Transitions"): the update's
// excludes, and the skips it does not carry (past, no occurrence that day, the last occurrence).
import assert from "node:assert/strict";
import { foldSchedule } from "./fold.ts";
import { id } from "./_fixtures_test.ts";
import { keptSkips } from "./_keep_skips.ts";
import { createChange, updateChange } from "./decoder.ts";
import type { RecurringRecord } from "./protocol.ts";

const NOW = Date.parse("2027-01-04T00:00:00Z"); // a Monday, before 09:00 UTC
const base: RecurringRecord = {
  id: id("k"),
  kind: "recurring",
  prompt: "standup",
  rrule: "FREQ=DAILY;BYHOUR=9;BYMINUTE=0",
  dtstart: "2027-01-01T09:00:00",
  timeZone: "UTC",
  scheduledAt: "2027-01-04T09:00:00.000Z",
};
const daily: RecurringRecord = {
  ...base,
  // Skipped: last Sunday (past), today and Wednesday.
  exdates: ["2027-01-03T09:00:00.000Z", "2027-01-04T09:00:00.000Z", "2027-01-06T09:00:00.000Z"],
};

Deno.test("another time keeps the coming skipped days; the log folds to that record", () => {
  const next = { ...base, rrule: "FREQ=DAILY;BYHOUR=10;BYMINUTE=0" };
  const target = { ...next, scheduledAt: "2027-01-04T10:00:00.000Z" };
  const { changes, record } = keptSkips(daily, target, NOW);
  assert.deepEqual(changes, [
    {
      version: 2,
      op: "exclude",
      id: daily.id,
      occurrenceAt: "2027-01-04T10:00:00.000Z",
      nextAt: "2027-01-05T10:00:00.000Z",
    },
    {
      version: 2,
      op: "exclude",
      id: daily.id,
      occurrenceAt: "2027-01-06T10:00:00.000Z",
      nextAt: "2027-01-05T10:00:00.000Z",
    },
  ]);
  const events = [createChange(base), updateChange(target), ...changes]
    .map((data, seq) => ({ seq, type: "schedule/change", at: "2027-01-04T00:00:00.000Z", data }));
  assert.deepEqual(foldSchedule(events).active.get(daily.id), record);
});

Deno.test("a skip is not carried to a day without an occurrence, nor when it would end the series", () => {
  // Weekly on Tuesdays: neither Monday nor Wednesday has an occurrence.
  const weekly = {
    ...base,
    rrule: "FREQ=WEEKLY;BYDAY=TU;BYHOUR=9;BYMINUTE=0",
    scheduledAt: "2027-01-05T09:00:00.000Z",
  };
  assert.deepEqual(keptSkips(daily, weekly, NOW).changes, []);
  // Once, today at 10:00: excluding it would leave nothing.
  const once = {
    ...base,
    rrule: "FREQ=DAILY;BYHOUR=10;BYMINUTE=0;COUNT=1",
    dtstart: "2027-01-04T10:00:00",
    scheduledAt: "2027-01-04T10:00:00.000Z",
  };
  assert.deepEqual(keptSkips(daily, once, NOW).changes, []);
  // The same series keeps its exdates in the fold; a one-shot carries none.
  assert.deepEqual(keptSkips(daily, base, NOW).changes, []);
  const oneShot = {
    id: daily.id,
    kind: "at",
    prompt: "x",
    scheduledAt: daily.scheduledAt,
  } as const;
  assert.deepEqual(keptSkips(daily, oneShot, NOW), { changes: [], record: oneShot });
});
