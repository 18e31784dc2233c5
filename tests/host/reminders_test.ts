/**
 * `GET /api/sessions/:id/reminders`: the schedule fold over the durable log only.
 *
 * @module
 */
import assert from "node:assert/strict";
import { createApp } from "@chime/host";
import { MemoryBackend } from "@chime/session/testing";
import { RECORD, SCHEDULE_ID, testRuntime } from "./_helpers.ts";

const OTHER = "sch_ZyXwVuTs9876";
const PAST = "2020-01-01T00:00:00.000Z";

async function reminders(app: ReturnType<typeof createApp>, id: string) {
  const response = await app.request(`/api/sessions/${id}/reminders`);
  assert.equal(response.status, 200);
  return await response.json() as { reminders: Record<string, unknown>[]; deliveryMode: string };
}

Deno.test("GET /reminders folds only the flushed prefix of a live session", async () => {
  await using runtime = await testRuntime();
  const app = createApp(runtime);
  const { session } = await runtime.create({ timeZone: "Europe/Paris" });
  session.append("schedule/change", { version: 1, op: "create", record: RECORD });
  assert.deepEqual(await reminders(app, session.id), {
    reminders: [],
    deliveryMode: "session-local",
  }, "nothing durable yet");
  await runtime.store.flush(session);
  session.append("schedule/change", {
    version: 1,
    op: "create",
    record: { id: OTHER, kind: "at", prompt: "call mum", scheduledAt: PAST },
  });
  assert.deepEqual((await reminders(app, session.id)).reminders, [{
    id: SCHEDULE_ID,
    kind: "after",
    prompt: "stretch",
    scheduledAt: RECORD.scheduledAt,
    status: "scheduled",
    deliveryMode: "session-local",
  }]);
  await runtime.store.flush(session);
  const both = (await reminders(app, session.id)).reminders;
  assert.deepEqual(both.map((r) => [r.id, r.status]), [[OTHER, "overdue"], [
    SCHEDULE_ID,
    "scheduled",
  ]]);
  session.append("schedule/change", { version: 1, op: "dispatch", id: SCHEDULE_ID });
  await runtime.store.flush(session);
  assert.deepEqual((await reminders(app, session.id)).reminders.map((r) => r.id), [OTHER]);
});

Deno.test("GET /reminders reads a cold session from storage without activating it", async () => {
  const backend = new MemoryBackend();
  await using runtime = await testRuntime({ backend });
  const app = createApp(runtime);
  const { session } = await runtime.create({ timeZone: "Europe/Paris" });
  session.append("schedule/change", { version: 1, op: "create", record: RECORD });
  await runtime.store.close(session);
  assert.equal(runtime.store.live(session.id), undefined);
  assert.deepEqual((await reminders(app, session.id)).reminders.map((r) => r.id), [SCHEDULE_ID]);
  assert.equal(runtime.store.live(session.id), undefined, "still cold");
});

Deno.test("GET /reminders never lists a parent's reminder in a fork", async () => {
  await using runtime = await testRuntime();
  const app = createApp(runtime);
  const { session } = await runtime.create({ timeZone: "Europe/Paris" });
  session.append("schedule/change", { version: 1, op: "create", record: RECORD });
  await runtime.store.flush(session);
  const child = await runtime.fork(session.id);
  await runtime.store.flush(child);
  assert.deepEqual((await reminders(app, child.id)).reminders, []);
  assert.equal((await reminders(app, session.id)).reminders.length, 1);
});

Deno.test("GET /reminders answers 404 session_not_found for an unknown id", async () => {
  await using runtime = await testRuntime();
  const app = createApp(runtime);
  const response = await app.request("/api/sessions/nope/reminders");
  assert.equal(response.status, 404);
  assert.equal((await response.json()).error.code, "session_not_found");
});
