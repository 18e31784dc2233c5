// The page actions for pause, resume, skip, edit and snooze until (docs/recurring.md "Host and
// page"): the same transactions as the tools; local times in the reminder's or session's zone.
import assert from "node:assert/strict";
import { seededRandom, T0, type World, world } from "./_harness_test.ts";
import { checkEditBody, checkUntil, ScheduleActions } from "./actions.ts";

const HOUR = 3_600_000;
const DAY = 86_400_000;
const iso = (ms: number) => new Date(ms).toISOString();

function actionsOf(w: World): ScheduleActions {
  return new ScheduleActions(w.agent, {
    fifo: w.fifo,
    random: seededRandom(),
    onConfirmed: () => w.owner?.recompute(),
  });
}

const codeOf = (result: { ok: boolean; error?: { code: string } }) =>
  result.ok ? "ok" : result.error!.code;

async function tokyoDaily(w: World): Promise<string> {
  const result = await w.call("schedule_create", {
    prompt: "standup",
    repeat: { rrule: "FREQ=DAILY;BYHOUR=9;BYMINUTE=0", time_zone: "Asia/Tokyo" },
  });
  return result.id;
}

Deno.test("page pause, resume and skip run the tool transactions", async () => {
  await using w = await world();
  const actions = actionsOf(w);
  const id = await tokyoDaily(w);
  const paused = await actions.pause(id);
  assert.equal(paused.ok && paused.paused, true);
  assert.equal(codeOf(await actions.pause(id)), "schedule_not_active");
  const resumed = await actions.resume(id);
  assert.equal(resumed.ok && resumed.paused, undefined);
  const skipped = await actions.skip(id);
  assert.equal(skipped.ok && skipped.skipped, "2026-01-16T00:00:00.000Z");
  const named = await actions.skip(id, "2026-01-18T09:00:00+09:00");
  assert.equal(named.ok && named.skipped, "2026-01-18T00:00:00.000Z");
  assert.equal(codeOf(await actions.skip(id, "2026-01-18T09:30:00+09:00")), "not_an_occurrence");
  for (
    const result of [await actions.pause("x"), await actions.resume("x"), await actions.skip("x")]
  ) {
    assert.equal(codeOf(result), "invalid_arguments");
  }
  assert.deepEqual(w.changes().map((c) => c.op), [
    "create",
    "pause",
    "resume",
    "exclude",
    "exclude",
  ]);
});

Deno.test("page edit: local times in the series' zone or the session's; same update", async () => {
  await using w = await world(); // session zone Europe/Berlin
  const actions = actionsOf(w);
  const id = await tokyoDaily(w);
  await actions.pause(id);
  const edit = (body: Record<string, unknown>, target = id) => {
    const checked = checkEditBody(target, body);
    if (!checked.ok) throw new Error(JSON.stringify(checked));
    return actions.update(checked.value);
  };
  const rule = await edit({ repeat: { rrule: "FREQ=DAILY;BYHOUR=10;BYMINUTE=0" } });
  assert.equal(rule.ok && rule.repeat?.timeZone, "Asia/Tokyo", "the series' own zone");
  assert.equal(rule.ok && rule.paused, true, "still paused");
  const oneShot = await edit({ at: { date: "2026-01-16", time: "09:00" }, prompt: "once" });
  assert.equal(oneShot.ok && oneShot.kind, "at");
  assert.equal(oneShot.ok && oneShot.scheduledAt, "2026-01-16T00:00:00.000Z", "Tokyo 09:00");
  const moved = await edit({ at: { date: "2026-01-16", time: "09:00" } });
  assert.equal(moved.ok && moved.scheduledAt, "2026-01-16T08:00:00.000Z", "now Berlin 09:00");
  const renamed = await edit({ prompt: "renamed" });
  assert.equal(renamed.ok && renamed.prompt, "renamed");
  assert.equal(codeOf(await edit({ at: { date: "2026-01-14", time: "09:00" } })), "not_in_future");
  assert.equal(codeOf(await edit({ prompt: "x" }, "sch_Unknown12345")), "schedule_not_found");
  assert.equal(
    codeOf(await edit({ at: { date: "2026-03-29", time: "02:30" } })),
    "nonexistent_local_time",
  );
});

Deno.test("page edit and snooze until without a session zone ask for one", async () => {
  await using base = await world();
  const session = await base.store.create({ cwd: "/w" }); // no zone
  await using w = await world({ session, store: base.store });
  const actions = actionsOf(w);
  const created = await w.call("schedule_create", { prompt: "tea", after_seconds: 600 });
  const checked = checkEditBody(created.id, { at: { date: "2026-01-16", time: "09:00" } });
  assert.ok(checked.ok);
  const result = await actions.update(checked.value);
  assert.equal(codeOf(result), "timezone_confirmation_required");
  const until = await actions.snoozeUntil(created.id, { date: "2026-01-16", time: "09:00" });
  assert.equal(codeOf(until), "timezone_confirmation_required");
});

