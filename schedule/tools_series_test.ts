// `schedule_pause`, `schedule_resume` and `schedule_skip` (docs/recurring.md "Tools"): each tool,
// each error code, the FIFO, preflight and second barrier as for `schedule_update`, the values
// with `paused`, `exdates` and `preview`, and the `[schedule-activity]` words.
import assert from "node:assert/strict";
import { scheduleActivityNote } from "./_activity.ts";
import { T0, type World, world } from "./_harness_test.ts";

const HOUR = 3_600_000;
const DAY = 86_400_000;
/** 09:00 UTC on the harness day T0 (2026-01-15), plus `n` days. */
const nine = (n: number) => new Date(T0 + HOUR + n * DAY).toISOString();

async function daily(w: World, extra = ""): Promise<string> {
  const result = await w.call("schedule_create", {
    prompt: "standup",
    repeat: { rrule: `FREQ=DAILY;BYHOUR=9;BYMINUTE=0${extra}`, time_zone: "UTC" },
  });
  assert.equal(result.ok, true, JSON.stringify(result));
  return result.id;
}

function failFlushes(w: World): Disposable {
  return w.store.addFlushListener(w.session, () => Promise.reject(new Error("disk full")));
}

const codeOf = (result: { ok: boolean; error?: { code: string } }) =>
  result.ok ? "ok" : result.error!.code;

Deno.test("schedule_create and schedule_list show a series' preview", async () => {
  await using w = await world();
  const created = await w.call("schedule_create", {
    prompt: "standup",
    repeat: { rrule: "FREQ=DAILY;BYHOUR=9;BYMINUTE=0", time_zone: "UTC" },
  });
  assert.deepEqual(created.preview.map((p: { at: string }) => p.at), [0, 1, 2, 3, 4].map(nine));
  assert.deepEqual(created.preview[0], {
    at: nine(0),
    local: "2026-01-15T09:00",
    offset: "+00:00",
  });
  assert.equal(created.paused, undefined);
  assert.equal(created.exdates, undefined);
  const oneShot = await w.call("schedule_create", { prompt: "tea", after_seconds: 60 });
  assert.equal(oneShot.preview, undefined, "a one-shot has no preview");
  const listed = await w.call("schedule_list", {});
  assert.deepEqual(listed.schedules[0].preview, created.preview);
});

Deno.test("schedule_pause and schedule_resume: values, changes and every refusal", async () => {
  await using w = await world();
  const id = await daily(w);
  const paused = await w.call("schedule_pause", { id });
  assert.equal(paused.ok, true);
  assert.equal(paused.paused, true);
  assert.equal(paused.deliveryMode, "session-local");
  assert.deepEqual(w.changes().at(-1), { version: 2, op: "pause", id });
  assert.equal(codeOf(await w.call("schedule_pause", { id })), "schedule_not_active");
  // While paused, the value shows what resuming now would give, and is never overdue.
  w.clock.setWall(T0 + 2 * DAY + 2 * HOUR);
  const listed = (await w.call("schedule_list", {})).schedules[0];
  assert.equal(listed.paused, true);
  assert.equal(listed.status, "scheduled");
  assert.equal(listed.scheduledAt, nine(3));
  assert.equal(listed.preview[0].at, nine(3));
  const resumed = await w.call("schedule_resume", { id });
  assert.equal(resumed.scheduledAt, nine(3));
  assert.equal(resumed.paused, undefined);
  assert.deepEqual(w.changes().at(-1), { version: 2, op: "resume", id, nextAt: nine(3) });
  assert.equal(codeOf(await w.call("schedule_resume", { id })), "schedule_not_active");
  const oneShot = await w.call("schedule_create", { prompt: "tea", after_seconds: 60 });
  for (const name of ["schedule_pause", "schedule_resume", "schedule_skip"] as const) {
    assert.equal(codeOf(await w.call(name, { id: oneShot.id })), "schedule_not_active", name);
    assert.equal(codeOf(await w.call(name, { id: "sch_Unknown12345" })), "schedule_not_found");
    assert.equal(codeOf(await w.call(name, { id: "nope" })), "invalid_arguments", name);
    assert.equal(codeOf(await w.call(name, { id, extra: 1 })), "invalid_arguments", name);
    assert.equal(codeOf(await w.call(name, null)), "invalid_arguments", name);
  }
  await w.call("schedule_delete", { id });
  assert.equal(codeOf(await w.call("schedule_pause", { id })), "schedule_not_active");
});

Deno.test("a paused series with no occurrence left cannot resume or skip", async () => {
  await using w = await world();
  const id = await daily(w, ";COUNT=2");
  await w.call("schedule_pause", { id });
  w.clock.setWall(T0 + 3 * DAY);
  assert.equal(codeOf(await w.call("schedule_resume", { id })), "schedule_not_active");
  assert.equal(codeOf(await w.call("schedule_skip", { id })), "schedule_not_active");
  const listed = (await w.call("schedule_list", {})).schedules[0];
  assert.deepEqual(listed.preview, []);
  assert.equal(listed.scheduledAt, nine(0), "no resume target: the stored one");
});

