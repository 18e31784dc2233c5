import assert from "node:assert/strict";
import { OpenAICompatibleAdapter } from "./openai_compatible.ts";
import { ModelError, type ModelErrorCode, type ModelRequest } from "./types.ts";
import { FakeOpenAIServer, textEvents, toolCallEvents } from "./testing/fake_openai.ts";
import { harness, ofType, web } from "./testing/harness.ts";

function adapter(server: FakeOpenAIServer, timeoutMs = 5_000): OpenAICompatibleAdapter {
  return new OpenAICompatibleAdapter({
    baseURL: server.baseURL,
    model: "fake-model",
    apiKey: "sk-test",
    timeoutMs,
  });
}

function request(signal = new AbortController().signal): ModelRequest {
  return {
    messages: [{ role: "user", content: "hi" }],
    tools: [],
    signal,
    context: { now: 0 },
  };
}

function code(expected: ModelErrorCode) {
  return (e: unknown) => e instanceof ModelError && e.code === expected;
}

Deno.test("OpenAICompatibleAdapter: a full tool-call round trip through an Agent over SSE", async () => {
  await using server = new FakeOpenAIServer();
  server.reply(
    {
      kind: "stream",
      events: toolCallEvents([{ id: "call_1", name: "add", arguments: '{"a":2,"b":3}' }]),
    },
    { kind: "stream", events: textEvents("The sum is 5.") },
  );
  await using h = await harness(adapter(server), { systemPrompt: "You add." });
  h.agent.registerTool({
    name: "add",
    description: "Adds a and b.",
    parameters: { type: "object", properties: { a: { type: "number" }, b: { type: "number" } } },
    execute: (args) => {
      const { a, b } = args as { a: number; b: number };
      return Promise.resolve({ ok: true, sum: a + b });
    },
  });
  h.agent.submit({ text: "2+3?", source: web("Europe/Berlin") });
  await h.agent.whenIdle();
  const end = ofType<{ outcome: string }>(h.session, "turn/end")[0]!.data;
  assert.equal(end.outcome, "completed");
  assert.deepEqual(ofType(h.session, "tool/result")[0]!.data, {
    turnId: "id2",
    callId: "call_1",
    result: { ok: true, sum: 5 },
  });
  assert.equal(
    ofType<{ text: string }>(h.session, "assistant/message")[1]!.data.text,
    "The sum is 5.",
  );
  const [first, second] = server.requests;
  assert.equal(first!.authorization, "Bearer sk-test");
  assert.equal(first!.body.stream, true);
  assert.equal(first!.body.model, "fake-model");
  assert.deepEqual(first!.body.tools, [{
    type: "function",
    function: {
      name: "add",
      description: "Adds a and b.",
      parameters: { type: "object", properties: { a: { type: "number" }, b: { type: "number" } } },
    },
  }]);
  assert.deepEqual(second!.body.messages, [
    { role: "system", content: "You add." },
    { role: "user", content: "2+3?" },
    {
      role: "assistant",
      content: null,
      tool_calls: [{
        id: "call_1",
        type: "function",
        function: { name: "add", arguments: '{"a":2,"b":3}' },
      }],
    },
    { role: "tool", tool_call_id: "call_1", content: '{"ok":true,"sum":5}' },
  ]);
});

Deno.test("OpenAICompatibleAdapter assembles parallel calls with arguments split across chunks", async () => {
  await using server = new FakeOpenAIServer();
  const calls = [
    {
      id: "call_a",
      name: "schedule_create",
      arguments: '{"prompt":"stretch","after_seconds":1200}',
    },
    { id: "call_b", name: "schedule_list", arguments: "{}" },
    { id: "call_c", name: "schedule_delete", arguments: '{"id":"sch_1"}' },
  ];
  server.reply({ kind: "stream", events: toolCallEvents(calls, 7, "Working on it.") });
  const reply = await adapter(server).complete(request());
  assert.equal(reply.text, "Working on it.");
  assert.deepEqual(reply.toolCalls, calls);
});

