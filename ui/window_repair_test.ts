import { deepStrictEqual as eq, equal } from "node:assert/strict";
import { ev, evs, tick, VIEW, windowHarness } from "./testing/window_harness.ts";
import type { WireEvent } from "./wire.ts";

const seqs = (events: readonly WireEvent[]) => events.map((e) => e.seq);

async function loaded(from = 0, to = 2, nextBefore: number | null = null) {
  const h = windowHarness();
  const p = h.win.start();
  h.history[0]!.resolve({ events: evs(from, to), views: {}, nextBefore });
  equal(await p, "loaded");
  return h;
}

Deno.test("gap repair fills the gap and drains the buffer (repaired)", async () => {
  const h = await loaded();
  h.win.receive({ event: ev(5) });
  h.win.receive({ event: ev(6) }); // busy: no second pull
  equal(h.after.length, 1);
  h.after[0]!.resolve({ events: [ev(1), ev(2), ev(3), ev(4), ev(5)], views: { "5": VIEW } });
  await h.win.settled();
  eq(seqs(h.win.events.value), [0, 1, 2, 3, 4, 5, 6]);
  eq(h.win.views.value.get(5), VIEW);
  equal(h.win.bufferedCount.value, 0);
  equal(h.win.repairing, false);
  equal(h.after.length, 1);
});

Deno.test("gap repair keeps uncovered buffered events and a buffered view", async () => {
  const h = await loaded();
  h.win.receive({ event: ev(4), view: VIEW, for: "event" });
  h.after[0]!.resolve({ events: [ev(3), ev(4)], views: {} });
  await h.win.settled();
  eq(h.win.views.value.get(4), VIEW);
  equal(h.win.tail.value, 4);
});

Deno.test("an accepted repair that advances the tail but leaves a buffered gap pulls again", async () => {
  const h = await loaded();
  h.win.receive({ event: ev(9) });
  h.after[0]!.resolve({ events: evs(3, 5), views: {} });
  await tick();
  equal(h.win.tail.value, 5);
  eq(h.win.liveBuffer.map((b) => b.event.seq), [9]);
  equal(h.after.length, 2);
  equal(h.after[1]!.query, 5);
  h.after[1]!.resolve({ events: evs(6, 8), views: {} });
  await h.win.settled();
  equal(h.win.tail.value, 9);
  equal(h.after.length, 2);
});

Deno.test("a repair that does not advance the tail does not loop", async () => {
  const h = await loaded();
  h.win.receive({ event: ev(9) });
  h.after[0]!.resolve({ events: [], views: {} });
  await h.win.settled();
  equal(h.after.length, 1);
  equal(h.win.bufferedCount.value, 1);
  h.win.receive({ event: ev(10) }); // the next gap event pulls again
  equal(h.after.length, 2);
});

Deno.test("a repair snapshot upgrades views of held events and skips events below the window", async () => {
  const h = await loaded(2, 4, 2);
  h.win.receive({ event: ev(7) });
  h.after[0]!.resolve({ events: evs(1, 7), views: { "1": VIEW, "3": VIEW } });
  await h.win.settled();
  eq(h.win.views.value.get(3), VIEW);
  equal(h.win.views.value.has(1), false);
  equal(h.win.tail.value, 7);
});

Deno.test("a failed repair records the error and frees the repair slot", async () => {
  const h = await loaded();
  h.win.receive({ event: ev(6) });
  h.after[0]!.reject(new Error("503"));
  await h.win.settled();
  equal(h.win.error.value, "503");
  equal(h.win.repairing, false);
  equal(h.win.bufferedCount.value, 1);
});

Deno.test("a repair snapshot that differs from a held event forces a resync", async () => {
  const h = await loaded();
  h.win.receive({ event: ev(5) });
  h.after[0]!.resolve({ events: [ev(2, "x"), ev(3), ev(4)], views: {} });
  await tick();
  equal(h.resyncs.length, 1);
  equal(h.win.status.value, "loading");
});

Deno.test("a repair snapshot that does not connect forces a resync", async () => {
  const h = await loaded();
  h.win.receive({ event: ev(9) });
  h.after[0]!.resolve({ events: evs(5, 9), views: {} });
  await tick();
  equal(h.resyncs.length, 1);
});

Deno.test("a repair snapshot that differs from a buffered event forces a resync", async () => {
  const h = await loaded();
  h.win.receive({ event: ev(5) });
  h.after[0]!.resolve({ events: [ev(3), ev(4), ev(5, "x")], views: {} });
  await tick();
  equal(h.resyncs.length, 1);
});

