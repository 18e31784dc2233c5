/**
 * Intent detection of the offline model: create, list or cancel a reminder, or none of those.
 * English and Chinese; pure functions of the text, the clock reading and the session zone.
 *
 * @module
 */
import { findAbsolute } from "./absolute.ts";
import type { CreateArgs, LocalAt, Selector } from "./contract.ts";
import { findLength, parseDuration } from "./duration.ts";
import { type CannotReason, findRecurrence } from "./recurring.ts";
import { parseSeries, type SeriesIntent } from "./series_words.ts";
import { findExplicitZone } from "./zone.ts";

export type { CreateArgs, LocalAt } from "./contract.ts";

/** Which reminder a snooze or a move means: named ids, words of its prompt, or the latest one. */
export type Target =
  | { readonly kind: "id"; readonly id: string }
  | { readonly kind: "words"; readonly words: readonly string[] }
  | { readonly kind: "latest" };

/** What the user asked for. */
export type OfflineIntent =
  | { readonly kind: "create"; readonly args: CreateArgs }
  | { readonly kind: "cannot-repeat"; readonly reason: CannotReason }
  | { readonly kind: "list" }
  | { readonly kind: "delete"; readonly ids: readonly string[] }
  | {
    readonly kind: "cancel-match";
    readonly words: readonly string[];
    /** "stop repeating …", "停止重复…": only a repeating reminder is meant. */
    readonly series?: true;
  }
  | {
    readonly kind: "no-such-date";
    readonly month: number;
    readonly day: number;
    readonly year?: number;
  }
  | { readonly kind: "snooze"; readonly target: Target; readonly seconds: number }
  | {
    readonly kind: "update";
    readonly target: Target;
    readonly selector: Selector;
    /** The new time names a day ("move it to Friday at 10"), not only a time of day. */
    readonly dated?: true;
  }
  | {
    readonly kind: "missing-time";
    /** The local day `YYYY-MM-DD` the request named without a clock time ("tomorrow"). */
    readonly date?: string;
    /** That day as the user said it ("tomorrow", "on the 15th", "15号"). */
    readonly phrase?: string;
  }
  | SeriesIntent
  | { readonly kind: "time" }
  | { readonly kind: "none" };

/** Clock reading and session zone an intent is read against. */
export interface ParseOptions {
  /** Wall clock, epoch ms. */
  readonly now: number;
  /** The session's IANA zone, when it has one. */
  readonly timeZone?: string | undefined;
}

const CJK_RE = /[\u3400-\u9fff]/;
const ID_RE = /\bsch_[A-Za-z0-9_-]+/g;
const CREATE_RE =
  /\bremind\s+(?:me|us)\b|\b(?:set|create|add|make|schedule)\s+(?:me\s+)?(?:a\s+|an\s+)?reminder\b|提醒(?:我|一下|下)|(?:叫|喊)我|(?:设|设置|定|加|添加|建)(?:一个|个)?提醒/i;
const CANCEL_RE =
  /\b(?:cancel|delete|remove|clear|drop|stop)\b|取消|删除|删掉|去掉|撤销|停止|停掉|关掉|别再|不要再|不用再/i;
const REMINDER_WORD_RE = /\breminders?\b|\breminding\b|提醒|sch_/i;
// "stop repeating the timesheet reminder" (the page's button says "Stop repeating"), "停止重复…".
const SERIES_RE = /\b(?:repeating|repeats?|recurring|series)\b|重复/i;
const SNOOZE_RE = /\bsnooze\b|推迟|延后|延迟|晚点再|稍后再|贪睡/i;
const AGAIN_RE =
  /\bremind\s+(?:me|us)\s+(?:about\s+(?:it|that|this)\s+)?again\b|再(?:提醒|叫|喊)(?:我|一下)?(?:一次|一遍|一下)?/i;
// What may stand around "remind me again" in a snooze: politeness, "later", "it", punctuation.
const AGAIN_FILLER_RE =
  /\b(?:please|pls|later|from now|about|it|that|this|thanks|thank you|ok|okay)\b|[之以]?后|请|麻烦|帮我|吧|哦|啊|好吗|一下|[\s,，。.！!？?~～]/gi;