Deno.test("OpenAICompatibleAdapter maps 401 to `model_unauthorized`", async () => {
  await using server = new FakeOpenAIServer();
  server.reply({ kind: "status", status: 401, body: { error: { message: "bad key" } } });
  await assert.rejects(adapter(server).complete(request()), code("model_unauthorized"));
});

Deno.test("OpenAICompatibleAdapter maps 429 to `model_rate_limited` without retrying", async () => {
  await using server = new FakeOpenAIServer();
  server.reply({ kind: "status", status: 429 }, { kind: "stream", events: textEvents("late") });
  await assert.rejects(adapter(server).complete(request()), code("model_rate_limited"));
  assert.equal(server.requests.length, 1);
});

Deno.test("OpenAICompatibleAdapter maps 500 to `model_server_error`", async () => {
  await using server = new FakeOpenAIServer();
  server.reply({ kind: "status", status: 500 });
  await assert.rejects(adapter(server).complete(request()), code("model_server_error"));
});

Deno.test("OpenAICompatibleAdapter maps a response that stalls mid-stream to `model_timeout`", async () => {
  await using server = new FakeOpenAIServer();
  server.reply({ kind: "stall", events: textEvents("partial").slice(0, 2) });
  await assert.rejects(adapter(server, 300).complete(request()), code("model_timeout"));
});

Deno.test("OpenAICompatibleAdapter maps a response that never starts to `model_timeout`", async () => {
  await using server = new FakeOpenAIServer();
  server.reply({ kind: "stall-headers" });
  await assert.rejects(adapter(server, 300).complete(request()), code("model_timeout"));
});

Deno.test("OpenAICompatibleAdapter maps malformed tool-call JSON to `model_bad_response`", async () => {
  await using server = new FakeOpenAIServer();
  server.reply({
    kind: "stream",
    events: toolCallEvents([{ id: "c", name: "schedule_list", arguments: '{"broken": ' }]),
  });
  await assert.rejects(adapter(server).complete(request()), code("model_bad_response"));
});

Deno.test("OpenAICompatibleAdapter maps a malformed SSE line or a cut stream to `model_bad_response`", async () => {
  await using server = new FakeOpenAIServer();
  server.reply(
    { kind: "stream", events: [...textEvents("x").slice(0, 1), "{not json"] },
    { kind: "stream", events: textEvents("cut").slice(0, 2), done: false },
  );
  await assert.rejects(adapter(server).complete(request()), code("model_bad_response"));
  await assert.rejects(adapter(server).complete(request()), code("model_bad_response"));
});

Deno.test("OpenAICompatibleAdapter maps an unreachable endpoint to `model_unavailable`", async () => {
  const server = new FakeOpenAIServer();
  const model = adapter(server);
  await server[Symbol.asyncDispose]();
  await assert.rejects(model.complete(request()), code("model_unavailable"));
});

Deno.test("OpenAICompatibleAdapter rejects with the signal's reason when cancelled", async () => {
  await using server = new FakeOpenAIServer();
  server.reply({ kind: "stall", events: textEvents("partial").slice(0, 1) });
  const controller = new AbortController();
  const call = adapter(server).complete(request(controller.signal));
  while (server.requests.length === 0) await new Promise((r) => setTimeout(r, 5));
  const reason = new DOMException("cancelled", "AbortError");
  controller.abort(reason);
  await assert.rejects(call, (e) => e === reason);
});

Deno.test("a model error over HTTP ends the agent's turn `error` and it keeps serving", async () => {
  await using server = new FakeOpenAIServer();
  server.reply({ kind: "status", status: 503 }, { kind: "stream", events: textEvents("back") });
  await using h = await harness(adapter(server));
  h.agent.submit({ text: "1", source: web() });
  await h.agent.whenIdle();
  h.agent.submit({ text: "2", source: web() });
  await h.agent.whenIdle();
  const ends = ofType<{ outcome: string; error?: string }>(h.session, "turn/end").map((e) =>
    e.data
  );
  assert.equal(ends[0]!.outcome, "error");
  assert.match(ends[0]!.error!, /^model_server_error: /);
  assert.equal(ends[1]!.outcome, "completed");
});
