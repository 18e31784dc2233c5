import { equal, match, ok } from "node:assert/strict";
import { registerConversationViews } from "./conversation.ts";
import { EventViewRegistry, type RenderContext } from "./registry.ts";
import { byTestId, vnodeText } from "./testing/vnode_text.ts";
import { summarizeToolResult } from "./tool_summary.ts";
import { presentEvent } from "./transcript.ts";
import type { WireEvent } from "./wire.ts";

const at = "2030-01-01T08:05:00.000Z";
const e = (seq: number, type: string, data: unknown): WireEvent => ({ seq, type, at, data });
const en: RenderContext = { lang: "en", timeZone: "Asia/Shanghai" };
const zh: RenderContext = { lang: "zh", timeZone: "Asia/Shanghai" };

function render(event: WireEvent, ctx: RenderContext) {
  const r = new EventViewRegistry();
  registerConversationViews(r);
  return r.render(presentEvent(event), ctx);
}

Deno.test("a user message shows its time in its own zone next to that zone's label", () => {
  const node = render(
    e(0, "user-rpc", {
      messageId: "m",
      text: "hi",
      source: { kind: "web", clientTimeZone: "America/New_York" },
    }),
    en,
  );
  const time = byTestId(node, "message-time");
  ok(time);
  equal(vnodeText(time.children), "03:05 AM", "08:05 UTC in New York, not in the viewer's zone");
  equal(time.title, "Your time: 04:05 PM (Asia/Shanghai)");
  equal(vnodeText(byTestId(node, "message-zone")?.children), " · America/New_York");
});

Deno.test("a user message without a bound zone shows the viewer's time", () => {
  const node = render(e(0, "user-rpc", { messageId: "m", text: "hi" }), en);
  equal(vnodeText(byTestId(node, "message-time")?.children), "04:05 PM");
});

Deno.test("tool results read as bilingual sentences, with the raw JSON in details", () => {
  const created = {
    ok: true,
    id: "sch_1",
    kind: "at",
    prompt: "p",
    scheduledAt: "2030-01-01T09:00:00.000Z",
    status: "scheduled",
    deliveryMode: "session-local",
  };
  equal(
    render(e(1, "tool/result", { callId: "c", result: created }), en),
    null,
    "a created reminder's line is its schedule/change row",
  );
  const listed = { ok: true, schedules: [created], deliveryMode: "session-local" };
  const node = render(e(1, "tool/result", { callId: "c", result: listed }), en);
  const text = vnodeText(node);
  match(text, /^ 1 active reminder/);
  ok(text.includes('"ok": true'), "raw JSON behind the details");
  match(vnodeText(render(e(1, "tool/result", { result: listed }), zh)), /1 个活动提醒/);
  match(
    summarizeToolResult(created, en).text,
    /^Reminder set for Jan 1, 2030, 5:00 PM \(Asia\/Shanghai\) · session-local/,
  );
  equal(
    summarizeToolResult({ ok: true, schedules: [created, created] }, en).text,
    "2 active reminders",
  );
  equal(summarizeToolResult({ ok: true, schedules: [] }, zh).text, "暂无活动提醒");
  equal(summarizeToolResult({ ok: true, deleted: created }, en).text, "Reminder cancelled");
  equal(summarizeToolResult({ ok: true, deleted: created }, zh).text, "已取消提醒");
  equal(summarizeToolResult({ ok: true, echoed: 1 }, en).text, "Done");
});

Deno.test("every tool error code has a translated sentence", () => {
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
    "tool_failed",
  ];
  for (const code of codes) {
    for (const ctx of [en, zh]) {
      const s = summarizeToolResult({ ok: false, error: { code, message: "Cannot x: y" } }, ctx);
      equal(s.failed, true);
      equal(s.code, code);
      ok(!s.text.includes(code), `${code} is translated in ${ctx.lang}`);
    }
  }
  const confirm = summarizeToolResult({
    ok: false,
    error: { code: "timezone_confirmation_required", knownTimeZones: ["Asia/Tokyo", "UTC"] },
  }, en);
  match(confirm.text, /Known zones: Asia\/Tokyo, UTC/);
  const failed = render(e(2, "tool/result", { result: { ok: false, error: { code: "x" } } }), en);
  equal(byTestId(failed, "tool-result")?.class, "compact tool failed");
  match(vnodeText(failed), /Failed: x/);
});

Deno.test("assistant text renders as safe Markdown with a speaker label", () => {
  const node = render(
    e(3, "assistant/message", { text: "**Done** [x](javascript:alert(1)) <b>hi</b>" }),
    en,
  );
  const bubble = byTestId(node, "message-assistant");
  ok(bubble);
  match(vnodeText(node), /^Assistant: /);
  const html = JSON.stringify(node, (_k, v) => (typeof v === "function" ? undefined : v));
  match(html, /<strong>Done<\/strong>/);
  ok(!html.includes('href=\\"javascript'), "javascript: is refused");
  match(html, /&lt;b&gt;hi&lt;\/b&gt;/);
  match(vnodeText(render(e(0, "user-rpc", { messageId: "m", text: "hi" }), zh)), /^你: hi/);
});
