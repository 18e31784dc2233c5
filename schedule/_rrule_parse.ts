// Private: the RRULE subset of docs/recurring.md (RFC 5545 §3.3.10) parsed into a typed rule and
// printed back in one canonical text, so a stored `rrule` has exactly one spelling.
import { ScheduleError } from "./errors.ts";
import { parseStrictInstant } from "./rfc3339.ts";

/** Frequencies of the subset (SECONDLY is refused). */
export type Frequency = "MINUTELY" | "HOURLY" | "DAILY" | "WEEKLY" | "MONTHLY" | "YEARLY";

/**
 * One `BYDAY` entry: ISO weekday 1 (MO) … 7 (SU), with an ordinal only for MONTHLY (±1..5, in
 * the month) and YEARLY (±1..53: in the month with `BYMONTH`, else in the year; RFC 5545
 * §3.3.10).
 */
export interface ByDay {
  readonly weekday: number;
  readonly ordinal?: number;
}

/** A parsed rule; absent lists mean "not given". */
export interface Rule {
  readonly freq: Frequency;
  readonly interval: number;
  /** Months 1..12 (a limit for every frequency but YEARLY, where it expands). */
  readonly byMonth?: readonly number[];
  readonly byDay?: readonly ByDay[];
  readonly byMonthDay?: readonly number[];
  readonly byHour?: readonly number[];
  readonly byMinute?: readonly number[];
  /** Positions (±1..366) in each period's set of occurrences; DAILY and longer only. */
  readonly bySetPos?: readonly number[];
  readonly count?: number;
  /** UNTIL as epoch ms (UTC), inclusive. */
  readonly until?: number;
}

/** Largest accepted COUNT: a COUNT series is enumerated from DTSTART. */
export const MAX_COUNT = 10_000;
/** Largest accepted INTERVAL. */
export const MAX_INTERVAL = 10_000;

const FREQS: readonly string[] = ["MINUTELY", "HOURLY", "DAILY", "WEEKLY", "MONTHLY", "YEARLY"];
/** Weekday codes by ISO number − 1. */
export const WEEKDAYS: readonly string[] = ["MO", "TU", "WE", "TH", "FR", "SA", "SU"];
const KNOWN = [
  "FREQ",
  "INTERVAL",
  "BYMONTH",
  "BYDAY",
  "BYMONTHDAY",
  "BYHOUR",
  "BYMINUTE",
  "BYSETPOS",
  "COUNT",
  "UNTIL",
  "WKST",
];
const UNTIL = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/;
const INTEGER = /^[+-]?\d{1,6}$/;

function unsupported(reason: string): ScheduleError {
  return new ScheduleError("unsupported_rule", `Cannot use rule: ${reason}`);
}

function invalid(reason: string): ScheduleError {
  return new ScheduleError("invalid_arguments", `Cannot use rule: ${reason}`);
}

function integer(name: string, text: string, min: number, max: number): number {
  if (!INTEGER.test(text)) throw invalid(`${name}=${text} is not an integer`);
  const value = Number(text);
  if (value < min || value > max) throw invalid(`${name}=${text} is outside ${min}..${max}`);
  return value;
}

function list(name: string, text: string, min: number, max: number, nonZero = false): number[] {
  const values = text.split(",").map((part) => {
    const value = integer(name, part, min, max);
    if (nonZero && value === 0) throw invalid(`${name} may not be 0`);
    return value;
  });
  return [...new Set(values)].sort((a, b) => a - b);
}

function byDay(text: string, freq: Frequency, yearlyInMonth: boolean): ByDay[] {
  const seen = new Map<string, ByDay>();
  for (const part of text.split(",")) {
    const match = /^([+-]?\d{1,2})?(MO|TU|WE|TH|FR|SA|SU)$/.exec(part);
    if (match === null) throw invalid(`BYDAY=${part} is not a weekday code`);
    const weekday = WEEKDAYS.indexOf(match[2]!) + 1;
    if (match[1] === undefined) {
      seen.set(`${weekday}`, { weekday });
      continue;
    }
    if (freq !== "MONTHLY" && freq !== "YEARLY") {
      throw unsupported(`BYDAY ordinals need FREQ=MONTHLY or FREQ=YEARLY`);
    }
    const bound = freq === "MONTHLY" || yearlyInMonth ? 5 : 53;
    const ordinal = integer("BYDAY", match[1], -bound, bound);
    if (ordinal === 0) throw invalid("a BYDAY ordinal may not be 0");
    seen.set(`${ordinal}${weekday}`, { weekday, ordinal });
  }
  return [...seen.values()].sort((a, b) =>
    (a.ordinal ?? 0) - (b.ordinal ?? 0) || a.weekday - b.weekday
  );
}

function until(text: string): number {
  const match = UNTIL.exec(text);
  if (match === null) throw unsupported(`UNTIL=${text} is not UTC YYYYMMDDTHHMMSSZ`);
  const [y, mo, d, h, mi, s] = match.slice(1);
  try {
    return parseStrictInstant(`${y}-${mo}-${d}T${h}:${mi}:${s}Z`);
  } catch {
    throw invalid(`UNTIL=${text} is not a real date-time`);
  }
}

/**
 * Parses an RRULE value (an `RRULE:` prefix and lower case are accepted; the canonical text is
 * upper case without it). Throws `unsupported_rule` for parts outside the subset and
 * `invalid_arguments` for malformed values.
 */
