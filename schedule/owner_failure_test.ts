import assert from "node:assert/strict";
import { create, delivered, ops, settle, T0, world, wrap } from "./_harness_test.ts";
import { ScheduleOwner } from "./owner.ts";
import type { ScheduleChange } from "./protocol.ts";

const MINUTE = 60_000;

Deno.test("a contained enqueue failure keeps the record active with no retry timer", async () => {
  await using w = await world();
  let fail = true;
  const owner = await w.startOwner({
    handle: wrap(w, {
      followup: (frame) => {
        if (fail) throw new Error("inbox closed");
        w.agent.followup(frame);
      },
    }),
  });
  await create(w, "stretch", 60);
  await w.clock.advance(MINUTE);
  await settle(w.clock);
  assert.deepEqual(ops(w), ["create"]);
  assert.equal(owner.state, "stalled");
  assert.equal(w.clock.pendingTimers, 0);
  assert.equal(w.logger.count("warn"), 1);
  await w.clock.advance(3600_000);
  assert.deepEqual(ops(w), ["create"], "no private retry");
  fail = false;
  w.agent.submit({ text: "hi", source: { kind: "web", clientTimeZone: "Europe/Berlin" } });
  await settle(w.clock);
  assert.deepEqual(ops(w), ["create", "dispatch"], "the next idle retries");
});

Deno.test("a successful management preflight retries a stalled delivery", async () => {
  await using w = await world();
  const owner = await w.startOwner();
  await create(w, "stretch", 60);
  await create(w, "later", 7200);
  const failing = w.store.addFlushListener(w.session, () => Promise.reject(new Error("disk")));
  await w.clock.advance(MINUTE);
  await settle(w.clock);
  assert.equal(owner.state, "stalled");
  assert.equal(owner.target, T0 + 7200_000, "later targets still arm");
  failing[Symbol.dispose]();
  const listed = await w.call("schedule_list", {});
  assert.equal(listed.schedules[0].status, "overdue");
  await settle(w.clock);
  assert.deepEqual(ops(w), ["create", "create", "dispatch"]);
  assert.equal(owner.target, T0 + 7200_000);
});

Deno.test("a failed dispatch append faults the owner", async () => {
  await using w = await world();
  const owner = await w.startOwner({
    handle: wrap(w, {
      append: (type, data) => {
        if ((data as ScheduleChange).op === "dispatch") throw new Error("closed");
        return w.agent.append(type, data);
      },
    }),
  });
  await create(w, "stretch", 60);
  await create(w, "later", 120);
  await w.clock.advance(MINUTE);
  await settle(w.clock);
  assert.equal(owner.state, "faulted");
  assert.equal(w.logger.count("error"), 1);
  assert.equal(delivered(w).length, 1, "the follow-up was already queued");
  assert.equal(w.clock.pendingTimers, 0);
  owner.recompute();
  await w.clock.advance(10 * MINUTE);
  assert.equal(w.clock.pendingTimers, 0);
});

Deno.test("a rejected start preflight arms nothing until a management preflight", async () => {
  await using w = await world();
  await create(w, "stretch", 60);
  const failing = w.store.addFlushListener(w.session, () => Promise.reject(new Error("disk")));
  const owner = await w.startOwner();
  assert.equal(owner.state, "stalled");
  assert.equal(w.clock.pendingTimers, 0);
  failing[Symbol.dispose]();
  await w.call("schedule_list", {});
  assert.equal(owner.state, "armed");
});

Deno.test("a failed dispatch barrier is reported and never redelivers", async () => {
  await using w = await world();
  const owner = await w.startOwner();
  await create(w, "stretch", 60);
  const failing = w.store.addFlushListener(w.session, (session) => {
    const last = session.events().findLast((e) => e.type === "schedule/change");
    if ((last?.data as ScheduleChange).op === "dispatch") throw new Error("disk");
  });
  await w.clock.advance(MINUTE);
  await settle(w.clock);
  failing[Symbol.dispose]();
  assert.deepEqual(ops(w), ["create", "dispatch"]);
  assert.equal(w.logger.count("warn"), 1);
  assert.equal(owner.state, "idle");
});

Deno.test("refused maintenance stalls; a rejected whenIdle() faults", async () => {
  await using w = await world();
  const owner = await w.startOwner({
    handle: wrap(w, { runMaintenance: () => Promise.reject(new Error("odd")) }),
  });
  await create(w, "stretch", 60);
  await w.clock.advance(MINUTE);
  await settle(w.clock);
  assert.equal(owner.state, "stalled");

  await using v = await world();
  const { AgentError } = await import("@chime/agent");
  const other = await v.startOwner({
    handle: wrap(v, {
      runMaintenance: () => Promise.reject(new AgentError("busy", "Cannot: busy")),
      whenIdle: () => Promise.reject(new Error("gone")),
    }),
  });
  await create(v, "stretch", 60);
  await v.clock.advance(MINUTE);
  await settle(v.clock);
  assert.equal(other.state, "faulted");
});

Deno.test("a fork's owner never delivers the parent's reminder; a refused change is held, not fatal", async () => {
  await using parent = await world();
  await create(parent, "parent only", 60);
  const child = await parent.store.fork(parent.session);
  await using w = await world({ store: parent.store, session: child });
  const owner = await w.startOwner();
  assert.equal(owner.target, undefined);
  await w.clock.advance(5 * MINUTE);
  assert.deepEqual(w.events("followup"), []);

  w.agent.append("schedule/change", { version: 1, op: "dispatch", id: "sch_AAAAAAAAAAAA" });
  owner.recompute();
  assert.notEqual(owner.state, "faulted");
  assert.equal(w.logger.count("error"), 1);
  assert.throws(() => new ScheduleOwner(w.agent, { maxSegmentMs: 0 }), RangeError);
});
