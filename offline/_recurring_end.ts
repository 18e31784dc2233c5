/**
 * The end of a repeat ("until Friday", "until the end of December", "for 3 days", "for 2 weeks",
 * "到12月4日为止", "直到周五", "直到月底", "连续3天"), read before the repeat itself so its words
 * never count as the repeat's or the task's. Private to the offline model (`recurring.ts`).
 *
 * @module
 */
import * as chrono from "chrono-node";
import { reference } from "./absolute.ts";
import { enNumber, zhNumber } from "./duration.ts";
import type { Span } from "./_recurring_read.ts";

/** A length an end counts in (`time`: a number of reminders, "连续3次"). */
export type EndUnit = "minute" | "hour" | "day" | "week" | "month" | "time";

/**
 * What an end phrase says: the last local day (and, when named, the time) of the repeat; a
 * length from the first reminder; "until further notice" (no end); or an end it cannot read.
 */
export type EndPhrase =
  | {
    readonly kind: "until";
    readonly date: Temporal.PlainDate;
    readonly time?: Temporal.PlainTime;
    readonly span: Span;
  }
  | { readonly kind: "for"; readonly n: number; readonly unit: EndUnit; readonly span: Span }
  | { readonly kind: "open"; readonly span: Span }
  | { readonly kind: "unreadable"; readonly span: Span };

const EN_MONTHS = [
  "jan",
  "feb",
  "mar",
  "apr",
  "may",
  "jun",
  "jul",
  "aug",
  "sep",
  "oct",
  "nov",
  "dec",
];
const OPEN_RE =
  /\b(?:until|till|til)\s+(?:further\s+notice|(?:i|we)\s+(?:cancel|stop)\s+(?:it|them)|cancell?ed)\b/i;
const UNTIL_EN_RE = /\b(?:until|till|til)\b\s*/i;
const END_OF_EN_RE =
  /^(?:the\s+)?end\s+of\s+(?:(?:the|this)\s+(month|week|year)|next\s+(month|week|year)|(jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?))\b/i;
const FOR_EN_RE =
  /\bfor\s+(?:the\s+next\s+)?(\d+|[a-z]+(?:[\s-][a-z]+)?)\s+(minutes?|mins?|hours?|hrs?|days?|weeks?|months?)\b/i;
const ZN = "[0-9０-９]+|[零一二两三四五六七八九十百]+";
const UNTIL_ZH_RE = /(?:一直到|直到|截至|截止到?)\s*|到\s*(?=[^，,。！!？?]{1,12}为止)/;
const END_OF_ZH_RE = new RegExp(
  `^(?:(本|这个?|下个?)?月底|(${ZN})\\s*月底|(本|这|下)?周末|(今|明)?年底)`,
);
const FOR_ZH_RE = new RegExp(
  `(?:连续|持续)\\s*(${ZN})\\s*(个月|个?星期|个?礼拜|周|天|日|个?小时|个?钟头|分钟|次)`,
);
const ZH_UNIT: Record<string, EndUnit> = {
  月: "month",
  期: "week",
  拜: "week",
  周: "week",
  天: "day",
  日: "day",
  时: "hour",
  头: "hour",
  钟: "minute",
  次: "time",
}; // deno-fmt-ignore

function enUnit(word: string): EndUnit {
  const w = word.toLowerCase();
  return w.startsWith("min") ? "minute" : w.startsWith("h") ? "hour" : w.startsWith("d")
    ? "day"
    : w.startsWith("w")
    ? "week"
    : "month";
}

/** The last day of the month, week (Sunday) or year `wall` is in, `ahead` of them later. */
function endOf(unit: string, ahead: number, wall: Temporal.PlainDate): Temporal.PlainDate {
  if (unit === "week") return wall.add({ days: 7 * ahead + 7 - wall.dayOfWeek });
  if (unit === "year") {
    return Temporal.PlainDate.from({ year: wall.year + ahead, month: 12, day: 31 });
  }
  const month = wall.toPlainYearMonth().add({ months: ahead });
  return month.toPlainDate({ day: month.daysInMonth });
} // deno-fmt-ignore

/** The end of a named month: this year's, or next year's once this year's has passed. */
function endOfMonth(index: number, wall: Temporal.PlainDate): Temporal.PlainDate {
  let month = Temporal.PlainYearMonth.from({ year: wall.year, month: index + 1 });
  if (Temporal.PlainYearMonth.compare(month, wall.toPlainYearMonth()) < 0) {
    month = month.add({ years: 1 });
  }
  return month.toPlainDate({ day: month.daysInMonth });
}

