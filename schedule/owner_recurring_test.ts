import assert from "node:assert/strict";
import { ops, settle, T0, type World, world } from "./_harness_test.ts";
import type { ScheduleOwnerOptions } from "./owner.ts";
import type { ScheduleChange } from "./protocol.ts";

const MINUTE = 60_000;
const HOUR = 3_600_000;

/** Creates a series through the tool (explicit zone: the harness turn has no marker). */
async function repeat(w: World, rrule: string, extra: Record<string, unknown> = {}) {
  const result = await w.call("schedule_create", {
    prompt: "blink",
    repeat: { rrule, time_zone: "UTC", ...extra },
  });
  assert.equal(result.ok, true, JSON.stringify(result));
  return result;
}

function frames(w: World): Record<string, unknown>[] {
  return w.events("followup").map((e) =>
    JSON.parse((e.data as { frame: string }).frame.split("\n")[1]!)
  );
}

function last(w: World): ScheduleChange {
  return w.changes().at(-1)!;
}

/** Stops the owner (the process is down), lets wall time pass, starts a new one. */
async function down(w: World, ms: number, options: ScheduleOwnerOptions = {}): Promise<void> {
  await w.owner?.[Symbol.asyncDispose]();
  w.clock.setWall(w.clock.now() + ms);
  await w.startOwner(options);
  await settle(w.clock);
}

Deno.test("a minutely series dispatches each occurrence with occurrenceAt and nextAt", async () => {
  await using w = await world();
  await w.startOwner();
  const created = await repeat(w, "FREQ=MINUTELY");
  assert.equal(created.kind, "recurring");
  assert.equal(created.scheduledAt, new Date(T0 + MINUTE).toISOString());
  assert.equal(created.repeat.text.en, "every minute");
  await w.clock.advance(MINUTE);
  await settle(w.clock);
  await w.clock.advance(MINUTE);
  await settle(w.clock);
  assert.deepEqual(ops(w), ["create", "dispatch", "dispatch"]);
  assert.deepEqual(last(w), {
    version: 2,
    op: "dispatch",
    id: created.id,
    occurrenceAt: new Date(T0 + 2 * MINUTE).toISOString(),
    missed: 0,
    nextAt: new Date(T0 + 3 * MINUTE).toISOString(),
  });
  const [first] = frames(w);
  assert.equal(first!.status, "due");
  assert.equal(first!.missed, 0);
  assert.equal(first!.coalesced, undefined);
  assert.deepEqual(first!.recurring, {
    rrule: "FREQ=MINUTELY",
    timeZone: "UTC",
    text: { en: "every minute", zh: "每分钟" },
    nextAt: new Date(T0 + 2 * MINUTE).toISOString(),
  });
  assert.equal(w.owner!.target, T0 + 3 * MINUTE);
});

Deno.test("catch-up after 5 h down: one follow-up for the latest, missed counted, next from now", async () => {
  await using w = await world();
  await w.startOwner();
  const created = await repeat(w, "FREQ=HOURLY"); // DTSTART: the next minute, T0 + 1 min
  await down(w, 5 * HOUR + 11 * MINUTE);
  assert.deepEqual(ops(w), ["create", "dispatch"]);
  assert.deepEqual(last(w), {
    version: 2,
    op: "dispatch",
    id: created.id,
    occurrenceAt: new Date(T0 + MINUTE + 5 * HOUR).toISOString(),
    missed: 5,
    nextAt: new Date(T0 + MINUTE + 6 * HOUR).toISOString(),
  });
  const [frame] = frames(w);
  assert.equal(frame!.status, "overdue");
  assert.equal(frame!.lateBySeconds, 600);
  assert.equal(frame!.missed, 5);
  // Regression: only the budget coalesces; downtime alone is `missed`, never `coalesced`.
  assert.equal(frame!.coalesced, undefined);
  assert.equal(w.owner!.target, T0 + MINUTE + 6 * HOUR);
});

