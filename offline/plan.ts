/**
 * What the offline model does for each request of a batch: the first step's tool calls or text,
 * and the follow-up calls once a `schedule_list` or a failed `schedule_update` comes back. Every
 * decision reads only the request, the conversation and the current turn's own tool results,
 * so an earlier turn's actions never stand in for this one's (README.md#what-it-does).
 *
 * An edited request (`_marks.ts` edit note) is reconciled: the reminder the original request
 * created or last changed is updated to the edited request (`schedule_update`; delete + create
 * when the tools have no update), or undone when the edited request no longer asks for one.
 *
 * @module
 */
import type { EditAction, EditInfo } from "@chime/agent";
import type { ModelMessage } from "@chime/agent";
import {
  type CreateArgs,
  errorCode,
  isFailure,
  type LocalAt,
  obj,
  readJson,
  readSchedules,
  type RepeatArgs,
  type ScheduleView,
  type Selector,
  str,
  TOOL,
  type ToolArgs,
} from "./contract.ts";
import type { OfflineIntent, Target } from "./parse.ts";
import { callArgs, goneReminders, knownReminders, latestReminder } from "./refer.ts";
import { goneText, notRepeatingText, type ReplyContext, type ToolOutcome } from "./reply.ts";
import { moveSeries } from "./series_move.ts";
import { afterListSeries, forSeries, isSeries } from "./series_plan.ts";
import {
  type AskAction,
  askWhichText,
  cannotRepeatText,
  helpText,
  missingTimeText,
  noSuchDateText,
  notEnabledText,
  seriesMoveText,
  timeText,
  unavailableText,
} from "./texts.ts";

/** One tool call to make. */
export interface Call {
  /** Tool name. */
  readonly name: keyof ToolArgs;
  /** Arguments (serialized as the call's JSON). */
  readonly args: ToolArgs[keyof ToolArgs];
}

/** A reply in the making: text and tool calls. */
export interface Draft {
  /** Assistant text (may be empty). */
  readonly text: string;
  /** Tool calls, in order. */
  readonly calls: readonly Call[];
}

/** One user request of the batch. */
export interface Request {
  /** What the user asked for. */
  readonly intent: OfflineIntent;
  /** Reply in Chinese. */
  readonly zh: boolean;
  /** Present when the request edits an earlier one. */
  readonly edit?: EditInfo;
}

/** What a plan is made against. */
export interface PlanContext {
  /** Clock and zone (`zh` is set per request). */
  readonly reply: ReplyContext;
  /** Registered tool names. */
  readonly tools: ReadonlySet<string>;
  /** `schedule_create` takes `repeat` (docs/recurring.md). */
  readonly canRepeat: boolean;
  /** The whole conversation. */
  readonly messages: readonly ModelMessage[];
}

const text = (t: string): Draft => ({ text: t, calls: [] });
const call = <N extends keyof ToolArgs>(name: N, args: ToolArgs[N]): Call => ({ name, args });

/**
 * Joins drafts: texts one paragraph each, calls in order.
 *
 * @param drafts the drafts
 * @returns one draft
 */
export function merge(drafts: readonly Draft[]): Draft {
  return {
    text: drafts.map((d) => d.text).filter(Boolean).join("\n\n"),
    calls: drafts.flatMap((d) => d.calls),
  };
}

function has(pc: PlanContext, ...names: string[]): boolean {
  return names.every((n) => pc.tools.has(n));
}

function selectorOf(args: Record<string, unknown>): Selector | undefined {
  if (typeof args.after_seconds === "number") return { after_seconds: args.after_seconds };
  if (typeof args.at === "string" || obj(args.at)) return { at: args.at as LocalAt | string };
  const repeat = obj(args.repeat);
  if (typeof repeat?.rrule === "string") return { repeat: repeat as unknown as RepeatArgs };
  return undefined;
}

/** How {@linkcode act} changes a reminder: a new prompt; the new time names a day. */
interface ActOptions {
  readonly prompt?: string | undefined;
  readonly dated?: boolean | undefined;
}

/**
 * Changes reminder `view` to `selector` (and `prompt`): an update, else delete + create. A
 * series moved to a clock time stays a series at that time (`series_move.ts`), never a one-off.
 */
