/**
 * The page's series routes (docs/recurring.md "Host and page"): pause, resume, skip, edit,
 * snooze until a chosen time, a reminder's history, and the list rows' `paused`, `exdates` and
 * `preview`.
 *
 * @module
 */
import assert from "node:assert/strict";
import { createApp } from "@chime/host";
import { schedulePlugin } from "@chime/schedule";
import { FakeClock } from "@chime/session/testing";
import {
  postJson,
  RECORD,
  SCHEDULE_ID,
  scheduleWebOnly,
  SERIES,
  SERIES_ID,
  testRuntime,
} from "./_helpers.ts";

const OCCURRED = "2029-12-31T01:00:00.000Z";
const NEXT = "2030-01-01T01:00:00.000Z";
const AFTER = "2030-01-02T01:00:00.000Z";

type Runtime = Awaited<ReturnType<typeof testRuntime>>;

/** A Paris session with a Shanghai series delivered once and a far one-shot. */
async function given(runtime: Runtime) {
  const { session } = await runtime.create({ timeZone: "Europe/Paris" });
  session.append("schedule/change", { version: 2, op: "create", record: SERIES });
  session.append("schedule/change", {
    version: 2,
    op: "dispatch",
    id: SERIES_ID,
    occurrenceAt: OCCURRED,
    missed: 1,
    nextAt: NEXT,
  });
  session.append("schedule/change", { version: 2, op: "create", record: RECORD });
  await runtime.store.flush(session);
  const app = createApp(runtime);
  const base = `/api/sessions/${session.id}/reminders`;
  const post = async (path: string, body: unknown = {}) => {
    const response = await app.request(`${base}${path}`, postJson(body));
    return { status: response.status, body: await response.json() };
  };
  const get = async (path: string) => {
    const response = await app.request(`${base}${path}`);
    return { status: response.status, body: await response.json() };
  };
  return { session, app, base, post, get };
}

Deno.test("POST pause and resume answer the reminder; the list shows paused and the preview", async () => {
  await using runtime = await testRuntime({ plugins: [schedulePlugin()] });
  const { post, get } = await given(runtime);
  const paused = await post(`/${SERIES_ID}/pause`);
  assert.equal(paused.status, 200);
  assert.equal(paused.body.reminder.paused, true);
  assert.equal(paused.body.reminder.preview[0].at, NEXT);
  assert.equal(paused.body.reminder.preview[0].local, "2030-01-01T09:00");
  const listed = (await get("")).body.reminders.find((r: { id: string }) => r.id === SERIES_ID);
  assert.equal(listed.paused, true);
  assert.equal(listed.preview.length, 5);
  const cases: [string, number, string][] = [
    [`/${SERIES_ID}/pause`, 409, "schedule_not_active"],
    [`/${SCHEDULE_ID}/pause`, 409, "schedule_not_active"],
    [`/sch_Unknown12345/pause`, 404, "schedule_not_found"],
    [`/nope/pause`, 400, "invalid_arguments"],
    [`/${SCHEDULE_ID}/resume`, 409, "schedule_not_active"],
  ];
  for (const [path, status, code] of cases) {
    const answer = await post(path);
    assert.deepEqual([answer.status, answer.body.error.code], [status, code], path);
  }
  const resumed = await post(`/${SERIES_ID}/resume`);
  assert.equal(resumed.status, 200);
  assert.equal(resumed.body.reminder.paused, undefined);
  assert.equal(resumed.body.reminder.scheduledAt, NEXT);
  assert.equal((await post(`/${SERIES_ID}/resume`)).status, 409);
});

