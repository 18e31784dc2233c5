/**
 * Repeating requests for the offline model ("every day at 9", "every weekday at 8:30",
 * "every 2 hours", "每天早上8点", "每隔2小时", "工作日", "每周一"), written as the RFC 5545
 * RRULE subset of docs/recurring.md ("RRULE subset"). A repeat the subset cannot say (in
 * seconds that are no whole minutes, yearly, unreadable) is reported as such: the caller answers that it
 * cannot, never with a one-off reminder.
 *
 * @module
 */
import type { RepeatArgs } from "./contract.ts";
import { enNumber, zhNumber } from "./duration.ts";
import { defaultTimeOfDay, findTimeOfDay } from "./time_of_day.ts";

/** A phrase's place in the text. */
export interface Span {
  /** Index (UTF-16 units). */
  readonly index: number;
  /** Length (UTF-16 units). */
  readonly length: number;
}

/**
 * Why a repeat cannot be set: `seconds` (a count of seconds that is no whole number of minutes,
 * "every 90 seconds": the RRULE subset counts in whole minutes), `yearly`, `unreadable`.
 */
export type CannotReason = "seconds" | "yearly" | "unreadable";

/**
 * What {@linkcode findRecurrence} read: a rule, a repeat the subset cannot say, or a repeat at a
 * clock time that is no time of day ("every day at 25:00": refused like a one-off's bad time).
 */
export type Recurrence =
  | { readonly kind: "rule"; readonly repeat: RepeatArgs; readonly spans: readonly Span[] }
  | { readonly kind: "cannot"; readonly reason: CannotReason }
  | { readonly kind: "invalid-time" };

type Freq = "MINUTELY" | "HOURLY" | "DAILY" | "WEEKLY" | "MONTHLY";

interface Draft {
  freq?: Freq;
  interval: number;
  byday?: string[];
  bymonthday?: number;
  count?: number;
  cannot?: CannotReason;
  spans: Span[];
}

const DAY_CODES = ["MO", "TU", "WE", "TH", "FR", "SA", "SU"] as const;
const WORKWEEK = ["MO", "TU", "WE", "TH", "FR"];
const EN_DAY = "(?:mon|tues?|wed(?:nes)?|thu(?:rs?)?|fri|sat(?:ur)?|sun)(?:day)?s?";
const EN_DAYS = `${EN_DAY}(?:\\s*(?:,|and|&|or)\\s*${EN_DAY})*`;
const EN_MONTHS =
  "january|february|march|april|may|june|july|august|september|october|november|december";
const ZN = "[0-9０-９]+|[零一二两三四五六七八九十百]+";
const ZH_DAY = "[一二三四五六日天]";
const ZH_WEEK = "(?:周|星期|礼拜)";
const ZH_DAYS = `${ZH_DAY}(?:\\s*[、,，和及与跟]?\\s*${ZH_WEEK}?${ZH_DAY})*`;
// The weekdays after a week interval ("每两周四", "每两周的周一和周四", "隔周周五"); "每两周一次"
// is a count, not Monday.
const ZH_DAYS_AFTER = `(?:的?\\s*${ZH_WEEK}?(${ZH_DAYS})(?!次))?`;

/** A phrase and what it sets; `false`: the phrase says nothing here (its words stay in the prompt). */
type Rule = readonly [RegExp, (m: RegExpExecArray, d: Draft) => void | false];

