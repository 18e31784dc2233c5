/**
 * Times of day in a repeating request ("at 9", "8:30", "5pm", "noon", "早上8点", "下午4点半")
 * for the offline model's recurrence reader. Wall-clock hours and minutes only: the date comes
 * from the rule.
 *
 * @module
 */
import { zhNumber } from "./duration.ts";

/** A time of day found in a text. */
export interface TimeOfDay {
  /** Hour 0–23. */
  readonly hour: number;
  /** Minute 0–59. */
  readonly minute: number;
  /** Index of the phrase (UTF-16 units). */
  readonly index: number;
  /** Length of the phrase (UTF-16 units). */
  readonly length: number;
}

/**
 * A clock time a text names that is no time of day ("25:00", "9:75", "13pm", "25点"): the
 * request named a time, so it must be refused, never read as "no time given".
 */
export interface InvalidTimeOfDay {
  /** Always `true`. */
  readonly invalid: true;
  /** Index of the phrase (UTF-16 units). */
  readonly index: number;
  /** Length of the phrase (UTF-16 units). */
  readonly length: number;
}

const ZN = "[0-9０-９]{1,2}|[零一二两三四五六七八九十]{1,3}";
const ZH_PART = "凌晨|早上|早晨|清晨|上午|中午|下午|傍晚|晚上|夜里|夜间|晚|早";
const ZH_RE = new RegExp(
  `(${ZH_PART})?\\s*(${ZN})\\s*[点點时](?:\\s*(半|一刻|三刻|(${ZN})\\s*分?))?|([0-9]{1,2})\\s*[:：]\\s*([0-9]{2})`,
);
const EN_MERIDIEM_RE = /\b(?:at\s+)?(\d{1,2})(?::(\d{2}))?\s*([ap])\.?m\.?(?![a-z])/i;
const EN_AT_RE =
  /\bat\s+(\d{1,2})(?::(\d{2}))?(?![\d:])(?!\s*(?:%|(?:minutes?|mins?|hours?|hrs?|seconds?|secs?|days?|times?|percent)\b))/i;
const EN_COLON_RE = /\b(\d{1,2}):(\d{2})\b/;
const EN_NAMED_RE = /\b(?:at\s+)?(noon|midday|midnight)\b/i;
const EN_LATE_RE = /\b(?:afternoon|evening|night|tonight)s?\b/i;

/** Default hours of day-part words when no clock time is given. */
const PART_HOURS: Record<string, number> = {
  morning: 9,
  afternoon: 15,
  evening: 19,
  night: 21,
  早: 8,
  早上: 8,
  早晨: 8,
  清晨: 7,
  上午: 9,
  中午: 12,
  下午: 15,
  傍晚: 18,
  晚: 20,
  晚上: 20,
  夜里: 21,
  夜间: 21,
};
const PART_RE = new RegExp(`\\b(morning|afternoon|evening|night)s?\\b|(${ZH_PART})`, "i");

function valid(hour: number, minute: number): boolean {
  return Number.isInteger(hour) && Number.isInteger(minute) && hour >= 0 && hour < 24 &&
    minute >= 0 && minute < 60;
}

type Found = TimeOfDay | InvalidTimeOfDay;

function found(hour: number, minute: number, m: RegExpExecArray): Found {
  const span = { index: m.index, length: m[0].length };
  return valid(hour, minute) ? { hour, minute, ...span } : { invalid: true, ...span };
}

function zhTime(text: string): Found | undefined {
  const m = ZH_RE.exec(text);
  if (!m) return undefined;
  if (m[5] !== undefined) return found(Number(m[5]), Number(m[6]), m);
  let hour = zhNumber(m[2] ?? "");
  const part = m[1] ?? "";
  const tail = m[3] ?? "";
  const minute = tail === "半"
    ? 30
    : tail === "一刻"
    ? 15
    : tail === "三刻"
    ? 45
    : m[4]
    ? zhNumber(m[4])
    : 0;
  if (/下午|傍晚|晚|夜/.test(part) && hour < 12) hour += 12;
  else if (part === "中午" && hour < 11) hour += 12;
  else if (part === "凌晨" && hour === 12) hour = 0;
  return found(hour, minute, m);
} // deno-fmt-ignore

function enTime(text: string): Found | undefined {
  const meridiem = EN_MERIDIEM_RE.exec(text);
  if (meridiem) {
    const clock = Number(meridiem[1]); // 1–12 on a 12-hour clock: "13pm" names no time
    const h = clock < 1 || clock > 12
      ? Number.NaN
      : clock % 12 + (meridiem[3]!.toLowerCase() === "p" ? 12 : 0);
    return found(h, Number(meridiem[2] ?? 0), meridiem);
  }
  const named = EN_NAMED_RE.exec(text);
  if (named) return found(named[1]!.toLowerCase() === "midnight" ? 0 : 12, 0, named);
  const plain = EN_AT_RE.exec(text) ?? EN_COLON_RE.exec(text);
  if (!plain) return undefined;
  let hour = Number(plain[1]);
  if (hour < 12 && EN_LATE_RE.test(text)) hour += 12;
  return found(hour, Number(plain[2] ?? 0), plain);
}

/**
 * Finds the time of day a repeating request names. A bare hour is read on the 24-hour clock
 * ("at 9" is 09:00) unless the text says afternoon, evening or night; Chinese day parts
 * (下午, 晚上, …) move hours before noon into the afternoon. A clock time outside 00:00–23:59
 * ("at 25:00", "9:75", "25点") is reported as invalid, so the caller can tell "no time given"
 * (a default time is fine) from "a time given that is no time" (refuse).
 *
 * @param text the request
 * @returns the time and its phrase, an invalid time's phrase, or `undefined` when none is named
 */
export function findTimeOfDay(text: string): TimeOfDay | InvalidTimeOfDay | undefined {
  return /[\u3400-\u9fff]/.test(text) ? zhTime(text) ?? enTime(text) : enTime(text);
}

/**
 * The default time of day for a rule with no clock time: from a day-part word ("every
 * evening" → 19:00, "每晚" → 20:00), else 09:00.
 *
 * @param text the request
 * @returns hour and minute
 */
export function defaultTimeOfDay(text: string): { hour: number; minute: number } {
  const m = PART_RE.exec(text);
  const key = (m?.[1] ?? m?.[2] ?? "").toLowerCase();
  return { hour: PART_HOURS[key] ?? 9, minute: 0 };
}
