/**
 * Moving a repeating reminder to a new time ("move it to 8am", "改到早上8点", "move it to Friday
 * at 10") without turning it into a one-off: the series' rule gets the new time of day and a new
 * start, sent as `schedule_update { repeat }` (docs/recurring.md "Tools": a `repeat` selector
 * replaces the series in one transaction and keeps its id).
 *
 * @module
 */
import { canonicalRule } from "@chime/schedule";
import type { RepeatArgs, RepeatView, ScheduleView, Selector } from "./contract.ts";
import { DAY_CODES } from "./_recurring_read.ts";

/**
 * Why a move cannot be said as the series' new rule: `days` (a day was named for a series on
 * several days, or on a day the rule does not name by weekday or day number), `times` (the
 * series repeats at several times of day: which one moves?), `rule` (the rule is not one the
 * tools accept).
 */
export type SeriesMoveRefusal = "days" | "times" | "rule";

/** The series' new `repeat`, or why there is none. */
export type SeriesMove =
  | { readonly kind: "repeat"; readonly repeat: RepeatArgs }
  | { readonly kind: "refuse"; readonly reason: SeriesMoveRefusal };

/** What a move is computed against. */
export interface SeriesMoveOptions {
  /** Wall clock, epoch ms. */
  readonly now: number;
  /** The session zone, when it has one (used when the series names none). */
  readonly timeZone?: string | undefined;
  /** The new time names a day ("Friday at 10"), not only a time of day. */
  readonly dated?: boolean | undefined;
}

const pad = (n: number) => String(n).padStart(2, "0");
const DAILY_OR_LONGER = new Set(["DAILY", "WEEKLY", "MONTHLY", "YEARLY"]);

/**
 * The rule's text: the engine's own canonical spelling (`canonicalRule` orders the parts); a rule
 * it refuses as `unsupported_rule` is sent as written, for the tool to answer.
 */
function ruleText(parts: Map<string, string>): string {
  const text = [...parts].map(([k, v]) => `${k}=${v}`).join(";");
  try {
    return canonicalRule(text);
  } catch (error) {
    if ((error as { code?: unknown }).code === "unsupported_rule") return text;
    throw error;
  }
}

/** The local date-time the selector names, in `zone`; a bare time of day is the next one. */
function target(
  selector: Exclude<Selector, { repeat: unknown }>,
  zone: string,
  options: SeriesMoveOptions,
): Temporal.PlainDateTime {
  const now = Temporal.Instant.fromEpochMilliseconds(options.now).toZonedDateTimeISO(zone);
  if ("after_seconds" in selector) {
    return now.add({ seconds: selector.after_seconds }).toPlainDateTime()
      .round({ smallestUnit: "minute", roundingMode: "floor" });
  }
  const at = selector.at;
  if (typeof at === "string") {
    return Temporal.Instant.from(at).toZonedDateTimeISO(zone).toPlainDateTime();
  }
  const local = Temporal.PlainDateTime.from(`${at.date}T${at.time}`);
  if (options.dated) return local;
  // "8am" was read in the session zone; the series runs in its own: the next 08:00 there.
  const today = now.toPlainDate().toPlainDateTime(local.toPlainTime());
  return Temporal.PlainDateTime.compare(today, now.toPlainDateTime()) > 0
    ? today
    : today.add({ days: 1 });
}

/** The rule's parts by name (`FREQ` first), from canonical RRULE text. */
function partsOf(rrule: string): Map<string, string> {
  return new Map(rrule.split(";").map((p) => p.split("=", 2) as [string, string]));
}

/**
 * Names the day a weekly or monthly rule takes from its DTSTART (no `BYDAY` / `BYMONTHDAY`), read
 * off its next occurrence, so a new start does not move it.
 */
