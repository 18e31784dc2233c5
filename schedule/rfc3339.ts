/**
 * The narrow RFC 3339 profile accepted for explicit `at` instants (docs/architecture.md#tools;
 * docs/design.md#absolute-time-normalization) and the canonical UTC form stored in `scheduledAt`.
 *
 * `Temporal.Instant.from` and `Date.parse` accept more (lowercase designators, a space, bracketed
 * zones, `+0530`, …), so they are not the validator; Temporal only computes the epoch afterwards.
 *
 * @module
 */
import { ScheduleError } from "./errors.ts";

/** Earliest storable instant, `0000-01-01T00:00:00.000Z`, in epoch ms (UTC). */
export const MIN_INSTANT_MS: number = -62_167_219_200_000;
/** Latest storable instant, `9999-12-31T23:59:59.999Z`, in epoch ms (UTC). */
export const MAX_INSTANT_MS: number = 253_402_300_799_999;

const PROFILE =
  /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,9}))?(?:Z|([+-])(\d{2}):(\d{2}))$/;
const CANONICAL = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/**
 * Days in a proleptic Gregorian month (leap years: divisible by 4, not by 100 unless by 400).
 *
 * @param year four-digit year
 * @param month 1–12
 * @returns 28–31
 */
export function daysInMonth(year: number, month: number): number {
  if (month === 2) return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0 ? 29 : 28;
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}

function invalid(text: unknown, reason: string): ScheduleError {
  return new ScheduleError(
    "invalid_arguments",
    `Cannot parse instant ${JSON.stringify(String(text))}: ${reason}`,
  );
}

/**
 * Parses `YYYY-MM-DDTHH:MM:SS[.f{1,9}](Z|±HH:MM)` (uppercase `T`/`Z`, real calendar date, hours
 * 00–23, minutes and seconds 00–59 without a leap second, offset hours ≤ 23 and minutes ≤ 59).
 * `-00:00` is the same instant as `Z`; a fraction is truncated (not rounded) to milliseconds.
 * The instant must also have a four-digit UTC year so it can be stored canonically.
 *
 * @param text the candidate date-time
 * @returns the instant in epoch milliseconds (UTC)
 * @throws {ScheduleError} `invalid_arguments` for anything outside the profile
 *
 * @example Offsets are applied, fractions truncated
 * ```ts
 * import assert from "node:assert/strict";
 * import { parseStrictInstant } from "@chime/schedule";
 * const ms = parseStrictInstant("2030-01-01T05:45:00.123999999+05:45");
 * assert(new Date(ms).toISOString() === "2030-01-01T00:00:00.123Z");
 * ```
 */
export function parseStrictInstant(text: unknown): number {
  if (typeof text !== "string") throw invalid(text, "not a string");
  const match = PROFILE.exec(text);
  if (match === null) throw invalid(text, "not YYYY-MM-DDTHH:MM:SS[.fff](Z|±HH:MM)");
  const [year, month, day, hour, minute, second] = match.slice(1, 7).map(Number) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) {
    throw invalid(text, "not a calendar date");
  }
  if (hour > 23 || minute > 59 || second > 59) throw invalid(text, "not a time of day");
  const [sign, offsetHour, offsetMinute] = [match[8], Number(match[9]), Number(match[10])];
  if (offsetHour > 23 || offsetMinute > 59) throw invalid(text, "offset out of range");
  const millisecond = Number((match[7] ?? "").padEnd(3, "0").slice(0, 3));
  // `setUTCFullYear` (unlike `Date.UTC`) takes years 0–99 as written.
  const utc = new Date(0);
  utc.setUTCFullYear(year, month - 1, day);
  utc.setUTCHours(hour, minute, second, millisecond);
  const local = utc.getTime();
  const offsetMs = sign === undefined ? 0 : (offsetHour * 60 + offsetMinute) * 60_000;
  const epochMs = sign === "-" ? local + offsetMs : local - offsetMs;
  if (epochMs < MIN_INSTANT_MS || epochMs > MAX_INSTANT_MS) {
    throw invalid(text, "outside the four-digit UTC years");
  }
  return epochMs;
}

/**
 * Tells whether `text` passes {@linkcode parseStrictInstant}.
 *
 * @param text any value
 * @returns `true` for a string in the narrow profile
 */
export function isStrictInstant(text: unknown): text is string {
  try {
    parseStrictInstant(text);
    return true;
  } catch {
    return false;
  }
}

/**
 * Formats an instant in the canonical stored form, UTC with milliseconds and `Z`
 * (`2030-01-01T00:00:00.000Z`).
 *
 * @param epochMs epoch milliseconds (UTC), an integer within the four-digit years
 * @returns the canonical RFC 3339 string
 * @throws {RangeError} for a non-integer or an instant outside 0000–9999 UTC (programmer misuse)
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { formatInstant } from "@chime/schedule";
 * assert(formatInstant(0) === "1970-01-01T00:00:00.000Z");
 * ```
 */
export function formatInstant(epochMs: number): string {
  if (!Number.isInteger(epochMs) || epochMs < MIN_INSTANT_MS || epochMs > MAX_INSTANT_MS) {
    throw new RangeError(`Cannot format instant: ${epochMs} is not a storable epoch ms`);
  }
  return new Date(epochMs).toISOString();
}

/**
 * Tells whether `text` is exactly the canonical stored form (what {@linkcode formatInstant}
 * produces), as required of `scheduledAt` in `schedule/change` records.
 *
 * @param text any value
 * @returns `true` for a canonical UTC millisecond instant
 */
export function isCanonicalInstant(text: unknown): text is string {
  if (typeof text !== "string" || !CANONICAL.test(text)) return false;
  // The canonical shape is what `toISOString` writes for the four-digit years: a round trip
  // holds exactly for a real date and time of day (folds read every stored `scheduledAt`).
  const ms = Date.parse(text);
  return Number.isFinite(ms) && new Date(ms).toISOString() === text;
}