Deno.test("schedule_skip excludes the next or a named occurrence; refusals are coded", async () => {
  await using w = await world();
  const id = await daily(w, ";COUNT=3");
  const named = await w.call("schedule_skip", { id, occurrence_at: "2026-01-16T10:00:00+01:00" });
  assert.equal(named.skipped, nine(1));
  assert.equal(named.scheduledAt, nine(0), "not the target: the target stays");
  assert.deepEqual(named.exdates, [nine(1)]);
  assert.deepEqual(named.preview.map((p: { at: string }) => p.at), [nine(0), nine(2)]);
  assert.deepEqual(named.preview[1].excluded, [nine(1)]);
  assert.deepEqual(w.changes().at(-1), {
    version: 2,
    op: "exclude",
    id,
    occurrenceAt: nine(1),
    nextAt: nine(0),
  });
  const refusals: [unknown, string][] = [
    [nine(1), "not_an_occurrence"], // already excluded
    ["2026-01-15T09:30:00Z", "not_an_occurrence"], // not an occurrence
    ["2026-01-14T09:00:00Z", "not_an_occurrence"], // before the target
    [nine(3), "not_an_occurrence"], // past COUNT
    ["tomorrow", "invalid_arguments"],
    [5, "invalid_arguments"],
  ];
  for (const [at, code] of refusals) {
    assert.equal(codeOf(await w.call("schedule_skip", { id, occurrence_at: at })), code, `${at}`);
  }
  const next = await w.call("schedule_skip", { id });
  assert.equal(next.skipped, nine(0));
  assert.equal(next.scheduledAt, nine(2), "past the excluded day 1");
  assert.equal(next.ended, undefined);
  const last = await w.call("schedule_skip", { id });
  assert.equal(last.skipped, nine(2));
  assert.equal(last.ended, true, "the last occurrence: the series is exhausted");
  assert.deepEqual(w.changes().at(-1), {
    version: 2,
    op: "exclude",
    id,
    occurrenceAt: nine(2),
    nextAt: null,
  });
  assert.equal(codeOf(await w.call("schedule_skip", { id })), "schedule_not_active");
  assert.deepEqual((await w.call("schedule_list", {})).schedules, []);
});

Deno.test("schedule_skip of a paused series skips from now on; resume leaves the skip out", async () => {
  await using w = await world();
  const id = await daily(w);
  await w.call("schedule_pause", { id });
  w.clock.setWall(T0 + 2 * DAY + 2 * HOUR); // day 2 10:00 UTC
  assert.equal(
    codeOf(await w.call("schedule_skip", { id, occurrence_at: nine(1) })),
    "not_an_occurrence",
    "a paused series' past occurrences are gone already",
  );
  const skipped = await w.call("schedule_skip", { id });
  assert.equal(skipped.skipped, nine(3));
  assert.equal(skipped.paused, true);
  const resumed = await w.call("schedule_resume", { id });
  assert.equal(resumed.scheduledAt, nine(4));
});

Deno.test("schedule_update keeps a series paused, and its exclusions while the series is the same", async () => {
  await using w = await world();
  const id = await daily(w);
  await w.call("schedule_skip", { id, occurrence_at: nine(1) });
  await w.call("schedule_skip", { id });
  await w.call("schedule_pause", { id });
  const prompt = await w.call("schedule_update", { id, prompt: "daily standup" });
  assert.equal(prompt.paused, true);
  assert.deepEqual(prompt.exdates, [nine(0), nine(1)]);
  assert.deepEqual(w.changes().at(-1), {
    version: 2,
    op: "update",
    id,
    record: {
      id,
      kind: "recurring",
      prompt: "daily standup",
      rrule: "FREQ=DAILY;BYHOUR=9;BYMINUTE=0",
      dtstart: "2026-01-15T08:01:00",
      timeZone: "UTC",
      scheduledAt: nine(2),
    },
  }, "the update record carries neither paused nor exdates");
  const same = await w.call("schedule_update", {
    id,
    repeat: {
      rrule: "FREQ=DAILY;BYHOUR=9;BYMINUTE=0",
      start: { date: "2026-01-15", time: "08:01" },
      time_zone: "UTC",
    },
  });
  assert.deepEqual(same.exdates, [nine(0), nine(1)], "the same series keeps them");
  assert.equal(same.paused, true);
  const other = await w.call("schedule_update", {
    id,
    repeat: { rrule: "FREQ=DAILY;BYHOUR=10;BYMINUTE=0", time_zone: "UTC" },
  });
  // Another rule keeps the skipped days: the new time on those days is excluded in the same
  // transaction (one update, then one exclude per day).
  const ten = (n: number) => new Date(T0 + 2 * HOUR + n * DAY).toISOString();
  assert.deepEqual(other.exdates, [ten(0), ten(1)], "the skipped days stay skipped");
  assert.equal(other.scheduledAt, ten(2));
  assert.deepEqual(w.changes().slice(-3).map((c: { op: string }) => c.op), [
    "update",
    "exclude",
    "exclude",
  ]);
  assert.equal(other.paused, true, "still paused");
  const listed = (await w.call("schedule_list", {})).schedules[0];
  assert.equal(listed.paused, true);
});

