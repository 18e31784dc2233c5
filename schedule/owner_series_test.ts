// The owner and paused or excluded occurrences (docs/recurring.md "Delivery", "Transitions"): a
// paused series never fires, a resumed one fires at its next future occurrence with no burst,
// and an excluded occurrence is neither delivered nor counted as missed.
import assert from "node:assert/strict";
import { Agent, Loader, ScriptedModel } from "@chime/agent";
import { SessionStore } from "@chime/session";
import { FakeClock, MemoryBackend } from "@chime/session/testing";
import { ops, settle, T0, type World, world } from "./_harness_test.ts";
import { schedulePlugin } from "./plugin.ts";
import type { ScheduleChange } from "./protocol.ts";

const HOUR = 3_600_000;
const DAY = 86_400_000;
/** 09:00 UTC on the harness day T0 (2026-01-15), plus `n` days. */
const nine = (n: number) => new Date(T0 + HOUR + n * DAY).toISOString();

async function daily(w: World): Promise<string> {
  const result = await w.call("schedule_create", {
    prompt: "standup",
    repeat: { rrule: "FREQ=DAILY;BYHOUR=9;BYMINUTE=0", time_zone: "UTC" },
  });
  assert.equal(result.scheduledAt, nine(0), JSON.stringify(result));
  return result.id;
}

/** Stops the owner (the process is down), lets wall time pass, starts a new one. */
async function down(w: World, ms: number): Promise<void> {
  await w.owner?.[Symbol.asyncDispose]();
  w.clock.setWall(w.clock.now() + ms);
  await w.startOwner();
  await settle(w.clock);
}

const last = (w: World): ScheduleChange => w.changes().at(-1)!;

Deno.test("a paused series never fires, live or after downtime", async () => {
  await using w = await world();
  await w.startOwner();
  const id = await daily(w);
  assert.equal(w.owner!.target, T0 + HOUR);
  assert.equal((await w.call("schedule_pause", { id })).ok, true);
  assert.equal(w.owner!.target, undefined, "nothing to arm");
  await w.clock.advance(2 * DAY);
  await settle(w.clock);
  await down(w, 3 * DAY);
  assert.deepEqual(ops(w), ["create", "pause"]);
  assert.equal(w.events("followup").length, 0);
});

Deno.test("resume after 3 missed days fires at the next future occurrence: no burst, missed 0", async () => {
  await using w = await world();
  await w.startOwner();
  const id = await daily(w);
  await w.call("schedule_pause", { id });
  await down(w, 3 * DAY + 2 * HOUR); // 2026-01-18T10:00Z: days 0..3 at 09:00 have passed
  const resumed = await w.call("schedule_resume", { id });
  assert.equal(resumed.ok, true, JSON.stringify(resumed));
  assert.equal(resumed.scheduledAt, nine(4));
  assert.equal(resumed.paused, undefined);
  await settle(w.clock);
  assert.deepEqual(ops(w), ["create", "pause", "resume"], "nothing delivered on resume");
  assert.deepEqual(last(w), { version: 2, op: "resume", id, nextAt: nine(4) });
  assert.equal(w.owner!.target, T0 + HOUR + 4 * DAY);
  await w.clock.advance(23 * HOUR);
  await settle(w.clock);
  assert.deepEqual(last(w), {
    version: 2,
    op: "dispatch",
    id,
    occurrenceAt: nine(4),
    missed: 0,
    nextAt: nine(5),
  });
  assert.equal(w.events("followup").length, 1);
});

Deno.test("an excluded occurrence is neither delivered nor counted as missed", async () => {
  await using w = await world();
  await w.startOwner();
  const id = await daily(w);
  const skipped = await w.call("schedule_skip", { id });
  assert.equal(skipped.skipped, nine(0));
  assert.equal(skipped.scheduledAt, nine(1));
  await w.call("schedule_skip", { id, occurrence_at: nine(2) });
  assert.equal(w.owner!.target, T0 + HOUR + DAY);
  await down(w, 3 * DAY + 2 * HOUR); // days 1 and 3 passed; 0 and 2 are excluded
  assert.deepEqual(last(w), {
    version: 2,
    op: "dispatch",
    id,
    occurrenceAt: nine(3),
    missed: 1,
    nextAt: nine(4),
  });
  // Live: skip the coming one, then the owner waits past it.
  await w.call("schedule_skip", { id });
  assert.equal(w.owner!.target, T0 + HOUR + 5 * DAY);
  await w.clock.advance(DAY + 23 * HOUR);
  await settle(w.clock);
  assert.deepEqual(last(w), {
    version: 2,
    op: "dispatch",
    id,
    occurrenceAt: nine(5),
    missed: 0,
    nextAt: nine(6),
  });
});

Deno.test("keepsLive is false when only paused series are active", async () => {
  const clock = new FakeClock(T0);
  await using store = new SessionStore({ backend: new MemoryBackend(), clock });
  const session = await store.create({ cwd: "/w", timeZone: "UTC" });
  const record = {
    id: "sch_Paused123456",
    kind: "recurring",
    prompt: "standup",
    rrule: "FREQ=DAILY;BYHOUR=9;BYMINUTE=0",
    dtstart: "2026-01-15T09:00:00",
    timeZone: "UTC",
    scheduledAt: nine(0),
  };
  session.append("schedule/change", { version: 2, op: "create", record });
  session.append("schedule/change", { version: 2, op: "pause", id: record.id });
  await using agent = new Agent({
    session,
    store,
    model: new ScriptedModel(() => ({ text: "ok" })),
    clock,
  });
  const plugin = schedulePlugin({ clock });
  await using loader = new Loader();
  await using _handle = await loader.load(plugin);
  await loader.publish(agent);
  assert.equal(plugin.keepsLive!(agent), false, "a paused series cannot fire");
  session.append("schedule/change", { version: 2, op: "resume", id: record.id, nextAt: nine(0) });
  assert.equal(plugin.keepsLive!(agent), true);
  clock[Symbol.dispose]();
});
