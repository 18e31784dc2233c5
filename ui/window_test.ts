import { deepStrictEqual as eq, equal, throws } from "node:assert/strict";
import { ev, evs, VIEW, windowHarness } from "./testing/window_harness.ts";
import type { WireEvent } from "./wire.ts";

const seqs = (events: readonly WireEvent[]) => events.map((e) => e.seq);

async function loaded(from = 0, to = 2, nextBefore: number | null = null) {
  const h = windowHarness();
  const p = h.win.start();
  h.history[0]!.resolve({ events: evs(from, to), views: {}, nextBefore });
  equal(await p, "loaded");
  return h;
}

Deno.test("receive() buffers live events before the tail load, then drains them", async () => {
  const h = windowHarness();
  const p = h.win.start();
  equal(h.win.status.value, "loading");
  equal(h.win.receive({ event: ev(3) }), "buffered");
  equal(h.win.receive({ event: ev(3) }), "duplicate");
  equal(h.win.receive({ event: ev(3), view: VIEW, for: "event" }), "upgraded");
  h.history[0]!.resolve({ events: evs(0, 2), views: {}, nextBefore: null });
  equal(await p, "loaded");
  eq(seqs(h.win.events.value), [0, 1, 2, 3]);
  eq(h.win.views.value.get(3), VIEW);
  equal(h.win.bufferedCount.value, 0);
  equal(h.after.length, 0);
});

Deno.test("receive() appends the next seq", async () => {
  const { win } = await loaded();
  equal(win.receive({ event: ev(3) }), "appended");
  equal(win.tail.value, 3);
});

Deno.test("receive() accepts a duplicate seq only when deep-equal, without appending", async () => {
  const { win, resyncs } = await loaded();
  equal(win.receive({ event: { ...ev(1), data: { n: 1 } } }), "duplicate");
  eq(seqs(win.events.value), [0, 1, 2]);
  equal(resyncs.length, 0);
});

Deno.test("receive() upgrades the view of an identical same-seq event", async () => {
  const { win } = await loaded();
  equal(win.receive({ event: ev(2), view: VIEW, for: "event" }), "upgraded");
  eq(win.views.value.get(2), VIEW);
  eq(seqs(win.events.value), [0, 1, 2]);
});

Deno.test("receive() treats a same-seq different event as an identity conflict: full resync", async () => {
  const h = await loaded();
  h.win.receive({ event: ev(5) });
  equal(h.win.receive({ event: ev(1, { other: true }), view: VIEW }), "conflict");
  equal(h.resyncs.length, 1);
  equal(h.win.generation.value, 1);
  equal(h.win.status.value, "loading");
  eq(h.win.events.value, []);
  equal(h.win.liveBuffer.length, 0);
  h.history[1]!.resolve({ events: evs(0, 5), views: {}, nextBefore: null });
  h.after[0]!.resolve({ events: [ev(3, "stale")], views: {} }); // the pre-resync repair
  await h.win.settled();
  equal(h.win.tail.value, 5);
  equal(h.win.status.value, "ready");
  equal(h.resyncs.length, 1);
  equal(h.after.length, 1);
});

Deno.test("receive() buffers beyond a gap and starts one repair pull", async () => {
  const h = await loaded();
  equal(h.win.receive({ event: ev(5) }), "buffered");
  equal(h.win.receive({ event: ev(6) }), "buffered");
  equal(h.after.length, 1);
  equal(h.after[0]!.query, 2);
  equal(h.win.repairing, true);
  eq(h.win.liveBuffer.map((b) => b.event.seq), [5, 6]);
});

Deno.test("receive() upgrades a buffered duplicate and resyncs on a buffered conflict", async () => {
  const h = await loaded();
  h.win.receive({ event: ev(5) });
  equal(h.win.receive({ event: ev(5), view: VIEW, for: "event" }), "upgraded");
  eq(h.win.liveBuffer[0]?.view, VIEW);
  equal(h.win.receive({ event: ev(5) }), "duplicate");
  eq(h.win.liveBuffer[0]?.view, VIEW);
  equal(h.win.receive({ event: ev(5, "different") }), "conflict");
  equal(h.resyncs.length, 1);
});

Deno.test("receive() appending the next seq drains contiguous buffered events", async () => {
  const h = await loaded();
  h.win.receive({ event: ev(4), view: VIEW });
  equal(h.win.receive({ event: ev(3) }), "appended");
  eq(seqs(h.win.events.value), [0, 1, 2, 3, 4]);
  eq(h.win.views.value.get(4), VIEW);
  equal(h.win.bufferedCount.value, 0);
});

