/**
 * The phrase reader behind `findRecurrence()` (`recurring.ts`): English and Chinese
 * repeat phrases, each setting part of a draft RRULE (frequency, interval, weekdays, day of the
 * month, count) or the reason it cannot be set. Private to the offline model.
 *
 * @module
 */
import { enNumber, zhNumber } from "./duration.ts";
import { EN_ORDINAL, EN_ORDINAL_WORD, isAdjective, ordinalDay } from "./_recurring_words.ts";
import { readCalendar, readCalendarDay } from "./_recurring_calendar.ts";

/** A phrase's place in the text. */
export interface Span {
  /** Index (UTF-16 units). */
  readonly index: number;
  /** Length (UTF-16 units). */
  readonly length: number;
}

/**
 * Why a repeat cannot be set: `seconds` (a count of seconds that is no whole number of minutes,
 * "every 90 seconds": the RRULE subset counts in whole minutes), `yearly` (a month without its
 * day, "every March", or a leap-year rule: which day of the year?), `which-days` (several
 * times a week without naming the days: "twice a week"), `which-times` (several times a day
 * without naming the times: "twice a day"), `unreadable`; of its end (`_recurring_end.ts`): `end`
 * (an end that cannot be read: "until whenever", "for a few days"), `end-count` (a length its
 * reminders cannot count exactly: "every Monday for 10 days", "every day for a month"),
 * `end-before` (an end before the first reminder).
 */
export type CannotReason =
  | "seconds"
  | "yearly"
  | "which-days"
  | "which-times"
  | "unreadable"
  | "end"
  | "end-count"
  | "end-before";

/** The frequencies of the RRULE subset (docs/recurring.md). */
export type Freq = "MINUTELY" | "HOURLY" | "DAILY" | "WEEKLY" | "MONTHLY" | "YEARLY";

/** A rule in the making: what the phrases read so far. */
export interface Draft {
  /** FREQ, once a phrase has set it. */
  freq?: Freq;
  /** INTERVAL (1 when unsaid). */
  interval: number;
  /** BYDAY codes, Monday first. */
  byday?: string[];
  /** BYMONTHDAY (1..31, -1 the last day). */
  bymonthday?: number;
  /** BYMONTH of a yearly rule (1..12). */
  bymonth?: number;
  /** An ordinal BYDAY of a monthly or yearly rule: `1MO`, `-1FR`. */
  nth?: string;
  /** BYSETPOS over `byday` in the month ("the last weekday of the month": -1). */
  setpos?: number;
  /** COUNT. */
  count?: number;
  /** "twice a week", "每天两次": how many times per which period (refused unless days say it). */
  per?: { readonly times: number; readonly unit: string };
  /** Why the repeat cannot be set, once a phrase says so. */
  cannot?: CannotReason;
  /** The phrases read (blanked from the prompt by the caller). */
  spans: Span[];
}

/** RFC 5545 weekday codes, Monday first (ISO `dayOfWeek` − 1). */
export const DAY_CODES = ["MO", "TU", "WE", "TH", "FR", "SA", "SU"] as const;
const WORKWEEK = ["MO", "TU", "WE", "TH", "FR"];
const EN_DAY = "(?:mon|tues?|wed(?:nes)?|thu(?:rs?)?|fri|sat(?:ur)?|sun)(?:day)?s?";
const EN_DAYS = `${EN_DAY}(?:\\s*(?:,|and|&|or)\\s*${EN_DAY})*`;
const EN_MONTHS =
  "january|february|march|april|may|june|july|august|september|october|november|december";
const OF_MONTH = "of\\s+(?:the|each|every)\\s+month\\b";
const EN_UNITS = "seconds?|secs?|minutes?|mins?|hours?|hrs?|days?|weeks?|months?|years?";
const ZN = "[0-9０-９]+|[零一二两三四五六七八九十百]+";
const ZH_DAY = "[一二三四五六日天]";
const ZH_WEEK = "(?:周|星期|礼拜)";
const ZH_DAYS = `${ZH_DAY}(?:\\s*[、,，和及与跟]?\\s*${ZH_WEEK}?${ZH_DAY})*`;
// The weekdays after a week interval ("每两周四", "每两周的周一和周四", "隔周周五"); "每两周一次"
// is a count, not Monday.
const ZH_DAYS_AFTER = `(?:的?\\s*${ZH_WEEK}?(${ZH_DAYS})(?!次))?`;
// "每周一次", "每周三次", "每周一两次" count times a week: no Monday, no Wednesday ("每周日一次"
// and "每周五一次" are days).
const NOT_TIMES = "(?!\\s*[两二三四五六七八九十]?\\s*次)";
const ZH_UNIT: Record<string, string> = {
  天: "day",
  日: "day",
  月: "month",
  年: "year",
  小时: "hour",
  钟头: "hour",
  分钟: "minute",
};