function act(view: ScheduleView, to: Selector, pc: PlanContext, options: ActOptions = {}): Draft {
  const zh = pc.reply.zh;
  const { prompt } = options;
  let selector = to;
  if (view.repeat && !("repeat" in selector)) {
    const { now, timeZone } = pc.reply;
    const moved = moveSeries({ ...view, repeat: view.repeat }, selector, {
      now,
      timeZone,
      dated: options.dated,
    });
    if (moved.kind === "refuse") return text(seriesMoveText(moved.reason, view.repeat, zh));
    selector = { repeat: moved.repeat };
  }
  if ("repeat" in selector && !pc.canRepeat) return text(unavailableText("repeat", zh));
  if (has(pc, TOOL.update)) {
    return {
      text: "",
      calls: [call(TOOL.update, { id: view.id, ...(prompt ? { prompt } : {}), ...selector })],
    };
  }
  const keep = prompt || view.prompt;
  if (has(pc, TOOL.delete, TOOL.create) && keep) {
    return {
      text: "",
      calls: [call(TOOL.delete, { id: view.id }), call(TOOL.create, { prompt: keep, ...selector })],
    };
  }
  return text(unavailableText("update", zh));
} // deno-fmt-ignore

function snooze(view: ScheduleView, seconds: number): Draft {
  return { text: "", calls: [call(TOOL.snooze, { id: view.id, after_seconds: seconds })] };
}

/** A reminder named by target without a list, or `undefined` when a list must decide. */
function direct(
  target: Target,
  pc: PlanContext,
  prefer: "frame" | "any",
): ScheduleView | undefined {
  if (target.kind === "id") {
    const known = knownReminders(pc.messages).find((k) => k.view.id === target.id)?.view;
    return known ?? { id: target.id, prompt: "", scheduledAt: "", status: "", kind: "" };
  }
  return target.kind === "latest" ? latestReminder(pc.messages, prefer) : undefined;
} // deno-fmt-ignore

function listFirst(pc: PlanContext, ...needs: string[]): Draft {
  return has(pc, TOOL.list, ...needs)
    ? { text: "", calls: [call(TOOL.list, {})] }
    : text(notEnabledText(pc.reply.zh));
}

function forIntent(intent: OfflineIntent, pc: PlanContext): Draft {
  const zh = pc.reply.zh;
  switch (intent.kind) {
    case "create":
      if (!has(pc, TOOL.create)) return text(notEnabledText(zh));
      if ("repeat" in intent.args && !pc.canRepeat) return text(unavailableText("repeat", zh));
      return { text: "", calls: [call(TOOL.create, { ...intent.args })] };
    case "cannot-repeat":
      return text(cannotRepeatText(intent.reason, zh));
    case "list":
      return has(pc, TOOL.list)
        ? { text: "", calls: [call(TOOL.list, {})] }
        : text(notEnabledText(zh));
    case "delete":
      return has(pc, TOOL.delete)
        ? { text: "", calls: intent.ids.map((id) => call(TOOL.delete, { id })) }
        : text(notEnabledText(zh));
    case "cancel-match":
      return listFirst(pc, TOOL.delete);
    case "snooze": {
      if (!has(pc, TOOL.snooze)) return text(unavailableText("snooze", zh));
      const view = direct(intent.target, pc, "frame");
      return view ? snooze(view, intent.seconds) : listFirst(pc);
    }
    case "update": {
      if (!has(pc, TOOL.update) && !has(pc, TOOL.delete, TOOL.create)) {
        return text(unavailableText("update", zh));
      }
      const view = direct(intent.target, pc, "any");
      // An id the conversation never showed may be a series: the list tells, before a clock time
      // could turn it into a one-off.
      const unseen = view !== undefined && !view.prompt && !view.repeat &&
        !("repeat" in intent.selector);
      if (unseen && has(pc, TOOL.list)) return listFirst(pc);
      return view && (view.prompt || has(pc, TOOL.update))
        ? act(view, intent.selector, pc, { dated: intent.dated })
        : listFirst(pc);
    }
    case "missing-time":
      return text(
        !has(pc, TOOL.create)
          ? notEnabledText(zh)
          : intent.date !== undefined
          ? missingTimeText(zh, { date: intent.date, phrase: intent.phrase ?? "" })
          : missingTimeText(zh),
      );
    case "no-such-date":
      return text(noSuchDateText(intent, zh));
    case "time":
      return text(timeText(pc.reply));
    case "none":
      return text(helpText(zh, pc));
    default:
      return forSeries(intent, pc); // pause, resume, skip, a new text
  }
} // deno-fmt-ignore

