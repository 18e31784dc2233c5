/**
 * A late delivery reads from the log (docs/recurring.md "Host and page"): a one-shot dispatched a
 * minute or more after its time says so on its card, `closed` when nothing ran in between (the
 * session was closed at its time), `busy` when a turn held it; the sparse view context keeps the
 * turn edge it needs.
 */
import assert from "node:assert/strict";
import type { SessionEvent } from "@chime/session";
import { LATE_AFTER_MS, scheduleReminderPresentations } from "./presentation.ts";
import { scheduleViews } from "./views.ts";

const header = {
  version: 1 as const,
  id: "s",
  cwd: "/",
  createdAt: "2030-01-01T00:00:00.000Z",
  origin: "test",
  lineage: null,
  delegationDepth: 0,
};
const record = {
  id: "sch_AbCd1234",
  kind: "at",
  prompt: "tea",
  scheduledAt: "2030-01-01T00:05:00.000Z",
};
const ev = (seq: number, type: string, at: string, data: unknown = {}): SessionEvent =>
  ({ seq, type, at, data }) as SessionEvent;
const create = ev(0, "schedule/change", "2030-01-01T00:00:00.000Z", {
  version: 1,
  op: "create",
  record,
});
const dispatchAt = (seq: number, at: string) =>
  ev(seq, "schedule/change", at, { version: 1, op: "dispatch", id: record.id });

Deno.test("a dispatch a minute late while nothing ran reads as delivered while closed", () => {
  const log = [
    create,
    ev(1, "turn/end", "2030-01-01T00:00:02.000Z", { turnId: "t", outcome: "completed" }),
    dispatchAt(2, "2030-01-01T00:07:00.000Z"),
  ];
  const late = scheduleReminderPresentations(header, log).get(2)?.late;
  assert.deepEqual(late, { ms: 120_000, while: "closed" });
});

Deno.test("a dispatch held by a running turn reads as busy; an on-time one carries no lateness", () => {
  const log = [
    create,
    ev(1, "turn/start", "2030-01-01T00:04:00.000Z", { turnId: "t" }),
    ev(2, "turn/end", "2030-01-01T00:06:30.000Z", { turnId: "t", outcome: "completed" }),
    dispatchAt(3, "2030-01-01T00:06:31.000Z"),
  ];
  assert.equal(scheduleReminderPresentations(header, log).get(3)?.late?.while, "busy");
  const onTime = [create, dispatchAt(1, "2030-01-01T00:05:00.900Z")];
  assert.equal(scheduleReminderPresentations(header, onTime).get(1)?.late, undefined);
  const under = [
    create,
    dispatchAt(1, new Date(Date.parse(record.scheduledAt) + LATE_AFTER_MS - 1).toISOString()),
  ];
  assert.equal(scheduleReminderPresentations(header, under).get(1)?.late, undefined);
});

Deno.test("the view context keeps the nearest turn edge before a dispatch (sparse = dense)", () => {
  const log = [
    create,
    ev(1, "turn/start", "2030-01-01T00:04:00.000Z", { turnId: "t" }),
    ev(2, "user-rpc", "2030-01-01T00:04:01.000Z", { messageId: "m", text: "hi" }),
    ev(3, "turn/end", "2030-01-01T00:06:30.000Z", { turnId: "t", outcome: "completed" }),
    dispatchAt(4, "2030-01-01T00:06:31.000Z"),
  ];
  const gated = [log[4]!];
  const scan = scheduleViews.context!(header, gated);
  const kept: SessionEvent[] = [];
  for (const e of [...log.slice(0, 4)].reverse()) {
    if (scan.done) break;
    if (scan.offer(e)) kept.unshift(e);
  }
  assert.deepEqual(kept.map((e) => e.seq), [0, 3], "the create and the turn/end, not the message");
  const view = scheduleViews.build(header, [...kept, ...gated], [4]).get(4) as {
    presentation: { late?: unknown };
  };
  assert.deepEqual(view.presentation.late, { ms: 91_000, while: "busy" });
});
