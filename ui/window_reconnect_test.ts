import { deepStrictEqual as eq, equal } from "node:assert/strict";
import { ev, evs, windowHarness } from "./testing/window_harness.ts";
import type { WireEvent } from "./wire.ts";

const seqs = (events: readonly WireEvent[]) => events.map((e) => e.seq);

async function loaded(from: number, to: number, nextBefore: number | null = null) {
  const h = windowHarness();
  const p = h.win.start();
  h.history[0]!.resolve({ events: evs(from, to), views: {}, nextBefore });
  equal(await p, "loaded");
  return h;
}

Deno.test("reconnect drops a non-durable tail the server lost (full resync)", async () => {
  // The page holds 0..5; the host confirmed only 0..2 durable, then died and restarted with 0..2.
  const h = await loaded(0, 5);
  h.win.flushed(3);
  const catchUp = h.win.reconnect();
  equal(h.after[0]!.query, 2, "the repair pulls from the durable bound, not after the tail");
  h.after[0]!.resolve({ events: [], views: {} });
  equal(await catchUp, "conflict");
  equal(h.resyncs.length, 1);
  equal(h.win.tail.value, -1, "the ghost tail is gone");
  h.history[1]!.resolve({ events: evs(0, 2), views: {}, nextBefore: null });
  await h.win.settled();
  eq(seqs(h.win.events.value), [0, 1, 2]);
});

Deno.test("reconnect resyncs when the server holds different events at non-durable seqs", async () => {
  const h = await loaded(0, 5);
  h.win.flushed(3);
  const catchUp = h.win.reconnect();
  h.after[0]!.resolve({ events: [ev(3), ev(4, "another lifetime"), ev(5)], views: {} });
  equal(await catchUp, "conflict");
  equal(h.resyncs.length, 1);
});

Deno.test("reconnect resyncs when the server log is shorter than the window's tail", async () => {
  const h = await loaded(0, 5);
  h.win.flushed(3);
  const catchUp = h.win.reconnect();
  h.after[0]!.resolve({ events: [ev(3), ev(4)], views: {} });
  equal(await catchUp, "conflict");
  equal(h.resyncs.length, 1);
});

Deno.test("reconnect keeps a non-durable tail the server has identically", async () => {
  const h = await loaded(0, 5);
  h.win.flushed(3);
  const catchUp = h.win.reconnect();
  equal(h.after[0]!.query, 2);
  h.after[0]!.resolve({ events: evs(3, 7), views: {} });
  equal(await catchUp, "repaired");
  equal(h.resyncs.length, 0);
  eq(seqs(h.win.events.value), [0, 1, 2, 3, 4, 5, 6, 7]);
});

Deno.test("reconnect without any flushed bound re-checks from the window start", async () => {
  const h = await loaded(4, 6, 4);
  const catchUp = h.win.reconnect();
  equal(h.after[0]!.query, 3);
  h.after[0]!.resolve({ events: evs(4, 6), views: {} });
  equal(await catchUp, "repaired");
  equal(h.resyncs.length, 0);
  equal(h.win.tail.value, 6);
});

Deno.test("reconnect with every held event durable pulls after the tail only", async () => {
  const h = await loaded(0, 2);
  h.win.flushed(9);
  const catchUp = h.win.reconnect();
  equal(h.after[0]!.query, 2);
  h.after[0]!.resolve({ events: [], views: {} });
  equal(await catchUp, "repaired");
  equal(h.resyncs.length, 0);
});
