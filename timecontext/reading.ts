/**
 * The model-visible time reading (docs/design.md#time-context-reading).
 *
 * @module
 */
import { timeZonesEqual } from "@chime/session";
import { type DerivedZones, zonesAgree } from "./zones.ts";

/** The first line of every reading, so the model (and tests) can recognise it. */
export const TIME_CONTEXT_HEADING = "[time-context]";

// English names by ISO day of week (1 = Monday); never the process locale.
const WEEKDAYS = [
  "Monday",
  "Tuesday",
  "Wednesday",
  "Thursday",
  "Friday",
  "Saturday",
  "Sunday",
] as const;

function localTime(instant: Temporal.Instant, zone: string): string {
  const zdt = instant.toZonedDateTimeISO(zone);
  const hh = String(zdt.hour).padStart(2, "0");
  const mm = String(zdt.minute).padStart(2, "0");
  // dayOfWeek is 1..7 in the ISO calendar, so the index is always in range.
  const weekday = WEEKDAYS[zdt.dayOfWeek - 1] as string;
  return `${weekday} ${zdt.toPlainDate().toString()} ${hh}:${mm} (UTC${zdt.offset})`;
}

function clientLines(instant: Temporal.Instant, zones: DerivedZones): string[] {
  const { sessionTimeZone, clientTimeZones, missingClientZone } = zones;
  const lines = clientTimeZones.map((zone) => {
    const relation = sessionTimeZone === undefined
      ? ""
      : timeZonesEqual(zone, sessionTimeZone)
      ? " (same as the session time zone)"
      : " (differs from the session time zone)";
    return `Client time zone of this request: ${zone}${relation}, local time ${
      localTime(instant, zone)
    }.`;
  });
  if (clientTimeZones.length > 1) {
    lines.push("The messages of this request come from different (mixed) client time zones.");
  }
  if (missingClientZone) {
    lines.push("Client time zone: missing on at least one message of this request.");
  } else if (clientTimeZones.length === 0) {
    lines.push("Client time zone: none (no user message in this step, so no client provenance).");
  }
  return lines;
}

/**
 * Formats the reading that time-context adds to a step's batch. It always states the current
 * instant in UTC. With a session zone it states the local date, time (24-hour, minutes) and
 * English weekday there, computed with Temporal from `now`, never from the process locale.
 * Client zones are mentioned only when they are not exactly one zone equal to the session zone
 * (different, mixed, missing, or absent as in a follow-up-only step), each with its local time.
 * The closing guidance tells the model that implicit local times are interpreted in the session
 * zone, or, when that is ambiguous, to ask the user or pass an explicit `time_zone`
 * (docs/design.md#time-context-reading).
 *
 * @param now the current instant, epoch milliseconds (UTC), an integer
 * @param zones zones from {@linkcode deriveZones}
 * @returns a multi-line string starting with {@linkcode TIME_CONTEXT_HEADING}
 * @throws {RangeError} when `now` is not an integer in Temporal's range or a zone is not valid
 *
 * @example A session in Berlin, a request from Berlin
 * ```ts
 * import assert from "node:assert/strict";
 * import { formatTimeReading } from "@chime/timecontext";
 * const reading = formatTimeReading(Date.UTC(2026, 0, 1, 8, 0), {
 *   sessionTimeZone: "Europe/Berlin", clientTimeZones: ["Europe/Berlin"], missingClientZone: false,
 * });
 * assert.ok(reading.includes("Thursday 2026-01-01 09:00 (UTC+01:00)"));
 * ```
 */
export function formatTimeReading(now: number, zones: DerivedZones): string {
  const instant = Temporal.Instant.fromEpochMilliseconds(now);
  const lines = [
    TIME_CONTEXT_HEADING,
    `Now (UTC): ${instant.toString({ fractionalSecondDigits: 3 })}`,
  ];
  const session = zones.sessionTimeZone;
  if (session === undefined) {
    lines.push(
      "Session time zone: unavailable (this session has no default time zone).",
      ...clientLines(instant, zones),
      'Implicit local times (such as "tomorrow 09:00") cannot be interpreted in a session time ' +
        "zone: ask the user which time zone they mean, or pass an explicit time_zone.",
    );
  } else if (zonesAgree(zones)) {
    lines.push(
      `Session time zone: ${session}, local time ${localTime(instant, session)}.`,
      `Implicit local times (such as "tomorrow 09:00") are interpreted in the session time ` +
        `zone ${session}.`,
    );
  } else {
    lines.push(
      `Session time zone: ${session}, local time ${localTime(instant, session)}.`,
      ...clientLines(instant, zones),
      `Implicit local times (such as "tomorrow 09:00") are interpreted in the session time ` +
        `zone ${session}, but this request's client time zone is different, mixed or missing: ` +
        "ask the user which time zone they mean, or pass an explicit time_zone.",
    );
  }
  return lines.join("\n");
}
