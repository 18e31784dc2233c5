// A synchronous reader (the store's own scan) builds each agent's live schedule state inside
// setup, so `keepsLive` is exact the moment the plugin is published and the owner starts at once
// (docs/long-sessions.md "Incremental schedule state").
import assert from "node:assert/strict";
import { Agent, Loader, ScriptedModel } from "@chime/agent";
import { SessionStore } from "@chime/session";
import { FakeClock, MemoryBackend } from "@chime/session/testing";
import { settle, T0 } from "./_harness_test.ts";
import { schedulePlugin } from "./plugin.ts";

Deno.test("schedulePlugin() with a synchronous reader is loaded when setup settles", async () => {
  using clock = new FakeClock(T0);
  await using store = new SessionStore({ backend: new MemoryBackend(), clock });
  const session = await store.create({ cwd: "/w", timeZone: "UTC" });
  const record = {
    id: "sch_AbCd1234",
    kind: "at",
    prompt: "tea",
    scheduledAt: "2026-01-15T09:00:00.000Z",
  };
  session.append("schedule/change", { version: 2, op: "create", record });
  await using agent = new Agent({
    session,
    store,
    model: new ScriptedModel(() => ({ text: "ok" })),
    clock,
  });
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