Deno.test("POST skip excludes the next or a named occurrence; refusals name the field", async () => {
  await using runtime = await testRuntime({ plugins: [schedulePlugin()] });
  const { post, get } = await given(runtime);
  const named = await post(`/${SERIES_ID}/skip`, { occurrenceAt: AFTER });
  assert.equal(named.status, 200);
  assert.equal(named.body.skipped, AFTER);
  assert.deepEqual(named.body.reminder.exdates, [AFTER]);
  assert.equal(named.body.ended, undefined);
  const next = await post(`/${SERIES_ID}/skip`);
  assert.equal(next.body.skipped, NEXT);
  assert.equal(next.body.reminder.scheduledAt, "2030-01-03T01:00:00.000Z");
  const listed = (await get("")).body.reminders.find((r: { id: string }) => r.id === SERIES_ID);
  assert.deepEqual(listed.exdates, [NEXT, AFTER]);
  const cases: [unknown, number, string, string | undefined][] = [
    [{ occurrenceAt: "2030-01-05T02:00:00.000Z" }, 400, "not_an_occurrence", undefined],
    [{ occurrenceAt: "soon" }, 400, "invalid_arguments", "occurrenceAt"],
    [{ when: NEXT }, 400, "invalid_arguments", "when"],
  ];
  for (const [body, status, code, field] of cases) {
    const answer = await post(`/${SERIES_ID}/skip`, body);
    assert.deepEqual([answer.status, answer.body.error.code], [status, code], JSON.stringify(body));
    assert.equal(answer.body.error.field, field);
  }
  assert.equal((await post(`/${SCHEDULE_ID}/skip`)).status, 409, "a one-shot");
});

Deno.test("POST update takes the calendar forms: the last Sunday of March, yearly, with its preview", async () => {
  await using runtime = await testRuntime({ plugins: [schedulePlugin()] });
  const { post } = await given(runtime);
  const yearly = await post(`/${SERIES_ID}/update`, {
    repeat: { rrule: "FREQ=YEARLY;BYMONTH=3;BYDAY=-1SU;BYHOUR=9;BYMINUTE=0" },
  });
  assert.equal(yearly.status, 200, JSON.stringify(yearly.body));
  const { repeat, preview } = yearly.body.reminder;
  assert.equal(repeat.text.en, "yearly on the last Sunday of March at 09:00 (Asia/Shanghai)");
  assert.equal(repeat.text.zh, "每年3月最后一个周日 09:00（Asia/Shanghai）");
  const dates = preview.map((p: { local: string }) => p.local.slice(5));
  assert.ok(dates.every((d: string) => /^03-(2[5-9]|3[01])T09:00$/.test(d)), dates.join());
  const days = preview.map((p: { local: string }) => new Date(`${p.local}Z`).getUTCDay());
  assert.deepEqual(days, [0, 0, 0, 0, 0], "every one a Sunday");
});

Deno.test("POST update is the schedule_update transaction in the reminder's or session's zone", async () => {
  await using runtime = await testRuntime({ plugins: [schedulePlugin()] });
  const { post, session } = await given(runtime);
  await post(`/${SERIES_ID}/pause`);
  const rule = await post(`/${SERIES_ID}/update`, {
    prompt: "vitamins D",
    repeat: { rrule: "FREQ=DAILY;BYHOUR=8;BYMINUTE=0" },
  });
  assert.equal(rule.status, 200, JSON.stringify(rule.body));
  assert.equal(rule.body.reminder.id, SERIES_ID, "same id");
  assert.equal(rule.body.reminder.prompt, "vitamins D");
  assert.equal(rule.body.reminder.repeat.timeZone, "Asia/Shanghai", "the series' own zone");
  assert.equal(rule.body.reminder.paused, true, "still paused");
  const oneShot = await post(`/${SCHEDULE_ID}/update`, {
    at: { date: "2030-02-01", time: "10:00" },
  });
  assert.equal(oneShot.body.reminder.scheduledAt, "2030-02-01T09:00:00.000Z", "Paris 10:00");
  const ops = session.events().filter((e) => e.type === "schedule/change")
    .map((e) => (e.data as { op: string }).op);
  assert.deepEqual(ops.slice(-3), ["pause", "update", "update"]);
  const cases: [string, unknown, number, string, string | undefined][] = [
    [SERIES_ID, { repeat: { rrule: "FREQ=SECONDLY" } }, 400, "unsupported_rule", "repeat"],
    [
      SERIES_ID,
      { repeat: { rrule: "FREQ=MONTHLY;BYMONTH=2;BYMONTHDAY=30" } },
      400,
      "rule_never_occurs",
      undefined,
    ],
    [SERIES_ID, { at: { date: "2020-01-01", time: "10:00" } }, 409, "not_in_future", undefined],
    [SERIES_ID, { at: { date: "2030-02-01" } }, 400, "invalid_arguments", "at"],
    [SERIES_ID, { after_seconds: 60 }, 400, "invalid_arguments", "after_seconds"],
    [SERIES_ID, {}, 400, "invalid_arguments", undefined],
    ["sch_Unknown12345", { prompt: "x" }, 404, "schedule_not_found", undefined],
    [
      SCHEDULE_ID,
      { at: { date: "2030-03-31", time: "02:30" } },
      400,
      "nonexistent_local_time",
      undefined,
    ],
  ];
  for (const [target, body, status, code, field] of cases) {
    const answer = await post(`/${target}/update`, body);
    assert.deepEqual([answer.status, answer.body.error.code], [status, code], JSON.stringify(body));
    assert.equal(answer.body.error.field, field, JSON.stringify(body));
  }
});

