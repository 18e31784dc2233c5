/**
 * A reminder action with a malformed, unknown or ended id is refused before anything activates
 * the cold session it names: its overdue reminder does not fire, no turn runs, nothing is
 * appended (docs/errors.md "HTTP codes"; the refusal changes nothing durable).
 *
 * @module
 */
import assert from "node:assert/strict";
import { createApp } from "@chime/host";
import { schedulePlugin } from "@chime/schedule";
import { ScriptedModel } from "@chime/agent";
import { MemoryBackend } from "@chime/session/testing";
import { postJson, RECORD, SCHEDULE_ID, SERIES, SERIES_ID, testRuntime } from "./_helpers.ts";

const ENDED = "sch_Ended1234567";
const UNKNOWN = "sch_Unknown12345";

/** Every action route, with a body it would accept for an active reminder. */
const ACTIONS: readonly { readonly op: string; readonly body?: unknown }[] = [
  { op: "snooze", body: { seconds: 600 } },
  { op: "snooze", body: { until: { date: "2031-01-01", time: "09:00" } } },
  { op: "stop" },
  { op: "pause" },
  { op: "resume" },
  { op: "skip", body: {} },
  { op: "update", body: { prompt: "drink water" } },
];

Deno.test("a malformed, unknown or ended reminder id never wakes a cold session with an overdue reminder", async () => {
  const backend = new MemoryBackend();
  let turns = 0;
  await using runtime = await testRuntime({
    backend,
    plugins: [schedulePlugin()],
    model: new ScriptedModel(() => {
      turns++;
      return { text: "ok" };
    }),
  });
  const app = createApp(runtime);
  const { session } = await runtime.create({ timeZone: "Asia/Shanghai" });
  // An overdue one-shot (fires at the next activation), a series, and an ended reminder.
  session.append("schedule/change", {
    version: 1,
    op: "create",
    record: { ...RECORD, scheduledAt: "2020-01-01T00:00:10.000Z" },
  });
  session.append("schedule/change", { version: 2, op: "create", record: SERIES });
  session.append("schedule/change", {
    version: 1,
    op: "create",
    record: { ...RECORD, id: ENDED, scheduledAt: "2030-01-02T00:00:10.000Z" },
  });
  session.append("schedule/change", { version: 1, op: "delete", id: ENDED });
  await runtime.store.flush(session);
  const length = session.length;
  await runtime.store.close(session);

  const cases = [
    { id: "nope", status: 400, code: "invalid_arguments" },
    { id: "sch_", status: 400, code: "invalid_arguments" },
    { id: UNKNOWN, status: 404, code: "schedule_not_found" },
    { id: ENDED, status: 409, code: "schedule_not_active" },
  ];
  for (const { op, body } of ACTIONS) {
    for (const { id, status, code } of cases) {
      const path = `/api/sessions/${session.id}/reminders/${id}/${op}`;
      const response = await app.request(
        path,
        body === undefined ? { method: "POST" } : postJson(body),
      );
      const answer = await response.json();
      assert.equal(response.status, status, `${path} ${JSON.stringify(body)}`);
      assert.equal(answer.error.code, code, path);
      assert.equal(runtime.store.live(session.id), undefined, `${path} left the session cold`);
    }
  }
  assert.equal(turns, 0, "no model call");
  // Resumed only now, by the store alone (no agent, no timer): the log is as it was.
  const resumed = await runtime.store.resume(session.id);
  assert.equal(resumed.length, length, "nothing appended by any refusal");
});

Deno.test("a valid id of a cold session still resumes it and acts", async () => {
  await using runtime = await testRuntime({ plugins: [schedulePlugin()] });
  const app = createApp(runtime);
  const { session } = await runtime.create({ timeZone: "Asia/Shanghai" });
  session.append("schedule/change", { version: 2, op: "create", record: SERIES });
  session.append("schedule/change", { version: 1, op: "create", record: RECORD });
  await runtime.store.flush(session);
  await runtime.store.close(session);
  const response = await app.request(
    `/api/sessions/${session.id}/reminders/${SCHEDULE_ID}/snooze`,
    postJson({ seconds: 600 }),
  );
  assert.equal(response.status, 200);
  assert.ok(runtime.store.live(session.id), "resumed for a reminder the log holds active");
  const pause = await app.request(
    `/api/sessions/${session.id}/reminders/${SERIES_ID}/pause`,
    { method: "POST" },
  );
  assert.equal(pause.status, 200);
});
