/**
 * IANA time-zone validation, normalization and equivalence (docs/events.md#zones).
 *
 * A zone is valid when Temporal accepts it as a *named* IANA zone (bare offsets are refused).
 * It is stored case-normalized as Temporal reports it; links such as `Asia/Calcutta` stay as
 * given. Two zones are equal when Temporal says they are the same zone — never compare strings.
 *
 * @module
 */
import { SessionError } from "./errors.ts";

// The IANA name grammar (tz-link "Theory": ASCII letters, digits, `_`, `-`, `+`, `/`-separated
// parts, each starting with a letter for the first). Temporal also parses whole date-time strings
// such as `2020-01-01T00:00+01:00[Europe/Paris]` as a zone argument, so the grammar is checked
// first: a zone is a *name*, never a date-time or an offset.
const IANA_NAME = /^[A-Za-z][A-Za-z0-9_+-]*(?:\/[A-Za-z0-9_+-]+)*$/;
const OFFSET_LIKE = /^(?:utc|gmt)[+-]\d/i;

/** Names already normalized (a fold checks every stored series' zone): at most this many. */
const NORMALIZED_CACHE = 1024;
const normalized = new Map<string, string>();

/**
 * Validates an IANA time-zone name and returns it case-normalized as Temporal reports it.
 *
 * @param input a zone name such as `america/new_york` or `Asia/Calcutta`
 * @returns the normalized id, e.g. `America/New_York`
 * @throws {SessionError} `invalid_time_zone` for non-strings, empty strings, offsets such as
 *   `+05:30`, and names Temporal does not know
 *
 * @example Normalize case, keep links
 * ```ts
 * import { normalizeTimeZone } from "@chime/session";
 * console.assert(normalizeTimeZone("america/new_york") === "America/New_York");
 * console.assert(normalizeTimeZone("Asia/Calcutta") === "Asia/Calcutta");
 * ```
 */
export function normalizeTimeZone(input: unknown): string {
  if (typeof input !== "string" || input.length === 0 || input.length > 64) {
    throw new SessionError("invalid_time_zone", "Cannot use time zone: not a zone name", {
      details: { timeZone: input },
    });
  }
  // `Etc/GMT+5` is a named IANA zone; a bare `+05:00` or `UTC+5` is an offset.
  if (!IANA_NAME.test(input) || OFFSET_LIKE.test(input)) {
    throw new SessionError("invalid_time_zone", `Cannot use time zone: ${input} is not a name`, {
      details: { timeZone: input },
    });
  }
  const known = normalized.get(input);
  if (known !== undefined) return known;
  try {
    // The grammar above starts with a letter, so Temporal can only answer with a named zone.
    const id = Temporal.Instant.fromEpochMilliseconds(0).toZonedDateTimeISO(input).timeZoneId;
    if (normalized.size >= NORMALIZED_CACHE) normalized.delete(normalized.keys().next().value!);
    normalized.set(input, id);
    return id;
  } catch (cause) {
    throw new SessionError("invalid_time_zone", `Cannot use time zone: ${input} is not IANA`, {
      cause,
      details: { timeZone: input },
    });
  }
}

/**
 * Tells whether a string is a valid named IANA zone (see {@linkcode normalizeTimeZone}).
 *
 * @param input any value
 * @returns `true` when {@linkcode normalizeTimeZone} would accept it
 */
export function isTimeZone(input: unknown): input is string {
  try {
    normalizeTimeZone(input);
    return true;
  } catch {
    return false;
  }
}

/**
 * Zone equivalence by Temporal's rules (`Temporal.ZonedDateTime.prototype.equals`):
 * `Asia/Calcutta` ≡ `Asia/Kolkata`, `US/Eastern` ≡ `America/New_York`.
 *
 * @param a a valid zone id
 * @param b a valid zone id
 * @returns `true` when both name the same IANA zone; `false` when either is invalid
 *
 * @example Links are equal to their targets
 * ```ts
 * import { timeZonesEqual } from "@chime/session";
 * console.assert(timeZonesEqual("Asia/Calcutta", "Asia/Kolkata"));
 * console.assert(!timeZonesEqual("Europe/London", "Europe/Dublin"));
 * ```
 */
export function timeZonesEqual(a: string, b: string): boolean {
  try {
    const epoch = Temporal.Instant.fromEpochMilliseconds(0);
    return epoch.toZonedDateTimeISO(normalizeTimeZone(a))
      .equals(epoch.toZonedDateTimeISO(normalizeTimeZone(b)));
  } catch {
    return false;
  }
}
