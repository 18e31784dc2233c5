import assert from "node:assert/strict";
import { T0, type World, world } from "./_harness_test.ts";
import { activityHook, scheduleActivityNote } from "./_activity.ts";
import { bindScheduleActions, ScheduleActions, scheduleActions } from "./actions.ts";
import { seededRandom } from "./_harness_test.ts";

const MINUTE = 60_000;
const DAILY = { rrule: "FREQ=DAILY;BYHOUR=16;BYMINUTE=0", time_zone: "Europe/Berlin" };

/** Given an open turn with one Berlin message and a time-context marker. */
function givenTurn(w: World, turnId: string): void {
  const messageId = `${turnId}-m`;
  w.store.append(w.session, "user-rpc", {
    messageId,
    text: "every day at 4pm",
    source: { kind: "web", clientTimeZone: "Europe/Berlin" },
  });
  w.store.append(w.session, "turn/start", { turnId });
  w.store.append(w.session, "step/start", { turnId, step: 0, messageIds: [messageId] });
  w.store.append(w.session, "time-context/marker", { turnId });
}

function failFlushes(w: World): Disposable {
  return w.store.addFlushListener(w.session, () => Promise.reject(new Error("disk full")));
}

Deno.test("schedule_create with repeat: the implicit zone, the rule in words, the next occurrence", async () => {
  await using w = await world();
  givenTurn(w, "t1");
  const created = await w.call("schedule_create", {
    prompt: "vitamins",
    repeat: { rrule: "rrule:freq=daily;byhour=9;byminute=0" },
  }, "t1");
  assert.equal(created.ok, true, JSON.stringify(created));
  assert.equal(created.scheduledAt, "2026-01-16T08:00:00.000Z", "09:00 Berlin tomorrow");
  assert.deepEqual(created.repeat, {
    rrule: "FREQ=DAILY;BYHOUR=9;BYMINUTE=0",
    timeZone: "Europe/Berlin",
    dtstart: "2026-01-15T09:01:00",
    text: { en: "daily at 09:00 (Europe/Berlin)", zh: "每天 09:00（Europe/Berlin）" },
  });
  const needsZone = await w.call("schedule_create", {
    prompt: "x",
    repeat: { rrule: "FREQ=MINUTELY" },
  });
  assert.equal(needsZone.error.code, "timezone_confirmation_required");
  const listed = await w.call("schedule_list", {});
  assert.equal(listed.schedules[0].repeat.text.en, "daily at 09:00 (Europe/Berlin)");
  assert.equal(listed.schedules[0].scheduledAt, created.scheduledAt);
});

