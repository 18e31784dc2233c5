import assert from "node:assert/strict";
import type { StepBatch } from "./types.ts";
import { ScriptedModel } from "./scripted.ts";
import { gate, harness, ofType, settle, types, web } from "./testing/harness.ts";

Deno.test("pre-step hooks run in order on the final batch and add text for that step only", async () => {
  const model = new ScriptedModel(() => ({ text: "ok" }));
  await using h = await harness(model);
  const calls: string[] = [];
  h.agent.addPreStep((batch, agent) => {
    calls.push(`a:${batch.step}`);
    const staged = agent.append("time-context/marker", { turnId: batch.turnId });
    calls.push(`seq:${staged.seq}`);
    return ["[reading]"];
  });
  h.agent.addPreStep(async (batch) => {
    await settle(2);
    calls.push(`b:${batch.messages.map((m) => m.data.text).join()}`);
    return ["[b]"];
  });
  h.agent.submit({ text: "first", source: web("Europe/Paris") });
  await h.agent.whenIdle();
  assert.deepEqual(calls, ["a:0", "seq:2", "b:first"]);
  assert.deepEqual(types(h.session), [
    "user-rpc",
    "turn/start",
    "time-context/marker",
    "step/start",
    "assistant/message",
    "turn/end",
  ]);
  assert.deepEqual(model.requests[0]!.messages.map((m) => m.content), [
    "first",
    "[reading]",
    "[b]",
  ]);
  h.agent.submit({ text: "second", source: web() });
  await h.agent.whenIdle();
  // The first step's readings are not replayed.
  assert.deepEqual(model.requests[1]!.messages.map((m) => m.content), [
    "first",
    "ok",
    "second",
    "[reading]",
    "[b]",
  ]);
});

Deno.test("a message arriving during a model call joins the next step and gets its own pre-step", async () => {
  const inCall = gate();
  const release = gate<{ text: string }>();
  let call = 0;
  const model = new ScriptedModel(() => {
    call++;
    if (call === 1) {
      inCall.resolve();
      return release.promise;
    }
    return { text: "second answer" };
  });
  await using h = await harness(model);
  const batches: StepBatch[] = [];
  h.agent.addPreStep((batch, agent) => {
    batches.push(batch);
    agent.append("time-context/marker", { turnId: batch.turnId });
    return [`[zones ${batch.messages.map((m) => m.data.source.clientTimeZone).join()}]`];
  });
  const m1 = h.agent.submit({ text: "one", source: web("Asia/Tokyo") });
  await inCall.promise;
  const m2 = h.agent.submit({ text: "two", source: web("America/New_York") });
  release.resolve({ text: "first answer" });
  await h.agent.whenIdle();
  assert.deepEqual(batches.map((b) => [b.step, b.messages]), [[0, [m1]], [1, [m2]]]);
  assert.deepEqual(types(h.session), [
    "user-rpc",
    "turn/start",
    "time-context/marker",
    "step/start",
    "user-rpc",
    "assistant/message",
    "time-context/marker",
    "step/start",
    "assistant/message",
    "turn/end",
  ]);
  const steps = ofType<{ step: number; messageIds: string[] }>(h.session, "step/start");
  assert.deepEqual(steps.map((s) => [s.data.step, s.data.messageIds]), [
    [0, [m1.data.messageId]],
    [1, [m2.data.messageId]],
  ]);
  assert.deepEqual(model.requests[1]!.messages.map((m) => [m.role, m.content]), [
    ["user", "one"],
    ["assistant", "first answer"],
    ["user", "two"],
    ["user", "[zones America/New_York]"],
  ]);
});

