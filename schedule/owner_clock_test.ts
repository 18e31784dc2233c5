// The owner's clock check (docs/recurring.md "Delivery (owner)"): wall-clock steps while a timer
// is armed, on the fake clock (`setWall` steps the wall clock only; timers keep their base).
import assert from "node:assert/strict";
import { create, ops, settle, T0, type World, world } from "./_harness_test.ts";
import { ScheduleOwner } from "./owner.ts";
import type { RecurringDispatchChange } from "./protocol.ts";

const SECOND = 1000;
const MINUTE = 60_000;
const HOUR = 3_600_000;

/** Steps the wall clock by `ms` (a user or NTP setting the time); timers are unaffected. */
function step(w: World, ms: number): void {
  w.clock.setWall(w.clock.now() + ms);
}

function lateness(w: World): number[] {
  return w.gate.frames.map((f) => Number(/"lateBySeconds":(\d+)/.exec(f)![1]));
}

Deno.test("a +7 s wall step: a reminder due in 30 s fires at its wall target, not 7 s late", async () => {
  await using w = await world();
  await w.startOwner();
  await create(w, "tea", 30);
  await w.clock.advance(10 * SECOND);
  step(w, 7 * SECOND); // wall T0 + 17 s, 13 s before the target; the armed timer still says 20 s
  await w.clock.advance(13 * SECOND - 1);
  await settle(w.clock);
  assert.equal(w.clock.now(), T0 + 30 * SECOND - 1);
  assert.deepEqual(ops(w), ["create"], "never before the wall-clock target");
  await w.clock.advance(1);
  await settle(w.clock);
  assert.deepEqual(ops(w), ["create", "dispatch"]);
  assert.deepEqual(lateness(w), [0]);
});

Deno.test("a +7 s wall step past the target fires within one clock check", async () => {
  await using w = await world();
  await w.startOwner();
  await create(w, "tea", 30);
  await w.clock.advance(25 * SECOND);
  step(w, 7 * SECOND); // wall T0 + 32 s: already 2 s overdue
  await w.clock.advance(SECOND);
  await settle(w.clock);
  assert.deepEqual(ops(w), ["create", "dispatch"]);
  assert.deepEqual(lateness(w), [3], "late by the step's overshoot plus at most one check");
  assert.match(w.gate.frames[0]!, /"status":"due"/, "under the 60 s overdue threshold");
});

Deno.test("a −7 s wall step never fires before the wall-clock target", async () => {
  await using w = await world();
  const owner = await w.startOwner();
  await create(w, "tea", 30);
  await w.clock.advance(10 * SECOND);
  step(w, -7 * SECOND); // wall T0 + 3 s: 27 s to go, the armed timer says 20 s
  while (w.clock.now() < T0 + 30 * SECOND - SECOND) {
    await w.clock.advance(SECOND);
    assert.deepEqual(ops(w), ["create"], `nothing at wall ${w.clock.now() - T0} ms`);
  }
  await w.clock.advance(SECOND - 1);
  await settle(w.clock);
  assert.deepEqual(ops(w), ["create"]);
  assert.equal(owner.state, "armed");
  await w.clock.advance(1);
  await settle(w.clock);
  assert.equal(w.clock.now(), T0 + 30 * SECOND);
  assert.deepEqual(ops(w), ["create", "dispatch"]);
  assert.deepEqual(lateness(w), [0]);
  assert.match(w.gate.frames[0]!, /"status":"due"/);
});

Deno.test("a wall move within the 250 ms tolerance re-arms nothing", async () => {
  await using w = await world();
  await w.startOwner();
  await create(w, "tea", 30);
  await w.clock.advance(10 * SECOND);
  step(w, 200);
  await w.clock.advance(5 * SECOND);
  assert.deepEqual(w.clock.delays.filter((d) => d !== SECOND), [30 * SECOND], "one target timer");
  step(w, 300);
  await w.clock.advance(SECOND);
  assert.deepEqual(w.clock.delays.filter((d) => d !== SECOND), [30 * SECOND, 13_500]);
});

Deno.test("a +1 h wall step past several occurrences: one follow-up with missed, no burst", async () => {
  await using w = await world();
  await w.startOwner();
  const created = await w.call("schedule_create", {
    prompt: "blink",
    repeat: { rrule: "FREQ=MINUTELY;INTERVAL=10", time_zone: "UTC" }, // T0 + 1, 11, 21 … min
  });
  assert.equal(created.ok, true, JSON.stringify(created));
  await w.clock.advance(10 * SECOND);
  step(w, HOUR); // wall T0 + 1 h 10 s: the occurrences T0 + 1 … 51 min are all past
  await w.clock.advance(SECOND);
  await settle(w.clock);
  assert.deepEqual(ops(w), ["create", "dispatch"]);
  const { id, occurrenceAt, missed, nextAt } = w.changes().at(-1) as RecurringDispatchChange;
  const iso = (ms: number) => new Date(ms).toISOString();
  assert.deepEqual([id, occurrenceAt, missed, nextAt], [
    created.id,
    iso(T0 + 51 * MINUTE), // the latest past occurrence; T0 + 1 … 41 min are missed
    5,
    iso(T0 + 61 * MINUTE),
  ]);
  assert.equal(w.events("followup").length, 1);
  assert.equal(w.owner!.target, T0 + 61 * MINUTE);
  await w.clock.advance(MINUTE - 12 * SECOND); // wall T0 + 1 h 59 s
  await settle(w.clock);
  assert.equal(w.events("followup").length, 1, "no burst after the catch-up");
});

Deno.test("no clock check while nothing is armed, nor for a wait shorter than one check", async () => {
  await using w = await world();
  const owner = await w.startOwner();
  await w.clock.advance(HOUR);
  assert.equal(owner.state, "idle");
  assert.deepEqual(w.clock.delays, [], "an idle owner sets no timer at all");
  await create(w, "tea", 30);
  assert.equal(w.clock.pendingTimers, 2, "the target timer and one clock check");
  await w.clock.advance(30 * SECOND);
  await settle(w.clock);
  assert.deepEqual(ops(w), ["create", "dispatch"]);
  assert.equal(w.clock.pendingTimers, 0, "delivered: the check stops with the timer");
  w.clock.delays.length = 0;
  await w.clock.advance(HOUR);
  assert.deepEqual(w.clock.delays, []);
  await w.call("schedule_create", {
    prompt: "now",
    at: new Date(w.clock.now() + 500).toISOString(),
  });
  assert.equal(w.clock.pendingTimers, 1, "a 500 ms wait re-reads the wall clock at its wake");
  await owner[Symbol.asyncDispose]();
  assert.equal(w.clock.pendingTimers, 0);
});

Deno.test("dispose stops the clock check", async () => {
  await using w = await world();
  const owner = await w.startOwner({ clockCheckMs: 5 * SECOND });
  await create(w, "tea", 30);
  assert.equal(w.clock.pendingTimers, 2);
  assert.ok(w.clock.delays.includes(5 * SECOND));
  await owner[Symbol.asyncDispose]();
  assert.equal(w.clock.pendingTimers, 0);
  step(w, HOUR);
  await w.clock.advance(MINUTE);
  assert.deepEqual(ops(w), ["create"]);
});

Deno.test("clockCheckMs outside 1..MAX_TIMER_MS is refused", async () => {
  await using w = await world();
  for (const bad of [0, -1, 1.5, 2 ** 31, Number.NaN]) {
    assert.throws(() => new ScheduleOwner(w.agent, { clockCheckMs: bad }), RangeError);
  }
});