/** Whether an action's reminder text is part of `original` (a batch may hold other requests). */
function mentions(a: EditAction, original: string): boolean {
  const prompt = str(obj(a.args)?.prompt) || str(obj(a.result)?.prompt);
  return prompt !== "" && original.toLowerCase().includes(prompt.toLowerCase());
}

/**
 * The reminder the original request of an edit left behind: the last one it created or changed
 * that it did not delete afterwards. When the original shared its step with other requests,
 * actions whose reminder text the original names are preferred.
 *
 * @param edit the edit note: the original text and its tool actions
 * @returns its id, or `undefined` when it left none
 */
export function reminderOf(edit: EditInfo): string | undefined {
  const named = edit.actions.filter((a) => a.name !== TOOL.create || mentions(a, edit.original));
  const actions = named.some((a) => a.name === TOOL.create) ? named : edit.actions;
  const ids: string[] = [];
  for (const a of actions) {
    if (a.result === undefined || isFailure(a.result)) continue;
    const id = str(obj(a.result)?.id) || str(obj(a.args)?.id);
    if (!id) continue;
    const at = ids.indexOf(id);
    if (at >= 0) ids.splice(at, 1);
    if (a.name === TOOL.create || a.name === TOOL.update || a.name === TOOL.snooze) ids.push(id);
  }
  return ids.at(-1);
}

function reconcile(edit: EditInfo, intent: OfflineIntent, pc: PlanContext): Draft {
  const id = reminderOf(edit);
  if (id === undefined) return forIntent(intent, pc);
  const view: ScheduleView = { id, prompt: "", scheduledAt: "", status: "", kind: "" };
  switch (intent.kind) {
    case "create": {
      const { prompt, ...selector } = intent.args;
      return act({ ...view, prompt }, selector as Selector, pc, { prompt });
    }
    case "list":
    case "time":
    case "none": {
      // The edited request asks for no reminder: undo the one the original set.
      const undo = has(pc, TOOL.delete) ? [call(TOOL.delete, { id })] : [];
      const rest = forIntent(intent, pc);
      return { text: intent.kind === "none" ? "" : rest.text, calls: [...undo, ...rest.calls] };
    }
    default:
      return forIntent(intent, pc);
  }
}

/**
 * The first step's draft for one request.
 *
 * @param request the request
 * @param pc the plan context (its `reply.zh` already set for this request)
 * @returns text and/or tool calls
 */
export function firstDraft(request: Request, pc: PlanContext): Draft {
  return request.edit ? reconcile(request.edit, request.intent, pc) : forIntent(request.intent, pc);
}

function matching(schedules: readonly ScheduleView[], words: readonly string[]): ScheduleView[] {
  const lower = words.map((w) => w.toLowerCase());
  return schedules.filter((s) => lower.every((w) => s.prompt.toLowerCase().includes(w)));
}

/**
 * Matches that are one reminder and the snooze records of its occurrences (`snoozeOf` names it),
 * the reminder first: "stop the blink reminder" after "snooze it" means all of them. `undefined`
 * when the matches are reminders of their own.
 */
function oneReminder(found: readonly ScheduleView[]): ScheduleView[] | undefined {
  const root = found.find((s) => s.snoozeOf === undefined)?.id ?? found[0]?.snoozeOf;
  const own = found.filter((s) => s.id === root);
  const snoozes = found.filter((s) => s.snoozeOf !== undefined && s.snoozeOf === root);
  return own.length + snoozes.length === found.length ? [...own, ...snoozes] : undefined;
}

