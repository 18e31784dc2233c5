// A real Agent (loop, Loader, staging) with a ScriptedModel and the time-context plugin.
// Agent, Loader and ScriptedModel are imported by path until `@chime/agent` re-exports them.
import assert from "node:assert/strict";
import type { ModelRequest } from "@chime/agent";
import { type MessageSource, type Session, SessionStore } from "@chime/session";
import { FakeClock, MemoryBackend } from "@chime/session/testing";
import { Agent } from "../agent/agent.ts";
import { Loader } from "../agent/loader.ts";
import { ScriptedModel, type ScriptedReply, type ScriptStep } from "../agent/scripted.ts";
import { hasTimeContextMarker, TIME_CONTEXT_MARKER } from "./marker.ts";
import { timeContextPlugin } from "./plugin.ts";

// Thursday 2026-01-15 20:00 UTC: already Friday in Asia/Tokyo (05:00).
const START = Date.UTC(2026, 0, 15, 20, 0);

interface World extends AsyncDisposable {
  readonly clock: FakeClock;
  readonly session: Session;
  readonly agent: Agent;
  readonly model: ScriptedModel;
}

async function world(
  script:
    | readonly ScriptStep[]
    | ((request: ModelRequest) => Promise<ScriptedReply> | ScriptedReply),
  timeZone?: string,
): Promise<World> {
  const clock = new FakeClock(START);
  const store = new SessionStore({ backend: new MemoryBackend(), clock });
  const session = await store.create(
    timeZone === undefined ? { cwd: "/" } : { cwd: "/", timeZone },
  );
  const model = new ScriptedModel(script);
  let n = 0;
  const agent = new Agent({ session, store, model, generateId: () => `id${++n}` });
  const loader = new Loader();
  await loader.load(timeContextPlugin());
  await loader.publish(agent);
  return {
    clock,
    session,
    agent,
    model,
    async [Symbol.asyncDispose]() {
      await agent[Symbol.asyncDispose]();
      await loader[Symbol.asyncDispose]();
      await store[Symbol.asyncDispose]();
      clock[Symbol.dispose]();
    },
  };
}

function web(clientTimeZone?: string): MessageSource {
  return clientTimeZone === undefined ? { kind: "web" } : { kind: "web", clientTimeZone };
}

function types(session: Session): string[] {
  return session.events().map((e) => e.type);
}

function markers(session: Session): unknown[] {
  return session.events().filter((e) => e.type === TIME_CONTEXT_MARKER).map((e) => e.data);
}

function lastContent(request: ModelRequest | undefined): string {
  const last = request?.messages.at(-1);
  assert.equal(last?.role, "user");
  return last.content;
}

Deno.test("the reading reaches the model as the last user content of the step", async () => {
  await using w = await world([{ text: "ok" }], "Asia/Tokyo");
  w.agent.submit({ text: "remind me tomorrow at 9", source: web("Asia/Tokyo") });
  await w.agent.whenIdle();
  const reading = lastContent(w.model.requests[0]);
  assert.ok(reading.startsWith("[time-context]\nNow (UTC): 2026-01-15T20:00:00.000Z\n"));
  assert.ok(reading.includes("Session time zone: Asia/Tokyo, local time Friday 2026-01-16 05:00"));
  assert.ok(!reading.includes("Client"));
  assert.deepEqual(w.model.requests[0]!.messages.map((m) => m.role), ["user", "user"]);
  assert.deepEqual(types(w.session), [
    "user-rpc",
    "turn/start",
    TIME_CONTEXT_MARKER,
    "step/start",
    "assistant/message",
    "turn/end",
  ]);
  assert.deepEqual(markers(w.session), [{ turnId: "id2" }]);
  assert.equal(hasTimeContextMarker(w.session.events(), "id2"), true);
});

Deno.test("the marker is recorded once per step that gets a reading, never replayed", async () => {
  await using w = await world([
    { toolCalls: [{ id: "c1", name: "missing_tool", arguments: "{}" }] },
    { text: "done" },
  ], "Europe/Berlin");
  w.agent.submit({ text: "go", source: web("Europe/Berlin") });
  await w.agent.whenIdle();
  // Step 1 continues after the tool result with no new input: no hook, no reading, no marker.
  assert.equal(w.session.events().filter((e) => e.type === "step/start").length, 2);
  assert.deepEqual(markers(w.session), [{ turnId: "id2" }]);
  assert.equal(
    w.model.requests[1]!.messages.some((m) => m.content.startsWith("[time-context]")),
    false,
  );
  w.agent.submit({ text: "again", source: web("Europe/Berlin") });
  w.model.push({ text: "ok" });
  await w.agent.whenIdle();
  assert.ok(lastContent(w.model.requests[2]).startsWith("[time-context]"));
  assert.equal(
    w.model.requests[2]!.messages.filter((m) => m.content.startsWith("[time-context]")).length,
    1,
  );
  assert.equal(markers(w.session).length, 2);
});