Deno.test("a stale repair result and its finally block never touch the new generation", async () => {
  const h = await loaded();
  h.win.flushed(3); // all held events durable: the catch-up pulls after the tail only
  h.win.receive({ event: ev(6) });
  const catchUp = h.win.reconnect();
  equal(h.win.generation.value, 1);
  equal(h.after.length, 2);
  equal(h.win.repairing, true);
  h.after[0]!.resolve({ events: [ev(3, "from an old lifetime")], views: {} });
  await tick();
  equal(h.win.repairing, true); // the stale finally left the new flight alone
  equal(h.win.tail.value, 2);
  equal(h.resyncs.length, 0);
  h.after[1]!.resolve({ events: evs(3, 5), views: {} });
  equal(await catchUp, "repaired");
  equal(h.win.tail.value, 6);
  const h2 = await loaded();
  h2.win.receive({ event: ev(6) });
  void h2.win.reconnect();
  h2.after[0]!.reject(new Error("late"));
  await tick();
  equal(h2.win.error.value, null);
});

Deno.test("loadOlder() returns none without an older page or before the first load", async () => {
  const h = windowHarness();
  equal(await h.win.loadOlder(), "none");
  const l = await loaded();
  equal(await l.win.loadOlder(), "none");
});

Deno.test("loadOlder() prepends to the current array, which kept receiving live events", async () => {
  const h = await loaded(3, 5, 3);
  const p = h.win.loadOlder();
  equal(h.win.loadOlder(), p);
  equal(h.win.loadingOlder.value, true);
  equal(h.history[1]!.query.before, 3);
  equal(h.win.receive({ event: ev(6) }), "appended");
  h.history[1]!.resolve({ events: evs(0, 2), views: { "1": VIEW }, nextBefore: null });
  equal(await p, "prepended");
  eq(seqs(h.win.events.value), [0, 1, 2, 3, 4, 5, 6]);
  eq(h.win.views.value.get(1), VIEW);
  equal(h.win.nextBefore.value, null);
  equal(h.win.loadingOlder.value, false);
});

Deno.test("a sidecar below the window is staged by the in-flight page and attaches only to an identical event", async () => {
  const h = await loaded(3, 5, 3);
  const p = h.win.loadOlder();
  equal(h.win.receive({ event: ev(2), view: VIEW, for: "event" }), "staged");
  equal(h.win.receive({ event: ev(1, "not what the page returns"), view: VIEW }), "staged");
  equal(h.win.receive({ event: ev(0) }), "ignored");
  equal(h.win.views.value.size, 0);
  h.history[1]!.resolve({ events: evs(0, 2), views: {}, nextBefore: null });
  equal(await p, "prepended");
  eq(h.win.views.value.get(2), VIEW);
  equal(h.win.views.value.has(1), false);
  equal(h.resyncs.length, 0);
});

Deno.test("loadOlder() reports a failure and frees its slot", async () => {
  const h = await loaded(3, 5, 3);
  const p = h.win.loadOlder();
  h.history[1]!.reject(new Error("offline"));
  equal(await p, "failed");
  equal(h.win.error.value, "offline");
  equal(h.win.loadingOlder.value, false);
});

Deno.test("loadOlder() resyncs when the page does not join the window", async () => {
  const h = await loaded(3, 5, 3);
  const p = h.win.loadOlder();
  h.history[1]!.resolve({ events: evs(0, 1), views: {}, nextBefore: null });
  equal(await p, "conflict");
  equal(h.resyncs.length, 1);
});

Deno.test("a stale older page and its finally block never touch the rebuilt window", async () => {
  const h = await loaded(3, 5, 3);
  h.win.flushed(6);
  const stale = h.win.loadOlder();
  h.win.receive({ event: ev(1), view: VIEW });
  void h.win.reconnect();
  h.after[0]!.resolve({ events: [], views: {} });
  const fresh = h.win.loadOlder();
  equal(h.win.loadingOlder.value, true);
  h.history[1]!.resolve({ events: evs(0, 2), views: { "1": VIEW }, nextBefore: null });
  equal(await stale, "stale");
  equal(h.win.loadingOlder.value, true);
  eq(seqs(h.win.events.value), [3, 4, 5]);
  equal(h.win.views.value.size, 0);
  h.history[2]!.reject(new Error("x"));
  equal(await fresh, "failed");
  const h2 = await loaded(3, 5, 3);
  const late = h2.win.loadOlder();
  h2.win.resync();
  h2.history[1]!.reject(new Error("late"));
  equal(await late, "stale");
  equal(h2.win.error.value, null);
});