Deno.test("repeat is validated: unsupported rules, bad starts, zones and exhausted series", async () => {
  await using w = await world();
  const cases: [unknown, string][] = [
    [{ rrule: "FREQ=SECONDLY", time_zone: "UTC" }, "unsupported_rule"],
    [{ rrule: "FREQ=HOURLY;BYMINUTE=0;BYSETPOS=1", time_zone: "UTC" }, "unsupported_rule"],
    [{ rrule: "FREQ=DAILY;BYSETPOS=1", time_zone: "UTC" }, "invalid_arguments"],
    // A rule that can never occur is refused, not walked toward year 9999 (docs/recurring.md).
    [
      {
        rrule: "FREQ=MINUTELY;INTERVAL=12;BYMINUTE=10,11,25,39,50",
        start: { date: "2030-01-01", time: "00:00" },
        time_zone: "UTC",
      },
      "rule_never_occurs",
    ],
    [{ rrule: "FREQ=DAILY;INTERVAL=0", time_zone: "UTC" }, "invalid_arguments"],
    [{ rrule: 5 }, "invalid_arguments"],
    ["daily", "invalid_arguments"],
    [{ rrule: "FREQ=DAILY", cron: "x" }, "invalid_arguments"],
    [{ rrule: "FREQ=DAILY", start: "tomorrow" }, "invalid_arguments"],
    [{ rrule: "FREQ=DAILY", start: { date: "2026-01-16" } }, "invalid_arguments"],
    [{ rrule: "FREQ=DAILY", start: { date: "2026-02-30", time: "09:00" } }, "invalid_arguments"],
    [{ rrule: "FREQ=DAILY", time_zone: 5 }, "invalid_arguments"],
    [{ rrule: "FREQ=DAILY", catch_up_seconds: 0 }, "invalid_arguments"],
  ];
  for (const [repeat, code] of cases) {
    const result = await w.call("schedule_create", { prompt: "x", repeat });
    assert.equal(result.error?.code, code, JSON.stringify(repeat));
  }
  const zone = await w.call("schedule_create", {
    prompt: "x",
    repeat: { rrule: "FREQ=DAILY", time_zone: "Mars/Base" },
  });
  assert.equal(zone.error.code, "invalid_time_zone");
  const over = await w.call("schedule_create", {
    prompt: "x",
    repeat: {
      rrule: "FREQ=DAILY;COUNT=2",
      start: { date: "2025-01-01", time: "09:00" },
      time_zone: "UTC",
    },
  });
  assert.equal(over.error.code, "not_in_future");
  for (const rule of ["every_seconds", "cron"]) {
    const refused = await w.call("schedule_create", { prompt: "x", [rule]: 60 });
    assert.equal(refused.error.code, "unsupported_rule");
  }
  const started = await w.call("schedule_create", {
    prompt: "x",
    repeat: {
      rrule: "FREQ=WEEKLY",
      start: { date: "2026-01-01", time: "07:30:15" },
      time_zone: "asia/shanghai",
      catch_up_seconds: 60,
    },
  });
  assert.equal(started.repeat.dtstart, "2026-01-01T07:30:15");
  assert.equal(started.repeat.timeZone, "Asia/Shanghai");
  assert.equal(started.scheduledAt, "2026-01-21T23:30:15.000Z");
  assert.deepEqual(w.changes().length, 1, "only the valid create was appended");
});

Deno.test("schedule_update changes one record in one transaction, keeping its id", async () => {
  await using w = await world();
  givenTurn(w, "t1");
  const created = await w.call("schedule_create", { prompt: "call", after_seconds: 600 });
  const moved = await w.call("schedule_update", {
    id: created.id,
    at: { date: "2026-01-15", time: "16:00" },
  }, "t1");
  assert.equal(moved.ok, true, JSON.stringify(moved));
  assert.equal(moved.id, created.id);
  assert.equal(moved.kind, "at");
  assert.equal(moved.prompt, "call");
  assert.equal(moved.scheduledAt, "2026-01-15T15:00:00.000Z");
  assert.deepEqual(w.changes().at(-1), {
    version: 2,
    op: "update",
    id: created.id,
    record: { id: created.id, kind: "at", prompt: "call", scheduledAt: moved.scheduledAt },
  });
  const renamed = await w.call("schedule_update", { id: created.id, prompt: " call mum " });
  assert.equal(renamed.prompt, "call mum");
  assert.equal(renamed.scheduledAt, moved.scheduledAt);
  const series = await w.call("schedule_update", { id: created.id, repeat: DAILY });
  assert.equal(series.kind, "recurring");
  assert.equal(series.repeat.text.en, "daily at 16:00 (Europe/Berlin)");
  const listed = await w.call("schedule_list", {});
  assert.equal(listed.schedules.length, 1);
  assert.deepEqual(w.changes().map((c) => c.op), ["create", "update", "update", "update"]);
});

Deno.test("schedule_update refuses bad shapes, unknown and ended ids, and failed resolutions", async () => {
  await using w = await world();
  const created = await w.call("schedule_create", { prompt: "call", after_seconds: 600 });
  const cases: [unknown, string][] = [
    [null, "invalid_arguments"],
    [{ id: created.id }, "invalid_arguments"],
    [{ id: "nope", prompt: "x" }, "invalid_arguments"],
    [{ id: created.id, prompt: " " }, "invalid_arguments"],
    [{ id: created.id, prompt: "x", extra: 1 }, "invalid_arguments"],
    [{ id: created.id, after_seconds: 0 }, "invalid_arguments"],
    [{ id: created.id, after_seconds: 5, at: "2030-01-01T00:00:00Z" }, "invalid_arguments"],
    [{ id: created.id, cron: "* * * * *" }, "unsupported_rule"],
    [{ id: created.id, at: "2020-01-01T00:00:00Z" }, "not_in_future"],
    [{ id: "sch_unknown123", prompt: "x" }, "schedule_not_found"],
  ];
  for (const [args, code] of cases) {
    const result = await w.call("schedule_update", args);
    assert.equal(result.error?.code, code, JSON.stringify(args));
  }
  await w.call("schedule_delete", { id: created.id });
  const ended = await w.call("schedule_update", { id: created.id, prompt: "x" });
  assert.equal(ended.error.code, "schedule_not_active");
  using _ = failFlushes(w);
  const uncertain = await w.call("schedule_update", { id: created.id, prompt: "x" });
  assert.equal(uncertain.error.code, "persistence_uncertain");
});

