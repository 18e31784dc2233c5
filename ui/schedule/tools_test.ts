// The schedule slice's words in the generic conversation: schedule tool results and reminder
// follow-ups rendered with and without the schedule renderer registered (docs/architecture.md
// "Plugins": everything schedule-shaped arrives only with the schedule renderer).
import { deepStrictEqual as eq, equal, match, ok } from "node:assert/strict";
import { registerConversationViews } from "../conversation.ts";
import { EventViewRegistry, type RenderContext, type Rendered } from "../registry.ts";
import { SCHEDULE_CLIENT } from "./mod.ts";
import { byTestId, vnodeText } from "../testing/vnode_text.ts";
import { TranscriptAdapter } from "../transcript.ts";
import type { WireEvent } from "../wire.ts";

const at = "2030-01-01T08:05:00.000Z";
const e = (seq: number, type: string, data: unknown): WireEvent => ({ seq, type, at, data });
const en: RenderContext = { lang: "en", timeZone: "Asia/Shanghai" };
const zh: RenderContext = { lang: "zh", timeZone: "Asia/Shanghai" };
const value = {
  id: "sch_1",
  kind: "at",
  prompt: "stretch",
  scheduledAt: "2030-01-01T09:00:00.000Z",
  status: "scheduled",
  deliveryMode: "session-local",
};
const fail = (code: string, extra: Record<string, unknown> = {}) => ({
  ok: false,
  error: { code, message: "Cannot x: y", ...extra },
});
const FRAME = '<schedule-reminder>\n{"id":"sch_1","prompt":"stretch"}\n</schedule-reminder>\nTell…';

/** A turn of the schedule's work, as the window holds it: each result follows its call. */
const EVENTS: WireEvent[] = [
  e(0, "tool/call", { callId: "c1", name: "schedule_list", args: {} }),
  e(1, "tool/result", { callId: "c1", result: { ok: true, schedules: [value] } }),
  e(2, "tool/call", { callId: "c2", name: "schedule_create", args: {} }),
  e(3, "tool/result", { callId: "c2", result: { ok: true, ...value } }),
  e(4, "tool/call", { callId: "c3", name: "schedule_create", args: {} }),
  e(5, "tool/result", { callId: "c3", result: fail("not_in_future") }),
  e(6, "followup", { frame: FRAME }),
];

function registry(withSchedule: boolean): { r: EventViewRegistry; off: () => void } {
  const r = new EventViewRegistry();
  registerConversationViews(r);
  return { r, off: withSchedule ? SCHEDULE_CLIENT.register(r) : () => {} };
}

/** The one line of each shown row (its `<summary>`), `null` for a hidden node. */
function lines(r: EventViewRegistry, ctx: RenderContext, events = EVENTS): (string | null)[] {
  const nodes = new TranscriptAdapter().present(events, new Map());
  return nodes.filter((n) => n.type !== "tool/call").map((n) => line(r.render(n, ctx)));
}

function line(rendered: Rendered): string | null {
  if (rendered === null) return null;
  const row = byTestId(rendered, "tool-result") ?? byTestId(rendered, "followup");
  const children = row?.children as unknown[];
  return vnodeText(children[0]).trim();
}

Deno.test("without the schedule renderer, schedule work reads as neutral lines", () => {
  const { r } = registry(false);
  eq(lines(r, en), [
    "Tool schedule_list: done",
    "Tool schedule_create: done",
    "Tool schedule_create: failed (not_in_future)",
    "Follow-up delivered to the agent",
  ]);
  eq(lines(r, zh), [
    "工具 schedule_list：完成",
    "工具 schedule_create：完成",
    "工具 schedule_create：失败（not_in_future）",
    "后续消息已交给 Agent",
  ]);
  for (const text of [...lines(r, en), ...lines(r, zh)]) {
    ok(!/remind|提醒/i.test(text ?? ""), `no reminder wording: ${text}`);
  }
});

