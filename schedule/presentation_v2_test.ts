import assert from "node:assert/strict";
import { atRecord, day, given, header, id, seriesRecord, v2 } from "./_fixtures_test.ts";
import { scheduleReminderPresentation, scheduleReminderPresentations } from "./presentation.ts";

Deno.test("a recurring dispatch presents its occurrence, rule in words, next and missed", () => {
  const events = given(
    v2.create(seriesRecord("a")),
    v2.occurrence("dispatch", "a", day(0), day(1)),
    v2.occurrence("dispatch", "a", day(3), null, 2),
  );
  const text = { en: "daily at 09:00 (UTC)", zh: "每天 09:00（UTC）" };
  assert.deepEqual(scheduleReminderPresentation(header(), events, 1), {
    scheduleId: id("a"),
    prompt: "repeat a",
    occurrenceAt: day(0),
    recurring: { rrule: "FREQ=DAILY;BYHOUR=9;BYMINUTE=0", timeZone: "UTC", text, nextAt: day(1) },
  });
  assert.deepEqual(scheduleReminderPresentation(header(), events, 2)?.missed, 2);
  assert.equal(scheduleReminderPresentation(header(), events, 2)?.recurring?.nextAt, null);
});

Deno.test("a snooze receipt names what it snoozes; an update pairs as the create", () => {
  const snoozeOf = { id: id("a"), occurrenceAt: day(0) };
  const events = given(
    v2.create({ ...atRecord("b"), snoozeOf }),
    v2.dispatch("b"),
    v2.create(atRecord("c")),
    v2.update({ ...atRecord("c", 30), prompt: "moved" }),
    v2.dispatch("c"),
  );
  const receipts = scheduleReminderPresentations(header(), events);
  assert.deepEqual(receipts.get(1)?.snoozeOf, snoozeOf);
  assert.equal(receipts.get(4)?.prompt, "moved");
  assert.equal(receipts.get(4)?.occurrenceAt, atRecord("c", 30).scheduledAt);
  assert.equal(receipts.get(4)?.snoozeOf, undefined);
});