export function parseRule(text: string): Rule {
  const body = text.trim().toUpperCase().replace(/^RRULE:/, "");
  if (body === "") throw invalid("the rule is empty");
  const parts = new Map<string, string>();
  for (const part of body.split(";")) {
    const eq = part.indexOf("=");
    const key = eq < 0 ? part : part.slice(0, eq);
    const value = eq < 0 ? "" : part.slice(eq + 1);
    if (!KNOWN.includes(key)) throw unsupported(`${key} is not supported`);
    if (parts.has(key)) throw invalid(`${key} is given twice`);
    if (value === "") throw invalid(`${key} has no value`);
    parts.set(key, value);
  }
  const freqText = parts.get("FREQ");
  if (freqText === undefined) throw invalid("FREQ is required");
  if (!FREQS.includes(freqText)) throw unsupported(`FREQ=${freqText} is not supported`);
  const freq = freqText as Frequency;
  const wkst = parts.get("WKST");
  if (wkst !== undefined && wkst !== "MO") throw unsupported(`WKST=${wkst} is not supported`);
  if (parts.has("COUNT") && parts.has("UNTIL")) throw invalid("COUNT and UNTIL are exclusive");
  const interval = parts.has("INTERVAL")
    ? integer("INTERVAL", parts.get("INTERVAL")!, 1, MAX_INTERVAL)
    : 1;
  const rule: {
    -readonly [K in keyof Rule]: Rule[K];
  } = { freq, interval };
  const month = parts.get("BYMONTH");
  if (month !== undefined) rule.byMonth = list("BYMONTH", month, 1, 12);
  const day = parts.get("BYDAY");
  if (day !== undefined) rule.byDay = byDay(day, freq, month !== undefined);
  const monthDay = parts.get("BYMONTHDAY");
  if (monthDay !== undefined) {
    if (freq === "WEEKLY") throw unsupported("BYMONTHDAY does not apply to FREQ=WEEKLY");
    rule.byMonthDay = list("BYMONTHDAY", monthDay, -31, 31, true);
  }
  const hour = parts.get("BYHOUR");
  if (hour !== undefined) rule.byHour = list("BYHOUR", hour, 0, 23);
  const minute = parts.get("BYMINUTE");
  if (minute !== undefined) rule.byMinute = list("BYMINUTE", minute, 0, 59);
  const setPos = parts.get("BYSETPOS");
  if (setPos !== undefined) {
    if (freq === "MINUTELY" || freq === "HOURLY") {
      throw unsupported("BYSETPOS needs FREQ=DAILY or longer");
    }
    if ([month, day, parts.get("BYMONTHDAY"), hour, minute].every((v) => v === undefined)) {
      throw invalid("BYSETPOS needs another BYxxx part (RFC 5545 §3.3.10)");
    }
    rule.bySetPos = list("BYSETPOS", setPos, -366, 366, true);
  }
  const count = parts.get("COUNT");
  if (count !== undefined) rule.count = integer("COUNT", count, 1, MAX_COUNT);
  const end = parts.get("UNTIL");
  if (end !== undefined) rule.until = until(end);
  return rule;
}

function pad(value: number, width: number): string {
  return String(value).padStart(width, "0");
}

/** Formats epoch ms as an RRULE UTC date-time `YYYYMMDDTHHMMSSZ`. */
export function formatUntil(ms: number): string {
  const d = new Date(ms);
  return `${pad(d.getUTCFullYear(), 4)}${pad(d.getUTCMonth() + 1, 2)}${pad(d.getUTCDate(), 2)}T` +
    `${pad(d.getUTCHours(), 2)}${pad(d.getUTCMinutes(), 2)}${pad(d.getUTCSeconds(), 2)}Z`;
}

/**
 * The canonical text: parts in the order FREQ, INTERVAL (omitted when 1), BYMONTH, BYDAY,
 * BYMONTHDAY, BYHOUR, BYMINUTE, BYSETPOS, COUNT, UNTIL; lists sorted and without duplicates; no
 * WKST (always MO).
 */
export function formatRule(rule: Rule): string {
  const parts = [`FREQ=${rule.freq}`];
  if (rule.interval !== 1) parts.push(`INTERVAL=${rule.interval}`);
  if (rule.byMonth !== undefined) parts.push(`BYMONTH=${rule.byMonth.join(",")}`);
  if (rule.byDay !== undefined) {
    const days = rule.byDay.map((d) => `${d.ordinal ?? ""}${WEEKDAYS[d.weekday - 1]}`);
    parts.push(`BYDAY=${days.join(",")}`);
  }
  if (rule.byMonthDay !== undefined) parts.push(`BYMONTHDAY=${rule.byMonthDay.join(",")}`);
  if (rule.byHour !== undefined) parts.push(`BYHOUR=${rule.byHour.join(",")}`);
  if (rule.byMinute !== undefined) parts.push(`BYMINUTE=${rule.byMinute.join(",")}`);
  if (rule.bySetPos !== undefined) parts.push(`BYSETPOS=${rule.bySetPos.join(",")}`);
  if (rule.count !== undefined) parts.push(`COUNT=${rule.count}`);
  if (rule.until !== undefined) parts.push(`UNTIL=${formatUntil(rule.until)}`);
  return parts.join(";");
}
