/**
 * Repeating requests for the offline model ("every day at 9", "every weekday at 8:30",
 * "every 2 hours", "每天早上8点", "每隔2小时", "工作日", "每周一", "every year on March 3",
 * "每月最后一个周五", "the last weekday of the month"), written as the RFC 5545 RRULE subset of
 * docs/recurring.md ("RRULE subset"). A repeat the subset cannot say (in seconds that are no
 * whole minutes, a month without its day, unreadable) is reported as such: the caller answers that it
 * cannot, never with a one-off reminder. So is a repeat it would have to guess: "twice a week"
 * with no days named, "每天两次" with no hours, "biweekly" (twice a week, or every other one?).
 *
 * @module
 */
import type { RepeatArgs } from "./contract.ts";
import { defaultTimeOfDay, findTimeOfDay } from "./time_of_day.ts";
import { type CannotReason, DAY_CODES, type Draft, read, type Span } from "./_recurring_read.ts";
import { endPart, findEnd } from "./_recurring_end.ts";

export type { CannotReason, Span } from "./_recurring_read.ts";

/**
 * What {@linkcode findRecurrence} read: a rule, a repeat the subset cannot say, or a repeat at a
 * clock time that is no time of day ("every day at 25:00": refused like a one-off's bad time).
 */
export type Recurrence =
  | { readonly kind: "rule"; readonly repeat: RepeatArgs; readonly spans: readonly Span[] }
  | { readonly kind: "cannot"; readonly reason: CannotReason }
  | { readonly kind: "invalid-time" };

function pad(n: number): string {
  return String(n).padStart(2, "0");
}

const code = (date: Temporal.PlainDate) => DAY_CODES[date.dayOfWeek - 1]!;

/** Whether `date` is the `n`th (from the end when negative) day of its month that `is`. */
function nthOfMonth(date: Temporal.PlainDate, n: number, is: (d: Temporal.PlainDate) => boolean) {
  const days = Array.from({ length: date.daysInMonth }, (_, i) => date.with({ day: i + 1 }))
    .filter(is);
  return days.at(n > 0 ? n - 1 : n)?.day === date.day;
}

