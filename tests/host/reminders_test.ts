/**
 * `GET /api/sessions/:id/reminders`: the schedule fold over the durable log only; the snooze
 * and stop actions (docs/recurring.md "Host and page").
 *
 * @module
 */
import assert from "node:assert/strict";
import { createApp } from "@chime/host";
import { LiveSchedule, schedulePlugin } from "@chime/schedule";
import { MemoryBackend } from "@chime/session/testing";
import {
  postJson,
  RECORD,
  SCHEDULE_ID,
  scheduleWebOnly,
  SERIES,
  SERIES_ID,
  testRuntime,
} from "./_helpers.ts";

const OTHER = "sch_ZyXwVuTs9876";
const PAST = "2020-01-01T00:00:00.000Z";

async function reminders(app: ReturnType<typeof createApp>, id: string) {
  const response = await app.request(`/api/sessions/${id}/reminders`);
  assert.equal(response.status, 200);
  return await response.json() as { reminders: Record<string, unknown>[]; deliveryMode: string };
}

Deno.test("GET /reminders folds only the flushed prefix of a live session", async () => {
  // The routes alone (no agent setup, so no plugin state): the fold below the watermark.
  await using runtime = await testRuntime({ plugins: [scheduleWebOnly()] });
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

Deno.test("GET /reminders answers a live session from the plugin's state, only below the watermark", async () => {
  await using runtime = await testRuntime({ plugins: [schedulePlugin()] });
  const app = createApp(runtime);
  const { session } = await runtime.create({ timeZone: "Europe/Paris" });
  await runtime.store.flush(session);
  assert.ok(LiveSchedule.of(session)?.loaded, "the plugin keeps the session's state");
  // The state answers: the list never reads the live session's log.
  const listed = async () => {
    const events = session.events;
    session.events = () => assert.fail("GET /reminders must not read the log of a live session");
    try {
      return (await reminders(app, session.id)).reminders.map((r) => r.id);
    } finally {
      session.events = events;
    }
  };
  session.append("schedule/change", { version: 1, op: "create", record: RECORD });
  assert.deepEqual(await listed(), [], "nothing durable yet");
  await runtime.store.flush(session);
  assert.deepEqual(await listed(), [SCHEDULE_ID]);
  session.append("schedule/change", { version: 1, op: "delete", id: SCHEDULE_ID });
  assert.deepEqual(await listed(), [SCHEDULE_ID], "the delete is not durable yet");
  await runtime.store.flush(session);
  assert.deepEqual(await listed(), []);
});

Deno.test("GET /reminders reads a cold session from storage without activating it", async () => {
  const backend = new MemoryBackend();
  await using runtime = await testRuntime({ backend, plugins: [scheduleWebOnly()] });
  const app = createApp(runtime);
  const { session } = await runtime.create({ timeZone: "Europe/Paris" });
  session.append("schedule/change", { version: 1, op: "create", record: RECORD });
  await runtime.store.close(session);
  assert.equal(runtime.store.live(session.id), undefined);
  assert.deepEqual((await reminders(app, session.id)).reminders.map((r) => r.id), [SCHEDULE_ID]);
  assert.equal(runtime.store.live(session.id), undefined, "still cold");
});

Deno.test("GET /reminders never lists a parent's reminder in a fork", async () => {
  await using runtime = await testRuntime({ plugins: [scheduleWebOnly()] });
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
  await using runtime = await testRuntime({ plugins: [schedulePlugin()] });
  const app = createApp(runtime);
  const response = await app.request("/api/sessions/nope/reminders");
  assert.equal(response.status, 404);
  assert.equal((await response.json()).error.code, "session_not_found");
});

const NEXT = "2030-01-01T01:00:00.000Z";

/** A live session with the schedule plugin, a series delivered once and a far one-shot. */
async function withSeries(runtime: Awaited<ReturnType<typeof testRuntime>>) {
  const { session } = await runtime.create({ timeZone: "Asia/Shanghai" });
  session.append("schedule/change", { version: 2, op: "create", record: SERIES });
  session.append("schedule/change", {
    version: 2,
    op: "dispatch",
    id: SERIES_ID,
    occurrenceAt: "2029-12-31T01:00:00.000Z",
    missed: 1,
    nextAt: NEXT,
  });
  session.append("schedule/change", { version: 2, op: "create", record: RECORD });
  await runtime.store.flush(session);
  return session;
}

async function post(app: ReturnType<typeof createApp>, path: string, body?: unknown) {
  const response = await app.request(
    path,
    body === undefined ? { method: "POST" } : postJson(body),
  );
  return { status: response.status, body: await response.json() };
}

Deno.test("GET /reminders lists a series with repeat and its next occurrence", async () => {
  await using runtime = await testRuntime({ plugins: [schedulePlugin()] });
  const app = createApp(runtime);
  const session = await withSeries(runtime);
  const [listed] = (await reminders(app, session.id)).reminders.filter((r) => r.id === SERIES_ID);
  const { preview, ...series } = listed as { preview: { at: string; local: string }[] };
  assert.deepEqual(preview.map((p) => [p.at, p.local]), [
    [NEXT, "2030-01-01T09:00"],
    ["2030-01-02T01:00:00.000Z", "2030-01-02T09:00"],
    ["2030-01-03T01:00:00.000Z", "2030-01-03T09:00"],
    ["2030-01-04T01:00:00.000Z", "2030-01-04T09:00"],
    ["2030-01-05T01:00:00.000Z", "2030-01-05T09:00"],
  ], "the next 5 occurrences, in the rule's zone");
  assert.deepEqual(series, {
    id: SERIES_ID,
    kind: "recurring",
    prompt: "vitamins",
    scheduledAt: NEXT,
    status: "scheduled",
    deliveryMode: "session-local",
    repeat: {
      rrule: SERIES.rrule,
      timeZone: "Asia/Shanghai",
      dtstart: SERIES.dtstart,
      text: { en: "daily at 09:00 (Asia/Shanghai)", zh: "每天 09:00（Asia/Shanghai）" },
    },
  });
});

Deno.test("POST snooze and stop run the schedule transaction and are recorded", async () => {
  await using runtime = await testRuntime({ plugins: [schedulePlugin()] });
  const app = createApp(runtime);
  const session = await withSeries(runtime);
  const base = `/api/sessions/${session.id}/reminders`;
  const snoozed = await post(app, `${base}/${SERIES_ID}/snooze`, { seconds: 600 });
  assert.equal(snoozed.status, 200);
  assert.equal(snoozed.body.reminder.kind, "at");
  assert.equal(snoozed.body.reminder.status, "scheduled");
  assert.deepEqual(snoozed.body.reminder.snoozeOf, {
    id: SERIES_ID,
    occurrenceAt: "2029-12-31T01:00:00.000Z",
  });
  const stopped = await post(app, `${base}/${SERIES_ID}/stop`);
  assert.deepEqual(stopped, { status: 200, body: {} });
  const stored = (await runtime.store.inspect(session.id))!.events
    .filter((e) => e.type === "schedule/change").map((e) => (e.data as { op: string }).op);
  // The series goes with its pending snooze (README.md), in the stop's batch.
  assert.deepEqual(stored.slice(-3), ["create", "stop", "delete"], "durable before the answer");
  const listed = (await reminders(app, session.id)).reminders.map((r) => r.id);
  assert.deepEqual(listed.includes(SERIES_ID), false);
  assert.deepEqual(listed.includes(snoozed.body.reminder.id), false, "its snooze ended with it");
  assert.ok(listed.includes(SCHEDULE_ID), "another reminder stays");
  const cases: [string, unknown, number, string][] = [
    [`${base}/${SERIES_ID}/stop`, undefined, 409, "schedule_not_active"],
    [`${base}/${SCHEDULE_ID}/stop`, undefined, 409, "schedule_not_active"],
    [`${base}/sch_Unknown12345/stop`, undefined, 404, "schedule_not_found"],
    [`${base}/nope/stop`, undefined, 400, "invalid_arguments"],
    [`${base}/${SERIES_ID}/snooze`, { seconds: 59 }, 400, "invalid_arguments"],
    [`${base}/${SERIES_ID}/snooze`, { seconds: "600" }, 400, "invalid_arguments"],
    [`${base}/${SERIES_ID}/snooze`, {}, 400, "invalid_arguments"],
    [`${base}/sch_Unknown12345/snooze`, { seconds: 600 }, 404, "schedule_not_found"],
    [`/api/sessions/nope/reminders/${SERIES_ID}/stop`, undefined, 404, "session_not_found"],
  ];
  for (const [path, body, status, code] of cases) {
    const answer = await post(app, path, body);
    assert.equal(answer.status, status, path);
    assert.equal(answer.body.error.code, code, path);
  }
});

Deno.test("regression: a refused snooze names the HTTP field, seconds, and leaves a cold session cold", async () => {
  await using runtime = await testRuntime({ plugins: [schedulePlugin()] });
  const app = createApp(runtime);
  const session = await withSeries(runtime);
  await runtime.store.close(session);
  const base = `/api/sessions/${session.id}/reminders/${SERIES_ID}/snooze`;
  for (const seconds of [59, 604_801, 600.5, "600", null]) {
    const answer = await post(app, base, { seconds });
    assert.equal(answer.status, 400, String(seconds));
    assert.deepEqual(answer.body.error, {
      code: "invalid_arguments",
      message: "Cannot snooze schedule: seconds must be an integer in 60..604800",
      field: "seconds",
    });
    assert.doesNotMatch(answer.body.error.message, /after_seconds/);
  }
  assert.equal(runtime.store.live(session.id), undefined, "never resumed for a bad body");
  const badId = await post(app, `/api/sessions/${session.id}/reminders/nope/snooze`, {
    seconds: 600,
  });
  assert.equal(badId.status, 400);
  assert.deepEqual(badId.body.error, {
    code: "invalid_arguments",
    message: "Cannot snooze schedule: bad id",
  });
});

Deno.test("POST stop resumes a cold session first; a failed barrier is 503", async () => {
  await using runtime = await testRuntime({ plugins: [schedulePlugin()] });
  const app = createApp(runtime);
  const session = await withSeries(runtime);
  await runtime.store.close(session);
  const base = `/api/sessions/${session.id}/reminders`;
  const stopped = await post(app, `${base}/${SERIES_ID}/stop`);
  assert.equal(stopped.status, 200);
  const live = runtime.store.live(session.id)!;
  assert.ok(live, "resumed");
  using _ = runtime.store.addFlushListener(live, () => Promise.reject(new Error("disk full")));
  const failed = await post(app, `${base}/${SCHEDULE_ID}/snooze`, { seconds: 600 });
  assert.equal(failed.status, 503);
  assert.equal(failed.body.error.code, "persistence_uncertain");
});

Deno.test("reminder actions answer 404 not_found when the plugin did not set up the agent", async () => {
  await using runtime = await testRuntime({ plugins: [scheduleWebOnly()] });
  const app = createApp(runtime);
  const { session } = await runtime.create({ timeZone: "Europe/Paris" });
  const answer = await post(app, `/api/sessions/${session.id}/reminders/${SCHEDULE_ID}/stop`);
  assert.equal(answer.status, 404);
  assert.equal(answer.body.error.code, "not_found");
  assert.match(answer.body.error.message, /did not set up/);
  const snooze = await post(app, `/api/sessions/${session.id}/reminders/${SCHEDULE_ID}/snooze`, {
    seconds: 600,
  });
  assert.equal(snooze.status, 404);
});

Deno.test("without the schedule plugin there are no reminders routes at all", async () => {
  await using runtime = await testRuntime();
  const app = createApp(runtime);
  const { session } = await runtime.create({ timeZone: "Europe/Paris" });
  session.append("schedule/change", { version: 1, op: "create", record: RECORD });
  await runtime.store.flush(session);
  const length = session.length;
  const listed = await app.request(`/api/sessions/${session.id}/reminders`);
  assert.equal(listed.status, 404);
  assert.match((await listed.json()).error.message, /Cannot route: GET/);
  for (const action of ["stop", "snooze"]) {
    const answer = await post(
      app,
      `/api/sessions/${session.id}/reminders/${SCHEDULE_ID}/${action}`,
      {
        seconds: 600,
      },
    );
    assert.equal(answer.status, 404);
    assert.match(answer.body.error.message, /Cannot route: POST/);
  }
  assert.equal(session.length, length, "nothing was written");
});

Deno.test("a plugin route with a malformed session id answers 400 before the plugin runs", async () => {
  await using runtime = await testRuntime({ plugins: [schedulePlugin()] });
  const app = createApp(runtime);
  const response = await app.request("/api/sessions/a%20b/reminders");
  assert.equal(response.status, 400);
  assert.equal((await response.json()).error.code, "invalid_session_id");
});

Deno.test("history views present recurring dispatches and pair updates like creates", async () => {
  await using runtime = await testRuntime({ plugins: [schedulePlugin()] });
  const app = createApp(runtime);
  const session = await withSeries(runtime);
  session.append("schedule/change", {
    version: 2,
    op: "update",
    id: SCHEDULE_ID,
    record: { ...RECORD, prompt: "stretch more" },
  });
  const dispatched = session.append("schedule/change", {
    version: 2,
    op: "dispatch",
    id: SCHEDULE_ID,
  });
  await runtime.store.flush(session);
  const page = await (await app.request(`/api/sessions/${session.id}/history`)).json();
  const series = page.views[String(dispatched.seq - 3)].presentation;
  assert.equal(series.occurrenceAt, "2029-12-31T01:00:00.000Z");
  assert.equal(series.missed, 1);
  assert.deepEqual(series.recurring.text.en, "daily at 09:00 (Asia/Shanghai)");
  assert.equal(series.recurring.nextAt, NEXT);
  assert.equal(page.views[String(dispatched.seq)].presentation.prompt, "stretch more");
});
