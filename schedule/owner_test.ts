import assert from "node:assert/strict";
import { MAX_TIMER_MS } from "@chime/session";
import { create, delivered, ops, settle, T0, world } from "./_harness_test.ts";
import { foldSession } from "./fold.ts";
import type { ScheduleChange } from "./protocol.ts";

const MINUTE = 60_000;

Deno.test("the owner arms from the durable fold and delivers once at the target", async () => {
  await using w = await world();
  const owner = await w.startOwner();
  assert.equal(owner.state, "idle");
  await create(w, "stretch", 60);
  assert.equal(owner.state, "armed");
  assert.equal(owner.target, T0 + MINUTE);
  await w.clock.advance(MINUTE - 1);
  assert.deepEqual(ops(w), ["create"]);
  await w.clock.advance(1);
  await settle(w.clock);
  assert.deepEqual(ops(w), ["create", "dispatch"]);
  assert.deepEqual(delivered(w), ["stretch"]);
  assert.equal(w.gate.frames.length, 1);
  assert.match(w.gate.frames[0]!, /"status":"due","lateBySeconds":0/);
  const stored = w.backend.raw(w.session.id)!.events.map((e) => (e.data as ScheduleChange).op);
  assert.ok(stored.includes("dispatch"), "the dispatch is durable");
  assert.equal(owner.state, "idle");
  await w.clock.advance(10 * MINUTE);
  assert.equal(delivered(w).length, 1);
});

Deno.test("targets past 24.8 days wait in bounded timer segments", async () => {
  await using w = await world();
  // A 1 s clock check would be 2.6 million fake wakes over 30 days; a minute keeps this fast.
  await w.startOwner({ maxSegmentMs: MAX_TIMER_MS, clockCheckMs: MINUTE });
  await create(w, "renew passport", 30 * 24 * 3600);
  assert.ok(w.clock.delays.includes(MAX_TIMER_MS));
  assert.ok(w.clock.delays.every((d) => d <= MAX_TIMER_MS));
  await w.clock.advance(MAX_TIMER_MS);
  assert.deepEqual(ops(w), ["create"]);
  await w.clock.advance(30 * 24 * 3600_000 - MAX_TIMER_MS);
  await settle(w.clock);
  assert.deepEqual(ops(w), ["create", "dispatch"]);
});

Deno.test("a backward wall-clock jump never fires early", async () => {
  await using w = await world();
  const owner = await w.startOwner();
  await create(w, "tea", 3600);
  await w.clock.advance(30 * MINUTE);
  w.clock.setWall(w.clock.now() - 10 * MINUTE);
  await w.clock.advance(30 * MINUTE);
  assert.deepEqual(ops(w), ["create"]);
  assert.equal(owner.state, "armed");
  await w.clock.advance(10 * MINUTE - 1);
  assert.deepEqual(ops(w), ["create"]);
  await w.clock.advance(1);
  await settle(w.clock);
  assert.deepEqual(ops(w), ["create", "dispatch"]);
  assert.equal(w.clock.now(), T0 + 3600_000);
});

Deno.test("a forward wall-clock jump makes the target overdue at the next clock check", async () => {
  await using w = await world();
  await w.startOwner();
  await create(w, "tea", 3600);
  w.clock.setWall(w.clock.now() + 2 * 3600_000);
  // The clock check (1 s by default) re-reads the jumped wall clock before the 60 s segment ends.
  await w.clock.advance(1000);
  await settle(w.clock);
  assert.deepEqual(ops(w), ["create", "dispatch"]);
  assert.match(w.gate.frames[0]!, /"status":"overdue","lateBySeconds":3601/);
});

Deno.test("remind me in 1 minute, the clock jumps an hour: delivered within one check, overdue", async () => {
  await using w = await world();
  await w.startOwner();
  await create(w, "stretch", 60);
  assert.ok(w.clock.delays.every((d) => d <= MINUTE), "no timer longer than one segment");
  w.clock.setWall(w.clock.now() + 3600_000); // the machine slept; timers did not run
  await w.clock.advance(1000);
  await settle(w.clock);
  assert.deepEqual(ops(w), ["create", "dispatch"]);
  assert.match(w.gate.frames[0]!, /"status":"overdue","lateBySeconds":3541/);
});

