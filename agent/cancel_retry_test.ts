import assert from "node:assert/strict";
import { STOPPED_NOTE } from "./_marks.ts";
import { AgentError, type ToolDefinition } from "./types.ts";
import { ScriptedModel } from "./scripted.ts";
import { gate, harness, ofType, types, web } from "./testing/harness.ts";

const echo: ToolDefinition = {
  name: "echo",
  description: "Echoes its arguments.",
  parameters: { type: "object" },
  execute: (args) => Promise.resolve(args),
};

Deno.test("`cancel()` during a model call ends the turn `cancelled` and records nothing more", async () => {
  const reached = gate();
  let signal: AbortSignal | undefined;
  const model = new ScriptedModel((request) => {
    signal = request.signal;
    reached.resolve();
    return new Promise(() => {});
  });
  await using h = await harness(model);
  h.agent.submit({ text: "go", source: web() });
  await reached.promise;
  h.agent.cancel();
  assert.equal(signal?.aborted, true);
  await h.agent.whenIdle();
  assert.deepEqual(types(h.session), ["user-rpc", "turn/start", "step/start", "turn/end"]);
  assert.equal(ofType<{ outcome: string }>(h.session, "turn/end")[0]!.data.outcome, "cancelled");
  assert.throws(
    () => h.agent.cancel(),
    (e) => e instanceof AgentError && e.code === "no_running_turn",
  );
});

Deno.test("`cancel()` during a tool call aborts the tool signal and records no result", async () => {
  const reached = gate();
  let toolSignal: AbortSignal | undefined;
  const model = new ScriptedModel([
    { toolCalls: [{ id: "c1", name: "wait", arguments: "{}" }] },
    { text: "after" },
  ]);
  await using h = await harness(model);
  h.agent.registerTool({
    ...echo,
    name: "wait",
    execute: (_args, ctx) => {
      toolSignal = ctx.signal;
      reached.resolve();
      return new Promise(() => {});
    },
  });
  h.agent.submit({ text: "go", source: web() });
  await reached.promise;
  h.agent.cancel();
  await h.agent.whenIdle();
  assert.equal(toolSignal?.aborted, true);
  assert.deepEqual(types(h.session, 1), [
    "turn/start",
    "step/start",
    "assistant/message",
    "tool/call",
    "turn/end",
  ]);
  // The next turn's conversation stays valid: the unanswered call gets a synthetic result.
  h.agent.submit({ text: "next", source: web() });
  await h.agent.whenIdle();
  const messages = model.requests[1]!.messages;
  assert.deepEqual(messages[2], {
    role: "tool",
    toolCallId: "c1",
    content: JSON.stringify({
      ok: false,
      error: {
        code: "cancelled",
        message: "Cannot report: the turn ended before this tool returned",
      },
    }),
  });
  assert.deepEqual(messages[3], { role: "user", content: "next" });
  // The stopped request is shown as stopped, so no model carries it out unless asked again.
  assert.deepEqual(messages[0], { role: "user", content: `${STOPPED_NOTE}\ngo` });
  assert.deepEqual(ofType<{ stoppedMessageIds: string[] }>(h.session, "turn/end")[0]!.data, {
    turnId: "id2",
    outcome: "cancelled",
    stoppedMessageIds: ["id1"],
  });
});

Deno.test("`cancel()` throws `no_running_turn` when idle", async () => {
  await using h = await harness(new ScriptedModel());
  assert.throws(
    () => h.agent.cancel(),
    (e) => e instanceof AgentError && e.code === "no_running_turn",
  );
});

Deno.test("`retry()` runs a new turn for the original message with its own provenance", async () => {
  const model = new ScriptedModel([new Error("down"), { text: "ok" }]);
  await using h = await harness(model);
  const original = h.agent.submit({ text: "at 9", source: web("Asia/Kolkata") });
  await h.agent.whenIdle();
  const seen: unknown[] = [];
  h.agent.addPreStep((batch) => {
    seen.push(...batch.messages);
  });
  h.agent.submit({ text: "other", source: web("America/New_York") });
  await h.agent.whenIdle();
  await h.agent.retry(original.data.messageId);
  await h.agent.whenIdle();
  assert.equal(seen.length, 1 + 1);
  assert.equal(seen[1], original);
  const steps = ofType<{ messageIds: string[] }>(h.session, "step/start");
  assert.deepEqual(steps.at(-1)!.data.messageIds, [original.data.messageId]);
  assert.equal(ofType(h.session, "user-rpc").length, 2);
  await assert.rejects(
    () => h.agent.retry("missing"),
    (e) => e instanceof AgentError && e.code === "message_not_found",
  );
});

Deno.test("`edit()` appends an edit that keeps the original message's zone", async () => {
  await using h = await harness(new ScriptedModel(() => ({ text: "ok" })));
  const original = h.agent.submit({ text: "at 9", source: web("Asia/Kolkata") });
  await h.agent.whenIdle();
  const edited = await h.agent.edit(original.data.messageId, "at 10");
  assert.deepEqual(edited.data, {
    messageId: "id3",
    text: "at 10",
    source: { kind: "web", clientTimeZone: "Asia/Kolkata" },
    edits: original.data.messageId,
  });
  await h.agent.whenIdle();
  const steps = ofType<{ messageIds: string[] }>(h.session, "step/start");
  assert.deepEqual(steps.at(-1)!.data.messageIds, ["id3"]);
  await assert.rejects(
    () => h.agent.edit("missing", "x"),
    (e) => e instanceof AgentError && e.code === "message_not_found",
  );
});

Deno.test("disposing the agent during a model call ends the turn `cancelled` and settles the loop", async () => {
  const reached = gate();
  let signal: AbortSignal | undefined;
  await using h = await harness(
    new ScriptedModel((request) => {
      signal = request.signal;
      reached.resolve();
      return new Promise(() => {});
    }),
  );
  h.agent.registerTool(echo);
  h.agent.submit({ text: "go", source: web() });
  await reached.promise;
  await h.agent[Symbol.asyncDispose]();
  assert.equal(signal?.aborted, true);
  assert.equal(h.agent.signal.aborted, true);
  assert.equal(h.agent.phase, "idle");
  assert.deepEqual(types(h.session), ["user-rpc", "turn/start", "step/start", "turn/end"]);
  assert.equal(ofType<{ outcome: string }>(h.session, "turn/end")[0]!.data.outcome, "cancelled");
});
