/**
 * Late-cause lines from log facts only (docs/upcoming.md "Why it was late").
 *
 * @module
 */
import assert from "node:assert/strict";
import type { SessionEvent } from "@chime/session/event";
import { lateCause } from "./late.ts";
import type { HistoryEntry } from "./history.ts";

const ID = "sch_AbCd12345678";
const DUE = "2030-01-01T02:30:00.000Z";

function log(...rows: [string, string, unknown?][]): SessionEvent[] {
  return rows.map(([type, at, data], seq) => ({ seq, type, at, data: data ?? {} }));
}

function delivered(events: SessionEvent[]): HistoryEntry {
  const dispatch = events.find((e) =>
    e.type === "schedule/change" && (e.data as { op?: string }).op === "dispatch"
  )!;
  return {
    seq: dispatch.seq,
    at: dispatch.at,
    kind: "delivered",
    occurrenceAt: DUE,
    latenessMs: Date.parse(dispatch.at) - Date.parse(DUE),
  };
}

Deno.test("a session that was closed: from its last event before the due time to its reopening", () => {
  const events = log(
    ["schedule/change", "2030-01-01T01:00:00.000Z", { op: "create" }],
    ["assistant/message", "2030-01-01T02:10:00.000Z"],
    ["schedule/change", "2030-01-01T07:40:00.000Z", { op: "dispatch" }],
  );
  const cause = lateCause(delivered(events), ID, events, "UTC")!;
  assert.equal(cause.kind, "closed");
  assert.equal(cause.text.en, "the session was closed from 02:10 to 07:40");
  assert.equal(cause.text.zh, "会话在 02:10 到 07:40 之间处于关闭状态");
  assert.deepEqual(cause.seqs, [1, 2]);
  // In the session's zone, with the date when it is another day there.
  const shanghai = lateCause(delivered(events), ID, events, "Asia/Shanghai")!;
  assert.equal(shanghai.text.en, "the session was closed from 10:10 to 15:40");
});

Deno.test("the host was down: the next agent closed the interrupted turn", () => {
  const events = log(
    ["turn/start", "2030-01-01T02:00:00.000Z", { turnId: "t1" }],
    ["assistant/message", "2030-01-01T02:05:00.000Z"],
    ["turn/end", "2030-01-01T06:00:00.000Z", {
      turnId: "t1",
      outcome: "error",
      error: "interrupted: x",
    }],
    ["schedule/change", "2030-01-01T06:00:01.000Z", { op: "dispatch" }],
  );
  const cause = lateCause(delivered(events), ID, events, "UTC")!;
  assert.equal(cause.kind, "host-down");
  assert.equal(cause.text.en, "the host was down from 02:05 to 06:00");
});

Deno.test("the agent was busy: a turn ran across the due time", () => {
  const events = log(
    ["turn/start", "2030-01-01T02:28:00.000Z", { turnId: "t1" }],
    ["turn/end", "2030-01-01T02:33:00.000Z", { turnId: "t1", outcome: "completed" }],
    ["schedule/change", "2030-01-01T02:33:00.500Z", { op: "dispatch" }],
  );
  const cause = lateCause(delivered(events), ID, events, "UTC")!;
  assert.equal(cause.kind, "busy");
  assert.equal(cause.text.en, "the agent was busy for 3 min");
  assert.equal(cause.text.zh, "Agent 忙碌了 3 分钟");
});

Deno.test("the hourly limit: the frame says coalesced", () => {
  const frame = `<schedule-reminder>\n${
    JSON.stringify({ id: ID, coalesced: true })
  }\n</schedule-reminder>`;
  const events = log(
    ["user-rpc", "2030-01-01T02:00:00.000Z"],
    ["schedule/change", "2030-01-01T03:00:00.000Z", { op: "dispatch" }],
    ["followup", "2030-01-01T03:00:00.100Z", { frame }],
  );
  const cause = lateCause(delivered(events), ID, events, "UTC")!;
  assert.equal(cause.kind, "hourly-limit");
  assert.equal(cause.text.en, "the hourly limit held it");
});

Deno.test("on time, or with no fact before it: no cause", () => {
  const events = log(
    ["user-rpc", "2030-01-01T02:00:00.000Z"],
    ["schedule/change", "2030-01-01T02:30:30.000Z", { op: "dispatch" }],
  );
  assert.equal(lateCause(delivered(events), ID, events, "UTC"), undefined);
  const bare = log(["schedule/change", "2030-01-01T05:00:00.000Z", { op: "dispatch" }]);
  assert.equal(lateCause(delivered(bare), ID, bare, "UTC"), undefined);
});