const RULES_EN: readonly Rule[] = [
  [
    new RegExp(
      `\\b(?:every|each)\\s+(?:other\\s+|\\S+\\s+)?(?:leap\\s+)?years?\\b|\\b(?:yearly|annually)\\b|\\b(?:every|each)\\s+(?:${EN_MONTHS})\\b`,
      "i",
    ),
    (_m, d) => (d.cannot = "yearly"),
  ],
  [/\b(?:every|each)\s+half\s+(?:an\s+)?hour\b/i, (_m, d) => set(d, "MINUTELY", 30)],
  [/\b(?:every|each)\s+fortnight\b/i, (_m, d) => set(d, "WEEKLY", 2)],
  [
    /\b(?:every|each)\s+(?:(other|second)\s+|(\d+|[a-z]+(?:-[a-z]+)?)\s+)?(seconds?|secs?|minutes?|mins?|hours?|hrs?|days?|weeks?|months?)\b/i,
    (m, d) => unit(d, m[1] ? 2 : m[2] ? enCount(m[2]) : 1, m[3]!.toLowerCase()),
  ],
  [
    /\b(hourly|daily|nightly|weekly|fortnightly|monthly)\b/i,
    (m, d) => adverb(d, m[1]!.toLowerCase()),
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
  // "every other week on Thursday": a single weekday names the day of a weekly rule only.
  [
    new RegExp(`\\bon\\s+(${EN_DAYS})\\b`, "i"),
    (m, d) =>
      d.freq === "WEEKLY" && d.byday === undefined ? days(d, enDayCodes(m[1] ?? "")) : false,
  ],
  [
    /\b(?:on\s+)?the\s+last\s+day(?:\s+of\s+(?:the|each|every)\s+month)?\b/i,
    (_m, d) => monthDay(d, -1),
  ],
  [
    /\bon\s+the\s+(\d{1,2})(?:st|nd|rd|th)?\b|\b(?:every|each)\s+(\d{1,2})(?:st|nd|rd|th)(?:\s+of\s+(?:the|each|every)\s+month)?\b/i,
    (m, d) => monthDay(d, Number(m[1] ?? m[2])),
  ],
  [/\b(?:for\s+)?(\d+)\s+times\b/i, (m, d) => (d.count = Number(m[1]))],
]; // deno-fmt-ignore

const RULES_ZH: readonly Rule[] = [
  [new RegExp(`每(?:隔)?\\s*(?:${ZN})?\\s*个?年|闰年|年年`), (_m, d) => (d.cannot = "yearly")],
  [new RegExp(`每(?:隔)?\\s*(${ZN})?\\s*秒钟?`), (m, d) => unit(d, num(m[1]), "second")],
  [/每(?:隔)?半个?(?:小时|钟头)/, (_m, d) => set(d, "MINUTELY", 30)],
  [new RegExp(`每(?:隔)?\\s*(${ZN})?\\s*个?分钟`), (m, d) => unit(d, num(m[1]), "minute")],
  [new RegExp(`每(?:隔)?\\s*(${ZN})?\\s*个?(?:小时|钟头)`), (m, d) => unit(d, num(m[1]), "hour")],
  [new RegExp(`每(?:隔)?\\s*(${ZN})?\\s*(?:天|日)|天天|隔天`), (m, d) => unit(d, m[0] === "隔天" ? 2 : num(m[1]), "day")],
  [/每(?:个)?(?:早上|早晨|清晨|上午|中午|下午|傍晚|晚上|夜里|晚|早)/, (_m, d) => set(d, "DAILY", 1)],
  [/(?:每个?)?工作日|(?:周|星期|礼拜)一(?:到|至|~|-)(?:周|星期|礼拜)?五/, (_m, d) => days(d, WORKWEEK)],
  [/(?:每个?)?周末/, (_m, d) => days(d, ["SA", "SU"])],
  [
    new RegExp(`每(?:个)?${ZH_WEEK}(${ZH_DAYS})`),
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
  [
    new RegExp(`每(?:隔)?\\s*(${ZN})?\\s*个?月(?:的)?(?:\\s*(${ZN})\\s*[号日]|(月底|最后一天))?`),
    (m, d) => {
      unit(d, num(m[1]), "month");
      if (m[2]) d.bymonthday = zhNumber(m[2]);
      else if (m[3]) d.bymonthday = -1;
    },
  ],
  [new RegExp(`(?:共|一共|总共)\\s*(${ZN})\\s*次`), (m, d) => (d.count = zhNumber(m[1] ?? ""))],
]; // deno-fmt-ignore

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
  else set(d, "MONTHLY", n);
}

function adverb(d: Draft, word: string): void {
  if (word === "hourly") set(d, "HOURLY", 1);
  else if (word === "daily" || word === "nightly") set(d, "DAILY", 1);
  else if (word === "weekly") set(d, "WEEKLY", 1);
  else if (word === "fortnightly") set(d, "WEEKLY", 2);
  else set(d, "MONTHLY", 1);
}

function days(d: Draft, codes: readonly string[]): void {
  if (codes.length === 0) return;
  if (d.freq === "DAILY" && d.interval === 1) delete d.freq;
  set(d, "WEEKLY", 1);
  const all = new Set([...(d.byday ?? []), ...codes]);
  d.byday = DAY_CODES.filter((c) => all.has(c));
}

function monthDay(d: Draft, day: number): void {
  if (day === 0 || day > 31) return;
  set(d, "MONTHLY", 1);
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

function read(text: string): Draft | undefined {
  const d: Draft = { interval: 1, spans: [] };
  const rules = /[\u3400-\u9fff]/.test(text) ? [...RULES_ZH, ...RULES_EN] : RULES_EN;
  for (const [re, apply] of rules) {
    const m = re.exec(text);
    if (!m || apply(m, d) === false) continue;
    d.spans.push({ index: m.index, length: m[0].length });
  }
  if (d.spans.length === 0) return VAGUE_RE.test(text) ? { ...d, cannot: "unreadable" } : undefined;
  if (d.freq === undefined) d.cannot ??= "unreadable"; // "3 times" alone says no cadence
  return d;
}

function pad(n: number): string {
  return String(n).padStart(2, "0");
}

function matches(d: Draft, date: Temporal.PlainDate): boolean {
  if (d.freq === "WEEKLY" && d.byday) return d.byday.includes(DAY_CODES[date.dayOfWeek - 1]!);
  if (d.freq === "MONTHLY" && d.bymonthday !== undefined) {
    const want = d.bymonthday > 0 ? d.bymonthday : date.daysInMonth + d.bymonthday + 1;
    return date.day === want;
  }
  return true;
}

/** The first local date-time at or after `from` (a date) whose day matches, after `now`. */
function firstAt(
  d: Draft,
  now: Temporal.ZonedDateTime,
  time: { hour: number; minute: number },
): Temporal.PlainDateTime {
  let date = now.toPlainDate();
  for (let i = 0; i < 800; i++, date = date.add({ days: 1 })) {
    const local = date.toPlainDateTime({ hour: time.hour, minute: time.minute });
    if (!matches(d, date)) continue;
    if (
      Temporal.Instant.compare(local.toZonedDateTime(now.timeZoneId).toInstant(), now.toInstant()) >
        0
    ) {
      return local;
    }
  }
  return date.toPlainDateTime({ hour: time.hour, minute: time.minute });
} // deno-fmt-ignore

/**
 * Reads the repeat a request asks for. The rule is RRULE text in the order FREQ, INTERVAL,
 * BYDAY, BYMONTHDAY, BYHOUR, BYMINUTE, COUNT (e.g. `FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR;BYHOUR=8;
 * BYMINUTE=30`). `start` is the first occurrence as a local `{ date, time }` (seconds zero) in
 * `timeZone`: the next matching day at the time of day for daily and longer rules (09:00, or a
 * day part's hour, when no time is named), one interval from the current minute for minutely
 * and hourly ones (or the named time, when one is given).
 *
 * @param text the request (explicit zone phrases already blanked out)
 * @param options `now` (epoch ms) and the IANA zone the rule runs in
 * @returns the rule with the phrases it read, `cannot` with a reason, `invalid-time` when the
 * named time of day is none (never the default time instead), or `undefined` when the request
 * does not ask for a repeat
 */
export function findRecurrence(
  text: string,
  options: { readonly now: number; readonly timeZone: string },
): Recurrence | undefined {
  const d = read(text);
  if (d === undefined) return undefined;
  if (d.cannot !== undefined) return { kind: "cannot", reason: d.cannot };
  const freq = d.freq;
  if (freq === undefined) return { kind: "cannot", reason: "unreadable" };
  const now = Temporal.Instant.fromEpochMilliseconds(options.now).toZonedDateTimeISO(
    options.timeZone,
  );
  const named = findTimeOfDay(text);
  if (named !== undefined && "invalid" in named) return { kind: "invalid-time" };
  const spans = named ? [...d.spans, { index: named.index, length: named.length }] : d.spans;
  const subDaily = freq === "MINUTELY" || freq === "HOURLY";
  let start: Temporal.PlainDateTime;
  if (subDaily && !named) {
    const minute = now.toPlainDateTime().round({ smallestUnit: "minute", roundingMode: "floor" });
    start = minute.add(freq === "MINUTELY" ? { minutes: d.interval } : { hours: d.interval });
  } else {
    start = firstAt(d, now, named ?? defaultTimeOfDay(text));
  }
  const parts = [`FREQ=${freq}`];
  if (d.interval > 1) parts.push(`INTERVAL=${d.interval}`);
  if (d.byday && freq === "WEEKLY") parts.push(`BYDAY=${d.byday.join(",")}`);
  if (d.bymonthday !== undefined && freq === "MONTHLY") parts.push(`BYMONTHDAY=${d.bymonthday}`);
  if (!subDaily) parts.push(`BYHOUR=${start.hour}`, `BYMINUTE=${start.minute}`);
  if (d.count !== undefined && d.count > 0) parts.push(`COUNT=${d.count}`);
  const repeat: RepeatArgs = {
    rrule: parts.join(";"),
    start: {
      date: start.toPlainDate().toString(),
      time: `${pad(start.hour)}:${pad(start.minute)}`,
    },
  };
  return { kind: "rule", repeat, spans };
}
