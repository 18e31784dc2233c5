import assert from "node:assert/strict";
import fc from "fast-check";
import {
  atRecord,
  create,
  dispatch,
  endSeed,
  type Entry,
  given,
  header,
  id,
  other,
  remove,
} from "./_fixtures_test.ts";
import {
  scheduleChangeView,
  scheduleReminderPresentation,
  scheduleReminderPresentations,
} from "./presentation.ts";

const receipt = (tag: string, minutes = 5, prompt = `remind ${tag}`) => {
  const record = atRecord(tag, minutes, prompt);
  return { scheduleId: record.id, prompt, occurrenceAt: record.scheduledAt };
};

Deno.test("`scheduleReminderPresentation()` pairs a dispatch with its create", () => {
  const events = given(create(atRecord("a", 5)), other(), dispatch("a"));
  assert.deepEqual(scheduleReminderPresentation(header(), events, 2), receipt("a", 5));
});

Deno.test("`scheduleReminderPresentation()` is undefined for anything but a paired dispatch", () => {
  const events = given(
    create(atRecord("a")),
    other(),
    remove("a"),
    { type: "schedule/change", data: { version: 9, op: "dispatch", id: id("a") } },
    dispatch("z"),
  );
  for (const seq of [0, 1, 2, 3, 4, 99]) {
    assert.equal(scheduleReminderPresentation(header(), events, seq), undefined, `seq ${seq}`);
  }
});

Deno.test("`scheduleReminderPresentation()` renders inherited ancestor receipts in a fork", () => {
  // Parent: create a, dispatch a; the child seed copies both, then closes with end-seed.
  const events = given(create(atRecord("a")), dispatch("a"), endSeed(3), other());
  assert.deepEqual(scheduleReminderPresentation(header(3), events, 1), receipt("a"));
});

Deno.test("`scheduleReminderPresentation()` never pairs a child dispatch across seedLength", () => {
  // The parent's record is inherited but is not the child's active work.
  const events = given(create(atRecord("a")), endSeed(2), dispatch("a"));
  assert.equal(scheduleReminderPresentation(header(2), events, 2), undefined);
});

Deno.test("`scheduleReminderPresentation()` keeps id reuse across nested generations", () => {
  // Grandparent creates and dispatches a; the parent (a fork) reuses id a; the grandchild (a
  // fork of the parent) reuses it once more. Each dispatch pairs with the nearest create before it.
  const events = given(
    create(atRecord("a", 1, "first")), // 0  grandparent
    dispatch("a"), // 1
    endSeed(3), // 2  parent's seed ends
    create(atRecord("a", 2, "second")), // 3  parent
    dispatch("a"), // 4
    endSeed(6), // 5  grandchild's seed ends
    create(atRecord("a", 3, "third")), // 6  grandchild
    dispatch("a"), // 7
  );
  const child = header(6);
  assert.deepEqual(scheduleReminderPresentation(child, events, 1), receipt("a", 1, "first"));
  assert.deepEqual(scheduleReminderPresentation(child, events, 4), receipt("a", 2, "second"));
  assert.deepEqual(scheduleReminderPresentation(child, events, 7), receipt("a", 3, "third"));
  assert.deepEqual(
    [...scheduleReminderPresentations(child, events)],
    [[1, receipt("a", 1, "first")], [4, receipt("a", 2, "second")], [7, receipt("a", 3, "third")]],
  );
});

Deno.test("`scheduleReminderPresentation()` renders a recovered prefix (end-seed as replay)", () => {
  // A replayed session: its whole recovered history is the seed; nothing is fork-owned.
  const events = given(
    create(atRecord("a")),
    create(atRecord("b")),
    dispatch("b"),
    dispatch("a"),
    endSeed(5),
  );
  const receipts = scheduleReminderPresentations(header(5), events);
  assert.deepEqual([...receipts.keys()], [2, 3]);
  assert.deepEqual(receipts.get(3), receipt("a"));
});

Deno.test("`scheduleReminderPresentations()` skips undecodable changes", () => {
  const events = given(
    { type: "schedule/change", data: { version: 1, op: "create", record: { id: id("a") } } },
    dispatch("a"),
  );
  assert.equal(scheduleReminderPresentations(header(), events).size, 0);
});

const TAGS = ["a", "b"];
const arbEntries = fc.array(
  fc.oneof(
    fc.constantFrom(...TAGS).map((tag) => create(atRecord(tag))),
    fc.constantFrom(...TAGS).map(dispatch),
    fc.constant(other()),
  ),
  { maxLength: 25 },
).map((entries): Entry[] => entries);

Deno.test("`scheduleReminderPresentations()` agrees with the per-seq function", () => {
  fc.assert(fc.property(arbEntries, fc.nat(30), fc.boolean(), (entries, seed, fork) => {
    const events = given(...entries);
    const h = fork ? header(Math.min(seed, events.length)) : header();
    const all = scheduleReminderPresentations(h, events);
    for (const event of events) {
      assert.deepEqual(scheduleReminderPresentation(h, events, event.seq), all.get(event.seq));
    }
  }));
});

Deno.test("`scheduleChangeView()` builds the sidecar view", () => {
  assert.deepEqual(scheduleChangeView(receipt("a")), {
    type: "schedule/change",
    presentation: receipt("a"),
  });
});
