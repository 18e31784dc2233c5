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
    recurring: {
      rrule: "FREQ=DAILY;BYHOUR=9;BYMINUTE=0",
      timeZone: "UTC",
      text,
      nextAt: day(1),
      preview: [1, 2, 3, 4, 5].map((n) => ({
        at: day(n),
        local: day(n).slice(0, 16),
        offset: "+00:00",
      })),
    },
  });
  assert.deepEqual(scheduleReminderPresentation(header(), events, 2)?.missed, 2);
  assert.equal(scheduleReminderPresentation(header(), events, 2)?.recurring?.nextAt, null);
  assert.deepEqual(scheduleReminderPresentation(header(), events, 2)?.recurring?.preview, []);
});

Deno.test("a recurring card's preview leaves out the series' excluded occurrences", () => {
  const events = given(
    v2.create(seriesRecord("a")),
    v2.exclude("a", day(5), day(0)),
    v2.occurrence("dispatch", "a", day(0), day(1)),
    v2.update({ ...seriesRecord("a"), prompt: "same series", scheduledAt: day(1) }),
    v2.occurrence("dispatch", "a", day(1), day(2)),
    v2.update({ ...seriesRecord("a", { dtstart: "2030-01-02T09:00:00" }), scheduledAt: day(2) }),
    v2.occurrence("dispatch", "a", day(2), day(3)),
  );
  const receipts = scheduleReminderPresentations(header(), events);
  const first = receipts.get(2)!.recurring!.preview;
  assert.deepEqual(first.map((p) => p.at), [day(1), day(2), day(3), day(4), day(6)]);
  assert.deepEqual(first[4]!.excluded, [day(5)]);
  const kept = receipts.get(4)!.recurring!.preview;
  assert.deepEqual(kept.map((p) => p.at), [day(2), day(3), day(4), day(6), day(7)], "same series");
  const reset = receipts.get(6)!.recurring!.preview;
  assert.deepEqual(reset.map((p) => p.at), [day(3), day(4), day(5), day(6), day(7)], "changed");
  assert.deepEqual(
    [...scheduleReminderPresentations(header(), events, { seqs: new Set([4]) }).keys()],
    [4],
  );
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
