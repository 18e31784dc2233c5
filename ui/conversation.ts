/**
 * The conversation renderers of `conversation.chat.eventview`: messages (assistant Markdown),
 * one human line per tool action, turn errors, follow-ups and fork dividers. Bookkeeping events
 * render nothing. Generic: a tool result reads as its tool's summarizer has it, and a follow-up
 * as its module labels it (both contributed to the registry by renderer modules, `registry.ts`);
 * otherwise as a neutral line (`tool_summary.ts`, "Follow-up delivered to the agent").
 *
 * @module
 */
import type { VNode } from "preact";
import { el } from "./_el.ts";
import { HOUR_CYCLE, type Lang, localeOf } from "./i18n.ts";
import { icon } from "./icons.ts";
import { renderMarkdown } from "./markdown.ts";
import type { EventRenderer, EventViewRegistry, RenderContext } from "./registry.ts";
import { longText } from "./long_text.tsx";
import { neutralToolSummary } from "./tool_summary.ts";

const TEXT: Readonly<Record<Lang, Readonly<Record<string, string>>>> = {
  en: {
    failed: "The model failed to answer this turn",
    cancelled: "Turn cancelled",
    followup: "Follow-up delivered to the agent",
    seed: "Forked here — messages above are inherited",
    edited: "edited",
    yourTime: "Your time",
    you: "You",
    agent: "Assistant",
    renamed: "Session renamed to",
    renamedBack: "Session title back to its first message",
  },
  zh: {
    failed: "模型未能完成本轮回复",
    cancelled: "本轮已取消",
    followup: "后续消息已交给 Agent",
    seed: "从此处分叉 —— 上方消息为继承内容",
    edited: "已编辑",
    yourTime: "你的时间",
    you: "你",
    agent: "助手",
    renamed: "会话已重命名为",
    renamedBack: "会话标题已恢复为第一条消息",
  },
};

function clock(at: string, ctx: RenderContext): string {
  const d = new Date(at);
  if (Number.isNaN(d.getTime())) return "";
  try {
    return d.toLocaleTimeString(localeOf(ctx.lang), {
      hour: "2-digit",
      minute: "2-digit",
      hourCycle: HOUR_CYCLE,
      timeZone: ctx.timeZone,
    });
  } catch {
    return d.toISOString().slice(11, 16);
  }
}

function details(summary: VNode | string, body: unknown, testid: string, cls: string): VNode {
  return el(
    "details",
    { class: `compact ${cls}`, "data-testid": testid },
    el("summary", null, summary),
    el("pre", null, JSON.stringify(body, null, 2)),
  );
}

/** A visually hidden speaker label, read before the message by screen readers. */
function speaker(name: string): VNode {
  return el("span", { class: "sr-only" }, `${name}: `);
}

const userRpc: EventRenderer = (node, ctx) => {
  const d = node.data as {
    messageId?: string;
    text?: string;
    edits?: string;
    source?: { clientTimeZone?: unknown };
  };
  // The message's own bound zone (its provenance), not the viewer's:
  // docs/design.md#request-provenance. Its time is shown in that zone, next to its label; the
  // viewer's local time is the tooltip.
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
    speaker(TEXT[ctx.lang].you ?? ""),
    longText(
      d.text ?? "",
      String(node.seq),
      ctx.lang,
      el("div", { class: "bubble" }, d.text ?? ""),
    ),
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
  // Markdown through markdown-it with raw HTML off and safe links only (`markdown.ts`).
  return el(
    "div",
    { class: "msg assistant", "data-testid": "message-assistant" },
    speaker(TEXT[ctx.lang].agent ?? ""),
    longText(
      d.text,
      String(node.seq),
      ctx.lang,
      el("div", {
        class: "bubble md",
        dangerouslySetInnerHTML: { __html: renderMarkdown(d.text) },
      }),
    ),
    el("div", { class: "meta" }, clock(node.at, ctx)),
  );
};

const toolResult: EventRenderer = (node, ctx, registry) => {
  const d = node.data as { result?: unknown };
  const tool = node.toolName;
  const contributed = registry.summarizeTool(tool, d.result, ctx);
  if (contributed === null) return null;
  const summary = contributed ?? neutralToolSummary(tool, d.result, ctx.lang);
  return el(
    "details",
    {
      class: `compact ${summary.failed ? "tool failed" : "tool"}`,
      "data-testid": "tool-result",
      "data-code": summary.code,
      "data-tool": tool,
    },
    el(
      "summary",
      null,
      icon(summary.failed ? "alert" : "tool"),
      " ",
      el("span", { class: "tool-summary" }, summary.text),
    ),
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
    return el(
      "div",
      { class: "system-row", "data-testid": "turn-cancelled" },
      icon("stop"),
      ` ${TEXT[ctx.lang].cancelled ?? ""}`,
    );
  }
  return null;
};

const followup: EventRenderer = (node, ctx, registry) => {
  const frame = (node.data as { frame?: unknown }).frame;
  const label = registry.followupLabel(frame, ctx.lang) ?? TEXT[ctx.lang].followup;
  return details(el("span", null, icon("steer"), ` ${label}`), frame, "followup", "system");
};

const endSeed: EventRenderer = (_node, ctx) =>
  el("div", { class: "divider", role: "separator" }, TEXT[ctx.lang].seed ?? "");

const hidden: EventRenderer = () => null;

// A rename (`session/title`, docs/events.md): one quiet line, the title a text child.
const renamed: EventRenderer = (node, ctx) => {
  const title = (node.data as { title?: unknown }).title;
  return el(
    "div",
    { class: "system-row", "data-testid": "session-renamed" },
    icon("edit"),
    typeof title === "string"
      ? ` ${TEXT[ctx.lang].renamed} “${title}”`
      : ` ${TEXT[ctx.lang].renamedBack}`,
  );
};

/** The built-in conversation renderers by durable event type. */
export const CONVERSATION_RENDERERS: Readonly<Record<string, EventRenderer>> = {
  "user-rpc": userRpc,
  "assistant/message": assistant,
  // One line per tool action: the result's line (its raw value behind the details).
  "tool/call": hidden,
  "tool/result": toolResult,
  "turn/end": turnEnd,
  "followup": followup,
  "session/end-seed": endSeed,
  "turn/start": hidden,
  "step/start": hidden,
  "time-context/marker": hidden,
  "session/title": renamed,
  // The page turns to its "not found" state on it (client/model.ts).
  "session/deleted": hidden,
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