const UPDATE_EN_RE =
  /\b(?:move|change|reschedule|push|shift|switch|set)\s+(.*?)\s*\b(?:to|until|till)\s+(.+)$|\bmake\s+(it|that|this)\s+(.+)$/i;
const UPDATE_ZH_RE = /^(.*?)(?:改到|改成|改为|改在|挪到|调到|换到|推迟到|延后到|推到|移到)(.+)$/;
const REFER_RE = /\b(?:it|that|this|reminder|one)\b|sch_|它|这个|那个|提醒|^\s*把?\s*$/i;
const LIST_RE =
  /\b(?:list|show|see|view|display|check)\b.*\breminders?\b|\b(?:what|which|any|how many)\b.*\breminders?\b|^\s*(?:my\s+)?reminders\s*\??\s*$|(?:哪些|什么|有没有|几个|多少|查看|看看|看一下|列出|显示|所有|全部)\S*提醒|提醒(?:列表|有哪些|有什么)/i;
const TIME_RE = /\bwhat(?:'s| is) the time\b|\bwhat time is it\b|现在几点|几点了/i;
const LEAD_PREP_RE = /(?:\b(?:at|on|by|in|around)\s+|在\s*)$/i;
// "my time" / "local time" name the session zone: blanked from the prompt, no `time_zone`.
const LOCAL_ZONE_RE = /\b(?:in\s+)?(?:my|local)\s+time(?:\s*zone)?\b|(?:按照?)?本地时间/i;

/**
 * Whether a text is Chinese (holds CJK ideographs); replies follow the user's language.
 *
 * @param text any text
 * @returns `true` when it contains CJK ideographs
 */
export function isChinese(text: string): boolean {
  return CJK_RE.test(text);
}

/** Blanks `[index, index + length)` and a preposition just before it, keeping indexes stable. */
function blank(text: string, index: number, length: number): string {
  const before = text.slice(0, index);
  const prep = LEAD_PREP_RE.exec(before);
  const from = prep ? prep.index : index;
  return text.slice(0, from) + " ".repeat(index + length - from) + text.slice(index + length);
}

function cleanEnglish(text: string): string {
  return text
    .replace(/\s+/g, " ")
    .replace(
      /^(?:[\s,:;.-]|\b(?:to|that|about|of|for|please|pls|hey|ok|okay|and|then|again)\b)+/i,
      "",
    )
    .replace(/(?:[\s,:;.!?-]|\b(?:please|pls|thanks|thank you|ok|and|then)\b)+$/i, "")
    .trim();
}

function cleanChinese(text: string): string {
  return text
    .replace(/\s+/g, " ")
    .replace(/^[\s，,。：:、]*(?:一下|一声|一次|一遍)?[\s，,。：:、]*(?:要|该)?/, "")
    .replace(/^(?:请|麻烦|帮我|你|能不能|可以|能|记得|在)+/, "")
    .replace(/[\s，,。.！!？?~～]*(?:吧|哦|啊|呀|哈|好吗|好不好|谢谢)?[\s，,。.！!？?~～]*$/, "")
    .trim();
}

/** The task text: what is left after the reminder wording and the time phrase are removed. */
function extractPrompt(masked: string, zh: boolean): string {
  const clean = zh ? cleanChinese : cleanEnglish;
  const kw = CREATE_RE.exec(masked);
  if (!kw) return clean(masked) || (zh ? "提醒" : "Reminder");
  const after = clean(masked.slice(kw.index + kw[0].length));
  const before = clean(
    masked.slice(0, kw.index).replace(/^\s*(?:can|could|would|will)\s+you\b/i, ""),
  );
  return after || before || (zh ? "提醒" : "Reminder");
}

/** A selector read from a time phrase, with the text left once its phrases are blanked. */
type SelectorRead =
  | {
    readonly kind: "selector";
    readonly selector: Selector;
    readonly masked: string;
    readonly dated?: true;
  }
  | { readonly kind: "cannot-repeat"; readonly reason: CannotReason }
  | Extract<OfflineIntent, { kind: "no-such-date" }>
  | Extract<OfflineIntent, { kind: "missing-time" }>;

function readSelector(text: string, options: ParseOptions): SelectorRead {
  const local = LOCAL_ZONE_RE.exec(text);
  const unzoned = local ? blank(text, local.index, local[0].length) : text;
  const zone = findExplicitZone(unzoned);
  const masked = zone ? blank(unzoned, zone.index, zone.length) : unzoned;
  const timeZone = zone?.zone ?? options.timeZone ?? "UTC";
  const recurrence = findRecurrence(masked, { now: options.now, timeZone });
  if (recurrence?.kind === "cannot") return { kind: "cannot-repeat", reason: recurrence.reason };
  // A bad clock time gets the one-off's answer ("remind me at 25:00"): ask for a valid time.
  if (recurrence?.kind === "invalid-time") return { kind: "missing-time" };
  if (recurrence) {
    const repeat = zone ? { ...recurrence.repeat, time_zone: zone.zone } : recurrence.repeat;
    const rest = recurrence.spans.reduce((t, sp) => blank(t, sp.index, sp.length), masked);
    return { kind: "selector", selector: { repeat }, masked: rest };
  }
  const duration = parseDuration(text);
  if (duration) {
    if (duration.seconds <= 0 || !Number.isSafeInteger(duration.seconds)) {
      return { kind: "missing-time" };
    }
    const rest = blank(text, duration.index, duration.length);
    return { kind: "selector", selector: { after_seconds: duration.seconds }, masked: rest };
  }
  const found = findAbsolute(masked, { now: options.now, timeZone });
  if (found.kind === "no-such-date") return found;
  if (found.kind === "no-clock-time" && found.date !== undefined) {
    return { kind: "missing-time", date: found.date, phrase: found.phrase ?? "" };
  }
  if (found.kind !== "time") return { kind: "missing-time" };
  const m = found.match;
  const timeless = blank(masked, m.index, m.length);
  const rest = m.dayPhrase ? blank(timeless, m.dayPhrase.index, m.dayPhrase.length) : timeless;
  if (m.instant !== undefined && !zone) {
    return {
      kind: "selector",
      selector: { at: m.instant },
      masked: rest,
      ...(m.dated ? { dated: true } : {}),
    };
  }
  const at: LocalAt = zone
    ? { date: m.date, time: m.time, time_zone: zone.zone }
    : { date: m.date, time: m.time };
  return { kind: "selector", selector: { at }, masked: rest, ...(m.dated ? { dated: true } : {}) };
}

function readCreate(text: string, options: ParseOptions): OfflineIntent {
  const read = readSelector(text, options);
  if (read.kind !== "selector") return read;
  const prompt = extractPrompt(read.masked, isChinese(text));
  return { kind: "create", args: { prompt, ...read.selector } as CreateArgs };
}

/** Which reminder `phrase` (the object of a snooze or a move) means. */
function readTarget(phrase: string, ids: readonly string[], zh: boolean): Target {
  if (ids[0] !== undefined) return { kind: "id", id: ids[0] };
  const words = zh
    ? phrase.replace(
      /推迟|延后|延迟|晚点再|稍后再|贪睡|把|将|请|帮我|一下|再|它|我的|那个|这个|那条|这条|个|条|的|提醒|吧|[，,。.！!？?\s]/g,
      " ",
    )
    : phrase.toLowerCase().replace(
      /\b(?:please|pls|can|could|you|snooze|move|change|reschedule|push|shift|switch|set|make|it|that|this|my|the|a|an|reminders?|for|by|again|one|later|and|then|me)\b|[,.!?]/g,
      " ",
    );
  const list = words.split(/\s+/).filter((w) => w.length > 0);
  return list.length > 0 ? { kind: "words", words: list } : { kind: "latest" };
}

/**
 * "remind me again in 10 minutes", "再提醒我一次 10分钟后": a snooze of the reminder just
 * delivered when nothing but the delay is said (with a task text it is a new reminder).
 */
function readAgain(text: string, ids: readonly string[]): OfflineIntent | undefined {
  const again = AGAIN_RE.exec(text);
  if (!again) return undefined;
  const length = findLength(text);
  let rest = blank(text, again.index, again[0].length);
  if (length) rest = blank(rest, length.index, length.length);
  if (rest.replace(ID_RE, " ").replace(AGAIN_FILLER_RE, " ").trim() !== "") return undefined;
  return readSnooze(text, ids, { kind: "latest" });
}

function readSnooze(text: string, ids: readonly string[], target?: Target): OfflineIntent {
  const length = findLength(text);
  const rest = length ? blank(text, length.index, length.length) : text;
  const seconds = length && length.seconds > 0 ? length.seconds : 600;
  const which = ids[0] !== undefined || target === undefined
    ? readTarget(rest, ids, isChinese(text))
    : target;
  return { kind: "snooze", target: which, seconds };
}

function readUpdate(
  text: string,
  ids: readonly string[],
  options: ParseOptions,
): OfflineIntent | undefined {
  const zh = isChinese(text);
  const m = (zh ? UPDATE_ZH_RE.exec(text) : undefined) ?? UPDATE_EN_RE.exec(text);
  if (!m) return undefined;
  const object = m[1] ?? m[3] ?? "";
  const when = m[2] ?? m[4] ?? "";
  if (!REFER_RE.test(object) && ids.length === 0) return undefined;
  const read = readSelector(when, options);
  if (read.kind !== "selector") return read;
  const target = readTarget(object, ids, zh);
  return {
    kind: "update",
    target,
    selector: read.selector,
    ...(read.dated ? { dated: true } : {}),
  };
}

function cancelWords(text: string): string[] {
  const zh = isChinese(text);
  const stripped = zh
    ? text.replace(
      /取消|删除|删掉|去掉|撤销|停止|停掉|关掉|别再|不要再|不用再|重复|请|帮我|一下|我的|那个|这个|那条|这条|个|条|的|提醒我?|吧|了|[，,。.！!？?\s]/g,
      " ",
    )
    : text.toLowerCase().replace(
      /\b(?:please|pls|can|could|you|cancel|delete|remove|clear|drop|stop|reminding|repeating|repeats?|recurring|series|me|my|it|the|a|an|that|this|reminders?|for|to|about|of|one)\b|[,.!?]/g,
      " ",
    );
  return stripped.split(/\s+/).filter((w) => w.length > 0);
}

/**
 * Reads what the user asked for. Repeats become `repeat: { rrule, start }` (docs/recurring.md;
 * a repeat the RRULE subset cannot say is `cannot-repeat`, never a one-off); delays become
 * `after_seconds`; clock times become a local `{ date, time }` computed in the session zone (or
 * the named zone, then with `time_zone`). "stop/cancel the X reminder" is a cancel by words,
 * "snooze it 10 minutes" / "推迟10分钟" / "remind me again in 10 minutes" / "再提醒我一次 10分钟后"
 * a snooze (10 minutes by default) and "move it to 4pm" / "改到下午4点" an update (`dated` when
 * the new time names a day), each of the reminder named by id, by words, or else the latest one.
 * Pause, resume, skip and a new text are series requests (`series_words.ts`).
 *
 * @param text the user's message (time-context lines excluded)
 * @param options the clock reading (epoch ms) and the session zone
 * @returns the intent
 */
export function parseIntent(text: string, options: ParseOptions): OfflineIntent {
  const asked = parseSeries(text);
  if (asked) return asked;
  const create = CREATE_RE.exec(text);
  const cancel = CANCEL_RE.exec(text);
  const ids = [...new Set(text.match(ID_RE) ?? [])];
  const series = SERIES_RE.test(text);
  if (
    cancel && (REMINDER_WORD_RE.test(text) || series) && (!create || cancel.index < create.index)
  ) {
    if (ids.length > 0) return { kind: "delete", ids };
    const words = cancelWords(text);
    return series ? { kind: "cancel-match", words, series: true } : { kind: "cancel-match", words };
  }
  const again = cancel ? undefined : readAgain(text, ids);
  if (again) return again;
  if (SNOOZE_RE.test(text) && !create) {
    return readUpdate(text, ids, options) ?? readSnooze(text, ids);
  }
  if (!create) {
    const update = readUpdate(text, ids, options);
    if (update) return update;
  }
  if (create) return readCreate(text, options);
  if (LIST_RE.test(text)) return { kind: "list" };
  if (TIME_RE.test(text)) return { kind: "time" };
  return { kind: "none" };
}