Deno.test("a message arriving while pre-step hooks run belongs to the next step", async () => {
  const inHook = gate();
  const release = gate();
  await using h = await harness(new ScriptedModel(() => ({ text: "ok" })));
  const seen: string[][] = [];
  h.agent.addPreStep(async (batch) => {
    seen.push(batch.messages.map((m) => m.data.text));
    if (batch.step === 0) {
      inHook.resolve();
      await release.promise;
    }
  });
  h.agent.submit({ text: "a", source: web() });
  await inHook.promise;
  h.agent.submit({ text: "b", source: web() });
  release.resolve();
  await h.agent.whenIdle();
  assert.deepEqual(seen, [["a"], ["b"]]);
  assert.equal(ofType(h.session, "turn/start").length, 1);
});

Deno.test("`cancel()` before step/start records no reading and no step", async () => {
  const inHook = gate();
  const model = new ScriptedModel(() => ({ text: "never" }));
  await using h = await harness(model);
  h.agent.addPreStep(async (batch, agent) => {
    agent.append("time-context/marker", { turnId: batch.turnId });
    inHook.resolve();
    await new Promise(() => {});
  });
  h.agent.submit({ text: "a", source: web() });
  await inHook.promise;
  h.agent.cancel();
  await h.agent.whenIdle();
  assert.deepEqual(types(h.session), ["user-rpc", "turn/start", "turn/end"]);
  assert.equal(model.requests.length, 0);
});

Deno.test("a throwing pre-step hook fails the turn before step/start and records nothing staged", async () => {
  await using h = await harness(new ScriptedModel(() => ({ text: "never" })));
  h.agent.addPreStep((batch, agent) => {
    agent.append("time-context/marker", { turnId: batch.turnId });
  });
  h.agent.addPreStep(() => {
    throw new Error("hook failed");
  });
  h.agent.submit({ text: "a", source: web() });
  await h.agent.whenIdle();
  assert.deepEqual(types(h.session), ["user-rpc", "turn/start", "turn/end"]);
  const end = ofType<{ outcome: string; error: string }>(h.session, "turn/end")[0]!.data;
  assert.deepEqual([end.outcome, end.error], ["error", "hook failed"]);
});

Deno.test("an empty continuation step after tool results runs no pre-step hook", async () => {
  const model = new ScriptedModel([
    { toolCalls: [{ id: "c", name: "noop", arguments: "{}" }] },
    { text: "done" },
  ]);
  await using h = await harness(model);
  h.agent.registerTool({
    name: "noop",
    description: "Does nothing.",
    parameters: { type: "object" },
    execute: () => Promise.resolve(null),
  });
  const steps: number[] = [];
  h.agent.addPreStep((batch) => {
    steps.push(batch.step);
    return ["[r]"];
  });
  h.agent.submit({ text: "go", source: web() });
  await h.agent.whenIdle();
  assert.deepEqual(steps, [0]);
  assert.equal(ofType(h.session, "step/start").length, 2);
  assert.equal(model.requests[1]!.messages.some((m) => m.content === "[r]"), false);
});

Deno.test("a follow-up batch is recorded as `followup` before step/start and seen by hooks", async () => {
  const model = new ScriptedModel(() => ({ text: "noted" }));
  await using h = await harness(model);
  const batches: StepBatch[] = [];
  h.agent.addPreStep((batch) => {
    batches.push(batch);
  });
  h.agent.followup("[reminder] stretch");
  await h.agent.whenIdle();
  assert.deepEqual(types(h.session), [
    "turn/start",
    "followup",
    "step/start",
    "assistant/message",
    "turn/end",
  ]);
  assert.deepEqual(h.session.event(1)!.data, { frame: "[reminder] stretch" });
  assert.deepEqual(ofType(h.session, "step/start")[0]!.data, {
    turnId: "id1",
    step: 0,
    messageIds: [],
  });
  assert.deepEqual(batches.map((b) => [b.messages.length, b.followups]), [[
    0,
    ["[reminder] stretch"],
  ]]);
  assert.deepEqual(model.requests[0]!.messages, [{ role: "user", content: "[reminder] stretch" }]);
});