Deno.test("busy agent: the record stays active and one whenIdle() wait retries", async () => {
  await using w = await world();
  const owner = await w.startOwner();
  await create(w, "stretch", 60);
  w.gate.block();
  w.agent.submit({ text: "hello", source: { kind: "web", clientTimeZone: "Europe/Berlin" } });
  await settle(w.clock);
  await w.clock.advance(MINUTE);
  await settle(w.clock);
  assert.equal(owner.state, "waiting");
  assert.deepEqual(ops(w), ["create"]);
  owner.recompute();
  await w.clock.advance(0);
  await settle(w.clock);
  assert.equal(owner.state, "waiting", "a wake during the wait adds no second wait");
  w.gate.release();
  await settle(w.clock);
  assert.deepEqual(ops(w), ["create", "dispatch"]);
  assert.deepEqual(delivered(w), ["stretch"]);
});

Deno.test("a delete that wins the race leaves no stale dispatch", async () => {
  await using w = await world();
  const owner = await w.startOwner();
  const id = await create(w, "stretch", 60);
  w.backend.hold();
  const deleted = w.call("schedule_delete", { id });
  await w.clock.advance(MINUTE);
  assert.equal(owner.state, "running");
  w.backend.release();
  assert.equal((await deleted).ok, true);
  await settle(w.clock);
  assert.deepEqual(ops(w), ["create", "delete"]);
  assert.deepEqual(delivered(w), []);
});

Deno.test("a delete confirmed before the owner claims the phase wins without timers", async () => {
  await using w = await world();
  const owner = await w.startOwner();
  const id = await create(w, "stretch", 60);
  const parked = Promise.withResolvers<void>();
  const blocker = w.fifo.run(() => parked.promise);
  await w.clock.advance(MINUTE);
  // The owner's due transaction queues behind the blocker; a direct delete lands first.
  w.agent.append("schedule/change", { version: 1, op: "delete", id });
  parked.resolve();
  await blocker;
  await settle(w.clock);
  assert.deepEqual(ops(w), ["create", "delete"]);
  assert.equal(owner.state, "idle");
});

Deno.test("dispose during an idle wait settles, cancels work and keeps the record", async () => {
  await using w = await world();
  const owner = await w.startOwner();
  await create(w, "stretch", 60);
  w.gate.block();
  w.agent.submit({ text: "hello", source: { kind: "web" } });
  await w.clock.advance(MINUTE);
  await settle(w.clock);
  assert.equal(owner.state, "waiting");
  await owner[Symbol.asyncDispose]();
  assert.equal(owner.state, "disposed");
  w.gate.release();
  await settle(w.clock);
  assert.deepEqual(ops(w), ["create"]);
  assert.equal(
    foldSession(w.session.header, w.session.events()).active.size,
    1,
    "teardown never deletes a record",
  );
  assert.equal(w.clock.pendingTimers, 0);
  await owner[Symbol.asyncDispose]();
});

Deno.test("management preflight re-arms after a failed post-append barrier", async () => {
  await using w = await world();
  const owner = await w.startOwner();
  w.backend.failNext({ op: "append", when: "before" });
  w.backend.failNext({ op: "append", when: "before" });
  const created = await w.call("schedule_create", { prompt: "stretch", after_seconds: 60 });
  assert.equal(created.error.code, "persistence_uncertain");
  assert.equal(owner.target, undefined, "an unconfirmed create arms nothing");
  const listed = await w.call("schedule_list", {});
  assert.equal(listed.schedules.length, 1);
  assert.equal(owner.target, T0 + MINUTE);
  await w.clock.advance(MINUTE);
  await settle(w.clock);
  assert.deepEqual(ops(w), ["create", "dispatch"]);
});

Deno.test("overdue reminders at start are delivered once each, in due order", async () => {
  await using w = await world();
  await create(w, "third", 90);
  await create(w, "first", 30);
  await create(w, "second", 60);
  await w.clock.advance(5 * MINUTE);
  await w.startOwner();
  await settle(w.clock);
  assert.deepEqual(delivered(w), ["first", "second", "third"]);
  assert.deepEqual(ops(w), ["create", "create", "create", "dispatch", "dispatch", "dispatch"]);
  assert.ok(w.gate.frames.every((f) => f.includes('"status":"overdue"')));
});