Deno.test("POST snooze { until } snoozes to a chosen local time; bad bodies leave a cold session cold", async () => {
  // The day after the delivered occurrence (the 7-day bound is from now).
  using clock = new FakeClock(Date.parse("2029-12-31T02:00:00.000Z"));
  await using runtime = await testRuntime({ clock, plugins: [schedulePlugin()] });
  const { post, session } = await given(runtime);
  await runtime.store.close(session);
  const refusals: [string, unknown, string][] = [
    [`/${SERIES_ID}/snooze`, { until: { date: "2030-01-01" } }, "until"],
    [`/${SERIES_ID}/snooze`, { until: "tomorrow" }, "until"],
    [
      `/${SERIES_ID}/snooze`,
      { seconds: 600, until: { date: "2030-01-01", time: "09:00" } },
      "until",
    ],
    [`/${SERIES_ID}/update`, { at: { date: "2030-02-01", time: "25:00" } }, "at"],
    [`/${SERIES_ID}/update`, { repeat: { rrule: "FREQ=DAILY", time_zone: "UTC" } }, "repeat"],
    [`/${SERIES_ID}/skip`, { occurrenceAt: 5 }, "occurrenceAt"],
  ];
  for (const [path, body, field] of refusals) {
    const answer = await post(path, body);
    assert.equal(answer.status, 400, path);
    assert.equal(answer.body.error.field, field, path);
  }
  assert.equal(runtime.store.live(session.id), undefined, "never resumed for a bad body");
  // "Tomorrow morning" of the delivered occurrence, in the series' zone (Shanghai).
  const snoozed = await post(`/${SERIES_ID}/snooze`, {
    until: { date: "2030-01-01", time: "09:00" },
  });
  assert.equal(snoozed.status, 200, JSON.stringify(snoozed.body));
  assert.ok(runtime.store.live(session.id), "resumed");
  assert.equal(snoozed.body.reminder.scheduledAt, "2030-01-01T01:00:00.000Z");
  assert.deepEqual(snoozed.body.reminder.snoozeOf, { id: SERIES_ID, occurrenceAt: OCCURRED });
  const past = await post(`/${SCHEDULE_ID}/snooze`, {
    until: { date: "2020-01-01", time: "09:00" },
  });
  assert.deepEqual([past.status, past.body.error.code], [409, "not_in_future"]);
  const far = await post(`/${SCHEDULE_ID}/snooze`, {
    until: { date: "2030-01-08", time: "09:00" },
  });
  assert.deepEqual([far.status, far.body.error.code, far.body.error.field], [
    400,
    "invalid_arguments",
    "until",
  ], "more than 7 days ahead");
  const seconds = await post(`/${SCHEDULE_ID}/snooze`, { seconds: 600 });
  assert.equal(seconds.status, 200, "seconds still work");
});