/** A date read by chrono-node right at the start of `rest` (after the end word). */
function dateAt(
  rest: string,
  wall: Temporal.ZonedDateTime,
  zh: boolean,
): { date: Temporal.PlainDate; time?: Temporal.PlainTime; length: number } | undefined {
  const parser = zh ? chrono.zh : chrono.en;
  const found = parser.parse(rest, reference(wall), { forwardDate: true })[0];
  if (!found || rest.slice(0, found.index).trim() !== "") return undefined;
  const s = found.start;
  const date = Temporal.PlainDate.from({
    year: s.get("year") ?? wall.year,
    month: s.get("month") ?? wall.month,
    day: s.get("day") ?? wall.day,
  });
  const time = s.isCertain("hour")
    ? Temporal.PlainTime.from({ hour: s.get("hour") ?? 0, minute: s.get("minute") ?? 0 })
    : undefined;
  return { date, ...(time ? { time } : {}), length: found.index + found.text.length };
}

function untilEnglish(text: string, wall: Temporal.ZonedDateTime): EndPhrase | undefined {
  const open = OPEN_RE.exec(text);
  if (open) return { kind: "open", span: { index: open.index, length: open[0].length } };
  const m = UNTIL_EN_RE.exec(text);
  if (!m) return undefined;
  const from = m.index + m[0].length;
  const rest = text.slice(from);
  const today = wall.toPlainDate();
  const end = END_OF_EN_RE.exec(rest);
  if (end) {
    const date = end[3]
      ? endOfMonth(EN_MONTHS.indexOf(end[3].slice(0, 3).toLowerCase()), today)
      : endOf((end[1] ?? end[2] ?? "").toLowerCase(), end[2] ? 1 : 0, today);
    return { kind: "until", date, span: { index: m.index, length: m[0].length + end[0].length } };
  }
  const at = dateAt(rest, wall, false);
  if (!at) return { kind: "unreadable", span: { index: m.index, length: m[0].length } };
  const { length, ...when } = at;
  return { kind: "until", ...when, span: { index: m.index, length: m[0].length + length } };
}

function untilChinese(text: string, wall: Temporal.ZonedDateTime): EndPhrase | undefined {
  const m = UNTIL_ZH_RE.exec(text);
  if (!m) return undefined;
  const from = m.index + m[0].length;
  const rest = text.slice(from);
  const today = wall.toPlainDate();
  const end = END_OF_ZH_RE.exec(rest);
  let found: { date: Temporal.PlainDate; time?: Temporal.PlainTime; length: number } | undefined;
  if (end?.[2] !== undefined) {
    const month = zhNumber(end[2]);
    found = month >= 1 && month <= 12
      ? { date: endOfMonth(month - 1, today), length: end[0].length }
      : undefined;
  } else if (end) {
    const unit = end[0].endsWith("周末") ? "week" : end[0].endsWith("年底") ? "year" : "month";
    const ahead = /^[下明]/.test(end[0]) ? 1 : 0;
    found = { date: endOf(unit, ahead, today), length: end[0].length };
  } else found = dateAt(rest, wall, true);
  const close = found ? /^\s*为止/.exec(rest.slice(found.length)) : null;
  const length = m[0].length + (found?.length ?? 0) + (close?.[0].length ?? 0);
  if (!found) return { kind: "unreadable", span: { index: m.index, length } };
  return {
    kind: "until",
    date: found.date,
    ...(found.time ? { time: found.time } : {}),
    span: { index: m.index, length },
  };
}

function forPhrase(text: string, zh: boolean): EndPhrase | undefined {
  const m = (zh ? FOR_ZH_RE.exec(text) : undefined) ?? FOR_EN_RE.exec(text);
  if (!m) return undefined;
  const span = { index: m.index, length: m[0].length };
  const isZh = /[\u3400-\u9fff]/.test(m[0]);
  const n = isZh ? zhNumber(m[1] ?? "") : enNumber(m[1] ?? "");
  const unit = isZh ? ZH_UNIT[(m[2] ?? "").at(-1) ?? ""] ?? "day" : enUnit(m[2] ?? "");
  if (!Number.isSafeInteger(n) || n < 1) return { kind: "unreadable", span };
  return { kind: "for", n, unit, span };
}

/**
 * Finds the end of a repeat in a request.
 *
 * @param text the request (explicit zone phrases already blanked out)
 * @param wall the current instant in the zone the repeat runs in (dates are read there)
 * @returns the end phrase, or `undefined` when none is said
 */
