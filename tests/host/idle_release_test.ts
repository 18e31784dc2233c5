/**
 * Idle release (README "How it behaves on failure"): a live session with no running turn, no
 * open stream and no pending reminder is made cold after the idle time; a session with a pending
 * reminder stays live (docs/design.md#decision: reminders run only while their session is live).
 * Fake clock, real schedule plugin.
 *
 * @module
 */
import assert from "node:assert/strict";
import { ScriptedModel, type ScriptedReply } from "@chime/agent";
import { schedulePlugin } from "@chime/schedule";
import { FakeClock, MemoryBackend } from "@chime/session/testing";
import { formatInstant } from "@chime/schedule";
import { RECORD, settle, testRuntime } from "./_helpers.ts";

const MINUTE = 60_000;
const START = Date.parse("2030-01-01T00:00:00.000Z");

Deno.test("an idle session is released after idleReleaseMs; one with a pending reminder or a stream stays live", async () => {
  using clock = new FakeClock(START);
  const backend = new MemoryBackend();
  const gate = Promise.withResolvers<ScriptedReply>();
  const model = new ScriptedModel((request) =>
    request.messages.some((m) => m.role === "user" && m.content === "slow")
      ? gate.promise
      : { text: "ok" }
  );
  await using runtime = await testRuntime({
    backend,
    clock,
    idleReleaseMs: 30 * MINUTE,
    plugins: [schedulePlugin({ clock })],
    model,
  });
  const idle = (await runtime.create({ timeZone: "UTC" })).session;
  const pending = (await runtime.create({ timeZone: "UTC" })).session;
  pending.append("schedule/change", {
    version: 1,
    op: "create",
    record: { ...RECORD, scheduledAt: formatInstant(START + 120 * MINUTE) },
  });
  const watched = (await runtime.create({ timeZone: "UTC" })).session;
  const client = runtime.feeds.attach(watched);
  const busy = (await runtime.create({ timeZone: "UTC" })).session;
  (await runtime.agentFor(busy)).submit({
    text: "slow",
    source: { kind: "web", clientTimeZone: "UTC" },
  });

  await clock.advance(29 * MINUTE);
  assert.ok(runtime.store.live(idle.id) !== undefined, "not idle long enough yet");
  await clock.advance(2 * MINUTE);
  assert.ok(await settle(() => runtime.store.live(idle.id) === undefined), "idle one released");
  assert.ok(runtime.store.live(pending.id) !== undefined, "a pending reminder keeps it live");
  assert.ok(runtime.store.live(watched.id) !== undefined, "an open stream keeps it live");
  assert.ok(runtime.store.live(busy.id) !== undefined, "a running turn keeps it live");
  assert.equal((await backend.cursor(idle.id))?.length, idle.length, "released, not lost");

  // Once the stream closes and the idle time passes, it goes too.
  client.close();
  gate.resolve({ text: "done" });
  await clock.advance(31 * MINUTE);
  assert.ok(await settle(() => runtime.store.live(watched.id) === undefined));
  assert.ok(await settle(() => runtime.store.live(busy.id) === undefined));
  assert.ok(runtime.store.live(pending.id) !== undefined, "still waiting for its reminder");

  // A released session resumes as usual.
  const again = await runtime.resume(idle.id);
  assert.notEqual(again, idle);
  assert.equal(again.length, idle.length);
});

Deno.test("idle release is off by default (HostRuntime.open without idleReleaseMs)", async () => {
  using clock = new FakeClock(START);
  await using runtime = await testRuntime({ clock });
  const { session } = await runtime.create({ timeZone: "UTC" });
  await clock.advance(24 * 60 * MINUTE);
  assert.equal(runtime.store.live(session.id), session);
  assert.equal(clock.pendingTimers, 0, "no sweep timer at all");
});
