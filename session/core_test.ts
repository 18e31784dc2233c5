import assert from "node:assert/strict";
import { MAX_TIMER_MS, systemClock } from "./clock.ts";
import { FakeClock, flushMicrotasks } from "./testing/fake_clock.ts";
import { isTimeZone, normalizeTimeZone, timeZonesEqual } from "./zone.ts";
import { Session } from "./session.ts";
import { SessionError } from "./errors.ts";
import { isoMillis } from "./event.ts";
import { headersIdentical, normalizeHeader, type SessionHeader } from "./header.ts";
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
  assert.equal(normalizeTimeZone("America/Port-au-Prince"), "America/Port-au-Prince");
  assert.equal(normalizeTimeZone("EST5EDT"), "EST5EDT");
  const dateTimes = [
    "2020-01-01T00:00Z",
    "2020-01-01T00:00+01:00[Europe/Paris]",
    "2020-01-01T00:00+05:30",
    "[Europe/Paris]",
    "Europe/Paris ",
    "Europe//Paris",
    "\u221205:00",
    "-05:00",
  ];
  for (
    const bad of [undefined, 5, "", "+05:30", "UTC+5", "gmt-3", "Nowhere/Land", "x".repeat(65)]
      .concat(dateTimes)
  ) {
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
  // A date-time is not a zone, even where Temporal could read one out of it.
  assert.ok(!timeZonesEqual("2020-01-01T00:00Z", "UTC"));
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

Deno.test("`headersIdentical()` reads a missing delegationDepth as 0 and every other field exactly", () => {
  const base: SessionHeader = {
    version: 1,
    id: "s1",
    cwd: "/w",
    createdAt: "2026-01-01T00:00:00.000Z",
    origin: "web",
    lineage: { parentId: "p", forkedThroughSeq: 3 },
    delegationDepth: 0,
    timeZone: "Europe/Paris",
    seedLength: 5,
  };
  const { delegationDepth: _omit, ...withoutDepth } = base;
  assert.ok(headersIdentical(base, withoutDepth as SessionHeader));
  assert.deepEqual(normalizeHeader(withoutDepth as SessionHeader), base);
  const variants: Record<string, unknown>[] = [
    { version: 2 },
    { id: "s2" },
    { cwd: "/x" },
    { createdAt: "2026-01-01T00:00:00.001Z" },
    { origin: "fork" },
    { lineage: null },
    { lineage: { parentId: "p", forkedThroughSeq: 4 } },
    { delegationDepth: 1 },
    { timeZone: "Europe/Berlin" },
    { timeZone: undefined },
    { seedLength: 6 },
    { seedLength: undefined },
  ];
  for (const change of variants) {
    const other = JSON.parse(JSON.stringify({ ...base, ...change })) as SessionHeader;
    assert.equal(headersIdentical(base, other), false, JSON.stringify(change));
  }
});

Deno.test("`Session.append()` keeps the JSON form storage will hold, and refuses data without one", () => {
  const session = new Session({ header: header("j"), now: () => 0 });
  const event = session.append("note", {
    when: new Date(0),
    gone: undefined,
    list: [1, undefined],
  });
  assert.deepEqual(event.data, { when: "1970-01-01T00:00:00.000Z", list: [1, null] });
  for (const bad of [undefined, { n: 1n }]) {
    assert.throws(() => session.append("note", bad), TypeError);
  }
  assert.equal(session.length, 1, "a refused append changes nothing");
});
