import assert from "node:assert/strict";
import {
  Agent,
  type AgentScope,
  Loader,
  type ModelRequest,
  ScriptedModel,
  type ScriptedReply,
  type ToolDefinition,
} from "@chime/agent";
import { SessionStore } from "@chime/session";
import { FakeClock, MemoryBackend } from "@chime/session/testing";
import { ListLogger, settle, T0 } from "./_harness_test.ts";
import { scheduleActions } from "./actions.ts";
import { SCHEDULE_PLUGIN_NAME, schedulePlugin } from "./plugin.ts";

const TOOLS = [
  "schedule_create",
  "schedule_list",
  "schedule_delete",
  "schedule_update",
  "schedule_snooze",
  "schedule_pause",
  "schedule_resume",
  "schedule_skip",
];

function toolNames(request: ModelRequest | undefined): string[] {
  return (request?.tools ?? []).map((t) => t.name);
}

Deno.test("schedulePlugin() installs the tools and an owner per root agent scope", async () => {
  using clock = new FakeClock(T0);
  await using store = new SessionStore({ backend: new MemoryBackend(), clock });
  const session = await store.create({ cwd: "/w", timeZone: "Europe/Berlin" });
  let calls = 0;
  const model = new ScriptedModel((request): ScriptedReply => {
    calls++;
    if (calls === 1) {
      const args = JSON.stringify({ prompt: "stretch", after_seconds: 60 });
      return { toolCalls: [{ id: "c1", name: "schedule_create", arguments: args }] };
    }
    return { text: request.messages.at(-1)?.role === "tool" ? "scheduled" : "reminded" };
  });
  await using agent = new Agent({ session, store, model, clock });
  await using loader = new Loader();
  const logger = new ListLogger();
  const handle = await loader.load(schedulePlugin({ clock, logger }));
  assert.equal(handle.name, SCHEDULE_PLUGIN_NAME);
  await loader.publish(agent);
  agent.submit({ text: "remind me in a minute", source: { kind: "web" } });
  await settle(clock);
  assert.deepEqual(toolNames(model.requests[0]), TOOLS);
  const result = session.events().find((e) => e.type === "tool/result")?.data as {
    result: { ok: boolean; id: string; deliveryMode: string };
  };
  assert.equal(result.result.ok, true);
  assert.match(result.result.id, /^sch_/);
  await clock.advance(60_000);
  await settle(clock);
  assert.equal(session.events().filter((e) => e.type === "followup").length, 1);

  await handle[Symbol.asyncDispose]();
  assert.equal(clock.pendingTimers, 0);
  agent.submit({ text: "anything left?", source: { kind: "web" } });
  await settle(clock);
  assert.deepEqual(toolNames(model.requests.at(-1)), [], "disposing revokes the tools");
  assert.equal(logger.entries.length, 0);
});

Deno.test("schedulePlugin() skips child agents and rolls back a failed registration", async () => {
  const owned: AsyncDisposable[] = [];
  const revoked: string[] = [];
  const scope = (depth: number, failAt: number): AgentScope => {
    let n = 0;
    return {
      agent: { session: { header: { delegationDepth: depth } } } as never,
      signal: new AbortController().signal,
      registerTool(tool: ToolDefinition): Disposable {
        if (++n === failAt) throw new TypeError("name taken");
        return { [Symbol.dispose]: () => revoked.push(tool.name) };
      },
      addPreStep: () => ({ [Symbol.dispose]: () => {} }),
      own: (owner) => void owned.push(owner),
    };
  };
  const plugin = schedulePlugin();
  await plugin.setup(scope(1, 0));
  assert.deepEqual(owned, []);
  assert.throws(() => plugin.setup(scope(0, 3)), TypeError);
  assert.deepEqual(revoked, ["schedule_list", "schedule_create"]);
  assert.deepEqual(owned, []);
});