Deno.test("POST pause resumes a cold session first", async () => {
  await using runtime = await testRuntime({ plugins: [schedulePlugin()] });
  const { post, session } = await given(runtime);
  await runtime.store.close(session);
  const paused = await post(`/${SERIES_ID}/pause`);
  assert.equal(paused.status, 200);
  assert.ok(runtime.store.live(session.id), "resumed");
  const stored = (await runtime.store.inspect(session.id))!.events.at(-1)!;
  assert.deepEqual(stored.data, { version: 2, op: "pause", id: SERIES_ID }, "durable");
});

Deno.test("GET history reads the committed log: every transition, the snooze chain", async () => {
  await using runtime = await testRuntime({ plugins: [schedulePlugin()] });
  const { post, get, session } = await given(runtime);
  const snoozed = await post(`/${SERIES_ID}/snooze`, { seconds: 600 });
  await post(`/${SERIES_ID}/skip`, { occurrenceAt: AFTER });
  await post(`/${SERIES_ID}/pause`);
  await post(`/${SERIES_ID}/resume`);
  await post(`/${SERIES_ID}/stop`);
  const history = await get(`/${SERIES_ID}/history`);
  assert.equal(history.status, 200);
  const entries = history.body.history as Record<string, unknown>[];
  assert.deepEqual(entries.map((e) => e.kind), [
    "created",
    "delivered",
    "snoozed",
    "excluded",
    "paused",
    "resumed",
    "stopped",
    "deleted",
  ]);
  const delivered = entries[1]!;
  assert.equal(delivered.occurrenceAt, OCCURRED);
  assert.equal(delivered.missed, 1);
  assert.equal(typeof delivered.latenessMs, "number");
  assert.equal(entries[2]!.snoozeId, snoozed.body.reminder.id);
  assert.equal(entries.at(-1)!.snoozeId, snoozed.body.reminder.id, "its snooze ended with it");
  // Cold: read from storage, not activated.
  await runtime.store.close(session);
  const cold = await get(`/${SERIES_ID}/history`);
  assert.deepEqual(cold.body, history.body);
  assert.equal(runtime.store.live(session.id), undefined);
  const cases: [string, number, string][] = [
    ["/sch_Unknown12345/history", 404, "schedule_not_found"],
    ["/nope/history", 400, "invalid_arguments"],
  ];
  for (const [path, status, code] of cases) {
    const answer = await get(path);
    assert.deepEqual([answer.status, answer.body.error.code], [status, code], path);
  }
  const none = await createApp(runtime).request(
    `/api/sessions/s_unknown/reminders/${SERIES_ID}/history`,
  );
  assert.equal(none.status, 404);
  assert.equal((await none.json()).error.code, "session_not_found");
});

Deno.test("a fork inherits neither a paused series nor its history", async () => {
  await using runtime = await testRuntime({ plugins: [schedulePlugin()] });
  const { post, session } = await given(runtime);
  await post(`/${SERIES_ID}/pause`);
  const child = await runtime.fork(session.id);
  await runtime.store.flush(child);
  const app = createApp(runtime);
  const base = `/api/sessions/${child.id}/reminders`;
  const listed = await (await app.request(base)).json();
  assert.deepEqual(listed.reminders, []);
  const history = await app.request(`${base}/${SERIES_ID}/history`);
  assert.equal(history.status, 404);
  const resume = await app.request(`${base}/${SERIES_ID}/resume`, postJson({}));
  assert.equal(resume.status, 404, "the fork never created it");
  assert.equal((await resume.json()).error.code, "schedule_not_found");
});

Deno.test("the series actions answer 404 not_found when the plugin did not set up the agent", async () => {
  await using runtime = await testRuntime({ plugins: [scheduleWebOnly()] });
  const { post } = await given(runtime);
  const cases: [string, unknown][] = [
    [`/${SERIES_ID}/pause`, {}],
    [`/${SERIES_ID}/resume`, {}],
    [`/${SERIES_ID}/skip`, {}],
    [`/${SERIES_ID}/update`, { prompt: "x" }],
    [`/${SERIES_ID}/snooze`, { until: { date: "2030-01-01", time: "09:00" } }],
  ];
  for (const [path, body] of cases) {
    const answer = await post(path, body);
    assert.deepEqual([answer.status, answer.body.error.code], [404, "not_found"], path);
  }
});
