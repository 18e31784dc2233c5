// A snooze record stays the snooze of its series when it is moved or renamed (docs/recurring.md
// "Tools"), and the page action's snooze names its own argument in its errors.
import assert from "node:assert/strict";
import { seededRandom, type World, world } from "./_harness_test.ts";
import { ScheduleActions } from "./actions.ts";

const MINUTE = 60_000;

/** A minutely series that has fired once, and the snooze record of that occurrence. */
async function snoozedSeries(w: World) {
  await w.startOwner();
  const series = await w.call("schedule_create", {
    prompt: "drink water",
    repeat: { rrule: "FREQ=HOURLY", time_zone: "UTC" },
  });
  await w.clock.advance(MINUTE);
  await w.clock.advance(0);
  const snooze = await w.call("schedule_snooze", { id: series.id, after_seconds: 600 });
  assert.equal(snooze.ok, true, JSON.stringify(snooze));
  const snoozeOf = { id: series.id, occurrenceAt: series.scheduledAt };
  assert.deepEqual(snooze.snoozeOf, snoozeOf);
  return { series, snooze, snoozeOf };
}

Deno.test("regression: schedule_update of a snooze record keeps its snoozeOf (at, after_seconds, prompt)", async () => {
  await using w = await world();
  const { series, snooze, snoozeOf } = await snoozedSeries(w);
  const moves = [
    { at: "2026-01-15T16:00:00Z" },
    { after_seconds: 3600 },
    { prompt: "drink a glass of water" },
    { prompt: "drink water", at: "2026-01-15T17:00:00+01:00" },
  ];
  for (const move of moves) {
    const moved = await w.call("schedule_update", { id: snooze.id, ...move });
    assert.equal(moved.ok, true, JSON.stringify(moved));
    assert.equal(moved.id, snooze.id);
    assert.deepEqual(moved.snoozeOf, snoozeOf, JSON.stringify(move));
    const change = w.changes().at(-1)!;
    assert.equal(change.op, "update");
    assert.deepEqual(
      change.op === "update" && change.record.kind !== "recurring" &&
        change.record.snoozeOf,
      snoozeOf,
      "the logged record keeps it",
    );
  }
  // The listing (what "stop the drink water reminder" reads) still ties the snooze to its series.
  const listed = await w.call("schedule_list", {});
  const bySeries = listed.schedules.filter((s: { id: string; snoozeOf?: { id: string } }) =>
    s.id === series.id || s.snoozeOf?.id === series.id
  );
  assert.equal(bySeries.length, 2);
  assert.equal(listed.schedules.length, 2);
  // A later snooze of the same occurrence still finds the moved record (one pending snooze).
  const again = await w.call("schedule_snooze", { id: series.id, after_seconds: 1200 });
  assert.equal(again.id, snooze.id);
  assert.equal(again.scheduledAt, new Date(w.clock.now() + 1200_000).toISOString());
}); // deno-fmt-ignore

Deno.test("a snooze record turned into a series of its own drops snoozeOf; a plain one-shot never gains one", async () => {
  await using w = await world();
  const { snooze } = await snoozedSeries(w);
  const series = await w.call("schedule_update", {
    id: snooze.id,
    repeat: { rrule: "FREQ=DAILY;BYHOUR=9;BYMINUTE=0", time_zone: "UTC" },
  });
  assert.equal(series.ok, true, JSON.stringify(series));
  assert.equal(series.kind, "recurring");
  assert.equal(series.snoozeOf, undefined);
  const plain = await w.call("schedule_create", { prompt: "call", after_seconds: 600 });
  const moved = await w.call("schedule_update", { id: plain.id, at: "2026-01-15T16:00:00Z" });
  assert.equal(moved.ok, true);
  assert.equal(moved.snoozeOf, undefined);
  const oneShot = await w.call("schedule_update", { id: series.id, after_seconds: 600 });
  assert.equal(oneShot.kind, "after");
  assert.equal(oneShot.snoozeOf, undefined, "a series never carried one");
});

Deno.test("regression: the page snooze names its own argument, seconds, never after_seconds", async () => {
  await using w = await world();
  const { series } = await snoozedSeries(w);
  const actions = new ScheduleActions(w.agent, { fifo: w.fifo, random: seededRandom() });
  for (const seconds of [10, 604_801, 60.5, Number.NaN]) {
    const result = await actions.snooze(series.id, seconds);
    assert.equal(!result.ok && result.error.code, "invalid_arguments", String(seconds));
    const message = !result.ok ? result.error.message : "";
    assert.equal(message, "Cannot snooze schedule: seconds must be an integer in 60..604800");
  }
  const bad = await actions.snooze("nope", 600);
  assert.equal(!bad.ok && bad.error.message, "Cannot snooze schedule: bad id");
  const before = w.changes().length;
  assert.equal((await actions.snooze(series.id, "600" as unknown as number)).ok, false);
  assert.equal(w.changes().length, before, "nothing written");
});
