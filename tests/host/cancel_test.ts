/**
 * Cancel through the HTTP route (README "HTTP API"): during a model call to a real
 * OpenAI-compatible endpoint, during a tool call, and during a pre-step hook (before
 * `step/start`, which then records nothing for that step); `409 no_running_turn` when idle, live
 * or cold. The agent-level rules are `agent/cancel_retry_test.ts`; these lanes prove the route
 * drives them.
 *
 * @module
 */
import assert from "node:assert/strict";
import { type AgentScope, type Plugin, ScriptedModel, type ScriptedReply } from "@chime/agent";
import { createApp } from "@chime/host";
import type { Session } from "@chime/session";
import { MemoryBackend } from "@chime/session/testing";
import { FakeOpenAIServer, textEvents } from "../../agent/testing/fake_openai.ts";
import { postJson, testRuntime } from "./_helpers.ts";

type App = ReturnType<typeof createApp>;

const types = (session: Session, from = 0) => session.events(from).map((e) => e.type);
const outcomes = (session: Session) =>
  session.events().filter((e) => e.type === "turn/end")
    .map((e) => (e.data as { outcome: string }).outcome);

async function cancel(app: App, session: Session): Promise<Response> {
  return await app.request(`/api/sessions/${session.id}/turns/current/cancel`, { method: "POST" });
}

async function say(app: App, session: Session, text: string): Promise<void> {
  const response = await app.request(
    `/api/sessions/${session.id}/messages`,
    postJson({ text, clientTimeZone: "Europe/Paris" }),
  );
  assert.equal(response.status, 202);
  await response.body?.cancel();
}

async function assertNoRunningTurn(app: App, session: Session): Promise<void> {
  const before = session.length;
  const response = await cancel(app, session);
  assert.equal(response.status, 409);
  assert.equal((await response.json()).error.code, "no_running_turn");
  assert.equal(session.length, before, "a refused cancel writes nothing");
}

/** A test plugin whose setup registers what a lane needs. */
function plugin(setup: (scope: AgentScope) => void): Plugin {
  return { name: "test/cancel", setup };
}