Deno.test("receive() ignores events below the window when no older page is in flight", async () => {
  const { win } = await loaded(5, 7, 5);
  equal(win.receive({ event: ev(2), view: VIEW, for: "event" }), "ignored");
  equal(win.views.value.size, 0);
});

Deno.test("receive() ignores everything after dispose", async () => {
  const h = await loaded();
  h.win[Symbol.dispose]();
  equal(h.win.receive({ event: ev(3) }), "ignored");
  equal(h.win.status.value, "disposed");
  eq(await h.win.resync(), "stale");
  eq(await h.win.reconnect(), "stale");
});

Deno.test("flushed() takes throughSeq as an exclusive bound and only moves forward", async () => {
  const { win } = await loaded();
  equal(win.durableBefore.value, 0);
  equal(win.isDurable(0), false, "nothing is durable before the first flushed");
  win.flushed(2);
  equal(win.isDurable(1), true);
  equal(win.isDurable(2), false, "throughSeq itself is not covered");
  win.flushed(1);
  equal(win.durableBefore.value, 2, "a lower bound never moves it back");
  win.flushed(3);
  equal(win.isDurable(2), true);
  throws(() => win.flushed(-1), RangeError);
  throws(() => win.flushed(1.5), RangeError);
  equal(win.durableBefore.value, 3);
});

Deno.test("start() keeps not-yet-covered buffered events and repairs the gap", async () => {
  const h = windowHarness();
  const p = h.win.start();
  h.win.receive({ event: ev(1), view: VIEW, for: "event" }); // covered by the page
  h.win.receive({ event: ev(3) }); // contiguous after the page
  h.win.receive({ event: ev(6) }); // beyond a gap
  h.history[0]!.resolve({ events: evs(0, 2), views: {}, nextBefore: null });
  equal(await p, "loaded");
  eq(seqs(h.win.events.value), [0, 1, 2, 3]);
  eq(h.win.views.value.get(1), VIEW);
  eq(h.win.liveBuffer.map((b) => b.event.seq), [6]);
  equal(h.after[0]?.query, 3);
});

Deno.test("start() resyncs when a covered buffered event differs from the page", async () => {
  const h = windowHarness();
  const p = h.win.start();
  h.win.receive({ event: ev(1, "live") });
  h.history[0]!.resolve({ events: evs(0, 2), views: {}, nextBefore: null });
  equal(await p, "conflict");
  equal(h.resyncs.length, 1);
  equal(h.history.length, 2);
});

Deno.test("start() drops buffered events below the loaded page", async () => {
  const h = windowHarness();
  const p = h.win.start();
  h.win.receive({ event: ev(1) });
  h.history[0]!.resolve({ events: evs(4, 5), views: { "4": VIEW }, nextBefore: 4 });
  equal(await p, "loaded");
  equal(h.win.bufferedCount.value, 0);
  eq(h.win.views.value.get(4), VIEW);
  equal(h.win.nextBefore.value, 4);
});

Deno.test("start() reports a failed load and can be retried", async () => {
  const h = windowHarness();
  const p = h.win.start();
  h.history[0]!.reject(new Error("offline"));
  equal(await p, "failed");
  equal(h.win.status.value, "error");
  equal(h.win.error.value, "offline");
  const again = h.win.start();
  h.history[1]!.resolve({ events: [], views: {}, nextBefore: null });
  equal(await again, "loaded");
  equal(h.win.error.value, null);
  equal(h.win.tail.value, -1);
  equal(h.win.receive({ event: ev(0) }), "appended");
});

Deno.test("start() fails on a page that is not dense", async () => {
  const h = windowHarness();
  const p = h.win.start();
  h.history[0]!.resolve({ events: [ev(0), ev(2)], views: {}, nextBefore: null });
  equal(await p, "failed");
});

Deno.test("a stale tail load (older generation) never touches the rebuilt window", async () => {
  const h = windowHarness();
  const first = h.win.start();
  const second = h.win.reconnect();
  equal(h.win.generation.value, 1);
  h.history[1]!.resolve({ events: evs(0, 1), views: {}, nextBefore: null });
  equal(await second, "loaded");
  h.history[0]!.resolve({ events: evs(0, 9), views: {}, nextBefore: null });
  equal(await first, "stale");
  equal(h.win.tail.value, 1);
  const third = h.win.reconnect(); // when ready, a reconnect repairs instead of reloading
  equal(h.history.length, 2);
  h.after[0]!.reject(new Error("x"));
  equal(await third, "failed");
  const failing = windowHarness();
  const f = failing.win.start();
  void failing.win.reconnect();
  failing.history[0]!.reject(new Error("late"));
  equal(await f, "stale");
  equal(failing.win.error.value, null);
});
