import assert from "node:assert/strict";
import { AgentError, ModelError, type ToolDefinition } from "./types.ts";
import { ScriptedModel } from "./scripted.ts";
import { harness, ofType, settle, types, web } from "./testing/harness.ts";

const echo: ToolDefinition = {
  name: "echo",
  description: "Echoes its arguments.",
  parameters: { type: "object", properties: { say: { type: "string" } } },
  execute: (args) => Promise.resolve({ ok: true, echoed: args }),
};

Deno.test("`submit()` runs one turn with the exact event sequence (docs/events.md#one-turn)", async () => {
  await using h = await harness(new ScriptedModel([{ text: "hello" }]));
  const event = h.agent.submit({ text: "hi", source: web("Europe/Paris") });
  assert.equal(event.type, "user-rpc");
  assert.deepEqual(event.data, {
    messageId: "id1",
    text: "hi",
    source: { kind: "web", clientTimeZone: "Europe/Paris" },
  });
  assert.equal(h.agent.phase, "turn");
  await h.agent.whenIdle();
  assert.deepEqual(types(h.session), [
    "user-rpc",
    "turn/start",
    "step/start",
    "assistant/message",
    "turn/end",
  ]);
  const [, start, step, message, end] = h.session.events();
  assert.deepEqual(start!.data, { turnId: "id2" });
  assert.deepEqual(step!.data, { turnId: "id2", step: 0, messageIds: ["id1"] });
  assert.deepEqual(message!.data, { turnId: "id2", text: "hello" });
  assert.deepEqual(end!.data, { turnId: "id2", outcome: "completed" });
  assert.equal(h.agent.phase, "idle");
});

Deno.test("a tool call round trip records tool/call and tool/result and loops", async () => {
  const model = new ScriptedModel([
    { toolCalls: [{ id: "c1", name: "echo", arguments: '{"say":"x"}' }] },
    { text: "done" },
  ]);
  await using h = await harness(model, { systemPrompt: "be brief" });
  h.agent.registerTool(echo);
  h.agent.submit({ text: "call echo", source: web() });
  await h.agent.whenIdle();
  assert.deepEqual(types(h.session, 1), [
    "turn/start",
    "step/start",
    "assistant/message",
    "tool/call",
    "tool/result",
    "step/start",
    "assistant/message",
    "turn/end",
  ]);
  assert.deepEqual(ofType(h.session, "tool/call")[0]!.data, {
    turnId: "id2",
    callId: "c1",
    name: "echo",
    args: { say: "x" },
  });
  assert.deepEqual(ofType(h.session, "tool/result")[0]!.data, {
    turnId: "id2",
    callId: "c1",
    result: { ok: true, echoed: { say: "x" } },
  });
  assert.deepEqual(ofType(h.session, "step/start")[1]!.data, {
    turnId: "id2",
    step: 1,
    messageIds: [],
  });
  const second = model.requests[1]!;
  assert.deepEqual(second.messages, [
    { role: "system", content: "be brief" },
    { role: "user", content: "call echo" },
    {
      role: "assistant",
      content: "",
      toolCalls: [{ id: "c1", name: "echo", arguments: '{"say":"x"}' }],
    },
    { role: "tool", toolCallId: "c1", content: '{"ok":true,"echoed":{"say":"x"}}' },
  ]);
  assert.deepEqual(second.tools.map((t) => t.name), ["echo"]);
  assert.deepEqual(second.context, { now: h.clock.now(), timeZone: "Europe/Berlin" });
});

Deno.test("tool calls run sequentially in order; failures become tool results", async () => {
  const order: string[] = [];
  const model = new ScriptedModel([
    {
      toolCalls: [
        { id: "a", name: "slow", arguments: "{}" },
        { id: "b", name: "boom", arguments: "{}" },
        { id: "c", name: "slow", arguments: "{not json" },
        { id: "d", name: "nope", arguments: "{}" },
        { id: "e", name: "slow", arguments: "" },
      ],
    },
    { text: "ok" },
  ]);
  await using h = await harness(model);
  h.agent.registerTool({
    ...echo,
    name: "slow",
    async execute(_args, ctx) {
      order.push(`start ${ctx.callId}`);
      await settle(5);
      order.push(`end ${ctx.callId}`);
      return 1;
    },
  });
  h.agent.registerTool({ ...echo, name: "boom", execute: () => Promise.reject(new Error("bad")) });
  h.agent.submit({ text: "go", source: web() });
  await h.agent.whenIdle();
  assert.deepEqual(order, ["start a", "end a", "start e", "end e"]);
  const results = ofType<{ callId: string; result: unknown }>(h.session, "tool/result")
    .map((e) => [e.data.callId, e.data.result]);
  assert.deepEqual(results, [
    ["a", 1],
    ["b", { ok: false, error: { code: "tool_failed", message: "bad" } }],
    ["c", {
      ok: false,
      error: { code: "invalid_arguments", message: "Cannot call slow: arguments are not JSON" },
    }],
    ["d", {
      ok: false,
      error: { code: "unknown_tool", message: "Cannot call nope: no such tool" },
    }],
    ["e", 1],
  ]);
  assert.equal(ofType<{ args: unknown }>(h.session, "tool/call")[2]!.data.args, "{not json");
  assert.equal(ofType<{ outcome: string }>(h.session, "turn/end")[0]!.data.outcome, "completed");
});

