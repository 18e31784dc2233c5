import assert from "node:assert/strict";
import { settle, type World, world } from "./_harness_test.ts";
import type { ScheduleChange } from "./protocol.ts";

const MINUTE = 60_000;

function ops(w: World): string[] {
  return w.changes().map((c: ScheduleChange) => c.op);
}

function park(w: World): { release(): Promise<void> } {
  const parked = Promise.withResolvers<void>();
  const blocker = w.fifo.run(() => parked.promise);
  return {
    release() {
      parked.resolve();
      return blocker;
    },
  };
}

Deno.test("dispose before the start transaction runs arms nothing", async () => {
  await using w = await world();
  await w.call("schedule_create", { prompt: "stretch", after_seconds: 60 });
  const blocker = park(w);
  const owner = await w.startOwner();
  owner.start();
  const disposed = owner[Symbol.asyncDispose]();
  await blocker.release();
  await disposed;
  assert.equal(owner.state, "disposed");
  assert.equal(w.clock.pendingTimers, 0);
  owner.recompute();
  assert.equal(w.clock.pendingTimers, 0);
});

Deno.test("dispose while the due transaction waits in the FIFO starts no new work", async () => {
  await using w = await world();
  const owner = await w.startOwner();
  await w.call("schedule_create", { prompt: "stretch", after_seconds: 60 });
  const blocker = park(w);
  await w.clock.advance(MINUTE);
  assert.equal(owner.state, "running");
  const disposed = owner[Symbol.asyncDispose]();
  await blocker.release();
  await disposed;
  assert.deepEqual(ops(w), ["create"]);
});

Deno.test("dispose during the due preflight stops before admission", async () => {
  await using w = await world();
  const owner = await w.startOwner();
  await w.call("schedule_create", { prompt: "stretch", after_seconds: 60 });
  w.backend.hold();
  w.store.append(w.session, "note", { text: "pending write" });
  await w.clock.advance(MINUTE);
  const disposed = owner[Symbol.asyncDispose]();
  w.backend.release();
  await disposed;
  assert.deepEqual(ops(w), ["create"]);
});

Deno.test("dispose during a failing due preflight arms nothing", async () => {
  await using w = await world();
  const owner = await w.startOwner();
  await w.call("schedule_create", { prompt: "stretch", after_seconds: 60 });
  const gate = Promise.withResolvers<void>();
  using _slow = w.store.addFlushListener(w.session, async () => {
    await gate.promise;
    throw new Error("disk");
  });
  await w.clock.advance(MINUTE);
  const disposed = owner[Symbol.asyncDispose]();
  gate.resolve();
  await disposed;
  assert.equal(w.clock.pendingTimers, 0);
});

Deno.test("a wake during an in-flight transaction runs once more afterwards", async () => {
  await using w = await world();
  const owner = await w.startOwner();
  await w.call("schedule_create", { prompt: "first", after_seconds: 60 });
  const blocker = park(w);
  await w.clock.advance(MINUTE);
  assert.equal(owner.state, "running");
  owner.recompute();
  await w.clock.advance(0);
  await blocker.release();
  await settle(w.clock);
  assert.deepEqual(ops(w), ["create", "dispatch"]);
  assert.equal(owner.state, "idle");
});

Deno.test("a stalled owner that is also waiting for idle keeps a single wait", async () => {
  await using w = await world();
  const owner = await w.startOwner();
  await w.call("schedule_create", { prompt: "first", after_seconds: 60 });
  await w.call("schedule_create", { prompt: "second", after_seconds: 120 });
  const failing = w.store.addFlushListener(w.session, () => Promise.reject(new Error("disk")));
  await w.clock.advance(MINUTE);
  await settle(w.clock);
  assert.equal(owner.state, "stalled");
  failing[Symbol.dispose]();
  w.gate.block();
  w.agent.submit({ text: "hello", source: { kind: "web" } });
  await w.clock.advance(MINUTE);
  await settle(w.clock);
  assert.equal(owner.state, "waiting");
  w.gate.release();
  await settle(w.clock);
  assert.deepEqual(ops(w), ["create", "create", "dispatch", "dispatch"]);
});

Deno.test("a change the fold refuses at delivery time is quarantined; the due reminder still fires", async () => {
  await using w = await world();
  const owner = await w.startOwner();
  await w.call("schedule_create", { prompt: "first", after_seconds: 60 });
  const blocker = park(w);
  await w.clock.advance(MINUTE);
  w.agent.append("schedule/change", { version: 1, op: "dispatch", id: "sch_AAAAAAAAAAAA" });
  await blocker.release();
  await settle(w.clock);
  assert.notEqual(owner.state, "faulted");
  assert.equal(w.logger.count("error"), 1, "the quarantined change is reported once");
  assert.equal(w.events("followup").length, 1, "the session's other reminder fires");
  owner.recompute();
  await settle(w.clock);
  assert.equal(w.logger.count("error"), 1, "and only once");
});