Deno.test("schedule_update of the same series skips its exclusions or is not_in_future", async () => {
  await using w = await world();
  const id = await daily(w, ";COUNT=2");
  await w.call("schedule_skip", { id, occurrence_at: nine(1) });
  w.clock.setWall(T0 + 2 * HOUR); // day 0 passed undelivered (no owner); day 1 is excluded
  const refused = await w.call("schedule_update", {
    id,
    repeat: {
      rrule: "FREQ=DAILY;COUNT=2;BYHOUR=9;BYMINUTE=0",
      start: { date: "2026-01-15", time: "08:01" },
      time_zone: "UTC",
    },
  });
  assert.equal(codeOf(refused), "not_in_future");
});

Deno.test("the series tools run behind the preflight and the second barrier", async () => {
  await using w = await world();
  const id = await daily(w);
  {
    using _fail = failFlushes(w);
    for (const name of ["schedule_pause", "schedule_resume", "schedule_skip"] as const) {
      assert.equal(codeOf(await w.call(name, { id })), "persistence_uncertain", name);
    }
  }
  assert.deepEqual(w.changes().map((c) => c.op), ["create"], "nothing appended");
  w.backend.failNext({ op: "append", when: "before" });
  w.backend.failNext({ op: "append", when: "before" });
  const paused = await w.call("schedule_pause", { id });
  assert.equal(codeOf(paused), "persistence_uncertain");
  const listed = await w.call("schedule_list", {});
  assert.equal(listed.schedules[0].paused, true, "the retained pause is confirmed next");
  // FIFO: concurrent calls serialize in arrival order.
  const [resume, again, skip] = await Promise.all([
    w.call("schedule_resume", { id }),
    w.call("schedule_resume", { id }),
    w.call("schedule_skip", { id }),
  ]);
  assert.deepEqual([codeOf(resume), codeOf(again), codeOf(skip)], [
    "ok",
    "schedule_not_active",
    "ok",
  ]);
  assert.deepEqual(w.changes().map((c) => c.op), ["create", "pause", "resume", "exclude"]);
});

Deno.test("the activity note names pauses, resumes and skips made outside the model's calls", async () => {
  await using w = await world();
  const id = await daily(w, ";COUNT=1");
  w.store.append(w.session, "turn/start", { turnId: "t1" });
  w.store.append(w.session, "schedule/change", { version: 2, op: "pause", id });
  w.store.append(w.session, "schedule/change", {
    version: 2,
    op: "resume",
    id,
    nextAt: nine(0),
  });
  w.store.append(w.session, "schedule/change", {
    version: 2,
    op: "exclude",
    id,
    occurrenceAt: nine(0),
    nextAt: null,
  });
  w.store.append(w.session, "turn/start", { turnId: "t2" });
  assert.equal(
    scheduleActivityNote(w.session.events(), "t2"),
    [
      "[schedule-activity]",
      `The user paused reminder ${id}; it does not fire until resumed.`,
      `The user resumed reminder ${id}; next at ${nine(0)}.`,
      `The user skipped the occurrence at ${nine(0)} of reminder ${id}; no occurrence is left.`,
    ].join("\n"),
  );
  const other = await daily(w);
  w.store.append(w.session, "schedule/change", {
    version: 2,
    op: "exclude",
    id: other,
    occurrenceAt: nine(1),
    nextAt: nine(0),
  });
  w.store.append(w.session, "turn/start", { turnId: "t3" });
  assert.match(scheduleActivityNote(w.session.events(), "t3")!, /; next at 2026-01-15T09:00/);
});

Deno.test("the series tool specs tell the model what each does", async () => {
  await using w = await world();
  assert.match(w.tools.schedule_pause.description, /never fires until `schedule_resume`/);
  assert.match(w.tools.schedule_resume.description, /no catch-up burst/);
  assert.match(w.tools.schedule_skip.description, /not_an_occurrence/);
  assert.deepEqual(Object.keys(w.tools.schedule_skip.parameters.properties as object), [
    "id",
    "occurrence_at",
  ]);
  assert.deepEqual(w.tools.schedule_skip.parameters.required, ["id"]);
});