Deno.test("schedule_snooze moves an active one-shot and snoozes a delivered one", async () => {
  await using w = await world();
  await w.startOwner();
  const created = await w.call("schedule_create", { prompt: "tea", after_seconds: 60 });
  const moved = await w.call("schedule_snooze", { id: created.id, after_seconds: 600 });
  assert.equal(moved.id, created.id);
  assert.equal(moved.kind, "after");
  assert.equal(moved.scheduledAt, new Date(T0 + 11 * MINUTE).toISOString(), "its target + 10 min");
  await w.clock.advance(11 * MINUTE);
  await w.clock.advance(0);
  assert.deepEqual(w.changes().map((c) => c.op), ["create", "update", "dispatch"]);
  const again = await w.call("schedule_snooze", { id: created.id, after_seconds: 3600 });
  assert.equal(again.kind, "at");
  assert.notEqual(again.id, created.id);
  assert.deepEqual(again.snoozeOf, { id: created.id, occurrenceAt: moved.scheduledAt });
  const snoozeOfSnooze = await w.call("schedule_snooze", { id: again.id, after_seconds: 60 });
  assert.deepEqual(snoozeOfSnooze.snoozeOf, again.snoozeOf, "moving a snooze keeps snoozeOf");
  for (
    const [args, code] of [
      [{ id: created.id, after_seconds: 59 }, "invalid_arguments"],
      [{ id: created.id, after_seconds: 7 * 86_400 + 1 }, "invalid_arguments"],
      [{ id: created.id }, "invalid_arguments"],
      [{ id: "sch_unknown123", after_seconds: 600 }, "schedule_not_found"],
    ] as const
  ) {
    const result = await w.call("schedule_snooze", args);
    assert.equal(result.error?.code, code, JSON.stringify(args));
  }
  const series = await w.call("schedule_create", {
    prompt: "x",
    repeat: { rrule: "FREQ=DAILY", time_zone: "UTC" },
  });
  const early = await w.call("schedule_snooze", { id: series.id, after_seconds: 600 });
  assert.equal(early.error.code, "schedule_not_active", "a series that never fired");
  const deleted = await w.call("schedule_create", { prompt: "y", after_seconds: 9000 });
  await w.call("schedule_delete", { id: deleted.id });
  const gone = await w.call("schedule_snooze", { id: deleted.id, after_seconds: 600 });
  assert.equal(gone.error.code, "schedule_not_active");
});

Deno.test("regression: a snooze never moves a reminder earlier than its current target", async () => {
  await using w = await world();
  const actions = new ScheduleActions(w.agent, { fifo: w.fifo, random: seededRandom() });
  // Due in 2 h, not fired: "Snooze 10 min" means 2 h 10 min from now, never 10 min from now.
  const later = await w.call("schedule_create", { prompt: "call Bob", after_seconds: 7200 });
  const tool = await w.call("schedule_snooze", { id: later.id, after_seconds: 600 });
  assert.equal(tool.scheduledAt, new Date(T0 + 130 * MINUTE).toISOString());
  const page = await actions.snooze(later.id, 3600);
  assert.ok(page.ok);
  assert.equal(page.scheduledAt, new Date(T0 + 190 * MINUTE).toISOString(), "page: same rule");
  // Overdue but not yet delivered (no owner runs): pushed back from now.
  const due = await w.call("schedule_create", { prompt: "tea", after_seconds: 60 });
  await w.clock.advance(5 * MINUTE);
  const overdue = await w.call("schedule_snooze", { id: due.id, after_seconds: 600 });
  assert.equal(overdue.scheduledAt, new Date(T0 + 15 * MINUTE).toISOString());
  const listed = await w.call("schedule_list", {});
  assert.deepEqual(
    listed.schedules.map((r: { scheduledAt: string }) => r.scheduledAt),
    [page.scheduledAt, overdue.scheduledAt],
  );
});