Deno.test("schedulePlugin() publishes page actions; the next turn's model call hears of them", async () => {
  using clock = new FakeClock(T0);
  await using store = new SessionStore({ backend: new MemoryBackend(), clock });
  const session = await store.create({ cwd: "/w", timeZone: "UTC" });
  let calls = 0;
  const model = new ScriptedModel((): ScriptedReply => {
    calls++;
    if (calls === 1) {
      const args = JSON.stringify({
        prompt: "blink",
        repeat: { rrule: "FREQ=MINUTELY", time_zone: "UTC" },
      });
      return { toolCalls: [{ id: "c1", name: "schedule_create", arguments: args }] };
    }
    return { text: "ok" };
  });
  await using agent = new Agent({ session, store, model, clock });
  await using loader = new Loader();
  const handle = await loader.load(
    schedulePlugin({ clock, maxRemindersPerHour: 5, maxSegmentMs: 1000 }),
  );
  await loader.publish(agent);
  agent.submit({ text: "every minute remind me to blink", source: { kind: "web" } });
  await settle(clock);
  const id = (session.events().find((e) => e.type === "tool/result")?.data as {
    result: { id: string };
  }).result.id;
  const actions = scheduleActions(agent)!;
  const stopped = await actions.stop(id);
  assert.equal(stopped.ok, true);
  agent.submit({ text: "thanks", source: { kind: "web" } });
  await settle(clock);
  const last = model.requests.at(-1)!.messages.at(-1)!;
  assert.equal(last.role, "user");
  assert.equal(last.content, `[schedule-activity]\nThe user stopped repeating reminder ${id}.`);
  await handle[Symbol.asyncDispose]();
  assert.equal(scheduleActions(agent), undefined, "unpublished with the scope");
});

/** A store, a session holding one pending reminder due an hour after T0, and its agent. */
async function oneReminder() {
  const clock = new FakeClock(T0);
  const store = new SessionStore({ backend: new MemoryBackend(), clock });
  const session = await store.create({ cwd: "/w", timeZone: "UTC" });
  const record = {
    id: "sch_AbCd1234",
    kind: "at",
    prompt: "tea",
    scheduledAt: "2026-01-15T09:00:00.000Z",
  };
  session.append("schedule/change", { version: 2, op: "create", record });
  const agent = new Agent({
    session,
    store,
    model: new ScriptedModel(() => ({ text: "ok" })),
    clock,
  });
  return {
    clock,
    session,
    agent,
    async [Symbol.asyncDispose]() {
      await agent[Symbol.asyncDispose]();
      await store[Symbol.asyncDispose]();
      clock[Symbol.dispose]();
    },
  };
}

Deno.test("schedulePlugin() builds each agent's live state with its reader; keepsLive reads it", async () => {
  await using fixture = await oneReminder();
  const { clock, session, agent } = fixture;
  const gate = Promise.withResolvers<void>();
  const reads: { from: number; to: number }[] = [];
  const plugin = schedulePlugin({
    clock,
    readChanges: async (s, range) => {
      reads.push(range);
      await gate.promise;
      return s.events(range.from, range.to).filter((e) => e.type === "schedule/change");
    },
  });
  assert.equal(plugin.keepsLive!(agent), false, "an agent the plugin never set up");
  await using loader = new Loader();
  await using _handle = await loader.load(plugin);
  const published = loader.publish(agent);
  await settle(clock);
  assert.equal(plugin.keepsLive!(agent), true, "still loading: keep the session live");
  assert.deepEqual(reads, [{ from: 0, to: 1 }]);
  gate.resolve();
  await published;
  assert.equal(plugin.keepsLive!(agent), true, "one active reminder");
  await clock.advance(3_600_000);
  await settle(clock);
  assert.equal(session.events().filter((e) => e.type === "followup").length, 1, "delivered");
  assert.equal(plugin.keepsLive!(agent), false, "nothing active");
});

// A synchronous reader (the store's own scan) builds each agent's live schedule state inside
// setup, so `keepsLive` is exact the moment the plugin is published and the owner starts at once
// (docs/long-sessions.md "Incremental schedule state").
Deno.test("schedulePlugin() with a synchronous reader is loaded when setup settles", async () => {
  await using fixture = await oneReminder();
  const { clock, session, agent } = fixture;
  const reads: { from: number; to: number }[] = [];
  const plugin = schedulePlugin({
    clock,
    readChanges: (s, range) => {
      reads.push(range);
      return s.events(range.from, range.to).filter((e) => e.type === "schedule/change");
    },
  });
  await using loader = new Loader();
  await using _handle = await loader.load(plugin);
  await loader.publish(agent);
  assert.deepEqual(reads, [{ from: 0, to: 1 }], "one synchronous read at setup");
  assert.equal(plugin.keepsLive!(agent), true, "one active reminder, known at once");
  await clock.advance(3_600_000);
  await settle(clock);
  assert.equal(session.events().filter((e) => e.type === "followup").length, 1, "delivered");
  assert.equal(plugin.keepsLive!(agent), false, "nothing active");
});
