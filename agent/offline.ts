/**
 * The keyless offline model: a deterministic {@linkcode ModelAdapter} that understands reminder
 * requests in English and Chinese (chrono-node for clock times) and answers tool results and
 * reminder frames with short texts (ARCHITECTURE.md §6 "Tools"; seed §"绝对时间规范化").
 *
 * @module
 */
import { isReminderFrame, parseReminderFrames } from "./offline/frame.ts";
import { isChinese, type OfflineIntent, parseIntent } from "./offline/parse.ts";
import {
  describeResult,
  frameText,
  readJson,
  readSchedules,
  type ReplyContext,
  type ToolOutcome,
} from "./offline/reply.ts";
import {
  askWhichText,
  helpText,
  missingTimeText,
  notEnabledText,
  timeText,
} from "./offline/texts.ts";
import type { ModelAdapter, ModelMessage, ModelReply, ModelRequest } from "./types.ts";

// Re-exported so this entry point documents on its own (`deno doc --lint agent/offline.ts`).
export type {
  ModelAdapter,
  ModelMessage,
  ModelReply,
  ModelRequest,
  ModelToolCall,
  ModelToolSpec,
} from "./types.ts";

type Call = { readonly name: string; readonly args: Record<string, unknown> };
type Draft = { readonly text: string; readonly calls: readonly Call[] };

const TIME_CONTEXT = "[time-context]";

function userText(m: ModelMessage | undefined): string | undefined {
  return m?.role === "user" && !m.content.trimStart().startsWith(TIME_CONTEXT)
    ? m.content
    : undefined;
}

/** User messages of the batch that ends at or before `end` (skipping this turn's tool steps). */
function batchBefore(messages: readonly ModelMessage[], end: number): string[] {
  let i = end;
  while (i >= 0 && messages[i]?.role !== "user") i--;
  const batch: string[] = [];
  for (; i >= 0 && messages[i]?.role === "user"; i--) {
    const text = userText(messages[i]);
    if (text !== undefined) batch.unshift(text);
  }
  return batch;
}

function forIntent(intent: OfflineIntent, ctx: ReplyContext, tools: ReadonlySet<string>): Draft {
  const none = (text: string): Draft => ({ text, calls: [] });
  const needs = (...names: string[]) => names.every((n) => tools.has(n));
  switch (intent.kind) {
    case "create":
      return needs("schedule_create")
        ? { text: "", calls: [{ name: "schedule_create", args: { ...intent.args } }] }
        : none(notEnabledText(ctx.zh));
    case "list":
      return needs("schedule_list")
        ? { text: "", calls: [{ name: "schedule_list", args: {} }] }
        : none(notEnabledText(ctx.zh));
    case "delete":
      return needs("schedule_delete")
        ? { text: "", calls: intent.ids.map((id) => ({ name: "schedule_delete", args: { id } })) }
        : none(notEnabledText(ctx.zh));
    case "cancel-match":
      return needs("schedule_list", "schedule_delete")
        ? { text: "", calls: [{ name: "schedule_list", args: {} }] }
        : none(notEnabledText(ctx.zh));
    case "missing-time":
      return none(needs("schedule_create") ? missingTimeText(ctx.zh) : notEnabledText(ctx.zh));
    case "time":
      return none(timeText(ctx));
    case "none":
      return none(helpText(ctx.zh));
  }
}

function forBatch(batch: readonly string[], ctx: ReplyContext, tools: ReadonlySet<string>): Draft {
  const frames = batch.filter(isReminderFrame).flatMap(parseReminderFrames);
  const requests = batch.filter((t) => !isReminderFrame(t));
  const drafts = requests.map((t) =>
    forIntent(parseIntent(t, ctx), { ...ctx, zh: isChinese(t) }, tools)
  );
  if (frames.length === 0 && drafts.length === 0) return { text: helpText(false), calls: [] };
  if (frames.length === 0) {
    return {
      text: drafts.map((d) => d.text).filter(Boolean).join("\n\n"),
      calls: drafts.flatMap((d) => d.calls),
    };
  }
  // A frame answers on its own; a request sharing its batch still gets its tool calls.
  const acting = drafts.filter((d) => d.calls.length > 0);
  return { text: frameText(frames, ctx), calls: acting.flatMap((d) => d.calls) };
}