Deno.test("with the schedule renderer, schedule work reads in its words", () => {
  const { r, off } = registry(true);
  eq(lines(r, en), [
    "1 active reminder",
    null, // the created reminder's line is its schedule/change row
    "That time is not in the future",
    "Reminder delivered to the agent",
  ]);
  eq(lines(r, zh), ["1 个活动提醒", null, "该时间不在未来", "提醒已交给 Agent"]);
  off();
  equal(lines(r, en)[0], "Tool schedule_list: done", "unregistering takes its words away");
  equal(lines(r, en)[3], "Follow-up delivered to the agent");
});

Deno.test("a result whose call is outside the window is neutral even with the renderer", () => {
  const { r } = registry(true);
  eq(lines(r, en, EVENTS.slice(1, 2)), ["Tool call: done"]);
});

Deno.test("the schedule renderer's tool lines: list counts, hidden successes, other follow-ups", () => {
  const { r } = registry(true);
  const one = (name: string, result: unknown, ctx = en) =>
    lines(r, ctx, [
      e(0, "tool/call", { callId: "c", name, args: {} }),
      e(1, "tool/result", { callId: "c", result }),
    ])[0];
  equal(one("schedule_list", { ok: true, schedules: [] }), "No active reminders");
  equal(one("schedule_list", { ok: true, schedules: [value, value] }), "2 active reminders");
  equal(one("schedule_list", { ok: true, schedules: [] }, zh), "暂无活动提醒");
  for (const name of ["schedule_create", "schedule_update", "schedule_snooze"]) {
    equal(one(name, { ok: true, ...value }), null, `${name} is shown by its schedule/change row`);
  }
  equal(one("schedule_delete", { ok: true, deleted: value }), null);
  equal(one("schedule_list", { ok: true }), "Tool schedule_list: done", "an odd value: neutral");
  equal(one("schedule_delete", fail("tool_failed")), "Tool schedule_delete: failed");
  const other = r.render(
    new TranscriptAdapter().present([e(0, "followup", { frame: "[ping]" })], new Map())[0]!,
    en,
  );
  equal(line(other), "Follow-up delivered to the agent", "a frame the schedule did not send");
});

Deno.test("every schedule tool error code has a translated sentence", () => {
  const { r } = registry(true);
  const codes = [
    "invalid_arguments",
    "unsupported_rule",
    "not_in_future",
    "invalid_time_zone",
    "nonexistent_local_time",
    "timezone_confirmation_required",
    "persistence_uncertain",
    "schedule_not_found",
    "schedule_not_active",
  ];
  for (const code of codes) {
    for (const ctx of [en, zh]) {
      const summary = r.summarizeTool("schedule_create", fail(code), ctx);
      equal(summary?.failed, true);
      equal(summary?.code, code);
      ok(!summary.text.includes(code), `${code} is translated in ${ctx.lang}`);
    }
  }
  const confirm = r.summarizeTool(
    "schedule_create",
    fail("timezone_confirmation_required", { knownTimeZones: ["Asia/Tokyo", "UTC"] }),
    en,
  );
  match(confirm?.text ?? "", /Known zones: Asia\/Tokyo, UTC/);
});

Deno.test("the transcript names a result after the latest call with its id, once it arrives", () => {
  const adapter = new TranscriptAdapter();
  const before = adapter.present(EVENTS.slice(1, 2), new Map());
  equal(before[0]?.toolName, undefined);
  const again = adapter.present(EVENTS.slice(1, 2), new Map());
  equal(again[0], before[0], "unchanged: the same node");
  const after = adapter.present(EVENTS.slice(0, 2), new Map());
  equal(after[1]?.toolName, "schedule_list", "an older page brought the call");
  const fresh = adapter.present([e(1, "tool/result", { result: {} })], new Map());
  equal(fresh[0]?.toolName, undefined, "no callId: no name");
  const reused = adapter.present([
    e(0, "tool/call", { turnId: "t1", callId: "c1", name: "schedule_list" }),
    e(1, "tool/result", { turnId: "t1", callId: "c1", result: {} }),
    e(2, "tool/call", { turnId: "t2", callId: "c1", name: "schedule_create" }),
    e(3, "tool/result", { turnId: "t2", callId: "c1", result: {} }),
  ], new Map());
  eq(reused.map((n) => n.toolName), [undefined, "schedule_list", undefined, "schedule_create"]);
});
