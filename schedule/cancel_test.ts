/**
 * A turn that ends (cancel, dispose) while a schedule tool waits on its preflight records
 * nothing more, and an owner disposed during its start preflight stays quiet.
 */
import assert from "node:assert/strict";
import { Agent, Loader, type ModelToolCall, ScriptedModel } from "@chime/agent";
import { SessionStore } from "@chime/session";
import { FakeClock, flushMicrotasks, MemoryBackend } from "@chime/session/testing";
import { timeContextPlugin } from "@chime/timecontext";
import { createChange } from "./decoder.ts";
import { schedulePlugin } from "./plugin.ts";
import type { ScheduleId } from "./protocol.ts";

const T0 = Date.UTC(2026, 0, 15, 8, 0, 0);

function call(name: string, args: unknown): ModelToolCall {
  return { id: `call_${name}`, name, arguments: JSON.stringify(args) };
}

async function world(first: ModelToolCall) {
  const clock = new FakeClock(T0);
  const backend = new MemoryBackend();
  const store = new SessionStore({ backend, clock });
  const session = await store.create({ cwd: "/w", timeZone: "Europe/Berlin" });
  const warnings: string[] = [];
  const logger = { warn: (m: string) => warnings.push(m), error: (m: string) => warnings.push(m) };
  const model = new ScriptedModel([{ toolCalls: [first] }, { text: "done" }]);
  const agent = new Agent({ session, store, model, clock });
  const loader = new Loader();
  await loader.load(timeContextPlugin());
  await loader.load(schedulePlugin({ clock, logger }));
  return {
    clock,
    backend,
    store,
    session,
    agent,
    loader,
    warnings,
    types: () => session.events().map((e) => e.type),
    async [Symbol.asyncDispose]() {
      await agent[Symbol.asyncDispose]();
      await loader[Symbol.asyncDispose]();
      await store[Symbol.asyncDispose]();
      clock[Symbol.dispose]();
    },
  };
}

async function heldToolCall(w: Awaited<ReturnType<typeof world>>): Promise<void> {
  await w.loader.publish(w.agent);
  await w.store.flush(w.session);
  w.backend.hold(); // the tool's preflight flush cannot be acknowledged yet
  w.agent.submit({ text: "go", source: { kind: "web", clientTimeZone: "Europe/Berlin" } });
  await flushMicrotasks(100);
  assert.ok(w.types().includes("tool/call"), w.types().join());
}

Deno.test("schedule_create records nothing after its turn was cancelled during the preflight", async () => {
  await using w = await world(call("schedule_create", { prompt: "x", after_seconds: 60 }));
  await heldToolCall(w);
  w.agent.cancel();
  const end = w.session.length;
  w.backend.release();
  await flushMicrotasks(200);
  await w.agent.whenIdle();
  assert.equal(w.session.event(end - 1)?.type, "turn/end");
  assert.deepEqual(w.session.events(end).map((e) => e.type), []);
});

Deno.test("schedule_delete records nothing after its turn was cancelled during the preflight", async () => {
  const id = "sch_abcdefgh" as ScheduleId;
  await using w = await world(call("schedule_delete", { id }));
  w.session.append(
    "schedule/change",
    createChange({
      id,
      kind: "after",
      prompt: "x",
      afterSeconds: 3600,
      scheduledAt: new Date(T0 + 3_600_000).toISOString(),
    }),
  );
  await heldToolCall(w);
  w.agent.cancel();
  const end = w.session.length;
  w.backend.release();
  await flushMicrotasks(200);
  await w.agent.whenIdle();
  assert.deepEqual(w.session.events(end).map((e) => e.type), []);
});

Deno.test("schedule_create records nothing once the agent's dispose has settled", async () => {
  await using w = await world(call("schedule_create", { prompt: "x", after_seconds: 60 }));
  await heldToolCall(w);
  const disposing = w.agent[Symbol.asyncDispose]();
  w.backend.release();
  await disposing;
  const length = w.session.length;
  await flushMicrotasks(200);
  assert.equal(w.session.length, length);
  assert.equal(w.types().includes("schedule/change"), false);
});

Deno.test("an owner disposed during its start preflight neither warns nor keeps listening", async () => {
  await using w = await world(call("schedule_list", {}));
  await w.store.flush(w.session);
  w.backend.hold();
  // The eager write and the start preflight's retry both fail.
  w.backend.failNext({ op: "append", when: "before" });
  w.backend.failNext({ op: "append", when: "before" });
  w.session.append("note", {}); // something the start preflight must write
  await w.loader.publish(w.agent);
  const disposing = w.agent[Symbol.asyncDispose]();
  w.backend.release();
  await disposing;
  await flushMicrotasks(200);
  assert.deepEqual(w.warnings, []);
});
