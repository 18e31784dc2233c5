/**
 * Intent detection of the offline model: create, list or cancel a reminder, or none of those.
 * English and Chinese; pure functions of the text, the clock reading and the session zone.
 *
 * @module
 */
import { findAbsolute } from "./absolute.ts";
import { parseDuration } from "./duration.ts";
import { findExplicitZone } from "./zone.ts";

/** The structured local `at` selector of `schedule_create` (ARCHITECTURE.md §6 "Tools"). */
export interface LocalAt {
  /** Local date `YYYY-MM-DD`. */
  readonly date: string;
  /** Local time `HH:MM`. */
  readonly time: string;
  /** Explicit IANA zone, only when the user named one. */
  readonly time_zone?: string;
}

/** Arguments of a `schedule_create` call. */
export type CreateArgs =
  | { readonly prompt: string; readonly after_seconds: number }
  | { readonly prompt: string; readonly at: LocalAt | string };

/** What the user asked for. */
export type OfflineIntent =
  | { readonly kind: "create"; readonly args: CreateArgs }
  | { readonly kind: "list" }
  | { readonly kind: "delete"; readonly ids: readonly string[] }
  | { readonly kind: "cancel-match"; readonly words: readonly string[] }
  | { readonly kind: "missing-time" }
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
const CANCEL_RE = /\b(?:cancel|delete|remove|clear|drop)\b|取消|删除|删掉|去掉|撤销/i;
const REMINDER_WORD_RE = /\breminders?\b|提醒|sch_/i;
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
    .replace(/^(?:[\s,:;.-]|\b(?:to|that|about|of|for|please|pls|hey|ok|okay|and|then)\b)+/i, "")
    .replace(/(?:[\s,:;.!?-]|\b(?:please|pls|thanks|thank you|ok|and|then)\b)+$/i, "")
    .trim();
}

function cleanChinese(text: string): string {
  return text
    .replace(/\s+/g, " ")
    .replace(/^[\s，,。：:、]*(?:一下|一声)?[\s，,。：:、]*(?:要|该)?/, "")
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

function readCreate(text: string, options: ParseOptions): OfflineIntent {
  const zh = isChinese(text);
  const duration = parseDuration(text);
  if (duration) {
    if (duration.seconds <= 0 || !Number.isSafeInteger(duration.seconds)) {
      return { kind: "missing-time" };
    }
    const prompt = extractPrompt(blank(text, duration.index, duration.length), zh);
    return { kind: "create", args: { prompt, after_seconds: duration.seconds } };
  }
  const local = LOCAL_ZONE_RE.exec(text);
  const unzoned = local ? blank(text, local.index, local[0].length) : text;
  const zone = findExplicitZone(unzoned);
  const masked = zone ? blank(unzoned, zone.index, zone.length) : unzoned;
  const found = findAbsolute(masked, {
    now: options.now,
    timeZone: zone?.zone ?? options.timeZone ?? "UTC",
  });
  if (found.kind !== "time") return { kind: "missing-time" };
  const m = found.match;
  const prompt = extractPrompt(blank(masked, m.index, m.length), zh);
  if (m.instant !== undefined && !zone) return { kind: "create", args: { prompt, at: m.instant } };
  const at: LocalAt = zone
    ? { date: m.date, time: m.time, time_zone: zone.zone }
    : { date: m.date, time: m.time };
  return { kind: "create", args: { prompt, at } };
}

function cancelWords(text: string): string[] {
  const zh = isChinese(text);
  const stripped = zh
    ? text.replace(
      /取消|删除|删掉|去掉|撤销|请|帮我|一下|我的|那个|这个|那条|这条|个|条|的|提醒|吧|[，,。.！!？?\s]/g,
      " ",
    )
    : text.toLowerCase().replace(
      /\b(?:please|pls|can|could|you|cancel|delete|remove|clear|drop|my|the|a|an|that|this|reminders?|for|to|about|of|one)\b|[,.!?]/g,
      " ",
    );
  return stripped.split(/\s+/).filter((w) => w.length > 0);
}

/**
 * Reads what the user asked for. Delays become `after_seconds`; clock times become a local
 * `{ date, time }` computed in the session zone (or the named zone, then with `time_zone`);
 * ARCHITECTURE.md §6 "Tools" fixes the argument shapes.
 *
 * @param text the user's message (time-context lines excluded)
 * @param options the clock reading (epoch ms) and the session zone
 * @returns the intent
 */
export function parseIntent(text: string, options: ParseOptions): OfflineIntent {
  const create = CREATE_RE.exec(text);
  const cancel = CANCEL_RE.exec(text);
  const ids = [...new Set(text.match(ID_RE) ?? [])];
  if (cancel && REMINDER_WORD_RE.test(text) && (!create || cancel.index < create.index)) {
    return ids.length > 0
      ? { kind: "delete", ids }
      : { kind: "cancel-match", words: cancelWords(text) };
  }
  if (create) return readCreate(text, options);
  if (LIST_RE.test(text)) return { kind: "list" };
  if (TIME_RE.test(text)) return { kind: "time" };
  return { kind: "none" };
}
