/**
 * Absolute clock times ("tomorrow at 9", "明天上午9点", "on Dec 24 at 18:00") for the offline
 * model, read by chrono-node and normalized to a local `{ date, time }` in a chosen zone. A day
 * of the month said on its own ("on the 15th at 9", "15号上午9点"), which chrono-node does not
 * read, is read first (`month_day.ts`): the next such day, one time.
 *
 * @module
 */
import * as chrono from "chrono-node";
import { type CalendarDate, findCalendarDate, nextLeapDay } from "./calendar_date.ts";
import { findMonthDay, type MonthDay, nextMonthDay } from "./month_day.ts";

/** An absolute time found in a text. */
export interface AbsoluteMatch {
  /** Local date `YYYY-MM-DD` in the zone the phrase was read in. */
  readonly date: string;
  /** Local time `HH:MM`. */
  readonly time: string;
  /** RFC 3339 UTC instant, set only when the phrase itself carried a numeric offset. */
  readonly instant?: string;
  /** The phrase names a day ("tomorrow at 9", "Friday at 10", "明天"), not just a clock time. */
  readonly dated: boolean;
  /** Index of the phrase in the text (UTF-16 units). */
  readonly index: number;
  /** Length of the phrase (UTF-16 units). */
  readonly length: number;
  /** The day of the month said apart from the clock time ("on the 15th" of "on the 15th at 9"). */
  readonly dayPhrase?: { readonly index: number; readonly length: number };
}

/** What {@linkcode findAbsolute} found: a time, a phrase without a clock time, or nothing. */
export type AbsoluteResult =
  | { readonly kind: "time"; readonly match: AbsoluteMatch }
  | {
    readonly kind: "no-clock-time";
    /** The local day `YYYY-MM-DD` the phrase names ("tomorrow", "on the 15th"), when it names one. */
    readonly date?: string;
    /** That day as said ("tomorrow", "on the 15th", "2月29日"), for an example answer. */
    readonly phrase?: string;
  }
  | {
    readonly kind: "no-such-date";
    readonly month: number;
    readonly day: number;
    readonly year?: number;
  }
  | { readonly kind: "none" };

// Relative phrases are parse.ts's job (duration.ts); "at 8 in the morning" is not relative.
const RELATIVE_RE =
  /\b(?:in|after|within)\s+(?:\d|an?\b|half|few|couple|several|one|two|three|four|five|six|seven|eight|nine|ten|twenty|thirty|forty|fifty|sixty)|\bfrom now\b|\blater\b|\bago\b|(?:秒|分|钟|时|天|周|星期)(?:之|以)?[后前]/i;
const CJK_RE = /[\u3400-\u9fff]/;

function pad(n: number, width = 2): string {
  return String(n).padStart(width, "0");
}

/**
 * A reference whose process-local wall clock equals the zone's wall clock: chrono's zh parser
 * reads the reference in the process zone and ignores `timezone`, so both parsers are given the
 * same local picture and only the wall-clock components of the result are used.
 *
 * @param wall the current instant in the zone the phrase is read in
 * @returns the reference to hand chrono-node
 */
export function reference(wall: Temporal.ZonedDateTime): chrono.ParsingReference {
  const instant = new Date(
    wall.year,
    wall.month - 1,
    wall.day,
    wall.hour,
    wall.minute,
    wall.second,
  );
  return { instant, timezone: -instant.getTimezoneOffset() };
}

/** `text` with `[index, index + length)` blanked, indexes kept. */
function blank(text: string, span: { readonly index: number; readonly length: number }): string {
  return text.slice(0, span.index) + " ".repeat(span.length) + text.slice(span.index + span.length);
}

function parse(text: string, wall: Temporal.ZonedDateTime): chrono.ParsedResult[] {
  const ref = reference(wall);
  const options = { forwardDate: true };
  const results = CJK_RE.test(text) ? chrono.zh.parse(text, ref, options) : [];
  return results.length > 0 ? results : chrono.en.parse(text, ref, options);
}

const END_OF_DAY = { hour: 23, minute: 59 } as const;

/** February 29 of `year` when one was said ("next year"), else the next one at `time`. */
function leapDay(
  year: number | undefined,
  time: { readonly hour: number; readonly minute: number },
  wall: Temporal.ZonedDateTime,
): Temporal.PlainDate {
  return year === undefined
    ? nextLeapDay(time, wall).toPlainDate()
    : Temporal.PlainDate.from({ year, month: 2, day: 29 });
}

/**
 * A day said without a clock time ("tomorrow", "on the 15th", "Feb 29"): the day (the first
 * one whose end is still to come) and the words that said it, so the answer can ask for the
 * time of that day; a phrase that names no day gives neither.
 */
