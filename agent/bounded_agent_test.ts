/**
 * The agent on a bounded live session (docs/long-sessions.md): it never asks the session for
 * events below `tailStart`; older ones come through the injected reader.
 */
import assert from "node:assert/strict";
import { SessionStore, type UserRpcData } from "@chime/session";
import { FakeClock, MemoryBackend } from "@chime/session/testing";
import { Agent } from "./agent.ts";
import { omissionNote } from "./_window.ts";
import { turnMessages } from "./provenance.ts";
import { ScriptedModel, type ScriptedReply } from "./scripted.ts";
import { BoundedSession } from "./testing/bounded_session.ts";
import { longLogEvent, question, TURN_EVENTS } from "./testing/long_log.ts";
import { AgentError } from "./types.ts";

interface Setup extends AsyncDisposable {
  readonly session: BoundedSession;
  readonly agent: Agent;
  readonly model: ScriptedModel;
  /** Replies of the next model calls; then `ok`. */
  readonly replies: ScriptedReply[];
  readonly warnings: unknown[][];
}

function setup(
  options: { turns?: number; contextTokens?: number } = {},
): Setup {
  const clock = new FakeClock(Date.UTC(2026, 0, 15, 8));
  const store = new SessionStore({ backend: new MemoryBackend(), clock });
  const turns = options.turns ?? 2_000;
  const session = new BoundedSession({
    now: () => clock.now(),
    prefix: turns * TURN_EVENTS,
    generate: (seq) => {
      const event = longLogEvent(seq);
      // The prompts carry a zone, so an edit's provenance can be checked.
      if (event.type !== "user-rpc") return event;
      const data = event.data as UserRpcData;
      return {
        type: "user-rpc",
        data: { ...data, source: { kind: "web", clientTimeZone: "Asia/Tokyo" } },
      };
    },
  }); // deno-fmt-ignore
  const replies: ScriptedReply[] = [];
  const model = new ScriptedModel(() => replies.shift() ?? { text: "ok" });
  const warnings: unknown[][] = [];
  let n = 0;
  const agent = new Agent({
    session,
    store,
    model,
    clock,
    readEvents: session.read,
    contextTokens: options.contextTokens ?? 2_000,
    logger: { warn: (...args) => void warnings.push(args) },
    generateId: () => `id${++n}`,
  });
  return {
    session,
    agent,
    model,
    replies,
    warnings,
    async [Symbol.asyncDispose]() {
      await agent[Symbol.asyncDispose]();
      await store[Symbol.asyncDispose]();
      clock[Symbol.dispose]();
    },
  };
}

Deno.test("a turn on a bounded session sends a window read from the end, with the note", async () => {
  await using t = setup();
  t.agent.submit({ text: "what now?", source: { kind: "web" } });
  await t.agent.whenIdle();
  const messages = t.model.requests[0]!.messages;
  assert.equal(messages[0]!.role, "system");
  const firstTurn = Number(/^question (\d+):/.exec(messages[1]!.content)![1]);
  assert.deepEqual(messages[0], omissionNote(firstTurn * TURN_EVENTS));
  assert.equal(messages.at(-1)!.content, "what now?");
  assert.equal(t.session.refused, 0, "never asked the session below its tail");
  assert.ok(t.session.served < 2_000, `${t.session.served} events read`);
  assert.equal(t.warnings.length, 0);
});

Deno.test("a current turn over the budget is sent whole and logged", async () => {
  await using t = setup();
  t.agent.submit({ text: "y".repeat(9_000), source: { kind: "web" } });
  await t.agent.whenIdle();
  const messages = t.model.requests[0]!.messages;
  assert.equal(messages.at(-1)!.content.length, 9_000);
  assert.equal(messages[0]!.content, `[${2_000 * TURN_EVENTS} earlier messages omitted]`);
  assert.equal(t.warnings.length, 1);
  assert.match(String(t.warnings[0]![0]), /over its budget/);
  assert.deepEqual(
    Object.keys(t.warnings[0]![1] as object),
    ["session", "turnId", "estimatedTokens", "contextTokens"],
  );
});

Deno.test("retry and edit of a message older than the tail read it through the reader", async () => {
  await using t = setup();
  const seen: string[][] = [];
  t.agent.registerTool({
    name: "who",
    description: "Names the turn's messages.",
    parameters: { type: "object" },
    execute: (_args, ctx) => {
      seen.push(turnMessages(ctx.agent.session, ctx.turnId).map((m) => m.data.text));
      return Promise.resolve({ ok: true });
    },
  });
  t.replies.push(
    { toolCalls: [{ id: "w1", name: "who", arguments: "{}" }] },
    { text: "done" },
  );
  await t.agent.retry("m5");
  await t.agent.whenIdle();
  assert.deepEqual(seen, [[question(5)]], "turnMessages() of the running turn finds it");
  assert.equal(t.model.requests[0]!.messages.at(-1)!.content, question(5));
  const edit = await t.agent.edit("m7", "at 10 instead");
  assert.deepEqual(edit.data.source, { kind: "web", clientTimeZone: "Asia/Tokyo" });
  await t.agent.whenIdle();
  const last = t.model.requests.at(-1)!.messages.at(-1)!.content;
  assert.match(last, /replaces the user's earlier message "question 7/);
  assert.match(last, /omitted \(older than this conversation\)/);
  await assert.rejects(
    () => t.agent.retry("nope"),
    (e) => e instanceof AgentError && e.code === "message_not_found",
  );
  assert.equal(t.session.refused, 0);
});

Deno.test("a turn a stopped process left open is closed from the tail on start", async () => {
  const clock = new FakeClock(0);
  await using store = new SessionStore({ backend: new MemoryBackend(), clock });
  const prefix = 500 * TURN_EVENTS - 1; // the last turn has no turn/end
  const session = new BoundedSession({ now: () => 0, prefix, generate: longLogEvent });
  await using _agent = new Agent({
    session,
    store,
    model: undefined,
    clock,
    readEvents: session.read,
  });
  assert.deepEqual(session.event(prefix)?.data, {
    turnId: "t499",
    outcome: "error",
    error: "interrupted: Cannot finish the turn: the process stopped during it",
  });
  assert.equal(session.served, 0, "nothing older than the tail was read");
  clock[Symbol.dispose]();
});
