// Private: the recurring selector `repeat: { rrule, start?, time_zone?, catch_up_seconds? }` of
// `schedule_create` and `schedule_update` (docs/recurring.md "Tools"), its shape check and its
// resolution after the preflight.
import { normalizeTimeZone } from "@chime/session";
import { extraKeys, has, isPlainObject } from "./_shape.ts";
import { implicitTimeZone, type ZoneProvenance } from "./_provenance.ts";
import { type LocalDateTime, parseLocalDateTime } from "./calendar.ts";
import { toolError, type ToolFailure, toolFailureFrom } from "./errors.ts";
import { canonicalRule, nextOccurrence, validateSeries } from "./recurrence.ts";
import { formatInstant, MAX_INSTANT_MS } from "./rfc3339.ts";

/** The validated recurring selector. */
export interface RepeatSelector {
  /** Selector kind. */
  readonly kind: "repeat";
  /** Canonical RRULE text. */
  readonly rrule: string;
  /** Local DTSTART; default: the next whole minute. */
  readonly start?: LocalDateTime;
  /** IANA zone; default: the implicit zone of the request. */
  readonly timeZone?: string;
  /** Catch-up window, seconds (positive). */
  readonly catchUpSeconds?: number;
}

/** A resolved series, ready to become a recurring record. */
export interface RepeatResolution {
  readonly rrule: string;
  readonly dtstart: string;
  readonly timeZone: string;
  readonly scheduledAt: string;
  readonly catchUpSeconds?: number;
}

const REPEAT_KEYS = ["rrule", "start", "time_zone", "catch_up_seconds"];

function bad(message: string): ToolFailure {
  return toolError("invalid_arguments", `Cannot use repeat: ${message}`);
}

/** Shape check of `repeat`; the rule text is parsed here (no clock or zone needed). */
export function validateRepeat(repeat: unknown): RepeatSelector | ToolFailure {
  if (!isPlainObject(repeat)) return bad("repeat is not an object { rrule, start?, time_zone? }");
  const extra = extraKeys(repeat, REPEAT_KEYS);
  if (extra.length > 0) return bad(`repeat has unknown field ${JSON.stringify(extra[0])}`);
  const { rrule, start, time_zone: timeZone, catch_up_seconds: catchUp } = repeat;
  if (typeof rrule !== "string") return bad("rrule must be an RRULE string");
  let canonical: string;
  try {
    canonical = canonicalRule(rrule);
  } catch (error) {
    return toolFailureFrom(error);
  }
  const selector: { -readonly [K in keyof RepeatSelector]: RepeatSelector[K] } = {
    kind: "repeat",
    rrule: canonical,
  };
  if (has(repeat, "start")) {
    if (!isPlainObject(start) || extraKeys(start, ["date", "time"]).length > 0) {
      return bad("start must be { date, time }");
    }
    const { date, time } = start;
    if (typeof date !== "string" || typeof time !== "string") return bad("start needs date, time");
    try {
      parseLocalDateTime({ date, time });
    } catch (error) {
      return toolFailureFrom(error);
    }
    selector.start = { date, time };
  }
  if (has(repeat, "time_zone")) {
    if (typeof timeZone !== "string") return bad("time_zone is not a string");
    selector.timeZone = timeZone;
  }
  if (has(repeat, "catch_up_seconds")) {
    if (!Number.isSafeInteger(catchUp) || (catchUp as number) <= 0) {
      return bad("catch_up_seconds must be a positive integer");
    }
    selector.catchUpSeconds = catchUp as number;
  }
  return selector;
}

/**
 * Default DTSTART: the first whole minute strictly after the decision instant, in `zone`. It is
 * in the future, so it is the first occurrence when the rule matches it and COUNT counts only
 * deliverable occurrences ("every minute, 3 times" fires three times, the first within 60 s).
 */
function startOf(now: number, zone: string): string {
  const next = Math.floor(now / 60_000) * 60_000 + 60_000;
  const local = Temporal.Instant.fromEpochMilliseconds(next).toZonedDateTimeISO(zone)
    .toPlainDateTime();
  return local.toString({ smallestUnit: "second" });
}

/**
 * Resolves a recurring selector at the decision instant: the zone is `time_zone` or the
 * implicit zone (as for a local `at`), DTSTART is `start` or the first whole minute after the
 * decision instant, and the first target is the first occurrence strictly after now.
 */
export function resolveRepeat(
  selector: RepeatSelector,
  context: ZoneProvenance & { readonly now: number },
): RepeatResolution | ToolFailure {
  let zone = selector.timeZone;
  if (zone === undefined) {
    const implicit = implicitTimeZone(context);
    if (!implicit.ok) return implicit;
    zone = implicit.timeZone;
  }
  let dtstart: string;
  let first: number | undefined;
  try {
    validateSeries({ rrule: selector.rrule, dtstart: "2000-01-01T00:00:00", timeZone: zone }, {
      mustOccur: false,
    });
    zone = normalizeTimeZone(zone);
    dtstart = selector.start === undefined
      ? startOf(context.now, zone)
      : parseLocalDateTime(selector.start).toString({ smallestUnit: "second" });
    const series = { rrule: selector.rrule, dtstart, timeZone: zone };
    validateSeries(series); // rule_never_occurs: judged from the real DTSTART (its grid phase)
    first = nextOccurrence(series, context.now);
  } catch (error) {
    return toolFailureFrom(error);
  }
  if (first === undefined || first > MAX_INSTANT_MS) {
    return toolError(
      "not_in_future",
      `Cannot schedule the series: it has no occurrence after ${formatInstant(context.now)}`,
    );
  }
  return {
    rrule: selector.rrule,
    dtstart,
    timeZone: zone,
    scheduledAt: formatInstant(first),
    ...(selector.catchUpSeconds === undefined ? {} : { catchUpSeconds: selector.catchUpSeconds }),
  };
}