Deno.test("regression: arguments nested 10,000 deep are a coded invalid_arguments the model can correct, not a stack overflow", async () => {
  const deep = `{"say":${"[".repeat(10_000)}${"]".repeat(10_000)}}`;
  const inString = `{"say":"${"[".repeat(10_000)}"}`; // brackets inside a string do not nest
  const model = new ScriptedModel([
    { toolCalls: [{ id: "a", name: "echo", arguments: deep }] },
    { toolCalls: [{ id: "b", name: "echo", arguments: inString }] },
    { text: "ok" },
  ]);
  await using h = await harness(model);
  h.agent.registerTool(echo);
  h.agent.submit({ text: "go", source: web() });
  await h.agent.whenIdle();
  const results = ofType<{ callId: string; result: { ok: boolean; error?: unknown } }>(
    h.session,
    "tool/result",
  );
  assert.deepEqual(results[0]!.data.result, {
    ok: false,
    error: {
      code: "invalid_arguments",
      message: "Cannot call echo: arguments nest deeper than 32 levels",
    },
  });
  assert.equal(results[1]!.data.result.ok, true);
  assert.equal(ofType<{ outcome: string }>(h.session, "turn/end")[0]!.data.outcome, "completed");
});

Deno.test("`registerTool()` rejects duplicates and its handle revokes the tool", async () => {
  const model = new ScriptedModel([{ text: "a" }, { text: "b" }]);
  await using h = await harness(model);
  const handle = h.agent.registerTool(echo);
  assert.throws(() => h.agent.registerTool({ ...echo }), TypeError);
  assert.throws(() => h.agent.registerTool({ ...echo, name: "bad name" }), TypeError);
  h.agent.submit({ text: "1", source: web() });
  await h.agent.whenIdle();
  handle[Symbol.dispose]();
  h.agent.submit({ text: "2", source: web() });
  await h.agent.whenIdle();
  assert.deepEqual(model.requests.map((r) => r.tools.length), [1, 0]);
  h.agent.registerTool(echo)[Symbol.dispose]();
});

Deno.test("a model error ends the turn `error` and the agent keeps serving", async () => {
  const model = new ScriptedModel([
    new ModelError("model_rate_limited", "Cannot complete: slow down"),
    new Error("plain"),
    { text: "fine" },
  ]);
  await using h = await harness(model);
  h.agent.submit({ text: "1", source: web() });
  await h.agent.whenIdle();
  h.agent.submit({ text: "2", source: web() });
  await h.agent.whenIdle();
  h.agent.submit({ text: "3", source: web() });
  await h.agent.whenIdle();
  const ends = ofType<{ outcome: string; error?: string }>(h.session, "turn/end").map((e) =>
    e.data
  );
  assert.deepEqual(ends.map((e) => [e.outcome, e.error]), [
    ["error", "model_rate_limited: Cannot complete: slow down"],
    ["error", "plain"],
    ["completed", undefined],
  ]);
  // The failed turns' messages stay in the log and in the conversation.
  assert.deepEqual(model.requests[2]!.messages.map((m) => m.content), ["1", "2", "3"]);
});

Deno.test("a missing model adapter ends the turn `model_missing` after step/start", async () => {
  await using h = await harness(undefined);
  h.agent.registerTool(echo);
  const message = h.agent.submit({ text: "remind me", source: web("Europe/Berlin") });
  await h.agent.whenIdle();
  assert.deepEqual(types(h.session), ["user-rpc", "turn/start", "step/start", "turn/end"]);
  const end = ofType<{ outcome: string; error: string }>(h.session, "turn/end")[0]!;
  assert.equal(end.data.outcome, "error");
  assert.match(end.data.error, /^model_missing: /);
  assert.equal(h.session.event(message.seq), message);
});

Deno.test("`maxSteps` ends a turn that keeps calling tools", async () => {
  const loop = { toolCalls: [{ id: "c", name: "echo", arguments: "{}" }] };
  await using h = await harness(new ScriptedModel(() => loop), { maxSteps: 2 });
  h.agent.registerTool(echo);
  h.agent.submit({ text: "go", source: web() });
  await h.agent.whenIdle();
  assert.equal(ofType(h.session, "step/start").length, 2);
  const end = ofType<{ outcome: string; error: string }>(h.session, "turn/end")[0]!.data;
  assert.equal(end.outcome, "error");
  assert.match(end.error, /^max_steps: /);
});

Deno.test("a dangling turn from a stopped process is closed when the agent starts", async () => {
  await using h = await harness(new ScriptedModel());
  h.session.append("turn/start", { turnId: "old" });
  const { Agent } = await import("./agent.ts");
  await using agent = new Agent({ session: h.session, store: h.store, model: undefined });
  const end = h.session.events().at(-1)!;
  assert.deepEqual(end.type, "turn/end");
  assert.equal((end.data as { turnId: string }).turnId, "old");
  assert.equal(agent.phase, "idle");
});

Deno.test("`submit()`, `followup()` and `runMaintenance()` throw `disposed` after dispose", async () => {
  await using h = await harness(new ScriptedModel());
  await h.agent[Symbol.asyncDispose]();
  const disposed = (e: unknown) => e instanceof AgentError && e.code === "disposed";
  assert.throws(() => h.agent.submit({ text: "x", source: web() }), disposed);
  assert.throws(() => h.agent.followup("x"), disposed);
  await assert.rejects(h.agent.runMaintenance(() => Promise.resolve()), disposed);
  await h.agent.whenIdle();
  assert.equal(h.agent.disposed, true);
});
