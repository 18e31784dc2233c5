import assert from "node:assert/strict";
import { AgentError } from "./types.ts";
import { ScriptedModel } from "./scripted.ts";
import { gate, harness, settle, types, web } from "./testing/harness.ts";

const busy = (e: unknown) => e instanceof AgentError && e.code === "busy";

Deno.test("`runMaintenance()` rejects while a turn runs", async () => {
  const release = gate<{ text: string }>();
  await using h = await harness(new ScriptedModel(() => release.promise));
  h.agent.submit({ text: "a", source: web() });
  let ran = false;
  await assert.rejects(h.agent.runMaintenance(() => Promise.resolve(ran = true)), busy);
  assert.equal(ran, false);
  release.resolve({ text: "ok" });
  await h.agent.whenIdle();
  assert.equal(await h.agent.runMaintenance(() => Promise.resolve(42)), 42);
});

Deno.test("`runMaintenance()` rejects while another maintenance task holds the agent", async () => {
  await using h = await harness(new ScriptedModel());
  const release = gate();
  const first = h.agent.runMaintenance(() => release.promise);
  assert.equal(h.agent.phase, "maintenance");
  await assert.rejects(h.agent.runMaintenance(() => Promise.resolve()), busy);
  release.resolve();
  await first;
  assert.equal(h.agent.phase, "idle");
});

Deno.test("an input arriving during maintenance stays parked until the task settles", async () => {
  const model = new ScriptedModel(() => ({ text: "ok" }));
  await using h = await harness(model);
  const release = gate();
  const task = h.agent.runMaintenance(async () => {
    await release.promise;
    h.agent.append("schedule/change", { version: 1, op: "dispatch", id: "r1" });
    return "done";
  });
  h.agent.submit({ text: "hello", source: web() });
  await settle();
  assert.deepEqual(types(h.session), ["user-rpc"]);
  assert.equal(h.agent.phase, "maintenance");
  release.resolve();
  assert.equal(await task, "done");
  // The turn started as the task released the phase, after the dispatch.
  assert.equal(h.agent.phase, "turn");
  await h.agent.whenIdle();
  assert.deepEqual(types(h.session), [
    "user-rpc",
    "schedule/change",
    "turn/start",
    "step/start",
    "assistant/message",
    "turn/end",
  ]);
});

Deno.test("`followup()` inside maintenance is recorded as an event of the turn after the task", async () => {
  const model = new ScriptedModel(() => ({ text: "reminded" }));
  await using h = await harness(model);
  await h.agent.runMaintenance(() => {
    h.agent.followup("[reminder] r1: stretch");
    h.agent.append("schedule/change", { version: 1, op: "dispatch", id: "r1" });
    assert.deepEqual(types(h.session), ["schedule/change"]);
    return Promise.resolve();
  });
  await h.agent.whenIdle();
  assert.deepEqual(types(h.session), [
    "schedule/change",
    "turn/start",
    "followup",
    "step/start",
    "assistant/message",
    "turn/end",
  ]);
  assert.deepEqual(h.session.event(2)!.data, { frame: "[reminder] r1: stretch" });
});

Deno.test("a failing maintenance task rejects and releases the phase", async () => {
  await using h = await harness(new ScriptedModel(() => ({ text: "ok" })));
  await assert.rejects(h.agent.runMaintenance(() => Promise.reject(new Error("boom"))), /boom/);
  assert.equal(h.agent.phase, "idle");
  await assert.rejects(
    h.agent.runMaintenance(() => {
      throw new Error("sync boom");
    }),
    /sync boom/,
  );
  assert.equal(h.agent.phase, "idle");
});

Deno.test("`whenIdle()` resolves now when idle and after the turn otherwise", async () => {
  const release = gate<{ text: string }>();
  await using h = await harness(new ScriptedModel(() => release.promise));
  await h.agent.whenIdle();
  h.agent.submit({ text: "a", source: web() });
  let idle = false;
  const waiting = h.agent.whenIdle().then(() => idle = true);
  await settle();
  assert.equal(idle, false);
  release.resolve({ text: "ok" });
  await waiting;
  assert.equal(h.agent.phase, "idle");
  assert.equal(types(h.session).at(-1), "turn/end");
});

Deno.test("`whenIdle()` during maintenance with a parked input waits for that turn too", async () => {
  await using h = await harness(new ScriptedModel(() => ({ text: "ok" })));
  const release = gate();
  const task = h.agent.runMaintenance(() => release.promise);
  const idle = h.agent.whenIdle();
  h.agent.submit({ text: "a", source: web() });
  release.resolve();
  await task;
  await idle;
  assert.deepEqual(types(h.session).at(-1), "turn/end");
});

Deno.test("a busy owner retries through `whenIdle()` and then claims maintenance", async () => {
  const release = gate<{ text: string }>();
  await using h = await harness(new ScriptedModel(() => release.promise));
  h.agent.submit({ text: "a", source: web() });
  const admitted = (async () => {
    for (;;) {
      try {
        return await h.agent.runMaintenance(() => Promise.resolve(h.agent.phase));
      } catch (error) {
        if (!busy(error)) throw error;
        await h.agent.whenIdle();
      }
    }
  })();
  await settle();
  release.resolve({ text: "ok" });
  assert.equal(await admitted, "maintenance");
});

Deno.test("dispose waits for a maintenance task in flight and wakes idle waiters", async () => {
  await using h = await harness(new ScriptedModel());
  const release = gate();
  let finished = false;
  const task = h.agent.runMaintenance(async () => {
    await release.promise;
    finished = true;
  });
  const idle = h.agent.whenIdle();
  const disposed = h.agent[Symbol.asyncDispose]();
  await settle();
  assert.equal(finished, false);
  release.resolve();
  await disposed;
  assert.equal(finished, true);
  await task;
  await idle;
});