export function findEnd(text: string, wall: Temporal.ZonedDateTime): EndPhrase | undefined {
  const zh = /[\u3400-\u9fff]/.test(text);
  return (zh ? untilChinese(text, wall) : undefined) ?? untilEnglish(text, wall) ??
    forPhrase(text, zh);
}

/** The rule an end applies to: its frequency, interval and weekdays. */
export interface EndRule {
  /** FREQ. */
  readonly freq: "MINUTELY" | "HOURLY" | "DAILY" | "WEEKLY" | "MONTHLY" | "YEARLY";
  /** INTERVAL. */
  readonly interval: number;
  /** BYDAY of a weekly rule. */
  readonly byday?: readonly string[] | undefined;
}

/** What an end adds to the rule: a part (`COUNT=3`, `UNTIL=…`), nothing, or why it cannot. */
export type EndPart =
  | { readonly kind: "part"; readonly part?: string }
  | { readonly kind: "task" }
  | { readonly kind: "cannot"; readonly reason: "end" | "end-count" | "end-before" };

/** Largest COUNT the tools take (docs/recurring.md "Records"). */
const MAX_COUNT = 10_000;
const MINUTES: Record<Exclude<EndUnit, "month" | "time">, number> = {
  minute: 1,
  hour: 60,
  day: 1440,
  week: 10_080,
};
const PERIOD: Record<Exclude<EndRule["freq"], "MONTHLY" | "YEARLY">, number> = {
  MINUTELY: 1,
  HOURLY: 60,
  DAILY: 1440,
  WEEKLY: 10_080,
};

function pad(n: number, width = 2): string {
  return String(n).padStart(width, "0");
}

/** How many reminders `n` `unit`s of the rule hold, from its first; `task` when shorter than it. */
function countFor(n: number, unit: EndUnit, rule: EndRule): number | "task" | undefined {
  if (unit === "time") return n;
  if (rule.freq === "MONTHLY" || rule.freq === "YEARLY") {
    if (unit !== "month") return "task";
    const months = rule.interval * (rule.freq === "YEARLY" ? 12 : 1);
    if (rule.freq === "YEARLY" && n < months) return "task";
    return n % months === 0 ? n / months : undefined;
  }
  if (unit === "month") return undefined; // months differ in length: no exact count
  const total = n * MINUTES[unit];
  const period = PERIOD[rule.freq] * rule.interval;
  if (total < period) return "task"; // "every Monday … book the room for 2 hours"
  if (total % period !== 0) return undefined;
  return (total / period) * (rule.freq === "WEEKLY" ? rule.byday?.length ?? 1 : 1);
}

/**
 * The RRULE part an end adds to a rule starting at `start` in `timeZone`. "until <day>" is
 * `UNTIL` at the last second of that local day (or at the time named), in UTC (RFC 5545
 * §3.3.10, docs/recurring.md "Records": inclusive), so that day's reminder is kept; a length is
 * the `COUNT` of reminders it holds from the first ("for 3 days" of a daily rule: 3; "for 2
 * weeks" of a weekday rule: 10), refused when no whole count says it exactly. A length shorter
 * than one repeat ("every Monday … for 2 hours") is no end: its words are the task's (`task`).
 *
 * @param end the end phrase
 * @param rule the rule it ends
 * @param start the first reminder, local
 * @param timeZone the rule's IANA zone
 * @returns the part to add, `task`, or why it cannot be said
 */
export function endPart(
  end: EndPhrase,
  rule: EndRule,
  start: Temporal.PlainDateTime,
  timeZone: string,
): EndPart {
  if (end.kind === "open") return { kind: "part" };
  if (end.kind === "unreadable") return { kind: "cannot", reason: "end" };
  if (end.kind === "for") {
    const count = countFor(end.n, end.unit, rule);
    if (count === "task") return { kind: "task" };
    if (count === undefined || count > MAX_COUNT) return { kind: "cannot", reason: "end-count" };
    return { kind: "part", part: `COUNT=${count}` };
  }
  const time = end.time ?? Temporal.PlainTime.from({ hour: 23, minute: 59, second: 59 });
  const until = end.date.toPlainDateTime(time).toZonedDateTime(timeZone).toInstant();
  const first = start.toZonedDateTime(timeZone).toInstant();
  if (Temporal.Instant.compare(until, first) < 0) return { kind: "cannot", reason: "end-before" };
  const u = until.toZonedDateTimeISO("UTC");
  const date = `${pad(u.year, 4)}${pad(u.month)}${pad(u.day)}`;
  return { kind: "part", part: `UNTIL=${date}T${pad(u.hour)}${pad(u.minute)}${pad(u.second)}Z` };
}
