import { equal, match, ok } from "node:assert/strict";
import { registerConversationViews } from "./conversation.ts";
import { EventViewRegistry, type RenderContext } from "./registry.ts";
import { byTestId, vnodeText } from "./testing/vnode_text.ts";
import { neutralToolSummary } from "./tool_summary.ts";
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
  equal(vnodeText(time.children), "03:05", "08:05 UTC in New York, not in the viewer's zone");
  equal(time.title, "Your time: 16:05 (Asia/Shanghai)");
  equal(vnodeText(byTestId(node, "message-zone")?.children), " · America/New_York");
});

Deno.test("a user message without a bound zone shows the viewer's time", () => {
  const node = render(e(0, "user-rpc", { messageId: "m", text: "hi" }), en);
  equal(vnodeText(byTestId(node, "message-time")?.children), "16:05");
});

Deno.test("a tool result reads as a neutral line when no renderer module summarizes its tool", () => {
  const r = new EventViewRegistry();
  registerConversationViews(r);
  const echoed = r.render(
    presentEvent(e(1, "tool/result", { result: { ok: true } }), undefined, "echo"),
    en,
  );
  equal(vnodeText(byTestId(echoed, "tool-result")?.children).split("{")[0], " Tool echo: done");
  equal(byTestId(echoed, "tool-result")?.["data-tool"], "echo");
  ok(vnodeText(echoed).includes('"ok": true'), "raw JSON behind the details");
  const zhEchoed = r.render(
    presentEvent(e(1, "tool/result", { result: { ok: true } }), undefined, "echo"),
    zh,
  );
  match(vnodeText(zhEchoed), /^ 工具 echo：完成/);
  match(
    vnodeText(r.render(presentEvent(e(1, "tool/result", { result: {} })), en)),
    /^ Tool call: done/,
  );
  const failed = r.render(
    presentEvent(
      e(2, "tool/result", { result: { ok: false, error: { code: "x" } } }),
      undefined,
      "echo",
    ),
    en,
  );
  equal(byTestId(failed, "tool-result")?.class, "compact tool failed");
  equal(byTestId(failed, "tool-result")?.["data-code"], "x");
  match(vnodeText(failed), /^ Tool echo: failed \(x\)/);
}); // deno-fmt-ignore

Deno.test("the generic tool error codes read as generic sentences in both languages", () => {
  const cases: [string, string, string][] = [
    ["invalid_arguments", "Tool echo: failed — its arguments were invalid", "工具 echo：失败 —— 参数无效"],
    ["unknown_tool", "Tool echo: failed — no such tool", "工具 echo：失败 —— 没有该工具"],
    ["tool_failed", "Tool echo: failed", "工具 echo：失败"],
  ];
  for (const [code, english, chinese] of cases) {
    const result = { ok: false, error: { code, message: "Cannot x: y" } };
    equal(neutralToolSummary("echo", result, "en").text, english);
    equal(neutralToolSummary("echo", result, "zh").text, chinese);
    equal(neutralToolSummary("echo", result, "en").code, code);
  }
  equal(neutralToolSummary("echo", { ok: false }, "en").code, "tool_failed", "no code: tool_failed");
}); // deno-fmt-ignore

Deno.test("a follow-up reads neutrally unless a renderer module labels its frame", () => {
  const r = new EventViewRegistry();
  registerConversationViews(r);
  const followup = (frame: string, ctx: RenderContext) =>
    vnodeText(byTestId(r.render(presentEvent(e(3, "followup", { frame })), ctx), "followup")?.children);
  match(followup("ping", en), /^ Follow-up delivered to the agent/);
  match(followup("ping", zh), /^ 后续消息已交给 Agent/);
  const off = r.registerFollowupLabel((frame, lang) =>
    frame === "ping" ? (lang === "en" ? "Ping delivered" : "已送达") : undefined
  );
  match(followup("ping", en), /^ Ping delivered/);
  match(followup("ping", zh), /^ 已送达/);
  match(followup("pong", en), /^ Follow-up delivered to the agent/, "a frame it does not own");
  off();
  match(followup("ping", en), /^ Follow-up delivered to the agent/, "unregistered");
});

Deno.test("a contributed tool summarizer words, hides or declines its tool's results", () => {
  const r = new EventViewRegistry();
  registerConversationViews(r);
  const row = (result: unknown, tool = "echo") =>
    r.render(presentEvent(e(4, "tool/result", { result }), undefined, tool), en);
  const off = r.registerToolSummary("echo", (result) => {
    const v = result as { ok?: boolean; hide?: boolean };
    if (v.hide) return null;
    return v.ok ? { text: "Echoed", failed: false } : undefined;
  });
  match(vnodeText(row({ ok: true })), /^ Echoed/);
  equal(row({ ok: true, hide: true }), null, "null hides the row");
  match(vnodeText(row({ ok: false })), /^ Tool echo: failed/, "undefined declines");
  match(vnodeText(row({ ok: true }, "other")), /^ Tool other: done/, "by tool name only");
  off();
  match(vnodeText(row({ ok: true })), /^ Tool echo: done/, "unregistered");
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