/** A phrase and what it sets; `false`: the phrase says nothing here (its words stay in the prompt). */
type Rule = readonly [RegExp, (m: RegExpExecArray, d: Draft) => void | false];

const RULES_EN: readonly Rule[] = [
  [/\bleap\s+years?\b/i, (_m, d) => (d.cannot = "yearly")],
  [new RegExp(`\\b(?:every|each)\\s+(?:${EN_MONTHS})\\b`, "i"), (_m, d) => (d.cannot ??= "yearly")], // which day?
  [
    /\b(?:every|each)\s+(?:(other|second)\s+|(\d+|[a-z]+(?:-[a-z]+)?)\s+)?years?\b/i,
    (m, d) => unit(d, m[1] ? 2 : m[2] ? enCount(m[2]) : 1, "year"),
  ],
  // "once a week", "twice a day", "3 times per month", "twice weekly".
  [
    /\b(once|twice|thrice|(\d+|[a-z]+)\s+times)\s+(?:(?:a|an|per|each|every)\s+(minute|hour|day|week|fortnight|month|year)|(hourly|daily|weekly|fortnightly|monthly|yearly|annually))\b/i,
    (m, d) => per(d, enTimes(m[1]!, m[2]), m[3] ?? m[4]!),
  ],
  [/\bonce\s+(?=(?:every|each)\b)/i, () => {}], // "once every two weeks": the "every" part says it
  [/\b(?:bi|semi)-?(?:weekly|monthly)\b/i, (_m, d) => (d.cannot = "unreadable")], // twice, or every other?
  [/\b(?:every|each)\s+half\s+(?:an\s+)?hour\b/i, (_m, d) => set(d, "MINUTELY", 30)],
  [/\b(?:every|each)\s+fortnight\b/i, (_m, d) => set(d, "WEEKLY", 2)],
  [
    /\b(?:every|each)\s+(?:(other|second)\s+|(\d+|[a-z]+(?:-[a-z]+)?)\s+)?(seconds?|secs?|minutes?|mins?|hours?|hrs?|days?|weeks?|months?)\b/i,
    (m, d) => unit(d, m[1] ? 2 : m[2] ? enCount(m[2]) : 1, m[3]!.toLowerCase()),
  ],
  [
    /\b(hourly|daily|nightly|weekly|fortnightly|monthly|yearly|annually)\b/i,
    (m, d) => (isAdjective(m) ? false : adverb(d, m[1]!.toLowerCase())),
  ],
  [/\b(?:every|each)\s+(?:morning|afternoon|evening|night)\b/i, (_m, d) => set(d, "DAILY", 1)],
  [
    /\b(?:(?:every|each)\s+(?:weekday|(?:working|business|work)\s+day)|(?:on\s+)?weekdays)\b/i,
    (_m, d) => days(d, WORKWEEK),
  ],
  [/\b(?:(?:every|each|on)\s+weekend|weekends)\b/i, (_m, d) => days(d, ["SA", "SU"])],
  [
    new RegExp(
      `\\b(?:every|each)\\s+(${EN_DAYS})\\b|\\bon\\s+((?:${
        EN_DAY.slice(0, -2)
      })s(?:\\s*(?:,|and|&|or)\\s*${EN_DAY})*)\\b`,
      "i",
    ),
    (m, d) => days(d, enDayCodes(m[1] ?? m[2] ?? "")),
  ],
  // "every other week on Thursday": a single weekday names the day of a weekly rule only;
  // "every month on Monday" (which Monday?) is not read as some day of the month.
  [
    new RegExp(`\\bon\\s+(${EN_DAYS})\\b`, "i"),
    (m, d) =>
      d.freq === "WEEKLY" && d.byday === undefined
        ? days(d, enDayCodes(m[1] ?? ""))
        : d.freq === "MONTHLY" || d.freq === "YEARLY"
        ? (d.cannot ??= "unreadable")
        : false,
  ],
  // "on the first of every month", "the 15th of each month", "every 1st": a day of the month.
  [
    new RegExp(
      `\\b(?:on\\s+)?the\\s+(${EN_ORDINAL}|last)(?:\\s+day)?\\s+${OF_MONTH}` +
        `|\\b(?:every|each)\\s+(${EN_ORDINAL_WORD}|last)(?:\\s+day)?\\s+${OF_MONTH}` +
        `|\\b(?:every|each)\\s+(\\d{1,2}(?:st|nd|rd|th))(?:\\s+${OF_MONTH})?(?!\\s*(?:${EN_UNITS}))`,
      "i",
    ),
    (m, d) => monthDay(d, ordinalDay(m[1] ?? m[2] ?? m[3] ?? ""), true),
  ],
  // "every month on the 1st", "monthly on the last day". "on the 15th" on its own is one time,
  // the next 15th (`month_day.ts`): a repeat needs its word, never a silent monthly.
  [
    new RegExp(`\\bon\\s+the\\s+(${EN_ORDINAL}|last)(?:\\s+day)?\\b`, "i"),
    (m, d) =>
      d.freq === "MONTHLY"
        ? monthDay(d, ordinalDay(m[1] ?? ""), true)
        : d.freq === "YEARLY" && d.bymonth === undefined
        ? (d.cannot ??= "yearly") // "every year on the 15th": of which month?
        : false,
  ],
  [
    /\b(?:for\s+)?(\d+)\s+times\b(?!\s+(?:a|an|per|each|every|hourly|daily|weekly|fortnightly|monthly|yearly|annually)\b)/i,
    (m, d) => (d.count = Number(m[1])),
  ],
  // "every day at 9 … 1 time", "… only once" (at the end): one reminder of the repeat, COUNT=1;
  // without a repeat word it is no count ("remind me once at 9" is one reminder anyway).
  [
    /\b(?:for\s+)?(?:1|one)\s+time\b(?!\s+(?:a|an|per|each|every|hourly|daily|weekly|fortnightly|monthly|yearly|annually)\b)|\b(?:(?:only|just)\s+)?once(?=\s*[.!]?\s*$)/i,
    (_m, d) => (d.freq === undefined ? false : (d.count = 1)),
  ],
]; // deno-fmt-ignore