function pinDay(parts: Map<string, string>, next: string, zone: string): void {
  let local: Temporal.PlainDateTime;
  try {
    local = Temporal.Instant.from(next).toZonedDateTimeISO(zone).toPlainDateTime();
  } catch {
    return;
  }
  const freq = parts.get("FREQ");
  if (freq === "WEEKLY" && !parts.has("BYDAY")) parts.set("BYDAY", DAY_CODES[local.dayOfWeek - 1]!);
  const monthly = freq === "MONTHLY" || freq === "YEARLY";
  if (monthly && !parts.has("BYDAY") && !parts.has("BYMONTHDAY")) {
    parts.set("BYMONTHDAY", String(local.day));
  }
  if (freq === "YEARLY" && !parts.has("BYMONTH")) parts.set("BYMONTH", String(local.month));
}

/** Moves the day of the rule to `date` where one day is named; `false`: no single day to move. */
function moveDay(parts: Map<string, string>, date: Temporal.PlainDateTime): boolean {
  const freq = parts.get("FREQ");
  const byday = parts.get("BYDAY");
  const bymonthday = parts.get("BYMONTHDAY");
  if (freq === "WEEKLY" && byday !== undefined) {
    if (!/^[A-Z]{2}$/.test(byday)) return false;
    parts.set("BYDAY", DAY_CODES[date.dayOfWeek - 1]!);
  } else if (freq === "MONTHLY" || freq === "YEARLY") {
    if (byday !== undefined || (bymonthday !== undefined && !/^\d+$/.test(bymonthday))) {
      return false;
    }
    if (freq === "YEARLY" && !/^\d+$/.test(parts.get("BYMONTH") ?? "")) return false;
    if (freq === "YEARLY") parts.set("BYMONTH", String(date.month));
    if (bymonthday !== undefined) parts.set("BYMONTHDAY", String(date.day));
  } else if (freq === "DAILY" && byday !== undefined) return false;
  return true;
}

/**
 * The `repeat` that moves a series to the time `selector` names, keeping its frequency,
 * interval, days, count and end. A daily or longer rule gets the new time of day (`BYHOUR`,
 * `BYMINUTE`); a minutely or hourly rule starts again at the new time. A named day moves a
 * weekly rule's single weekday, a monthly rule's single day of the month or a yearly rule's
 * single date to it, and starts a daily rule on it (an ordinal weekday, "the last Friday", has
 * no single day to move). The series keeps its zone (`time_zone`), unless the new time names another.
 *
 * @param series the series as listed: `repeat` (`rrule`, `timeZone`) and `scheduledAt`, its next
 *   occurrence (UTC)
 * @param selector the new time: `after_seconds` or `at` (as `parseIntent()` reads it)
 * @param options the clock, the session zone and whether a day was named
 * @returns the new `repeat`, or why the move cannot be said for this series
 */
export function moveSeries(
  series: Pick<ScheduleView, "scheduledAt"> & { readonly repeat: RepeatView },
  selector: Exclude<Selector, { repeat: unknown }>,
  options: SeriesMoveOptions,
): SeriesMove {
  const named = "at" in selector && typeof selector.at === "object"
    ? selector.at.time_zone
    : undefined;
  const { repeat } = series;
  const own = repeat.timeZone || options.timeZone || "UTC";
  const zone = named ?? own;
  const at = target(selector, zone, options);
  const parts = partsOf(repeat.rrule);
  pinDay(parts, series.scheduledAt, own);
  const freq = parts.get("FREQ") ?? "";
  if (DAILY_OR_LONGER.has(freq)) {
    if (/,/.test(`${parts.get("BYHOUR") ?? ""}${parts.get("BYMINUTE") ?? ""}`)) {
      return { kind: "refuse", reason: "times" };
    }
    if (options.dated && !moveDay(parts, at)) return { kind: "refuse", reason: "days" };
    parts.set("BYHOUR", String(at.hour));
    parts.set("BYMINUTE", String(at.minute));
  }
  let rrule: string;
  try {
    rrule = ruleText(parts);
  } catch {
    return { kind: "refuse", reason: "rule" };
  }
  const start = { date: at.toPlainDate().toString(), time: `${pad(at.hour)}:${pad(at.minute)}` };
  return { kind: "repeat", repeat: { rrule, start, time_zone: zone } };
}