function noClockTime(
  text: string,
  results: readonly chrono.ParsedResult[],
  said: { calendar?: CalendarDate | undefined; day?: MonthDay | undefined },
  wall: Temporal.ZonedDateTime,
): AbsoluteResult {
  const { calendar, day } = said;
  const phrase = calendar ?? day;
  if (phrase) {
    const date = calendar
      ? leapDay(calendar.year, END_OF_DAY, wall)
      : nextMonthDay(day!, END_OF_DAY, wall).toPlainDate();
    const words = text.slice(phrase.index, phrase.index + phrase.length).trim();
    return { kind: "no-clock-time", date: date.toString(), phrase: words };
  }
  const dated = results.find((r) =>
    (r.start.isCertain("day") || r.start.isCertain("weekday")) && !RELATIVE_RE.test(r.text)
  );
  if (!dated) return { kind: "no-clock-time" };
  const s = dated.start;
  const date = Temporal.PlainDate.from({
    year: s.get("year") ?? wall.year,
    month: s.get("month") ?? wall.month,
    day: s.get("day") ?? wall.day,
  });
  return { kind: "no-clock-time", date: date.toString(), phrase: dated.text.trim() };
}

/**
 * Finds the first absolute clock time in `text`, read against `now` in `timeZone`. A time without
 * a date that already passed today means the next day. A day of the month on its own ("on the
 * 15th at 9", "十五号上午9点") is the next such day at that time in `timeZone` (this month when
 * still to come, else the next month that has the day); without a clock time it is
 * `no-clock-time`, like "tomorrow".
 *
 * @param text the user's message (explicit zone phrases and repeat phrases already blanked out)
 * @param options `now` (epoch ms) and the IANA zone to read the phrase in
 * February 29 without a year is the next February 29 (`calendar_date.ts`); a date no calendar has
 * ("Feb 30", "2月30日", "Feb 29 2027") is `no-such-date`.
 *
 * @returns the time, `no-clock-time` for a date or relative phrase without a clock time,
 *   `no-such-date`, or `none`
 */
export function findAbsolute(
  text: string,
  options: { readonly now: number; readonly timeZone: string },
): AbsoluteResult {
  const wall = Temporal.Instant.fromEpochMilliseconds(options.now).toZonedDateTimeISO(
    options.timeZone,
  );
  const calendar = findCalendarDate(text, wall.year);
  if (calendar && !calendar.exists) {
    const { month, day, year } = calendar;
    return { kind: "no-such-date", month, day, ...(year ? { year } : {}) };
  }
  const leap = calendar ? blank(text, calendar) : text;
  const day = calendar ? undefined : findMonthDay(text);
  const rest = day ? blank(leap, day) : leap;
  const phrase = calendar ?? day;
  const results = parse(rest, wall);
  if (!results[0] && !phrase) return { kind: "none" };
  const found = results.find((r) => r.start.isCertain("hour") && !RELATIVE_RE.test(r.text));
  if (!found) return noClockTime(text, results, { calendar, day }, wall);
  const start = found.start;
  const hour = start.get("hour") ?? 0;
  const minute = start.get("minute") ?? 0;
  let date = Temporal.PlainDate.from({
    year: start.get("year") ?? wall.year,
    month: start.get("month") ?? wall.month,
    day: start.get("day") ?? wall.day,
  });
  const undated = !start.isCertain("day") && !start.isCertain("weekday");
  if (undated && calendar) date = leapDay(calendar.year, { hour, minute }, wall);
  else if (undated && day) date = nextMonthDay(day, { hour, minute }, wall).toPlainDate();
  else if (undated) {
    date = wall.toPlainDate();
    if (hour * 60 + minute <= wall.hour * 60 + wall.minute) date = date.add({ days: 1 });
  }
  const dated = !undated || phrase !== undefined;
  const base = { date: date.toString(), time: `${pad(hour)}:${pad(minute)}`, dated };
  const span = {
    index: found.index,
    length: found.text.length,
    ...(undated && phrase ? { dayPhrase: { index: phrase.index, length: phrase.length } } : {}),
  };
  const offset = start.get("timezoneOffset");
  if (start.isCertain("timezoneOffset") && offset !== null) {
    const sign = offset < 0 ? "-" : "+";
    const abs = Math.abs(offset);
    const iso = `${base.date}T${base.time}:00${sign}${pad(Math.floor(abs / 60))}:${pad(abs % 60)}`;
    const instant = Temporal.Instant.from(iso).toString();
    return { kind: "time", match: { ...base, instant, ...span } };
  }
  return { kind: "time", match: { ...base, ...span } };
}
