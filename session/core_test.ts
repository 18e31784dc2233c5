import assert from "node:assert/strict";
import { MAX_TIMER_MS, systemClock } from "./clock.ts";
import { FakeClock, flushMicrotasks } from "./testing/fake_clock.ts";
import { isTimeZone, normalizeTimeZone, timeZonesEqual } from "./zone.ts";
import { Session } from "./session.ts";
import { SessionError } from "./errors.ts";
import { isoMillis } from "./event.ts";
import { header } from "../tests/session/_helpers.ts";

Deno.test("`systemClock` runs and cancels real timers and refuses bad delays", async () => {
  assert.ok(Math.abs(systemClock.now() - Date.now()) < 1_000);
  const fired = Promise.withResolvers<void>();
  systemClock.setTimer(() => fired.resolve(), 0);
  await fired.promise;
  let late = false;
  using handle = systemClock.setTimer(() => late = true, 10);
  handle.cancel();
  for (const bad of [-1, Number.NaN, MAX_TIMER_MS + 1]) {
    assert.throws(() => systemClock.setTimer(() => {}, bad), RangeError);
  }
  assert.equal(late, false);
});

Deno.test("`FakeClock` fires due timers in order and separates wall from timer time", async () => {
  using clock = new FakeClock(1_000);
  const fired: string[] = [];
  clock.setTimer(() => fired.push("b"), 20);
  clock.setTimer(() => fired.push("a"), 10);
  const c = clock.setTimer(() => fired.push("c"), 15);
  c.cancel();
  assert.equal(clock.pendingTimers, 2);
  await clock.advance(15);
  assert.deepEqual(fired, ["a"]);
  assert.equal(clock.now(), 1_015);
  clock.setWall(0);
  await clock.advance(5);
  assert.deepEqual(fired, ["a", "b"]);
  assert.equal(clock.now(), 5);
  assert.deepEqual(clock.delays, [20, 10, 15]);
  clock.setTimer(() => fired.push("never"), 1);
  clock[Symbol.dispose]();
  await clock.advance(10);
  await flushMicrotasks();
  assert.equal(fired.length, 2);
});

Deno.test("`normalizeTimeZone()` accepts named zones only", () => {
  assert.equal(normalizeTimeZone("europe/kiev"), "Europe/Kiev");
  assert.equal(normalizeTimeZone("Etc/GMT+5"), "Etc/GMT+5");
  for (const bad of [undefined, 5, "", "+05:30", "UTC+5", "Nowhere/Land", "x".repeat(65)]) {
    assert.throws(
      () => normalizeTimeZone(bad),
      (e) => e instanceof SessionError && e.code === "invalid_time_zone",
    );
    assert.equal(isTimeZone(bad), false);
  }
  assert.equal(isTimeZone("US/Eastern"), true);
});

Deno.test("`timeZonesEqual()` follows Temporal's zone identity", () => {
  assert.ok(timeZonesEqual("US/Eastern", "America/New_York"));
  assert.ok(timeZonesEqual("Europe/Kiev", "Europe/Kyiv"));
  assert.ok(!timeZonesEqual("Europe/London", "Europe/Dublin"));
  assert.ok(!timeZonesEqual("Nowhere/Land", "UTC"));
});

Deno.test("`Session` appends densely, freezes events and reports listener errors", () => {
  const reported: unknown[] = [];
  const session = new Session({
    header: header("s"),
    now: () => 0,
    reportError: (e) => reported.push(e),
  });
  const seen: number[] = [];
  using _a = session.subscribe(() => {
    throw new Error("listener broke");
  });
  using _b = session.subscribe((e) => seen.push(e.seq));
  const data = { nested: { n: 1 } };
  const event = session.append("note", data);
  data.nested.n = 2;
  assert.equal(event.at, isoMillis(0));
  assert.deepEqual(session.event(0)?.data, { nested: { n: 1 } });
  assert.ok(Object.isFrozen(event.data));
  assert.deepEqual(seen, [0]);
  assert.equal(reported.length, 1);
  session.close();
  assert.throws(
    () => session.append("note", {}),
    (e) => e instanceof SessionError && e.code === "session_closed",
  );
});

Deno.test("`Session` refuses a prefix whose seqs are not dense", () => {
  const at = isoMillis(0);
  assert.throws(
    () =>
      new Session({
        header: header("s"),
        events: [{ seq: 1, type: "x", at, data: null }],
        now: () => 0,
      }),
    RangeError,
  );
});
