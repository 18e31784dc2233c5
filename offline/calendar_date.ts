/**
 * A month and day said together ("Feb 29", "29th of February", "April 31", "2月30日",
 * "二月二十九号"), read only where chrono-node (`absolute.ts`) cannot: February 29 without a year
 * (the next February 29) and dates no calendar has ("Feb 30", "April 31", "Feb 29 2027"), which
 * are refused as such instead of being asked for again.
 *
 * @module
 */
import { zhNumber } from "./duration.ts";

/** A month and day found in a text. */
export interface CalendarDate {
  /** Month 1..12. */
  readonly month: number;
  /** Day 1..31. */
  readonly day: number;
  /** The year, when one was said ("2027", "next year" / "明年" read against the clock). */
  readonly year?: number;
  /** The year was said relative to now ("this year", "next year", "今年", "明年"). */
  readonly relative?: true;
  /** Index of the phrase (UTF-16 units). */
  readonly index: number;
  /** Length of the phrase (UTF-16 units). */
  readonly length: number;
}

const MONTH =
  "(jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sept?(?:ember)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)";
const YEAR = "(?:,?\\s+(\\d{4})|\\s+(?:of\\s+)?(this|next)\\s+year\\b)?";
const EN_MONTH_DAY = new RegExp(
  `\\b${MONTH}\\.?\\s+(\\d{1,2})(?:st|nd|rd|th)?\\b${YEAR}(?!\\s*:)`,
  "i",
);
const EN_DAY_MONTH = new RegExp(
  `\\b(\\d{1,2})(?:st|nd|rd|th)?\\s+(?:of\\s+)?${MONTH}\\b\\.?${YEAR}`,
  "i",
);
const ZN = "[0-9０-９]{1,2}|[一二三四五六七八九十]{1,3}";
const ZH_DATE = new RegExp(
  `(?:(?:([0-9０-９]{4})\\s*年|(今|明)年)\\s*)?(${ZN})\\s*月\\s*(${ZN})\\s*[日号號]`,
);
// "2027-02-29", "2027/2/29": a year, month and day in numbers.
const ISO_DATE = /\b(\d{4})([-/])(\d{1,2})\2(\d{1,2})\b/;
const MONTHS = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"];

/** The longest a month can be: February has 29 days in a leap year. */
function maxDays(month: number): number {
  return month === 2 ? 29 : [4, 6, 9, 11].includes(month) ? 30 : 31;
}

/** The year a phrase names: a number, or this (`this`, `今`) or next (`next`, `明`) year. */
function yearOf(
  digits: string | undefined,
  word: string | undefined,
  thisYear: number,
): { readonly year?: number; readonly relative?: true } {
  if (digits) return { year: zhNumber(digits) };
  if (!word) return {};
  return { year: thisYear + (/^(?:next|明)$/i.test(word) ? 1 : 0), relative: true };
}

function read(text: string, thisYear: number): CalendarDate | undefined {
  const iso = ISO_DATE.exec(text);
  if (iso) {
    const [month, day] = [Number(iso[3]), Number(iso[4])];
    return { month, day, year: Number(iso[1]), index: iso.index, length: iso[0].length };
  }
  const zh = ZH_DATE.exec(text);
  if (zh) {
    const month = zhNumber(zh[3] ?? "");
    const day = zhNumber(zh[4] ?? "");
    const year = yearOf(zh[1], zh[2], thisYear);
    return { month, day, ...year, index: zh.index, length: zh[0].length };
  }
  const md = EN_MONTH_DAY.exec(text);
  const dm = EN_DAY_MONTH.exec(text);
  const m = md && (!dm || md.index <= dm.index) ? md : dm;
  if (!m) return undefined;
  const [name, dayText] = m === md ? [m[1], m[2]] : [m[2], m[1]];
  const month = MONTHS.indexOf((name ?? "").slice(0, 3).toLowerCase()) + 1;
  const year = yearOf(m[3], m[4], thisYear);
  return { month, day: Number(dayText), ...year, index: m.index, length: m[0].length };
}

/**
 * Finds a month and day that chrono-node would not read: February 29 without a year or with a
 * year said relative to now ("Feb 29 next year", "明年2月29日"), or a date that does not exist
 * (day past the month's longest, February 29 of a year that is no leap year, also in numbers:
 * "2027-02-29"). Days past 31, months past 12 and other dates are left to chrono-node
 * (`undefined`).
 *
 * @param text the request
 * @param thisYear the current year in the zone the request is read in ("next year" is one more)
 * @returns the date with `exists` (false: refuse it), or `undefined`
 */
export function findCalendarDate(
  text: string,
  thisYear: number,
): (CalendarDate & { readonly exists: boolean }) | undefined {
  const found = read(text, thisYear);
  if (!found || found.month < 1 || found.month > 12 || found.day < 1 || found.day > 31) {
    return undefined;
  }
  if (found.day > maxDays(found.month)) return { ...found, exists: false };
  if (found.month !== 2 || found.day !== 29) return undefined;
  if (found.year === undefined) return { ...found, exists: true };
  const leap = Temporal.PlainYearMonth.from({ year: found.year, month: 1 }).inLeapYear;
  if (!leap) return { ...found, exists: false };
  return found.relative ? { ...found, exists: true } : undefined;
}

/**
 * The next February 29 at `time` after `now`, in `now`'s zone.
 *
 * @param time the clock time (local)
 * @param now the current instant in the zone the request is read in
 * @returns the local date-time
 */
export function nextLeapDay(
  time: { readonly hour: number; readonly minute: number },
  now: Temporal.ZonedDateTime,
): Temporal.PlainDateTime {
  for (let year = now.year;; year++) {
    if (!Temporal.PlainYearMonth.from({ year, month: 2 }).inLeapYear) continue;
    const at = Temporal.PlainDateTime.from({ year, month: 2, day: 29, ...time });
    const instant = at.toZonedDateTime(now.timeZoneId).toInstant();
    if (Temporal.Instant.compare(instant, now.toInstant()) > 0) return at;
  }
}
