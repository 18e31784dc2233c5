import assert from "node:assert/strict";
import { FakeClock } from "@chime/session/testing";
import { STEP_TOLERANCE_MS, watchClock } from "./_clock_watch.ts";

Deno.test("listeners of one clock and cadence share one check timer; each is told of a step", async () => {
  using clock = new FakeClock(0);
  const told: string[] = [];
  const a = watchClock(clock, 1000, () => told.push("a"));
  const b = watchClock(clock, 1000, () => told.push("b"));
  assert.equal(clock.pendingTimers, 1);
  const c = watchClock(clock, 500, () => told.push("c"));
  assert.equal(clock.pendingTimers, 2, "another cadence, another timer");
  c[Symbol.dispose]();
  await clock.advance(1000);
  assert.equal(told.length, 0, "no step: the wall clock moved with the timers");
  clock.setWall(clock.now() + STEP_TOLERANCE_MS + 1);
  await clock.advance(1000);
  clock.setWall(clock.now() - STEP_TOLERANCE_MS - 1);
  await clock.advance(1000);
  assert.deepEqual(told, ["a", "b", "a", "b"], "forward and backward steps");
  a[Symbol.dispose]();
  a[Symbol.dispose]();
  assert.equal(clock.pendingTimers, 1);
  b[Symbol.dispose]();
  assert.equal(clock.pendingTimers, 0, "no listener, no timer");
  const d = watchClock(clock, 1000, () => told.push("d"));
  assert.equal(clock.pendingTimers, 1, "a new listener starts a fresh watch");
  d[Symbol.dispose]();
  assert.equal(clock.pendingTimers, 0);
});

Deno.test("listeners may leave or join while a step is told", async () => {
  using clock = new FakeClock(0);
  const told: string[] = [];
  let joined: Disposable | undefined;
  const first: Disposable = watchClock(clock, 1000, () => {
    told.push("first");
    first[Symbol.dispose]();
    gone[Symbol.dispose]();
    joined ??= watchClock(clock, 1000, () => told.push("joined"));
  });
  const gone = watchClock(clock, 1000, () => told.push("gone"));
  const second = watchClock(clock, 1000, () => told.push("second"));
  clock.setWall(5000);
  await clock.advance(1000);
  assert.deepEqual(
    told,
    ["first", "second"],
    "one that left is not told; a joiner is, from the next step on",
  );
  assert.equal(clock.pendingTimers, 1, "still one timer");
  second[Symbol.dispose]();
  clock.setWall(clock.now() + 5000);
  await clock.advance(1000);
  assert.deepEqual(told, ["first", "second", "joined"]);
  joined![Symbol.dispose]();
  assert.equal(clock.pendingTimers, 0);
});

Deno.test("the last listener leaving while told stops the watch", async () => {
  using clock = new FakeClock(0);
  const only: Disposable = watchClock(clock, 1000, () => only[Symbol.dispose]());
  clock.setWall(5000);
  await clock.advance(1000);
  assert.equal(clock.pendingTimers, 0);
});
