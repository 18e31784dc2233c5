/**
 * A reminder whose `schedule/change` was in a refused write (README.md "How it behaves on failure") is withdrawn with
 * it: the session turns cold without storing it, the schedule owner goes with the live object,
 * so no timer stays armed for a reminder that was never stored, nothing fires when it would have
 * been due, and the resumed session's state (read back from the log) does not hold it.
 * Fake clock, real schedule plugin.
 *
 * @module
 */
import assert from "node:assert/strict";
import { createApp } from "@chime/host";
import { formatInstant, schedulePlugin } from "@chime/schedule";
import { FakeClock, flushMicrotasks, MemoryBackend } from "@chime/session/testing";
import { RECORD, settle, testRuntime } from "./_helpers.ts";

const MINUTE = 60_000;
const START = Date.parse("2030-01-01T00:00:00.000Z");

Deno.test("a reminder in a refused write leaves nothing armed: it never fires and is not in the resumed state", async () => {
  using clock = new FakeClock(START);
  const backend = new MemoryBackend();
  await using runtime = await testRuntime({ backend, clock, plugins: [schedulePlugin({ clock })] });
  const { session } = await runtime.create({ timeZone: "UTC" });
  await runtime.agentFor(session); // the schedule owner runs
  assert.equal(await runtime.store.flush(session), true);
  await flushMicrotasks();
  const idleTimers = clock.pendingTimers;

  backend.failNext({ op: "append", when: "before" });
  session.append("schedule/change", {
    version: 1,
    op: "create",
    record: { ...RECORD, scheduledAt: formatInstant(START + 10 * MINUTE) },
  });
  await assert.rejects(runtime.store.flush(session));
  assert.ok(await settle(() => runtime.store.live(session.id) === undefined), "made cold");
  assert.ok(await settle(() => clock.pendingTimers <= idleTimers), "no timer left behind");

  await clock.advance(20 * MINUTE);
  await flushMicrotasks();
  assert.equal(runtime.store.live(session.id), undefined, "nothing woke the session");
  const stored = await backend.load(session.id);
  assert.deepEqual(stored?.events.filter((e) => e.type.startsWith("schedule/")), []);
  const app = createApp(runtime);
  const listed = await (await app.request(`/api/sessions/${session.id}/reminders`)).json();
  assert.deepEqual(listed.reminders, [], "the resumed state does not hold it");
});