Deno.test("catch-up after 3 days cold: daily at 09:00 delivers once with missed 2", async () => {
  await using w = await world();
  await w.startOwner();
  const created = await repeat(w, "FREQ=DAILY;BYHOUR=9;BYMINUTE=0");
  const first = Date.parse(created.scheduledAt);
  await down(w, first - T0 + 3 * 86_400_000 - HOUR); // 08:00 three days after the first
  assert.deepEqual(ops(w), ["create", "dispatch"]);
  const change = last(w) as { occurrenceAt: string; missed: number; nextAt: string };
  assert.equal(change.occurrenceAt, new Date(first + 2 * 86_400_000).toISOString());
  assert.equal(change.missed, 2);
  assert.equal(change.nextAt, new Date(first + 3 * 86_400_000).toISOString());
});

Deno.test("an occurrence outside the catch-up window is skipped, not delivered", async () => {
  await using w = await world();
  await w.startOwner();
  const created = await repeat(w, "FREQ=HOURLY", { catch_up_seconds: 600 });
  assert.equal(created.repeat.catchUpSeconds, 600);
  await down(w, 5 * HOUR + 21 * MINUTE);
  assert.deepEqual(ops(w), ["create", "skip"]);
  assert.deepEqual(last(w), {
    version: 2,
    op: "skip",
    id: created.id,
    occurrenceAt: new Date(T0 + MINUTE + 5 * HOUR).toISOString(),
    missed: 5,
    nextAt: new Date(T0 + MINUTE + 6 * HOUR).toISOString(),
    reason: "catch-up-window",
  });
  assert.equal(w.events("followup").length, 0);
  await w.clock.advance(40 * MINUTE);
  await settle(w.clock);
  assert.deepEqual(ops(w), ["create", "skip", "dispatch"], "the next one is on time");
});

Deno.test("the hourly budget coalesces and tells the model", async () => {
  await using w = await world();
  await w.startOwner({ maxRemindersPerHour: 2 });
  const created = await repeat(w, "FREQ=MINUTELY");
  for (let i = 0; i < 5; i++) {
    await w.clock.advance(MINUTE);
    await settle(w.clock);
  }
  assert.deepEqual(ops(w), ["create", "dispatch", "dispatch"]);
  assert.equal(w.owner!.target, T0 + MINUTE + HOUR, "waits until the first dispatch leaves");
  for (let i = 0; i < 56; i++) await w.clock.advance(MINUTE); // to T0 + 61 min
  await settle(w.clock);
  assert.deepEqual(ops(w), ["create", "dispatch", "dispatch", "dispatch"]);
  const change = last(w) as { occurrenceAt: string; missed: number; held?: true };
  assert.equal(change.occurrenceAt, new Date(T0 + 61 * MINUTE).toISOString());
  assert.equal(change.missed, 58);
  assert.equal(change.held, true, "the dispatch itself says the budget held it");
  const frame = frames(w).at(-1)!;
  assert.equal(frame.coalesced, true);
  assert.equal(frame.id, created.id);
});

Deno.test("a series held by the budget says coalesced even with nothing missed", async () => {
  await using w = await world();
  await w.startOwner({ maxRemindersPerHour: 1 });
  await w.call("schedule_create", { prompt: "first", after_seconds: 60 });
  const daily = await repeat(w, "FREQ=DAILY"); // DTSTART T0 + 1 min, like the one-shot
  await w.clock.advance(MINUTE);
  await settle(w.clock);
  assert.deepEqual(ops(w), ["create", "create", "dispatch"], "the one-shot took the budget");
  assert.equal((last(w) as { held?: true }).held, undefined, "on time: not held");
  for (let i = 0; i < 60; i++) await w.clock.advance(MINUTE); // to T0 + 61 min
  await settle(w.clock);
  assert.deepEqual(ops(w), ["create", "create", "dispatch", "dispatch"]);
  const frame = frames(w).at(-1)!;
  assert.equal(frame.id, daily.id);
  assert.equal(frame.missed, 0);
  assert.equal(frame.coalesced, true);
  for (let i = 0; i < 24 * 60; i++) await w.clock.advance(MINUTE); // the next day, budget free
  await settle(w.clock);
  const next = frames(w).at(-1)!;
  assert.equal(next.occurrenceAt, new Date(T0 + MINUTE + 24 * HOUR).toISOString());
  assert.equal(next.coalesced, undefined, "on time with the budget free: nothing to say");
  assert.equal((last(w) as { held?: true }).held, undefined);
});

