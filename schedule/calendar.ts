/**
 * Deterministic local-calendar resolution with Temporal, never the process locale
 * (docs/design.md#absolute-time-normalization): strict formats, a real date, a valid IANA zone, DST
 * gaps refused, overlaps resolved to the earlier instant.
 *
 * @module
 */
import { normalizeTimeZone } from "@chime/session";
import { ScheduleError } from "./errors.ts";
import { daysInMonth, MAX_INSTANT_MS, MIN_INSTANT_MS } from "./rfc3339.ts";

/** A wall-clock date and time without a zone. */
export interface LocalDateTime {
  /** `YYYY-MM-DD`, four-digit year, a real calendar date. */
  readonly date: string;
  /** `HH:MM` or `HH:MM:SS`, 24-hour, `00:00`–`23:59:59`. */
  readonly time: string;
}

/** A local time resolved to one instant. */
export interface ResolvedLocal {
  /** The instant in epoch milliseconds (UTC). */
  readonly epochMs: number;
  /** The zone used, case-normalized (links such as `Asia/Calcutta` stay as given). */
  readonly timeZone: string;
  /** `true` when the wall time occurred twice and the earlier instant was chosen. */
  readonly overlap: boolean;
}

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const TIME = /^(\d{2}):(\d{2})(?::(\d{2}))?$/;

function invalidArguments(reason: string): ScheduleError {
  return new ScheduleError("invalid_arguments", `Cannot resolve local time: ${reason}`);
}

/**
 * Parses a strict local date and time (no zone needed).
 *
 * @param local `{ date: 'YYYY-MM-DD', time: 'HH:MM' | 'HH:MM:SS' }`
 * @returns the Temporal wall-clock value
 * @throws {ScheduleError} `invalid_arguments` for another format, an impossible date
 *   (`2027-02-29`, `2025-02-30`) or time (`24:00`, `12:60`, `:60` seconds)
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { parseLocalDateTime } from "@chime/schedule";
 * assert(parseLocalDateTime({ date: "2028-02-29", time: "09:00" }).day === 29);
 * ```
 */
export function parseLocalDateTime(local: LocalDateTime): Temporal.PlainDateTime {
  const date = DATE.exec(local.date);
  if (date === null) throw invalidArguments(`date ${JSON.stringify(local.date)} is not YYYY-MM-DD`);
  const time = TIME.exec(local.time);
  if (time === null) throw invalidArguments(`time ${JSON.stringify(local.time)} is not HH:MM[:SS]`);
  const [year, month, day] = date.slice(1).map(Number) as [number, number, number];
  const [hour, minute, second] = time.slice(1).map((part) => Number(part ?? 0)) as [
    number,
    number,
    number,
  ];
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) {
    throw invalidArguments(`${local.date} is not a calendar date`);
  }
  if (hour > 23 || minute > 59 || second > 59) {
    throw invalidArguments(`${local.time} is not a time of day`);
  }
  return new Temporal.PlainDateTime(year, month, day, hour, minute, second);
}

function zoneOf(timeZone: string): string {
  try {
    return normalizeTimeZone(timeZone);
  } catch (cause) {
    throw new ScheduleError(
      "invalid_time_zone",
      `Cannot resolve local time: ${JSON.stringify(timeZone)} is not an IANA zone`,
      { cause },
    );
  }
}

/**
 * Resolves a local date and time in a named IANA zone to one instant. Legacy links
 * (`Asia/Calcutta`, `US/Eastern`, `Europe/Kiev`) are accepted; `Etc/GMT+5` is UTC−5 (POSIX
 * sign inversion). A wall time skipped by a transition (DST gap) is refused; one that occurs
 * twice (overlap) resolves to the earlier instant.
 *
 * @param local the wall-clock date and time
 * @param timeZone a named IANA zone (bare offsets are refused)
 * @returns the instant (epoch ms, UTC), the normalized zone and whether it was an overlap
 * @throws {ScheduleError} `invalid_arguments` (format, impossible date, instant outside years
 *   0000–9999 UTC), `invalid_time_zone`, `nonexistent_local_time` (DST gap)
 *
 * @example The earlier instant in New York's autumn overlap
 * ```ts
 * import assert from "node:assert/strict";
 * import { resolveLocal } from "@chime/schedule";
 * const { epochMs, overlap } = resolveLocal(
 *   { date: "2025-11-02", time: "01:30" },
 *   "America/New_York",
 * );
 * assert(overlap && new Date(epochMs).toISOString() === "2025-11-02T05:30:00.000Z");
 * ```
 */
export function resolveLocal(local: LocalDateTime, timeZone: string): ResolvedLocal {
  const wall = parseLocalDateTime(local);
  const zone = zoneOf(timeZone);
  let overlap = false;
  let zoned: Temporal.ZonedDateTime;
  try {
    zoned = wall.toZonedDateTime(zone, { disambiguation: "reject" });
  } catch {
    // Temporal rejects both gaps and overlaps; a gap has no instant with this wall time.
    zoned = wall.toZonedDateTime(zone, { disambiguation: "earlier" });
    if (!zoned.toPlainDateTime().equals(wall)) {
      throw new ScheduleError(
        "nonexistent_local_time",
        `Cannot resolve local time: ${local.date} ${local.time} does not exist in ${zone}`,
      );
    }
    overlap = true;
  }
  const epochMs = zoned.epochMilliseconds;
  if (epochMs < MIN_INSTANT_MS || epochMs > MAX_INSTANT_MS) {
    throw invalidArguments("the instant is outside the four-digit UTC years");
  }
  return { epochMs, timeZone: zone, overlap };
}
