/**
 * Calendar phrases of the repeat reader (`_recurring_read.ts`): a date of the year ("every year
 * on March 3", "every June 5", "每年3月3日"), an ordinal weekday of the month or of a month of the
 * year ("the first Monday of every month", "last Friday of every month", "every year on the last
 * Sunday of March", "每月最后一个周五", "每年三月的最后一个周日"), the last or first weekday of the
 * month ("the last weekday of the month", "每月最后一个工作日": `BYSETPOS`) and "every other
 * Tuesday". Each sets part of the draft rule and is blanked before the other phrases are read, so
 * "first Monday of every month" is never "the 1st" plus a prompt "Monday of". Private to the
 * offline model.
 *
 * @module
 */
import { zhNumber } from "./duration.ts";
import type { Draft } from "./_recurring_read.ts";

/** RFC 5545 weekday codes, Monday first. */
const CODES = ["MO", "TU", "WE", "TH", "FR", "SA", "SU"] as const;
const WORKWEEK = ["MO", "TU", "WE", "TH", "FR"];
const EN_MONTH =
  "jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?";
const EN_DAY = "mon|tues?|wed(?:nes)?|thu(?:rs?)?|fri|sat(?:ur)?|sun";
const EN_WEEKDAY = `(?:${EN_DAY})(?:day)?`;
const EN_NTH =
  "first|1st|second|2nd|third|3rd|fourth|4th|fifth|5th|last|second[\\s-]to[\\s-]last|penultimate";
const EVERY = "(?:every|each)";
const OF_MONTH = `(?:of|in)\\s+(?:the|every|each)\\s+month\\b`;
const DAY_NUM = "(\\d{1,2})(?:st|nd|rd|th)?";
// "March 3", "3 March", "the 3rd of March".
const EN_DATE =
  `(?:(${EN_MONTH})\\.?\\s+${DAY_NUM}|(?:the\\s+)?${DAY_NUM}\\s+(?:of\\s+)?(${EN_MONTH}))\\b`;
const WORKDAY = "(?:weekday|working\\s+day|business\\s+day|work\\s*day)";
const ZN = "[0-9０-９]{1,2}|[一二两三四五六七八九十]{1,3}";
const ZH_WEEK = "(?:周|星期|礼拜)";
const ZH_NTH = `(?:第\\s*(${ZN})\\s*个|(最后一个|最后1个)|(倒数第二个))`;

/** A phrase and what it sets; `false`: not here (its words stay). */
type Rule = readonly [RegExp, (m: RegExpExecArray, d: Draft) => void | false];

function month(word: string): number {
  const i = EN_MONTH.split("|").findIndex((alt) =>
    new RegExp(`^(?:${alt})$`, "i").test(word.replace(/\.$/, ""))
  );
  return i + 1;
}

function enNth(word: string): number {
  const w = word.toLowerCase();
  if (w === "last") return -1;
  if (/to.last|penultimate/.test(w)) return -2;
  return ["first", "second", "third", "fourth", "fifth"].findIndex((o, i) =>
    w === o || w === `${i + 1}${["st", "nd", "rd", "th", "th"][i]}`
  ) + 1;
}

function zhNth(m: RegExpExecArray, at: number): number {
  if (m[at + 1]) return -1;
  if (m[at + 2]) return -2;
  return zhNumber(m[at] ?? "");
}

function enCode(word: string): string {
  return CODES[
    ["mon", "tue", "wed", "thu", "fri", "sat", "sun"].indexOf(word.slice(0, 3).toLowerCase())
  ]!;
}

function zhCode(c: string | undefined): string | undefined {
  const i = "一二三四五六日".indexOf(c === "天" ? "日" : c ?? "");
  return i < 0 ? undefined : CODES[i];
}