Deno.test("snooze until: tomorrow morning in the zone, in the future, at most 7 days", async () => {
  await using w = await world();
  await w.startOwner();
  const actions = actionsOf(w);
  const tea = await w.call("schedule_create", { prompt: "tea", after_seconds: 600 });
  const morning = await actions.snoozeUntil(tea.id, { date: "2026-01-16", time: "09:00" });
  assert.equal(morning.ok && morning.kind, "at");
  assert.equal(morning.ok && morning.scheduledAt, "2026-01-16T08:00:00.000Z", "Berlin 09:00");
  assert.equal(
    codeOf(await actions.snoozeUntil(tea.id, { date: "2026-01-16", time: "08:00" })),
    "not_in_future",
    "a one-shot that has not fired never moves earlier",
  );
  const far = await actions.snoozeUntil(tea.id, { date: "2026-01-23", time: "10:00" });
  assert.equal(codeOf(far), "invalid_arguments");
  assert.equal(!far.ok && "field" in far && far.field, "until");
  assert.equal(
    codeOf(await actions.snoozeUntil(tea.id, { date: "2026-03-29", time: "02:30" })),
    "nonexistent_local_time",
  );
  assert.equal(
    codeOf(await actions.snoozeUntil("x", { date: "2026-01-16", time: "09:00" })),
    "invalid_arguments",
  );
  // A delivered series occurrence: a new snooze record at the chosen time, in the series' zone.
  const id = await tokyoDaily(w);
  await w.clock.advance(16 * HOUR);
  await w.clock.advance(0);
  assert.equal(w.events("followup").length, 1);
  const snoozed = await actions.snoozeUntil(id, { date: "2026-01-16", time: "12:00" });
  assert.equal(snoozed.ok && snoozed.scheduledAt, "2026-01-16T03:00:00.000Z", "Tokyo 12:00");
  assert.equal(snoozed.ok && snoozed.snoozeOf?.id, id);
  const past = await actions.snoozeUntil(id, { date: "2026-01-16", time: "08:00" });
  assert.equal(codeOf(past), "not_in_future");
  assert.ok(w.clock.now() < T0 + DAY);
  assert.equal(iso(T0), "2026-01-15T08:00:00.000Z");
});

Deno.test("the page bodies are checked before any session work, naming the field", () => {
  const bad: [Record<string, unknown>, string, string][] = [
    [{ seconds: 5 }, "invalid_arguments", "seconds"],
    [{ at: "2026-01-16T09:00:00Z" }, "invalid_arguments", "at"],
    [{ at: { date: "2026-01-16", time: "09:00", time_zone: "UTC" } }, "invalid_arguments", "at"],
    [{ at: { date: "2026-02-30", time: "09:00" } }, "invalid_arguments", "at"],
    [{ repeat: { rrule: "FREQ=SECONDLY" } }, "unsupported_rule", "repeat"],
    [{ repeat: { rrule: "FREQ=DAILY", time_zone: "UTC" } }, "invalid_arguments", "repeat"],
    [{ prompt: "  " }, "invalid_arguments", "prompt"],
  ];
  for (const [body, code, field] of bad) {
    const result = checkEditBody("sch_AbCd1234", body);
    assert.equal(!result.ok && result.error.code, code, JSON.stringify(body));
    assert.equal(!result.ok && "field" in result && result.field, field, JSON.stringify(body));
  }
  for (
    const body of [{}, {
      at: { date: "2026-01-16", time: "09:00" },
      repeat: { rrule: "FREQ=DAILY" },
    }]
  ) {
    const result = checkEditBody("sch_AbCd1234", body);
    assert.equal(!result.ok && result.error.code, "invalid_arguments");
    assert.equal(!result.ok && "field" in result, false, "no single field to blame");
  }
  assert.equal(checkEditBody("nope", { prompt: "x" }).ok, false);
  assert.deepEqual(checkUntil({ date: "2026-01-16", time: "09:00" }), {
    date: "2026-01-16",
    time: "09:00",
  });
  for (
    const until of [null, "tomorrow", { date: "2026-01-16" }, { date: 1, time: 2 }, {
      date: "2026-01-16",
      time: "25:00",
    }, { date: "2026-01-16", time: "09:00", zone: "UTC" }]
  ) {
    const result = checkUntil(until);
    assert.ok("ok" in result && !result.ok, JSON.stringify(until));
    assert.equal(result.field, "until");
  }
});
