import assert from "node:assert/strict";
import {
  atRecord,
  day,
  endSeed,
  type Entry,
  header,
  id,
  seriesRecord,
  T0,
  v2,
} from "./_fixtures_test.ts";
import { reminderHistory } from "./history.ts";
import { SCHEDULE_CHANGE, type ScheduleChange } from "./protocol.ts";
import type { SessionEvent } from "@chime/session";

/** A log whose events are recorded at the given instants. */
function at(...entries: [Entry, string][]): SessionEvent[] {
  return entries.map(([entry, when], seq) => ({
    seq,
    at: when,
    ...("version" in entry ? { type: SCHEDULE_CHANGE, data: entry } : entry),
  }));
}

const late = (instant: string, ms: number) => new Date(Date.parse(instant) + ms).toISOString();
const T = new Date(T0).toISOString();

Deno.test("a series' history names every kind, with lateness, missed and the snooze chain", () => {
  const a = id("a");
  const snooze = {
    ...atRecord("s"),
    scheduledAt: late(day(0), 600_000),
    snoozeOf: { id: a, occurrenceAt: day(0) },
  };
  const moved = { ...snooze, scheduledAt: late(day(0), 3_600_000) };
  const again = {
    ...atRecord("t"),
    scheduledAt: late(day(0), 7_200_000),
    snoozeOf: { id: id("s"), occurrenceAt: moved.scheduledAt },
  };
  const changes: [ScheduleChange | Entry, string][] = [
    [v2.create(seriesRecord("a")), T],
    [v2.create(atRecord("x")), T], // another reminder: not in the history
    [{ type: "assistant/message", data: { text: "hi" } }, T],
    [{ type: SCHEDULE_CHANGE, data: { version: 9 } }, T], // undecodable: passed over
    [v2.occurrence("dispatch", "a", day(0), day(1)), late(day(0), 1500)],
    [v2.create(snooze), late(day(0), 2000)],
    [v2.update(moved), late(day(0), 3000)],
    [v2.dispatch("s"), late(moved.scheduledAt, 250)],
    [v2.create(again), late(moved.scheduledAt, 500)],
    [v2.remove("t"), late(moved.scheduledAt, 600)],
    [v2.exclude("a", day(1), day(2)), T],
    [v2.pause("a"), T],
    [v2.resume("a", day(4)), T],
    [v2.update({ ...seriesRecord("a"), prompt: "standup", scheduledAt: day(4) }), T],
    [v2.occurrence("skip", "a", day(5), day(6), 1), late(day(5), 9_000_000)],
    [v2.occurrence("dispatch", "a", day(7), day(8), 1), late(day(7), 60_000)],
    [v2.stop("a"), T],
    [v2.dispatch("x"), T],
  ];
  const history = reminderHistory(header(), at(...changes as [Entry, string][]), a);
  assert.deepEqual(history, [
    { seq: 0, at: T, kind: "created", nextAt: day(0) },
    {
      seq: 4,
      at: late(day(0), 1500),
      kind: "delivered",
      occurrenceAt: day(0),
      latenessMs: 1500,
      missed: 0,
      nextAt: day(1),
    },
    {
      seq: 5,
      at: late(day(0), 2000),
      kind: "snoozed",
      occurrenceAt: day(0),
      nextAt: snooze.scheduledAt,
      snoozeId: id("s"),
    },
    {
      seq: 6,
      at: late(day(0), 3000),
      kind: "changed",
      nextAt: moved.scheduledAt,
      snoozeId: id("s"),
    },
    {
      seq: 7,
      at: late(moved.scheduledAt, 250),
      kind: "delivered",
      occurrenceAt: moved.scheduledAt,
      latenessMs: 250,
      snoozeId: id("s"),
    },
    {
      seq: 8,
      at: late(moved.scheduledAt, 500),
      kind: "snoozed",
      occurrenceAt: moved.scheduledAt,
      nextAt: again.scheduledAt,
      snoozeId: id("t"),
    },
    { seq: 9, at: late(moved.scheduledAt, 600), kind: "deleted", snoozeId: id("t") },
    { seq: 10, at: T, kind: "excluded", occurrenceAt: day(1), nextAt: day(2) },
    { seq: 11, at: T, kind: "paused" },
    { seq: 12, at: T, kind: "resumed", nextAt: day(4) },
    { seq: 13, at: T, kind: "changed", nextAt: day(4) },
    {
      seq: 14,
      at: late(day(5), 9_000_000),
      kind: "skipped",
      occurrenceAt: day(5),
      missed: 1,
      nextAt: day(6),
      reason: "catch-up-window",
    },
    {
      seq: 15,
      at: late(day(7), 60_000),
      kind: "delivered",
      occurrenceAt: day(7),
      latenessMs: 60_000,
      missed: 1,
      nextAt: day(8),
    },
    { seq: 16, at: T, kind: "stopped" },
  ]);
  assert.deepEqual(reminderHistory(header(), at(...changes as [Entry, string][]), id("x")), [
    { seq: 1, at: T, kind: "created", nextAt: atRecord("x").scheduledAt },
    {
      seq: 17,
      at: T,
      kind: "delivered",
      occurrenceAt: atRecord("x").scheduledAt,
      latenessMs: Date.parse(T) - Date.parse(atRecord("x").scheduledAt),
    },
  ]);
});

Deno.test("a one-shot's history ends with its delete; unknown and inherited ids have none", () => {
  const events = at(
    [v2.create(atRecord("a")), T],
    [v2.remove("a"), T],
    [endSeed(3), T],
    [v2.create(atRecord("b")), T],
  );
  assert.deepEqual(reminderHistory(header(), events, id("a"))?.map((e) => e.kind), [
    "created",
    "deleted",
  ]);
  assert.equal(reminderHistory(header(), events, id("z")), undefined);
  assert.equal(reminderHistory(header(3), events, id("a")), undefined, "a fork's parent's");
  assert.equal(reminderHistory(header(3), events, id("b"))?.length, 1);
});