Deno.test("cancel over HTTP during a model call to a real endpoint ends the turn `cancelled`", async () => {
  await using endpoint = new FakeOpenAIServer();
  // Headers and a first chunk, then silence: the streamed call stays in flight.
  endpoint.reply({ kind: "stall", events: textEvents("never finished", 3).slice(0, 2) });
  await using runtime = await testRuntime({
    modelSettings: {
      kind: "openai-compatible",
      baseURL: endpoint.baseURL,
      model: "fake-model",
      apiKey: "test-key",
      reason: "test",
    },
  });
  const app = createApp(runtime);
  const { session } = await runtime.create({ timeZone: "Europe/Paris" });
  await say(app, session, "tell me a long story");
  const deadline = Date.now() + 10_000;
  while (endpoint.requests.length === 0 && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  assert.equal(endpoint.requests.length, 1, "the model call reached the endpoint");

  const response = await cancel(app, session);
  assert.equal(response.status, 200);
  const body = await response.json();
  assert.equal(body.cancelled, true);
  await (await runtime.agentFor(session)).whenIdle();
  assert.deepEqual(types(session), ["user-rpc", "turn/start", "step/start", "turn/end"]);
  assert.equal((session.event(3)!.data as { turnId: string }).turnId, body.turnId);
  assert.deepEqual(outcomes(session), ["cancelled"]);
  await assertNoRunningTurn(app, session);
});

Deno.test("cancel over HTTP during a tool call aborts the tool and records no result", async () => {
  const reached = Promise.withResolvers<void>();
  let toolSignal: AbortSignal | undefined;
  const model = new ScriptedModel([
    { toolCalls: [{ id: "c1", name: "wait", arguments: "{}" }] },
    { text: "never asked" },
  ]);
  await using runtime = await testRuntime({
    model,
    plugins: [plugin((scope) => {
      scope.registerTool({
        name: "wait",
        description: "Waits until the turn is cancelled.",
        parameters: { type: "object" },
        execute: (_args, ctx) => {
          toolSignal = ctx.signal;
          reached.resolve();
          return new Promise((_, reject) => {
            ctx.signal.addEventListener("abort", () => reject(ctx.signal.reason));
          });
        },
      });
    })],
  });
  const app = createApp(runtime);
  const { session } = await runtime.create({ timeZone: "Europe/Paris" });
  await say(app, session, "wait for it");
  await reached.promise;
  assert.equal((await cancel(app, session)).status, 200);
  await (await runtime.agentFor(session)).whenIdle();
  assert.equal(toolSignal?.aborted, true);
  assert.deepEqual(types(session), [
    "user-rpc",
    "turn/start",
    "step/start",
    "assistant/message",
    "tool/call",
    "turn/end",
  ]);
  assert.deepEqual(outcomes(session), ["cancelled"]);
  assert.equal(model.requests.length, 1, "no model call after the cancel");
  await assertNoRunningTurn(app, session);
});

Deno.test("cancel over HTTP before `step/start` records nothing for that step", async () => {
  const firstCall = Promise.withResolvers<ScriptedReply>();
  const inModel = Promise.withResolvers<void>();
  const inHook = Promise.withResolvers<void>();
  const hookGate = Promise.withResolvers<void>();
  const model = new ScriptedModel([() => {
    inModel.resolve();
    return firstCall.promise;
  }, { text: "never asked" }]);
  await using runtime = await testRuntime({
    model,
    plugins: [plugin((scope) => {
      scope.addPreStep(async (batch, agent) => {
        // Staged: recorded only if the step starts.
        agent.append("time-context/marker", { turnId: batch.turnId });
        if (batch.step === 1) {
          inHook.resolve();
          await hookGate.promise;
        }
      });
    })],
  });
  const app = createApp(runtime);
  const { session } = await runtime.create({ timeZone: "Europe/Paris" });
  await say(app, session, "first");
  await inModel.promise;
  // A message sent while the turn runs steers: it is claimed by step 1, whose hook then blocks.
  await say(app, session, "steer");
  firstCall.resolve({ text: "step 0 done" });
  await inHook.promise;
  const before = session.length;
  assert.equal((await cancel(app, session)).status, 200);
  await (await runtime.agentFor(session)).whenIdle();
  hookGate.resolve();
  assert.deepEqual(types(session), [
    "user-rpc",
    "turn/start",
    "time-context/marker",
    "step/start",
    "user-rpc",
    "assistant/message",
    "turn/end",
  ]);
  assert.deepEqual(types(session, before), ["turn/end"], "step 1 recorded nothing");
  const starts = session.events().filter((e) => e.type === "step/start");
  assert.deepEqual(starts.map((e) => (e.data as { step: number }).step), [0]);
  assert.deepEqual(outcomes(session), ["cancelled"]);
  assert.equal(model.requests.length, 1, "step 1 never called the model");
  await assertNoRunningTurn(app, session);
});

Deno.test("cancel over HTTP answers 409 no_running_turn for an idle or cold session", async () => {
  const backend = new MemoryBackend();
  let id: string;
  {
    await using runtime = await testRuntime({ backend });
    const app = createApp(runtime);
    const { session } = await runtime.create({ timeZone: "Europe/Paris" });
    id = session.id;
    await assertNoRunningTurn(app, session);
    await say(app, session, "hello");
    await (await runtime.agentFor(session)).whenIdle();
    await assertNoRunningTurn(app, session);
    assert.deepEqual(outcomes(session), ["completed"]);
  }
  await using runtime = await testRuntime({ backend });
  const app = createApp(runtime);
  const response = await app.request(`/api/sessions/${id}/turns/current/cancel`, {
    method: "POST",
  });
  assert.equal(response.status, 409);
  assert.equal((await response.json()).error.code, "no_running_turn");
  assert.equal(runtime.store.live(id), undefined, "a refused cancel does not activate the session");
});