/** After this turn's `schedule_list`: the call a by-words (or unresolved) request now makes. */
function afterList(
  intent: OfflineIntent,
  schedules: ScheduleView[],
  pc: PlanContext,
): Draft | undefined {
  let words: readonly string[];
  let action: AskAction;
  if (isSeries(intent)) return afterListSeries(intent, schedules, pc);
  if (intent.kind === "cancel-match") [words, action] = [intent.words, "cancel"];
  else if (intent.kind === "snooze" || intent.kind === "update") {
    const t = intent.target;
    words = t.kind === "words" ? t.words : [];
    action = intent.kind;
    if (t.kind === "id") {
      const named = schedules.find((s) => s.id === t.id);
      if (intent.kind === "snooze") return named ? snooze(named, intent.seconds) : undefined;
      // Not listed: the tool says whether it ended or never was (then it is set anew).
      const view = named ?? { id: t.id, prompt: "", scheduledAt: "", status: "", kind: "" };
      return act(view, intent.selector, pc, { dated: intent.dated });
    }
  } else return undefined;
  let pool = schedules;
  if (intent.kind === "cancel-match" && intent.series) {
    // "stop repeating …": the series (and the snoozes of its occurrences), never a one-off.
    const repeating = new Set(schedules.filter((s) => s.repeat).map((s) => s.id));
    pool = schedules.filter((s) => repeating.has(s.snoozeOf ?? s.id));
    if (matching(pool, words).length === 0 && matching(schedules, words).length > 0) {
      return text(notRepeatingText(pc.reply.zh));
    }
  }
  const found = matching(pool, words);
  // Nothing active matches but the conversation saw it end: say so, and when, instead of asking.
  if (found.length === 0 && words.length > 0) {
    const gone = goneReminders(pc.messages).filter((g) => matching([g.view], words).length > 0);
    if (gone.length > 0) return text(goneText(gone.at(-1)!, pc.reply));
  }
  const only = found.length === 1 ? found[0] : undefined;
  const group = found.length > 0 ? oneReminder(found) : undefined;
  if (intent.kind === "cancel-match" && group) {
    return { text: "", calls: group.map((s) => call(TOOL.delete, { id: s.id })) };
  }
  // A reminder with a pending snooze: snoozing the reminder moves that snooze (docs/recurring.md).
  const main = group?.[0]?.snoozeOf === undefined ? group?.[0] : undefined;
  if (intent.kind === "snooze") {
    const target = only ?? main;
    if (target) return snooze(target, intent.seconds);
  }
  if (intent.kind === "update" && only) {
    return act(only, intent.selector, pc, { dated: intent.dated });
  }
  return text(askWhichText(found.length > 1 ? found : pool, words, pc.reply, action));
} // deno-fmt-ignore

/**
 * The follow-up of the current turn's tool results, when they call for one: after a
 * `schedule_list` the by-words requests act on their single match (or ask which); after a
 * `schedule_update` of a reminder that already ended, the reminder is created anew.
 *
 * @param requests the batch's requests
 * @param outcomes the tool results of the step just run (current turn only)
 * @param pc the plan context
 * @returns the draft, or `undefined` when the results only need describing
 */
export function followUp(
  requests: readonly Request[],
  outcomes: readonly (ToolOutcome & { readonly callId: string })[],
  pc: PlanContext,
): Draft | undefined {
  const list = outcomes.find((o) => o.name === TOOL.list && !isFailure(readJson(o.content)));
  if (list) {
    const schedules = readSchedules(readJson(list.content));
    const drafts = requests.flatMap((r) =>
      afterList(r.intent, schedules, { ...pc, reply: { ...pc.reply, zh: r.zh } }) ?? []
    );
    if (drafts.length > 0) return merge(drafts);
  }
  const ended = outcomes.find((o) =>
    o.name === TOOL.update &&
    ["schedule_not_active", "schedule_not_found"].includes(errorCode(readJson(o.content)))
  );
  if (!ended || !has(pc, TOOL.create)) return undefined;
  const args = obj(callArgs(pc.messages, ended.callId)) ?? {};
  const selector = selectorOf(args);
  const id = str(args.id);
  const prompt = str(args.prompt) ||
    (knownReminders(pc.messages).find((k) => k.view.id === id)?.view.prompt ?? "");
  if (!selector || !prompt) return undefined;
  return { text: "", calls: [call(TOOL.create, { prompt, ...selector } as CreateArgs)] };
}