const RULES_ZH: readonly Rule[] = [
  [/闰年/, (_m, d) => (d.cannot = "yearly")],
  [new RegExp(`每(?:隔)?\\s*(${ZN})?\\s*个?年|年年`), (m, d) => unit(d, num(m[1]), "year")],
  // "每周一次", "一周两次", "每两周一次", "每天两次", "一年一次".
  [
    new RegExp(`(?:每(?:隔)?\\s*(${ZN})?|(${ZN}))\\s*个?(天|日|${ZH_WEEK}|月|年|小时|钟头|分钟)\\s*(${ZN})\\s*次`),
    (m, d) => per(d, zhNumber(m[4]!), ZH_UNIT[m[3]!] ?? "week", num(m[1] ?? m[2])),
  ],
  [new RegExp(`每(?:隔)?\\s*(${ZN})?\\s*秒钟?`), (m, d) => unit(d, num(m[1]), "second")],
  [/每(?:隔)?半个?(?:小时|钟头)/, (_m, d) => set(d, "MINUTELY", 30)],
  [new RegExp(`每(?:隔)?\\s*(${ZN})?\\s*个?分钟`), (m, d) => unit(d, num(m[1]), "minute")],
  [new RegExp(`每(?:隔)?\\s*(${ZN})?\\s*个?(?:小时|钟头)`), (m, d) => unit(d, num(m[1]), "hour")],
  [new RegExp(`每(?:隔)?\\s*(${ZN})?\\s*(?:天|日)|天天|隔天`), (m, d) => unit(d, m[0] === "隔天" ? 2 : num(m[1]), "day")],
  [/每(?:个)?(?:早上|早晨|清晨|上午|中午|下午|傍晚|晚上|夜里|晚|早)/, (_m, d) => set(d, "DAILY", 1)],
  [/(?:每个?)?工作日|(?:周|星期|礼拜)一(?:到|至|~|-)(?:周|星期|礼拜)?五/, (_m, d) => days(d, WORKWEEK)],
  [/(?:每个?)?周末/, (_m, d) => days(d, ["SA", "SU"])],
  [
    new RegExp(`每(?:个)?${ZH_WEEK}(${ZH_DAYS})${NOT_TIMES}`),
    (m, d) => days(d, zhDayCodes(m[1])),
  ],
  [
    new RegExp(`每(?:隔)?\\s*(${ZN})\\s*个?${ZH_WEEK}${ZH_DAYS_AFTER}|隔周${ZH_DAYS_AFTER}`),
    (m, d) => {
      unit(d, m[1] === undefined ? 2 : num(m[1]), "week");
      days(d, zhDayCodes(m[2] ?? m[3]));
    },
  ],
  [new RegExp(`每(?:隔)?\\s*个?${ZH_WEEK}(?!${ZH_DAY})`), (_m, d) => unit(d, 1, "week")],
  // "每周一次，周五晚上8点": a weekday on its own names the day of a weekly rule only.
  [
    new RegExp(`${ZH_WEEK}(${ZH_DAYS})${NOT_TIMES}`),
    (m, d) => d.freq === "WEEKLY" && d.byday === undefined ? days(d, zhDayCodes(m[1])) : false,
  ],
  [
    new RegExp(`每(?:隔)?\\s*(${ZN})?\\s*个?月(?:的)?(?:\\s*(?:(${ZN})\\s*[号日]|第\\s*(${ZN})\\s*天)|(月底|最后一天))?`),
    (m, d) => {
      unit(d, num(m[1]), "month");
      const day = m[2] ?? m[3];
      if (day !== undefined) monthDay(d, zhNumber(day), false);
      else if (m[4]) monthDay(d, -1, false);
    },
  ],
  [new RegExp(`(?:共|一共|总共)\\s*(${ZN})\\s*次`), (m, d) => (d.count = zhNumber(m[1] ?? ""))],
  // "只提醒一次", "仅一次": one reminder of the repeat (a bare "一次" may say how often: "每天吃药一次").
  [/(?:只|仅)(?:提醒)?\s*(?:一|1)\s*次/, (_m, d) => (d.freq === undefined ? false : (d.count = 1))],
]; // deno-fmt-ignore