function matches(d: Draft, date: Temporal.PlainDate): boolean {
  if (d.freq === "WEEKLY" && d.byday) return d.byday.includes(code(date));
  if (d.freq === "YEARLY" && d.bymonth !== undefined && date.month !== d.bymonth) return false;
  if (d.freq !== "MONTHLY" && d.freq !== "YEARLY") return true;
  if (d.bymonthday !== undefined) {
    const want = d.bymonthday > 0 ? d.bymonthday : date.daysInMonth + d.bymonthday + 1;
    return date.day === want;
  }
  const nth = d.nth === undefined ? undefined : /^(-?\d)([A-Z]{2})$/.exec(d.nth);
  if (nth) return nthOfMonth(date, Number(nth[1]), (x) => code(x) === nth[2]);
  if (d.setpos !== undefined && d.byday) {
    return nthOfMonth(date, d.setpos, (x) => d.byday!.includes(code(x)));
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
  // Eight years and a day: a yearly rule on February 29 next falls within them.
  for (let i = 0; i < 2930; i++, date = date.add({ days: 1 })) {
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
 * BYMONTH, BYDAY, BYMONTHDAY, BYHOUR, BYMINUTE, BYSETPOS, COUNT (e.g. `FREQ=WEEKLY;BYDAY=MO,TU,
 * WE,TH,FR;BYHOUR=8;BYMINUTE=30`, `FREQ=YEARLY;BYMONTH=3;BYDAY=-1SU;BYHOUR=9;BYMINUTE=0`). `start` is the first occurrence as a local `{ date, time }` (seconds zero) in
 * `timeZone`: the next matching day at the time of day for daily and longer rules (09:00, or a
 * day part's hour, when no time is named), one interval from the current minute for minutely
 * and hourly ones (or the named time, when one is given). A weekly rule that names no weekday
 * ("once a week", "每周一次", "every other week") repeats on today's weekday in `timeZone`
 * (`BYDAY`), a monthly one that names no day ("monthly", "每月一次") on today's day of the month
 * (`BYMONTHDAY`), a yearly one that names no date ("every year", "每年") on today's date
 * (`BYMONTH`, `BYMONTHDAY`); a named weekday ("every Friday", "每周五") keeps its day.
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
  const now = Temporal.Instant.fromEpochMilliseconds(options.now).toZonedDateTimeISO(
    options.timeZone,
  );
  // The end is read first: "until Friday" names no weekday of the rule, "for 3 days" no cadence.
  const end = findEnd(text, now);
  const body = end ? blank(text, end.span) : text;
  const d = read(body);
  if (d === undefined) return undefined;
  if (d.cannot !== undefined) return { kind: "cannot", reason: d.cannot };
  const freq = d.freq;
  if (freq === undefined) return { kind: "cannot", reason: "unreadable" };
  // "once a week", "monthly", "每两周": today's weekday or day of the month, in the rule's zone.
  if (freq === "WEEKLY" && d.byday === undefined) d.byday = [DAY_CODES[now.dayOfWeek - 1]!];
  const dayless = d.bymonthday === undefined && d.nth === undefined && d.setpos === undefined;
  if (freq === "MONTHLY" && dayless) d.bymonthday = now.day;
  // "every year", "每年": today's date in the rule's zone.
  if (freq === "YEARLY" && d.bymonth === undefined) d.bymonth = now.month;
  if (freq === "YEARLY" && dayless) d.bymonthday = now.day;
  const named = findTimeOfDay(body);
  if (named !== undefined && "invalid" in named) return { kind: "invalid-time" };
  const spans = named ? [...d.spans, { index: named.index, length: named.length }] : d.spans;
  const subDaily = freq === "MINUTELY" || freq === "HOURLY";
  let start: Temporal.PlainDateTime;
  if (subDaily && !named) {
    // One interval from now, on the whole minute at or after it: never sooner than the interval.
    const due = now.add(freq === "MINUTELY" ? { minutes: d.interval } : { hours: d.interval });
    start = due.round({ smallestUnit: "minute", roundingMode: "ceil" }).toPlainDateTime();
  } else {
    start = firstAt(d, now, named ?? defaultTimeOfDay(body));
  }
  const parts = [`FREQ=${freq}`];
  if (d.interval > 1) parts.push(`INTERVAL=${d.interval}`);
  const monthly = freq === "MONTHLY" || freq === "YEARLY";
  if (d.bymonth !== undefined && freq === "YEARLY") parts.push(`BYMONTH=${d.bymonth}`);
  if (d.nth !== undefined && monthly) parts.push(`BYDAY=${d.nth}`);
  else if (d.byday && (freq === "WEEKLY" || d.setpos !== undefined)) {
    parts.push(`BYDAY=${d.byday.join(",")}`);
  }
  if (d.bymonthday !== undefined && monthly) parts.push(`BYMONTHDAY=${d.bymonthday}`);
  if (!subDaily) parts.push(`BYHOUR=${start.hour}`, `BYMINUTE=${start.minute}`);
  if (d.setpos !== undefined && monthly) parts.push(`BYSETPOS=${d.setpos}`);
  const count = d.count !== undefined && d.count > 0 ? `COUNT=${d.count}` : undefined;
  const ended = end ? endPart(end, { ...d, freq }, start, options.timeZone) : undefined;
  if (ended?.kind === "cannot") return { kind: "cannot", reason: ended.reason };
  const last = ended?.kind === "part" ? ended.part : undefined;
  // COUNT and UNTIL are exclusive; "3 times for 3 days" says the end twice.
  if (count && last) return { kind: "cannot", reason: "end" };
  if (count ?? last) parts.push((count ?? last)!);
  if (end && ended?.kind === "part") spans.push(end.span);
  const repeat: RepeatArgs = {
    rrule: parts.join(";"),
    start: {
      date: start.toPlainDate().toString(),
      time: `${pad(start.hour)}:${pad(start.minute)}`,
    },
  };
  return { kind: "rule", repeat, spans };
}

function blank(text: string, span: Span): string {
  return text.slice(0, span.index) + " ".repeat(span.length) +
    text.slice(span.index + span.length);
}
