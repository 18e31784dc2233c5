/**
 * The keyless offline model: a deterministic {@linkcode ModelAdapter} that understands reminder
 * requests in English and Chinese (chrono-node for clock times) and answers tool results and
 * reminder frames with short texts (docs/recurring.md "Tools";
 * docs/design.md#absolute-time-normalization).
 *
 * @module
 */
import { readMarks } from "@chime/agent";
import { SCHEDULE_ACTIVITY_HEADING } from "@chime/schedule";
import { TIME_CONTEXT_HEADING } from "@chime/timecontext";
import { TOOL } from "./contract.ts";
import { isReminderFrame, parseReminderFrames, type ReminderFrame } from "./frame.ts";
import { frameText } from "./frame_text.ts";
import { isChinese, parseIntent } from "./parse.ts";
import { type Draft, firstDraft, followUp, merge, type PlanContext, type Request } from "./plan.ts";
import { callArgs, callNames, knownReminders } from "./refer.ts";
import { obj, str } from "./contract.ts";
import { describeResult, LOCAL_NOTE_MARKS, type ReplyContext } from "./reply.ts";
import { helpText } from "./texts.ts";
import type {
  ModelAdapter,
  ModelMessage,
  ModelReply,
  ModelRequest,
  ModelToolSpec,
} from "@chime/agent";

/**
 * Plugin notes that are context, never requests: the time-context reading and the schedule
 * plugin's `[schedule-activity]` note (page actions and skips, docs/recurring.md).
 */
const CONTEXT_HEADINGS = [TIME_CONTEXT_HEADING, SCHEDULE_ACTIVITY_HEADING] as const;

/** The batch a step answers: the user messages of the latest user group, read for action. */
interface Batch {
  /** The user's live requests (stopped and superseded ones are left out), oldest first. */
  readonly texts: readonly { readonly text: string; readonly edit?: Request["edit"] }[];
  /** Reminder frames in the batch. */
  readonly frames: readonly ReminderFrame[];
}

/**
 * The user group that ends at or before `end` (skipping this turn's tool steps). A message the
 * user stopped, or replaced by an edit, is shown to the model but never acted on.
 */
function batchBefore(messages: readonly ModelMessage[], end: number): Batch {
  let i = end;
  while (i >= 0 && messages[i]?.role !== "user") i--;
  const texts: { text: string; edit?: Request["edit"] }[] = [];
  const frames: ReminderFrame[] = [];
  for (; i >= 0 && messages[i]?.role === "user"; i--) {
    const content = messages[i]!.content;
    const trimmed = content.trimStart();
    if (CONTEXT_HEADINGS.some((heading) => trimmed.startsWith(heading))) continue;
    if (isReminderFrame(content)) {
      frames.unshift(...parseReminderFrames(content));
      continue;
    }
    const marks = readMarks(content);
    if (marks.stopped || marks.superseded) continue;
    texts.unshift(marks.edit ? { text: marks.text, edit: marks.edit } : { text: marks.text });
  }
  return { texts, frames };
}

function supportsRepeat(tools: readonly ModelToolSpec[]): boolean {
  const create = tools.find((t) => t.name === TOOL.create);
  const properties = create?.parameters.properties;
  return typeof properties === "object" && properties !== null && "repeat" in properties;
}

function requestsOf(batch: Batch, ctx: ReplyContext): Request[] {
  return batch.texts.map(({ text, edit }) => ({
    intent: parseIntent(text, ctx),
    zh: isChinese(text),
    ...(edit ? { edit } : {}),
  }));
}

function forBatch(batch: Batch, pc: PlanContext): Draft {
  const drafts = requestsOf(batch, pc.reply).map((r) =>
    firstDraft(r, { ...pc, reply: { ...pc.reply, zh: r.zh } })
  );
  if (batch.frames.length === 0 && drafts.length === 0) {
    return { text: helpText(false, pc), calls: [] };
  }
  if (batch.frames.length === 0) return merge(drafts);
  // A frame answers on its own; a request sharing its batch still gets its tool calls.
  const acting = drafts.filter((d) => d.calls.length > 0);
  return { text: frameText(batch.frames, pc.reply), calls: acting.flatMap((d) => d.calls) };
}

function forToolResults(pc: PlanContext): Draft {
  const { messages } = pc;
  const names = callNames(messages);
  let start = messages.length;
  while (start > 0 && messages[start - 1]?.role === "tool") start--;
  // The reminders as known before these results: an update that changes the kind says so.
  const known = knownReminders(messages.slice(0, start));
  const outcomes = messages.slice(start).flatMap((m) => {
    if (m.role !== "tool") return [];
    const args = callArgs(messages, m.toolCallId);
    const id = str(obj(args)?.id);
    const before = id ? known.find((k) => k.view.id === id)?.view : undefined;
    const name = names.get(m.toolCallId) ?? "";
    return [{ name, content: m.content, callId: m.toolCallId, before, args }];
  });
  const batch = batchBefore(messages, start - 1);
  const reply = { ...pc.reply, zh: isChinese(batch.texts.map((t) => t.text).join(" ")) };
  const next = followUp(requestsOf(batch, reply), outcomes, { ...pc, reply });
  return next ?? { text: outcomes.map((o) => describeResult(o, reply)).join("\n\n"), calls: [] };
}

/**
 * The keyless default model adapter (`name: 'offline'`). Deterministic: its reply depends only on
 * the request (messages, registered tools, `context.now` in epoch ms and `context.timeZone`).
 * Reminder requests become `schedule_create` calls (`after_seconds` for delays, a local
 * `{ date, time, time_zone? }` for clock times computed in the session zone, never the process
 * locale, `repeat: { rrule, start }` for repeats, docs/recurring.md); a repeat it cannot express
 * gets an answer saying so, never a one-off. List, cancel ("stop the X reminder"), snooze
 * ("snooze it 10 minutes") and move ("move it to 4pm") requests become `schedule_list`,
 * `schedule_delete`, `schedule_snooze` and `schedule_update` calls, and pause, resume, skip
 * ("pause my standup reminder", "skip next Monday's standup") and a new text ("rename the
 * standup reminder to …") `schedule_pause`, `schedule_resume`, `schedule_skip` and
 * `schedule_update { prompt }` calls, judged on the current turn's own results; a repeating reminder moved to a clock time keeps repeating at that time (a new
 * `repeat`), and an update that changes whether a reminder repeats says so. Messages the transcript marks stopped or superseded are never acted on; an edit
 * reconciles what its original did. Tool results and `<schedule-reminder>` frames get short
 * texts; anything else gets a help text offering only what the registered tools serve (without
 * the schedule tools: that reminders are not enabled in this configuration).
 *
 * @example Ask for a reminder
 * ```ts
 * import { OfflineModel } from "@chime/offline";
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
    const { messages } = request;
    const pc: PlanContext = {
      reply: {
        zh: false,
        now: request.context.now,
        timeZone: request.context.timeZone,
        noted: messages.some((m) =>
          m.role === "assistant" && typeof m.content === "string" &&
          LOCAL_NOTE_MARKS.some((mark) => (m.content as string).includes(mark))
        ),
      },
      tools: new Set(request.tools.map((t) => t.name)),
      canRepeat: supportsRepeat(request.tools),
      messages,
    };
    const draft = messages.at(-1)?.role === "tool"
      ? forToolResults(pc)
      : forBatch(batchBefore(messages, messages.length - 1), pc);
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