/** The active snooze records of `seriesId`. */
async function snoozesOf(
  w: World,
  seriesId: string,
): Promise<{ id: string; scheduledAt: string }[]> {
  const listed = await w.call("schedule_list", {});
  return listed.schedules.filter((s: { snoozeOf?: { id: string } }) => s.snoozeOf?.id === seriesId);
}

Deno.test("regression: snoozing an occurrence again moves its snooze record (tool and page)", async () => {
  await using w = await world();
  await w.startOwner();
  const actions = new ScheduleActions(w.agent, { fifo: w.fifo, random: seededRandom() });
  const series = await w.call("schedule_create", {
    prompt: "blink",
    repeat: { rrule: "FREQ=HOURLY", time_zone: "UTC" },
  });
  await w.clock.advance(MINUTE);
  await w.clock.advance(0);
  const occurrence = { id: series.id, occurrenceAt: series.scheduledAt };
  // The card: Snooze 10 min, then Snooze 1 h: the second pick counts from now, as on a phone.
  const first = await actions.snooze(series.id, 600);
  const second = await actions.snooze(series.id, 3600);
  assert.ok(first.ok && second.ok);
  assert.equal(second.id, first.id, "the same snooze record");
  assert.deepEqual(second.snoozeOf, occurrence);
  const now = w.clock.now();
  assert.equal(first.scheduledAt, new Date(now + 600_000).toISOString());
  assert.equal(second.scheduledAt, new Date(now + 3600_000).toISOString());
  assert.deepEqual((await snoozesOf(w, series.id)).map((s) => [s.id, s.scheduledAt]), [[
    first.id,
    second.scheduledAt,
  ]]);
  // The model tool does the same.
  const third = await w.call("schedule_snooze", { id: series.id, after_seconds: 1200 });
  assert.equal(third.id, first.id);
  assert.equal(third.scheduledAt, new Date(now + 1200_000).toISOString(), "from now again");
  assert.deepEqual((await snoozesOf(w, series.id)).map((s) => [s.id, s.scheduledAt]), [[
    first.id,
    third.scheduledAt,
  ]]);
  assert.deepEqual(w.changes().map((c) => c.op), [
    "create",
    "dispatch",
    "create",
    "update",
    "update",
  ]);
  // The next occurrence is another occurrence: its snooze is a record of its own.
  await w.clock.advance(60 * MINUTE);
  await w.clock.advance(0);
  const next = await w.call("schedule_snooze", { id: series.id, after_seconds: 600 });
  assert.notEqual(next.id, first.id);
  assert.equal(
    next.snoozeOf.occurrenceAt,
    new Date(Date.parse(series.scheduledAt) + 3600_000).toISOString(),
  );
}); // deno-fmt-ignore

