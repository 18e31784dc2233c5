/**
 * The conversation renderers of `conversation.chat.eventview`: messages, compact tool rows,
 * turn errors, follow-ups and fork dividers. Bookkeeping events render nothing.
 *
 * @module
 */
import type { VNode } from "preact";
import { el } from "./_el.ts";
import { type Lang, localeOf } from "./i18n.ts";
import type { EventRenderer, EventViewRegistry, RenderContext } from "./registry.ts";
import { summarizeToolResult } from "./tool_summary.ts";

const TEXT: Readonly<Record<Lang, Readonly<Record<string, string>>>> = {
  en: {
    failed: "The model failed to answer this turn",
    cancelled: "Turn cancelled",
    followup: "Reminder delivered to the agent",
    seed: "Forked here — messages above are inherited",
    edited: "edited",
    yourTime: "Your time",
  },
  zh: {
    failed: "模型未能完成本轮回复",
    cancelled: "本轮已取消",
    followup: "提醒已交给 Agent",
    seed: "从此处分叉 —— 上方消息为继承内容",
    edited: "已编辑",
    yourTime: "你的时间",
  },
};

function clock(at: string, ctx: RenderContext): string {
  const d = new Date(at);
  if (Number.isNaN(d.getTime())) return "";
  try {
    return d.toLocaleTimeString(localeOf(ctx.lang), {
      hour: "2-digit",
      minute: "2-digit",
      timeZone: ctx.timeZone,
    });
  } catch {
    return d.toISOString().slice(11, 16);
  }
}

function short(value: unknown, max = 80): string {
  const s = typeof value === "string" ? value : JSON.stringify(value) ?? "";
  return s.length > max ? `${s.slice(0, max - 1)}…` : s;
}

function details(summary: VNode | string, body: unknown, testid: string, cls: string): VNode {
  return el(
    "details",
    { class: `compact ${cls}`, "data-testid": testid },
    el("summary", null, summary),
    el("pre", null, JSON.stringify(body, null, 2)),
  );
}

const userRpc: EventRenderer = (node, ctx) => {
  const d = node.data as {
    messageId?: string;
    text?: string;
    edits?: string;
    source?: { clientTimeZone?: unknown };
  };
  // The message's own bound zone (its provenance), not the viewer's: seed §"Session 与请求时区归属".
  // Its time is shown in that zone, next to its label; the viewer's local time is the tooltip.
  const zone = typeof d.source?.clientTimeZone === "string" ? d.source.clientTimeZone : undefined;
  const own = clock(node.at, zone ? { ...ctx, timeZone: zone } : ctx);
  const yours = `${TEXT[ctx.lang].yourTime}: ${clock(node.at, ctx)} (${ctx.timeZone})`;
  return el(
    "div",
    {
      class: "msg user",
      "data-testid": "message-user",
      "data-message-id": d.messageId,
      "data-edits": d.edits,
    },
    el("div", { class: "bubble" }, d.text ?? ""),
    el(
      "div",
      { class: "meta" },
      el("time", { dateTime: node.at, title: yours, "data-testid": "message-time" }, own),
      zone ? el("span", { class: "zone", "data-testid": "message-zone" }, ` · ${zone}`) : null,
      d.edits ? el("span", { class: "edited" }, ` · ${TEXT[ctx.lang].edited}`) : null,
    ),
  );
};

const assistant: EventRenderer = (node, ctx) => {
  const d = node.data as { text?: string };
  if (!d.text) return null;
  return el(
    "div",
    { class: "msg assistant", "data-testid": "message-assistant" },
    el("div", { class: "bubble" }, d.text),
    el("div", { class: "meta" }, clock(node.at, ctx)),
  );
};

const toolCall: EventRenderer = (node) => {
  const d = node.data as { name?: string; args?: unknown };
  const summary = el(
    "span",
    null,
    "🔧 ",
    el("code", null, d.name ?? "tool"),
    el("span", { class: "args" }, ` ${short(d.args)}`),
  );
  return details(summary, d.args, "tool-call", "tool");
};

const toolResult: EventRenderer = (node, ctx) => {
  const d = node.data as { result?: unknown };
  const summary = summarizeToolResult(d.result, ctx);
  return el(
    "details",
    {
      class: `compact ${summary.failed ? "tool failed" : "tool"}`,
      "data-testid": "tool-result",
      "data-code": summary.code,
    },
    el("summary", null, "↳ ", el("span", { class: "tool-summary" }, summary.text)),
    el("pre", null, JSON.stringify(d.result, null, 2)),
  );
};

const turnEnd: EventRenderer = (node, ctx) => {
  const d = node.data as { outcome?: string; error?: string };
  if (d.outcome === "error") {
    return el(
      "div",
      { class: "turn-error", role: "alert", "data-testid": "turn-error" },
      el("strong", null, TEXT[ctx.lang].failed ?? ""),
      d.error ? el("span", null, `: ${d.error}`) : null,
    );
  }
  if (d.outcome === "cancelled") {
    return el("div", { class: "system-row" }, TEXT[ctx.lang].cancelled ?? "");
  }
  return null;
};

const followup: EventRenderer = (node, ctx) =>
  details(
    `↪ ${TEXT[ctx.lang].followup}`,
    (node.data as { frame?: unknown }).frame,
    "followup",
    "system",
  );

const endSeed: EventRenderer = (_node, ctx) =>
  el("div", { class: "divider", role: "separator" }, TEXT[ctx.lang].seed ?? "");

const hidden: EventRenderer = () => null;

/** The built-in conversation renderers by durable event type. */
export const CONVERSATION_RENDERERS: Readonly<Record<string, EventRenderer>> = {
  "user-rpc": userRpc,
  "assistant/message": assistant,
  "tool/call": toolCall,
  "tool/result": toolResult,
  "turn/end": turnEnd,
  "followup": followup,
  "session/end-seed": endSeed,
  "turn/start": hidden,
  "step/start": hidden,
  "time-context/marker": hidden,
};

/**
 * Registers every built-in conversation renderer.
 *
 * @param registry the `conversation.chat.eventview` registry
 * @returns a function that unregisters them all
 */
export function registerConversationViews(registry: EventViewRegistry): () => void {
  const offs = Object.entries(CONVERSATION_RENDERERS).map(([t, r]) => registry.register(t, r));
  return () => offs.forEach((off) => off());
}