// A day of the year by its name, not its date: the model cannot know it.
const DAY_OF_YEAR_RE = /\b(?:birthday|anniversary|name\s*day)\b|生日|纪念日/i;
// Words that ask for a repeat without saying how often: answered, never a one-off.
const VAGUE_RE = /\b(?:repeatedly|recurring|repeating|regularly)\b|重复|反复|定期|每隔?几/i;

/** A count before a unit; words that are no count ("single", "working") count one. */
function enCount(word: string): number {
  if (/^(?:few|several|couple|some|many)$/i.test(word)) return Number.NaN;
  const n = enNumber(word);
  return n < 0 ? 1 : n;
}

function num(text: string | undefined): number {
  return text === undefined ? 1 : zhNumber(text);
}

function set(d: Draft, freq: Freq, interval: number): void {
  if (d.freq === undefined || d.freq === "WEEKLY" && freq === "WEEKLY") {
    d.freq = freq;
    d.interval = Math.max(d.interval, interval);
  }
}

function unit(d: Draft, n: number, word: string): void {
  if (!Number.isSafeInteger(n) || n < 1) {
    d.cannot ??= "unreadable";
    return;
  }
  const w = word.replace(/s$/, "");
  if (w === "second" || w === "sec") {
    if (n % 60 === 0) set(d, "MINUTELY", n / 60);
    else d.cannot ??= "seconds";
  } else if (w === "minute" || w === "min") set(d, "MINUTELY", n);
  else if (w === "hour" || w === "hr") set(d, "HOURLY", n);
  else if (w === "day") set(d, "DAILY", n);
  else if (w === "week") set(d, "WEEKLY", n);
  else if (w === "year") set(d, "YEARLY", n);
  else set(d, "MONTHLY", n);
}

const PER_UNIT: Record<string, string> = {
  hourly: "hour",
  daily: "day",
  weekly: "week",
  fortnightly: "fortnight",
  monthly: "month",
  yearly: "year",
  annually: "year",
}; // deno-fmt-ignore

/** "once a week" (`times` 1 per `word`, every `interval` of them); "twice a day" is checked in `read`. */
function per(d: Draft, times: number, word: string, interval = 1): void {
  const u = PER_UNIT[word.toLowerCase()] ?? word.toLowerCase();
  if (u === "fortnight") set(d, "WEEKLY", 2);
  else unit(d, interval, u);
  d.per = { times, unit: u };
}