Deno.test("page actions: snooze and stop run the tool transaction; the model hears of them", async () => {
  await using w = await world();
  await w.startOwner();
  const actions = new ScheduleActions(w.agent, {
    fifo: w.fifo,
    random: seededRandom(),
    onConfirmed: () => w.owner?.recompute(),
  });
  using _bound = bindScheduleActions(w.agent, actions);
  assert.equal(scheduleActions(w.agent), actions);
  const series = await w.call("schedule_create", {
    prompt: "blink",
    repeat: { rrule: "FREQ=MINUTELY", time_zone: "UTC" },
  });
  await w.clock.advance(MINUTE);
  await w.clock.advance(0);
  const snoozed = await actions.snooze(series.id, 600);
  assert.equal(snoozed.ok, true);
  assert.equal((await actions.snooze(series.id, 10)).ok, false);
  const other = await w.call("schedule_create", { prompt: "tea", after_seconds: 3600 });
  assert.equal((await snoozesOf(w, series.id)).length, 1);
  const before = w.changes().length;
  const stopped = await actions.stop(series.id);
  assert.equal(stopped.ok && stopped.stopped.id, series.id);
  // The series goes with its pending snooze, in the same batch; other reminders stay.
  assert.deepEqual(w.changes().slice(before), [
    { version: 2, op: "stop", id: series.id },
    { version: 2, op: "delete", id: snoozed.ok ? snoozed.id : "" },
  ]);
  assert.deepEqual(await snoozesOf(w, series.id), []);
  const listed = await w.call("schedule_list", {});
  assert.deepEqual(listed.schedules.map((s: { id: string }) => s.id), [other.id]);
  const again = await actions.stop(series.id);
  assert.equal(!again.ok && again.error.code, "schedule_not_active");
  const bad = await actions.stop("nope");
  assert.equal(!bad.ok && bad.error.code, "invalid_arguments");
  const oneShot = await actions.stop(other.id);
  assert.equal(!oneShot.ok && oneShot.error.code, "schedule_not_active");
  assert.match(!oneShot.ok ? oneShot.error.message : "", /does not repeat/);
  const unknown = await actions.stop("sch_unknown123");
  assert.equal(!unknown.ok && unknown.error.code, "schedule_not_found");
  w.store.append(w.session, "turn/start", { turnId: "t9" });
  const note = scheduleActivityNote(w.session.events(), "t9")!;
  assert.match(note, /^\[schedule-activity\]\n/);
  assert.match(note, new RegExp(`snoozed reminder ${series.id}`));
  assert.match(note, new RegExp(`stopped repeating reminder ${series.id}`));
  assert.equal(scheduleActivityNote(w.session.events(), "t-unknown"), undefined);
  w.store.append(w.session, "turn/start", { turnId: "t10" });
  assert.equal(scheduleActivityNote(w.session.events(), "t10"), undefined, "told once");
  _bound[Symbol.dispose]();
  assert.equal(scheduleActions(w.agent), undefined);
});

Deno.test("the activity note leaves out the model's own tool calls and dispatches", () => {
  const at = "2026-01-01T00:00:00.000Z";
  const e = (seq: number, type: string, data: unknown) => ({ seq, type, at, data });
  const id = "sch_aaaaaaaa";
  const record = { id, kind: "at", prompt: "x", scheduledAt: at };
  const events = [
    e(0, "turn/start", { turnId: "t1" }),
    e(1, "tool/call", { turnId: "t1", callId: "c1", name: "schedule_update", args: {} }),
    e(2, "schedule/change", { version: 2, op: "update", id, record }),
    e(3, "tool/result", { turnId: "t1", callId: "c1", result: {} }),
    e(4, "turn/end", { turnId: "t1", outcome: "completed" }),
    e(5, "schedule/change", { version: 2, op: "update", id, record }),
    e(6, "schedule/change", { version: 2, op: "dispatch", id }),
    e(7, "schedule/change", {
      version: 2,
      op: "skip",
      id,
      occurrenceAt: at,
      missed: 1,
      nextAt: null,
      reason: "catch-up-window",
    }),
    e(8, "schedule/change", {
      version: 2,
      op: "create",
      record: { ...record, id: "sch_bbbbbbbb" },
    }),
    e(9, "schedule/change", { version: 9 }),
    e(10, "turn/start", { turnId: "t2" }),
  ];
  assert.equal(
    scheduleActivityNote(events, "t2"),
    "[schedule-activity]\n" +
      `The user moved reminder ${id} ("x") to ${at}.\n` +
      `Reminder ${id} skipped its occurrence at ${at} (outside its catch-up window; 1 earlier missed).\n` +
      // Outside a tool call a plain create is the page's calendar import.
      `The user imported reminder sch_bbbbbbbb ("x") from a calendar; next at ${at}.`,
  );
});

Deno.test("the activity hook speaks only at a turn's first step", async () => {
  await using w = await world();
  const batch = { turnId: "t1", step: 1, messages: [], followups: [] };
  assert.equal(await activityHook(batch, w.agent), undefined);
  w.store.append(w.session, "turn/start", { turnId: "t1" });
  assert.equal(await activityHook({ ...batch, step: 0 }, w.agent), undefined);
});