const DAYS_IN_MONTH = [31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/** A yearly rule on `m`/`day` (Feb 29 is kept: years without one are skipped, RFC 5545). */
function yearDate(d: Draft, m: number, day: number): void {
  if (!(m >= 1 && m <= 12 && day >= 1 && day <= DAYS_IN_MONTH[m - 1]!)) {
    d.cannot ??= "unreadable";
    return;
  }
  yearly(d);
  d.bymonth = m;
  d.bymonthday = day;
}

function yearly(d: Draft, interval = 1): void {
  if (d.freq === undefined) {
    d.freq = "YEARLY";
    d.interval = Math.max(d.interval, interval);
  }
}

/** The `n`th `code` of the month (`-1` the last): monthly, or yearly in `inMonth`. */
function nthDay(d: Draft, n: number, code: string | undefined, inMonth?: number): void {
  if (!code || !Number.isInteger(n) || n === 0 || n > 5 || n < -5) {
    d.cannot ??= "unreadable";
    return;
  }
  if (inMonth !== undefined) {
    if (!(inMonth >= 1 && inMonth <= 12)) {
      d.cannot ??= "unreadable";
      return;
    }
    yearly(d);
    d.bymonth = inMonth;
  } else if (d.freq === undefined) d.freq = "MONTHLY";
  d.nth = `${n}${code}`;
}

/** The `n`th weekday (Monday to Friday) of the month: `BYDAY=MO,…,FR;BYSETPOS=n`. */
function nthWorkday(d: Draft, n: number): void {
  if (!Number.isInteger(n) || n === 0 || n > 5 || n < -5) {
    d.cannot ??= "unreadable";
    return;
  }
  if (d.freq === undefined) d.freq = "MONTHLY";
  d.byday = [...WORKWEEK];
  d.setpos = n;
}

/** Phrases that say their repeat on their own, read before the other phrases. */
const OWN_EN: readonly Rule[] = [
  // "every year on the last Sunday of March", "the last Sunday of March every year".
  [
    new RegExp(
      `\\b${EVERY}\\s+year\\s+on\\s+the\\s+(${EN_NTH})\\s+(${EN_WEEKDAY})\\s+(?:of|in)\\s+(${EN_MONTH})\\b|\\b(?:on\\s+)?the\\s+(${EN_NTH})\\s+(${EN_WEEKDAY})\\s+(?:of|in)\\s+(?:${EVERY}\\s+)?(${EN_MONTH})\\b(?:\\s+${EVERY}\\s+year\\b)?`,
      "i",
    ),
    (m, d) => {
      const [nth, day, mon] = m[1] ? [m[1], m[2]!, m[3]!] : [m[4]!, m[5]!, m[6]!];
      // "the last Sunday of March" alone is one day, not a repeat.
      if (!m[1] && !/\b(?:every|each)\b/i.test(m[0])) return false;
      nthDay(d, enNth(nth), enCode(day), month(mon));
    },
  ],
  // "the last weekday of the month", "every first working day of the month".
  [
    new RegExp(
      `\\b(?:on\\s+)?(?:(?:the|${EVERY})\\s+)?(${EN_NTH})\\s+${WORKDAY}\\s+${OF_MONTH}`,
      "i",
    ),
    (m, d) => nthWorkday(d, enNth(m[1]!)),
  ],
  // "the first Monday of every month", "every last Friday of the month", "every month on the
  // first Monday", "monthly on the last Friday".
  [
    new RegExp(
      `\\b(?:on\\s+)?(?:(?:the|${EVERY})\\s+)?(${EN_NTH})\\s+(${EN_WEEKDAY})\\s+${OF_MONTH}|\\b(?:${EVERY}\\s+month|monthly)\\s+on\\s+the\\s+(${EN_NTH})\\s+(${EN_WEEKDAY})\\b`,
      "i",
    ),
    (m, d) => nthDay(d, enNth(m[1] ?? m[3]!), enCode(m[2] ?? m[4]!)),
  ],
  // "every year on March 3", "yearly on the 5th of June", "every June 5", "on March 3 every year".
  [
    new RegExp(
      `\\b(?:${EVERY}\\s+year|yearly|annually)\\s+on\\s+${EN_DATE}|\\b${EVERY}\\s+${EN_DATE}|\\b(?:on\\s+)?${EN_DATE}\\s+(?:${EVERY}\\s+year|yearly|annually)\\b`,
      "i",
    ),
    (m, d) => {
      const g = [...m].slice(1);
      const base = g.findIndex((v) => v !== undefined);
      const group = Math.floor(base / 4) * 4;
      const [a, b, c, e] = g.slice(group, group + 4);
      yearDate(d, month(a ?? e ?? ""), Number(b ?? c));
    },
  ],
  // "every first Monday", "every last Friday": of the month. "every 2nd Tuesday" is the 2nd of
  // the month or every other one: never guessed.
  [
    new RegExp(
      `\\b${EVERY}\\s+(first|1st|third|3rd|fourth|4th|fifth|5th|last|2nd)\\s+(${EN_WEEKDAY})\\b`,
      "i",
    ),
    (m, d) => {
      if (m[1]!.toLowerCase() === "2nd") d.cannot ??= "unreadable";
      else nthDay(d, enNth(m[1]!), enCode(m[2]!));
    },
  ],
  // "the last day of every year", "every year on the last day of the year".
  [
    /\b(?:(?:every|each)\s+year\s+)?(?:on\s+)?the\s+last\s+day\s+of\s+(?:the|every|each)\s+year\b/i,
    (m, d) => (/\b(?:every|each)\b/i.test(m[0]) ? yearDate(d, 12, 31) : false),
  ],
  // "every other Tuesday", "every second Friday" (no "of the month": that is an ordinal).
  [
    new RegExp(`\\b${EVERY}\\s+(?:other|second|alternate)\\s+(${EN_WEEKDAY})\\b`, "i"),
    (m, d) => {
      if (d.freq !== undefined) return false;
      d.freq = "WEEKLY";
      d.interval = 2;
      d.byday = [enCode(m[1]!)];
    },
  ],
]; // deno-fmt-ignore

const OWN_ZH: readonly Rule[] = [
  // "每年3月3日", "每年的六月五号".
  [
    new RegExp(`每(?:隔\\s*(${ZN})\\s*)?\\s*个?年\\s*的?\\s*(${ZN})\\s*月\\s*(${ZN})\\s*[日号]`),
    (m, d) => {
      yearly(d, m[1] ? zhNumber(m[1]) : 1);
      yearDate(d, zhNumber(m[2]!), zhNumber(m[3]!));
    },
  ],
  // "每年三月的最后一个周日", "每年5月第二个星期日".
  [
    new RegExp(`每\\s*个?年\\s*的?\\s*(${ZN})\\s*月\\s*(?:份)?\\s*的?\\s*${ZH_NTH}\\s*${ZH_WEEK}([一二三四五六日天])`),
    (m, d) => nthDay(d, zhNth(m, 2), zhCode(m[5]), zhNumber(m[1]!)),
  ],
  // "每年的最后一天", "每年年底".
  [/每\s*个?年\s*的?\s*(?:最后一天|年底|年末)/, (_m, d) => yearDate(d, 12, 31)],
  // "每月最后一个工作日", "每个月的第一个工作日".
  [
    new RegExp(`每\\s*个?月\\s*的?\\s*${ZH_NTH}\\s*工作日`),
    (m, d) => nthWorkday(d, zhNth(m, 1)),
  ],
  // "每月最后一个周五", "每个月的第一个星期一".
  [
    new RegExp(`每\\s*个?月\\s*的?\\s*${ZH_NTH}\\s*${ZH_WEEK}([一二三四五六日天])`),
    (m, d) => nthDay(d, zhNth(m, 1), zhCode(m[4])),
  ],
]; // deno-fmt-ignore

/** Phrases that name the day of a rule another phrase made yearly or monthly. */
const AFTER_EN: readonly Rule[] = [
  // "every year … on March 3", "annually, on the 5th of June".
  [
    new RegExp(`\\bon\\s+${EN_DATE}`, "i"),
    (m, d) => {
      if (d.freq !== "YEARLY" || d.bymonth !== undefined) return false;
      yearDate(d, month(m[1] ?? m[4] ?? ""), Number(m[2] ?? m[3]));
    },
  ],
  // "monthly … on the first Monday".
  [
    new RegExp(`\\bon\\s+the\\s+(${EN_NTH})\\s+(${EN_WEEKDAY})\\b`, "i"),
    (m, d) => {
      if (d.freq !== "MONTHLY" || d.nth !== undefined) return false;
      nthDay(d, enNth(m[1]!), enCode(m[2]!));
    },
  ],
]; // deno-fmt-ignore

function apply(rules: readonly Rule[], text: string, d: Draft): string {
  let rest = text;
  for (const [re, set] of rules) {
    const m = re.exec(rest);
    if (!m || set(m, d) === false) continue;
    d.spans.push({ index: m.index, length: m[0].length });
    rest = rest.slice(0, m.index) + " ".repeat(m[0].length) + rest.slice(m.index + m[0].length);
  }
  return rest;
}

/**
 * Reads the calendar phrases that say their repeat on their own into `d`.
 *
 * @param text the request
 * @param d the draft (its spans gain the phrases read)
 * @returns the text with those phrases blanked (indexes kept)
 */
export function readCalendar(text: string, d: Draft): string {
  const zh = /[\u3400-\u9fff]/.test(text);
  return apply(zh ? [...OWN_ZH, ...OWN_EN] : OWN_EN, text, d);
}

/**
 * Reads the day phrases of a rule the other phrases made yearly or monthly ("every year … on
 * March 3").
 *
 * @param text the request (calendar and repeat phrases blanked)
 * @param d the draft
 */
export function readCalendarDay(text: string, d: Draft): void {
  apply(AFTER_EN, text, d);
}
