/**
 * A 1,000,000-event session sends a bounded request (docs/long-sessions.md "Model context
 * within a budget"): a real OpenAI-compatible adapter talks real HTTP and the real SSE wire
 * format to a local fake endpoint, which records each request body. The session is the bounded
 * stand-in: 1,000 events in memory, everything older generated on demand through the reader, so
 * the test never holds the million events.
 *
 * @module
 */
import assert from "node:assert/strict";
import {
  Agent,
  estimateTextTokens,
  estimateToolTokens,
  Loader,
  MESSAGE_OVERHEAD_TOKENS,
  OpenAICompatibleAdapter,
} from "@chime/agent";
import { reminderFrame } from "@chime/schedule";
import { SessionStore } from "@chime/session";
import { FakeClock, MemoryBackend } from "@chime/session/testing";
import { TIME_CONTEXT_HEADING, timeContextPlugin } from "@chime/timecontext";
import { BoundedSession } from "../../agent/testing/bounded_session.ts";
import { FakeOpenAIServer, textEvents, toolCallEvents } from "../../agent/testing/fake_openai.ts";
import { longLogEvent, question, TURN_EVENTS } from "../../agent/testing/long_log.ts";

const EVENTS = 1_000_000;
const BUDGET = 8_000;
const SYSTEM = "You are chime, a reminder assistant.";

interface WireMessage {
  readonly role: string;
  readonly content: string | null;
  readonly tool_call_id?: string;
  readonly tool_calls?: readonly {
    readonly id: string;
    readonly function: { readonly name: string; readonly arguments: string };
  }[];
}

/** The documented estimate (README "Configuration"), recomputed from the wire body. */
function wireTokens(messages: readonly WireMessage[]): number {
  let tokens = 0;
  for (const m of messages) {
    tokens += MESSAGE_OVERHEAD_TOKENS + estimateTextTokens(m.content ?? "");
    if (m.tool_call_id !== undefined) tokens += estimateTextTokens(m.tool_call_id);
    for (const c of m.tool_calls ?? []) {
      tokens += estimateTextTokens(c.id) + estimateTextTokens(c.function.name) +
        estimateTextTokens(c.function.arguments);
    }
  }
  return tokens;
}

Deno.test("a 1,000,000-event session sends the model a request bounded by model.contextTokens", async () => {
  await using server = new FakeOpenAIServer();
  server.reply(
    {
      kind: "stream",
      events: toolCallEvents([{ id: "call_now", name: "clock", arguments: "{}" }]),
    },
    { kind: "stream", events: textEvents("Time to stretch.") },
  );
  const clock = new FakeClock(Date.UTC(2026, 0, 15, 8));
  await using store = new SessionStore({ backend: new MemoryBackend(), clock });
  const session = new BoundedSession({
    now: () => clock.now(),
    prefix: EVENTS,
    generate: longLogEvent,
    liveTail: 1_000,
  });
  const model = new OpenAICompatibleAdapter({
    baseURL: server.baseURL,
    model: "fake-model",
    apiKey: "sk-test",
    contextTokens: BUDGET,
    clock,
  });
  await using loader = new Loader();
  await using _plugin = await loader.load(timeContextPlugin());
  await using agent = new Agent({
    session,
    store,
    model,
    clock,
    systemPrompt: SYSTEM,
    readEvents: session.read,
  });
  await loader.publish(agent);
  const clockTool = {
    name: "clock",
    description: "Tells the time.",
    parameters: { type: "object" },
    execute: () => Promise.resolve({ now: new Date(clock.now()).toISOString() }),
  };
  agent.registerTool(clockTool);
  const frame = reminderFrame(
    {
      id: "sch_AbCd1234" as never,
      kind: "at",
      prompt: "stretch",
      scheduledAt: "2026-01-15T08:00:00.000Z",
    },
    clock.now(),
  );
  // A reminder frame and a prompt admitted into the same step (parked behind maintenance).
  await agent.runMaintenance(() => {
    agent.followup(frame);
    agent.submit({
      text: "and what is next?",
      source: { kind: "web", clientTimeZone: "Europe/Berlin" },
    });
    return Promise.resolve();
  });
  await agent.whenIdle();

  assert.equal(server.requests.length, 2);
  const tools = estimateToolTokens([clockTool]);
  for (const [i, request] of server.requests.entries()) {
    const messages = request.body.messages as WireMessage[];
    // Bounded: within the budget by the documented estimate, and small on the wire.
    assert.ok(
      wireTokens(messages) + tools <= BUDGET,
      `request ${i}: ${wireTokens(messages)} tokens`,
    );
    assert.ok(JSON.stringify(request.body).length < 12 * BUDGET, `request ${i} bytes`);
    // The system text first, then the one note for everything dropped.
    assert.deepEqual(messages[0], { role: "system", content: SYSTEM });
    const firstTurn = Number(/^question (\d+):/.exec(messages[2]!.content!)![1]);
    assert.deepEqual(messages[1], {
      role: "system",
      content: `[${firstTurn * TURN_EVENTS} earlier messages omitted]`,
    });
    assert.ok(firstTurn > 124_000 && firstTurn < 124_999, `first kept turn ${firstTurn}`);
    // Every kept generated turn is whole, in order, up to the last one.
    const kept = EVENTS / TURN_EVENTS - firstTurn;
    const generated = messages.slice(2, 2 + kept * 4);
    assert.deepEqual(
      generated.filter((m) => m.role === "user").map((m) => m.content),
      Array.from({ length: kept }, (_, k) => question(firstTurn + k)),
    );
    assert.deepEqual(generated.map((m) => m.role).slice(0, 4), [
      "user",
      "assistant",
      "tool",
      "assistant",
    ]);
    // The current turn: the reminder frame, then the prompt.
    const current = messages.slice(2 + kept * 4);
    assert.deepEqual(current.slice(0, 2), [
      { role: "user", content: frame },
      { role: "user", content: "and what is next?" },
    ]);
    if (i === 0) {
      // The step's time-context reading comes last.
      assert.equal(current.length, 3);
      assert.ok(current[2]!.content!.startsWith(TIME_CONTEXT_HEADING), current[2]!.content!);
    } else {
      // The continuation keeps the call with its result.
      assert.deepEqual(current.slice(2).map((m) => m.role), ["assistant", "tool"]);
      assert.equal(current[2]!.tool_calls?.[0]?.id, "call_now");
      assert.equal(current[3]!.tool_call_id, "call_now");
    }
  }
  // O(budget) reads: a few thousand events for two requests, not the log.
  assert.ok(session.served < 20_000, `${session.served} events read`);
  assert.equal(session.refused, 0, "never asked the session below its tail");
  assert.equal(session.event(session.length - 1)?.type, "turn/end");
  clock[Symbol.dispose]();
});