Deno.test("after downtime a budget that is still full coalesces", async () => {
  await using w = await world();
  await w.startOwner({ maxRemindersPerHour: 1 });
  const created = await repeat(w, "FREQ=MINUTELY");
  await w.clock.advance(MINUTE);
  await settle(w.clock);
  await down(w, 10 * MINUTE, { maxRemindersPerHour: 1 }); // back at T0 + 11 min: budget full
  assert.deepEqual(ops(w), ["create", "dispatch"]);
  assert.equal(w.owner!.target, T0 + MINUTE + HOUR);
  for (let i = 0; i < 50; i++) await w.clock.advance(MINUTE); // to T0 + 61 min
  await settle(w.clock);
  assert.deepEqual(ops(w), ["create", "dispatch", "dispatch"]);
  const held = frames(w).at(-1)!;
  assert.equal(held.id, created.id);
  assert.equal(held.missed, 59); // T0 + 2 … 60 min
  assert.equal(held.coalesced, true);
});

Deno.test("COUNT exhaustion is an explicit final transition (nextAt null)", async () => {
  await using w = await world();
  const owner = await w.startOwner();
  await repeat(w, "FREQ=MINUTELY;COUNT=2");
  for (let i = 0; i < 3; i++) {
    await w.clock.advance(MINUTE);
    await settle(w.clock);
  }
  assert.deepEqual(ops(w), ["create", "dispatch", "dispatch"]);
  assert.equal((last(w) as { nextAt: unknown }).nextAt, null);
  assert.equal(owner.state, "idle");
  const listed = await w.call("schedule_list", {});
  assert.deepEqual(listed.schedules, []);
});

Deno.test("a snooze of a delivered occurrence fires once and never shifts the series", async () => {
  await using w = await world();
  await w.startOwner();
  const created = await repeat(w, "FREQ=HOURLY");
  await w.clock.advance(MINUTE);
  await settle(w.clock);
  const snoozed = await w.call("schedule_snooze", { id: created.id, after_seconds: 600 });
  assert.equal(snoozed.ok, true);
  assert.equal(snoozed.kind, "at");
  assert.deepEqual(snoozed.snoozeOf, { id: created.id, occurrenceAt: created.scheduledAt });
  await w.clock.advance(10 * MINUTE);
  await settle(w.clock);
  assert.deepEqual(frames(w).at(-1)!.snoozeOf, snoozed.snoozeOf);
  await w.clock.advance(50 * MINUTE);
  await settle(w.clock);
  assert.deepEqual(ops(w), ["create", "dispatch", "create", "dispatch", "dispatch"]);
  assert.equal(
    (last(w) as { occurrenceAt: string }).occurrenceAt,
    new Date(T0 + MINUTE + HOUR).toISOString(),
  );
});

Deno.test("maxRemindersPerHour must be a positive integer", async () => {
  await using w = await world();
  for (const bad of [0, 1.5, -1]) {
    assert.throws(() => w.startOwner({ maxRemindersPerHour: bad }), RangeError);
  }
});

Deno.test("a one-shot held by the budget says so in its dispatch", async () => {
  await using w = await world();
  await w.startOwner({ maxRemindersPerHour: 1 });
  await w.call("schedule_create", { prompt: "first", after_seconds: 60 });
  await w.call("schedule_create", { prompt: "second", after_seconds: 60 });
  await w.clock.advance(MINUTE);
  await settle(w.clock);
  assert.deepEqual(ops(w), ["create", "create", "dispatch"]);
  assert.equal((last(w) as { held?: true }).held, undefined);
  for (let i = 0; i < 60; i++) await w.clock.advance(MINUTE);
  await settle(w.clock);
  assert.deepEqual(ops(w), ["create", "create", "dispatch", "dispatch"]);
  assert.equal((last(w) as { held?: true }).held, true);
});