/** "once" 1, "twice" 2, "thrice" 3, "4 times" 4; words that are no count ("several") `NaN`. */
function enTimes(word: string, count: string | undefined): number {
  const i = ["once", "twice", "thrice"].indexOf(word.toLowerCase());
  if (i >= 0) return i + 1;
  const n = enNumber(count ?? "");
  return n > 0 ? n : Number.NaN;
}

function adverb(d: Draft, word: string): void {
  if (word === "hourly") set(d, "HOURLY", 1);
  else if (word === "daily" || word === "nightly") set(d, "DAILY", 1);
  else if (word === "weekly") set(d, "WEEKLY", 1);
  else if (word === "fortnightly") set(d, "WEEKLY", 2);
  else if (word === "yearly" || word === "annually") set(d, "YEARLY", 1);
  else set(d, "MONTHLY", 1);
}

function days(d: Draft, codes: readonly string[]): void {
  if (codes.length === 0) return;
  if (d.freq === "DAILY" && d.interval === 1) delete d.freq;
  set(d, "WEEKLY", 1);
  const all = new Set([...(d.byday ?? []), ...codes]);
  d.byday = DAY_CODES.filter((c) => all.has(c));
}

/**
 * Sets the day of the month (1..31, -1 the last day); `monthly`: the phrase itself says the
 * rule is monthly ("the 1st of every month"). A day that no month has ("the 32nd") is refused.
 */
function monthDay(d: Draft, day: number, monthly: boolean): void {
  if (!Number.isInteger(day) || day === 0 || day < -1 || day > 31) {
    d.cannot ??= "unreadable";
    return;
  }
  if (monthly) set(d, "MONTHLY", 1);
  d.bymonthday ??= day;
}

function enDayCodes(text: string): string[] {
  return [...text.toLowerCase().matchAll(/mon|tue|wed|thu|fri|sat|sun/g)].map((m) =>
    DAY_CODES[["mon", "tue", "wed", "thu", "fri", "sat", "sun"].indexOf(m[0])]!
  );
}

function zhDayCodes(text: string | undefined): string[] {
  return [...(text ?? "")].flatMap((c) => {
    const i = "一二三四五六日".indexOf(c === "天" ? "日" : c);
    return i < 0 ? [] : [DAY_CODES[i]!];
  });
}

/**
 * Reads the repeat phrases of a request into a draft rule.
 *
 * @param text the request
 * @returns the draft (with `cannot` when the subset cannot say it or a guess would be needed),
 *   or `undefined` when the request asks for no repeat
 */
export function read(text: string): Draft | undefined {
  const d: Draft = { interval: 1, spans: [] };
  const rules = /[\u3400-\u9fff]/.test(text) ? [...RULES_ZH, ...RULES_EN] : RULES_EN;
  // "the first Monday of every month" first: never "the 1st" and a prompt "Monday of".
  const rest = readCalendar(text, d);
  for (const [re, apply] of rules) {
    const m = re.exec(rest);
    if (!m || apply(m, d) === false) continue;
    d.spans.push({ index: m.index, length: m[0].length });
  }
  readCalendarDay(rest, d);
  if (d.spans.length === 0) return VAGUE_RE.test(text) ? { ...d, cannot: "unreadable" } : undefined;
  if (d.freq === undefined) d.cannot ??= "unreadable"; // "3 times" alone says no cadence
  // "twice a week" names no days (fine when they are named: "twice a week on Mon and Thu"),
  // "twice a day" no hours: never guessed.
  const p = d.per;
  if (p && p.times !== 1 && !(p.unit === "week" && d.byday?.length === p.times)) {
    const unnamed = p.times > 1 && d.byday === undefined;
    d.cannot ??= unnamed && p.unit === "week"
      ? "which-days"
      : unnamed && p.unit === "day"
      ? "which-times"
      : "unreadable";
  }
  // Weekdays the rule cannot carry ("every month on Monday", "every hour on weekdays").
  const monthly = d.freq === "MONTHLY" || d.freq === "YEARLY";
  if (d.byday !== undefined && d.freq !== "WEEKLY" && !(monthly && d.setpos !== undefined)) {
    d.cannot ??= "unreadable";
  }
  if (d.nth !== undefined && !monthly) d.cannot ??= "unreadable";
  // "every year on my birthday", "每年生日": which day is it? Never today's date instead.
  if (
    d.freq === "YEARLY" && d.bymonth === undefined && d.nth === undefined &&
    DAY_OF_YEAR_RE.test(text)
  ) {
    d.cannot ??= "yearly";
  }
  return d;
}