/** After the `schedule_list` of a cancel-by-words request: delete the single match or ask. */
function afterCancelList(
  messages: readonly ModelMessage[],
  outcomes: readonly ToolOutcome[],
  batch: readonly string[],
  ctx: ReplyContext,
): Draft | undefined {
  const list = outcomes.find((o) => o.name === "schedule_list");
  const request = batch.map((t) => parseIntent(t, ctx)).find((i) => i.kind === "cancel-match");
  const deleted = messages.some((m) =>
    m.role === "assistant" && m.toolCalls?.some((c) => c.name === "schedule_delete")
  );
  if (!list || request?.kind !== "cancel-match" || deleted) return undefined;
  const value = readJson(list.content);
  if (typeof value !== "object" || value === null || (value as { ok?: unknown }).ok === false) {
    return undefined;
  }
  const schedules = readSchedules(value);
  const words = request.words.map((w) => w.toLowerCase());
  const matches = schedules.filter((s) => words.every((w) => s.prompt.toLowerCase().includes(w)));
  const only = matches.length === 1 ? matches[0] : undefined;
  if (only) return { text: "", calls: [{ name: "schedule_delete", args: { id: only.id } }] };
  return { text: askWhichText(schedules, request.words, ctx), calls: [] };
}

function forToolResults(request: ModelRequest, ctx: ReplyContext): Draft {
  const { messages } = request;
  const names = new Map<string, string>();
  for (const m of messages) {
    if (m.role === "assistant") { for (const c of m.toolCalls ?? []) names.set(c.id, c.name); }
  }
  let start = messages.length;
  while (start > 0 && messages[start - 1]?.role === "tool") start--;
  const outcomes = messages.slice(start).flatMap((m) =>
    m.role === "tool" ? [{ name: names.get(m.toolCallId) ?? "", content: m.content }] : []
  );
  const batch = batchBefore(messages, start - 1);
  const c = { ...ctx, zh: isChinese(batch.filter((t) => !isReminderFrame(t)).join(" ")) };
  const tools = new Set(request.tools.map((t) => t.name));
  const follow = tools.has("schedule_delete")
    ? afterCancelList(messages, outcomes, batch, c)
    : undefined;
  return follow ?? { text: outcomes.map((o) => describeResult(o, c)).join("\n\n"), calls: [] };
}

/**
 * The keyless default model adapter (`name: 'offline'`). Deterministic: its reply depends only on
 * the request (messages, registered tools, `context.now` in epoch ms and `context.timeZone`).
 * Reminder requests become `schedule_create` calls (`after_seconds` for delays, a local
 * `{ date, time, time_zone? }` for clock times computed in the session zone, never the process
 * locale); list and cancel requests become `schedule_list` / `schedule_delete` calls; tool results
 * and `<schedule-reminder>` frames get short texts; anything else gets a help text.
 *
 * @example Ask for a reminder
 * ```ts
 * import { OfflineModel } from "./offline.ts";
 * import assert from "node:assert/strict";
 *
 * const model = new OfflineModel();
 * const reply = await model.complete({
 *   messages: [{ role: "user", content: "remind me in 20 minutes to stretch" }],
 *   tools: [{ name: "schedule_create", description: "", parameters: {} }],
 *   signal: new AbortController().signal,
 *   context: { now: Date.parse("2026-11-29T08:15:00Z"), timeZone: "Europe/Berlin" },
 * });
 * assert.deepEqual(reply.toolCalls, [
 *   { id: "call_1", name: "schedule_create", arguments: '{"prompt":"stretch","after_seconds":1200}' },
 * ]);
 * ```
 */
export class OfflineModel implements ModelAdapter {
  /** Adapter name for logs: `offline`. */
  readonly name = "offline";

  /**
   * Produces one assistant reply.
   *
   * @param request the conversation, the registered tools and the clock/zone context
   * @returns text and/or tool calls (ids `call_<n>`, numbered across the whole conversation)
   * @throws the signal's reason (rejects) when `request.signal` is already aborted
   */
  complete(request: ModelRequest): Promise<ModelReply> {
    if (request.signal.aborted) return Promise.reject(request.signal.reason);
    const ctx: ReplyContext = {
      zh: false,
      now: request.context.now,
      timeZone: request.context.timeZone,
    };
    const { messages } = request;
    const draft = messages.at(-1)?.role === "tool" ? forToolResults(request, ctx) : forBatch(
      batchBefore(messages, messages.length - 1),
      ctx,
      new Set(request.tools.map((t) => t.name)),
    );
    const used = messages.reduce(
      (n, m) => n + (m.role === "assistant" ? m.toolCalls?.length ?? 0 : 0),
      0,
    );
    const toolCalls = draft.calls.map((c, i) => ({
      id: `call_${used + i + 1}`,
      name: c.name,
      arguments: JSON.stringify(c.args),
    }));
    return Promise.resolve({ text: draft.text, toolCalls });
  }
}