Deno.test("a steering message during the model call gets a fresh reading in the next step", async () => {
  const inCall = Promise.withResolvers<void>();
  const release = Promise.withResolvers<{ text: string }>();
  await using w = await world((request) => {
    if (w.model.requests.length === 1) {
      inCall.resolve();
      return release.promise;
    }
    return { text: `answer to ${request.messages.length}` };
  }, "Asia/Kolkata");
  w.agent.submit({ text: "first", source: web("Asia/Calcutta") });
  await inCall.promise;
  await w.clock.advance(90 * 60_000);
  w.agent.submit({ text: "actually from New York", source: web("America/New_York") });
  release.resolve({ text: "first answer" });
  await w.agent.whenIdle();
  const [first, second] = [lastContent(w.model.requests[0]), lastContent(w.model.requests[1])];
  // Asia/Calcutta and Asia/Kolkata are the same zone: no client line in step 0.
  assert.ok(first.includes("Session time zone: Asia/Kolkata, local time Friday 2026-01-16 01:30"));
  assert.ok(!first.includes("Client"));
  assert.ok(second.includes("Now (UTC): 2026-01-15T21:30:00.000Z"));
  assert.ok(second.includes("local time Friday 2026-01-16 03:00 (UTC+05:30)"));
  assert.ok(
    second.includes(
      "America/New_York (differs from the session time zone), local time Thursday 2026-01-15 16:30",
    ),
  );
  assert.ok(second.includes("pass an explicit time_zone"));
  assert.equal(w.session.events().filter((e) => e.type === "turn/start").length, 1);
  assert.deepEqual(markers(w.session), [{ turnId: "id2" }, { turnId: "id2" }]);
});

Deno.test("a follow-up-only step gets a reading with no client provenance", async () => {
  await using w = await world([{ text: "noted" }], "Europe/Berlin");
  w.agent.followup("[reminder] stretch");
  await w.agent.whenIdle();
  const reading = lastContent(w.model.requests[0]);
  assert.ok(
    reading.includes("Session time zone: Europe/Berlin, local time Thursday 2026-01-15 21:00"),
  );
  assert.ok(reading.includes("no client provenance"));
  assert.deepEqual(markers(w.session), [{ turnId: "id1" }]);
});

Deno.test("a legacy session without a zone gets an unavailable reading", async () => {
  await using w = await world([{ text: "ok" }]);
  w.agent.submit({ text: "hi", source: web("Europe/Paris") });
  await w.agent.whenIdle();
  const reading = lastContent(w.model.requests[0]);
  assert.ok(reading.includes("Session time zone: unavailable"));
  assert.ok(
    reading.includes("Client time zone of this request: Europe/Paris, local time Thursday"),
  );
});

Deno.test("nothing is recorded when the step is cancelled before step/start", async () => {
  await using w = await world([{ text: "never" }], "Europe/Berlin");
  const inHook = Promise.withResolvers<void>();
  // Runs after the time-context hook (registered later), so its marker is already staged.
  w.agent.addPreStep(async () => {
    inHook.resolve();
    await new Promise(() => {});
  });
  w.agent.submit({ text: "a", source: web("Europe/Berlin") });
  await inHook.promise;
  w.agent.cancel();
  await w.agent.whenIdle();
  assert.deepEqual(types(w.session), ["user-rpc", "turn/start", "turn/end"]);
  assert.equal(hasTimeContextMarker(w.session.events(), "id2"), false);
  assert.equal(w.model.requests.length, 0);
});

Deno.test("nothing is recorded when a later hook fails the step before step/start", async () => {
  await using w = await world([{ text: "never" }], "Europe/Berlin");
  w.agent.addPreStep(() => {
    throw new Error("hook failed");
  });
  w.agent.submit({ text: "a", source: web("Europe/Berlin") });
  await w.agent.whenIdle();
  assert.deepEqual(types(w.session), ["user-rpc", "turn/start", "turn/end"]);
  assert.deepEqual(markers(w.session), []);
});
