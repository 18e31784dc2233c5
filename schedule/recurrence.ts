/**
 * The recurrence engine of `schedule/change` version 2 (docs/recurring.md "Records"): the
 * RFC 5545 RRULE subset parsed into one canonical text, and its expansion in the local
 * wall-clock time of an IANA zone with Temporal. A nonexistent local time (DST gap) moves
 * forward by the length of the gap (RFC 5545 §3.3.5); an ambiguous one (overlap) takes the
 * earlier instant; `BYMONTHDAY=31` skips months without a 31st; `COUNT` counts occurrences from
 * DTSTART. Occurrences are whole minutes apart in wall time, so never closer than 60 s.
 *
 * Written on Temporal rather than on `npm:rrule-temporal@2.2.8`, which the brief preferred: that
 * library drops an occurrence whose local time falls in a DST gap (`FREQ=DAILY` at 02:30 in
 * America/New_York skips 2025-03-09; at 02:00 in Australia/Lord_Howe it skips 2025-10-05)
 * instead of moving it forward by the gap as RFC 5545 §3.3.5 requires.
 *
 * Without COUNT, a look-up starts at the period holding the instant asked about (never at
 * DTSTART), and far from a zone transition wall ↔ instant is plain arithmetic, so a year of
 * `FREQ=MINUTELY` costs nothing per look-up. A COUNT series is enumerated from DTSTART (COUNT is
 * at most 10 000).
 *
 * @module
 */
import { normalizeTimeZone } from "@chime/session/zone";
import {
  type Compiled,
  Grid,
  MAX_WORK,
  occurrences,
  periodNear,
  ZoneClock,
} from "./_rrule_expand.ts";
import { countOccurrences } from "./_rrule_count.ts";
import { type Probe, probeNow, probeSliced, stepProbe } from "./_probe.ts";

/** Catch-ups longer than this are counted in bulk (`_rrule_count.ts`). */
const LONG_CATCH_UP_MS = 7 * 86_400_000;
import { formatRule, parseRule } from "./_rrule_parse.ts";
import { wallOfPlain } from "./_zone_cache.ts";
import { ScheduleError } from "./errors.ts";
import { daysInMonth } from "./rfc3339.ts";

export { describeRule, type RuleLanguage } from "./_describe.ts";

/** A recurring series: the rule, its local DTSTART and the zone it is expanded in. */
export interface RecurrenceSeries {
  /** The RRULE value, canonical (see {@linkcode canonicalRule}). */
  readonly rrule: string;
  /** Local DTSTART `YYYY-MM-DDTHH:MM:SS`, no offset (RFC 5545 DATE-TIME with TZID). */
  readonly dtstart: string;
  /** The IANA zone (TZID), case-normalized. */
  readonly timeZone: string;
  /**
   * Excluded occurrences (RFC 5545 EXDATE), canonical UTC instants: never returned, yet still
   * counted by `COUNT` (RFC 5545 §3.8.5.1 removes them after the rule is expanded).
   */
  readonly exdates?: readonly string[];
}

const DTSTART = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})$/;

/**
 * Parses a rule and returns its canonical text: upper case, no `RRULE:` prefix, parts in the
 * order FREQ, INTERVAL (omitted when 1), BYMONTH, BYDAY, BYMONTHDAY, BYHOUR, BYMINUTE, BYSETPOS,
 * COUNT, UNTIL, lists sorted without duplicates, `WKST=MO` dropped (docs/recurring.md "Records").
 *
 * @param text an RRULE value of the subset in docs/recurring.md
 * @returns the canonical text
 * @throws {ScheduleError} `unsupported_rule` (SECONDLY, BYSECOND, BYWEEKNO, BYYEARDAY, WKST other
 *   than MO, BYDAY ordinals outside MONTHLY and YEARLY, BYMONTHDAY with WEEKLY, BYSETPOS with
 *   MINUTELY or HOURLY, UNTIL not in UTC form) or `invalid_arguments` (malformed values, COUNT
 *   with UNTIL, COUNT > 10 000, BYSETPOS without another BYxxx part)
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { canonicalRule } from "@chime/schedule";
 * assert.equal(canonicalRule("rrule:byminute=0;byhour=9;freq=daily;interval=1"),
 *   "FREQ=DAILY;BYHOUR=9;BYMINUTE=0");
 * ```
 */
export function canonicalRule(text: string): string {
  let canonical = canonicalRules.get(text);
  if (canonical === undefined) {
    canonical = formatRule(parseRule(text));
    if (canonicalRules.size >= 1024) canonicalRules.delete(canonicalRules.keys().next().value!);
    canonicalRules.set(text, canonical);
  }
  return canonical;
}

/** Rules already parsed (a fold checks every stored series' rule): at most 1,024. */
const canonicalRules = new Map<string, string>();

/**
 * Parses a local DTSTART (`YYYY-MM-DDTHH:MM:SS`, a real calendar date and time of day).
 *
 * @param text the local date-time
 * @returns the Temporal wall-clock value
 * @throws {ScheduleError} `invalid_arguments`
 */
export function parseDtstart(text: string): Temporal.PlainDateTime {
  const match = DTSTART.exec(text);
  const [y, mo, d, h, mi, s] = (match?.slice(1) ?? []).map(Number) as number[];
  if (
    match === null || mo! < 1 || mo! > 12 || d! < 1 || d! > daysInMonth(y!, mo!) || h! > 23 ||
    mi! > 59 || s! > 59
  ) {
    throw new ScheduleError(
      "invalid_arguments",
      `Cannot use series: dtstart ${JSON.stringify(text)} is not a local YYYY-MM-DDTHH:MM:SS`,
    );
  }
  return new Temporal.PlainDateTime(y!, mo!, d!, h!, mi!, s!);
}

/** A compiled series and its probe of whether it ever occurs (once per cache entry). */
interface Entry extends Compiled {
  readonly probe: Probe;
}

const compiled = new Map<string, Entry>();

function compile(series: RecurrenceSeries): Entry {
  const key = `${series.rrule}\n${series.dtstart}\n${series.timeZone}`;
  let entry = compiled.get(key);
  if (entry === undefined) {
    const rule = parseRule(series.rrule);
    let zone: string;
    try {
      zone = normalizeTimeZone(series.timeZone);
    } catch (cause) {
      throw new ScheduleError(
        "invalid_time_zone",
        `Cannot use series: ${JSON.stringify(series.timeZone)} is not an IANA zone`,
        { cause },
      );
    }
    const start = wallOfPlain(parseDtstart(series.dtstart));
    const base = { rule, start, clock: new ZoneClock(zone) };
    entry = { ...base, probe: { spent: 0 } };
    if (compiled.size >= 256) compiled.delete(compiled.keys().next().value!);
    compiled.set(key, entry);
  }
  return entry;
}

/**
 * Whether a rule has an occurrence within its period structure, so that no look-up ever walks
 * toward year 9999 (docs/recurring.md "Records"): exact modular arithmetic where the structure allows it
 * (`_rrule_structure.ts`), then a bounded probe for the first occurrence from DTSTART
 * (`_probe.ts`), run now to the end when a caller cannot wait.
 */
function occursOf(entry: Entry): boolean {
  return probeNow(entry, entry.probe);
}

/** Thrown inside {@linkcode deferringProbes} by a check whose probe needs more slices. */
export class ProbeNeeded extends Error {
  /** The series to probe with {@linkcode probeSeries} before deciding again. */
  readonly series: RecurrenceSeries;

  /**
   * Creates the signal.
   *
   * @param series the series whose probe is unfinished
   */
  constructor(series: RecurrenceSeries) {
    super(`Cannot decide yet: the probe of ${series.rrule} needs more slices`);
    this.name = "ProbeNeeded";
    this.series = series;
  }
}

let deferring = 0;

/**
 * Runs a synchronous decision in which {@linkcode validateSeries} throws
 * {@linkcode ProbeNeeded} instead of finishing a long probe on the event loop: the caller
 * awaits {@linkcode probeSeries} and decides again (`_tx.ts`).
 *
 * @param decide the decision
 * @returns its result
 * @throws {ProbeNeeded} when a series' probe needs more than one slice
 */
export function deferringProbes<T>(decide: () => T): T {
  deferring++;
  try {
    return decide();
  } finally {
    deferring--;
  }
}

/**
 * Finishes a series' probe, yielding to the event loop between slices, so a later
 * {@linkcode validateSeries} of it answers at once.
 *
 * @param series the series
 * @throws {ScheduleError} as {@linkcode validateSeries} for a rule, DTSTART or zone it refuses
 */
export async function probeSeries(series: RecurrenceSeries): Promise<void> {
  const entry = compile(series);
  await probeSliced(entry, entry.probe);
}

/** Options of {@linkcode validateSeries}. */
export interface ValidateSeriesOptions {
  /**
   * Refuse a rule that never occurs (`rule_never_occurs`). The strict decoder passes `false`:
   * a log is read as written, and such a series simply never fires. @default true
   */
  readonly mustOccur?: boolean;
}

/**
 * Validates a series: a rule of the subset, a local DTSTART and a named IANA zone, and (unless
 * told otherwise) a rule with at least one occurrence (docs/recurring.md "Records").
 *
 * @param series the series
 * @param options whether a rule that never occurs is refused
 * @throws {ScheduleError} `unsupported_rule`, `invalid_arguments`, `invalid_time_zone`,
 *   `rule_never_occurs`
 *
 * @example A minute grid that never meets its minutes
 * ```ts
 * import assert from "node:assert/strict";
 * import { validateSeries } from "@chime/schedule";
 * const series = { rrule: "FREQ=MINUTELY;INTERVAL=12;BYMINUTE=10,11", dtstart:
 *   "2027-01-01T00:00:00", timeZone: "UTC" };
 * assert.throws(() => validateSeries(series), { code: "rule_never_occurs" });
 * validateSeries(series, { mustOccur: false });
 * ```
 */
export function validateSeries(
  series: RecurrenceSeries,
  options: ValidateSeriesOptions = {},
): void {
  const entry = compile(series);
  if (options.mustOccur === false) return;
  let occurs = stepProbe(entry, entry.probe);
  if (occurs === undefined) {
    if (deferring > 0) throw new ProbeNeeded(series);
    occurs = probeNow(entry, entry.probe);
  }
  if (!occurs) {
    throw new ScheduleError(
      "rule_never_occurs",
      `Cannot use rule: ${series.rrule} has no occurrence from its DTSTART (its limits never meet)`,
    );
  }
}

/** Walks the occurrences from where `after` needs them (COUNT first, then EXDATE). */
function* walk(c: Entry, after: number, exdates?: readonly string[]): Generator<number> {
  if (!occursOf(c)) return;
  const { count, until } = c.rule;
  const excluded = exdates === undefined || exdates.length === 0
    ? undefined
    : new Set(exdates.map((at) => Date.parse(at)));
  let index = 0;
  for (const instant of occurrences(c, count === undefined ? periodNear(c, after) : 0)) {
    if (count !== undefined && ++index > count) return;
    if (until !== undefined && instant > until) return;
    if (excluded?.has(instant)) continue;
    yield instant;
  }
}

/**
 * The first occurrence strictly after an instant (RFC 5545 expansion in local wall time).
 *
 * @param series the series
 * @param afterMs the instant, epoch milliseconds (UTC)
 * @returns the next occurrence in epoch ms (UTC), or `undefined` once the series is exhausted
 *   (COUNT, UNTIL, or past year 9999)
 * @throws {ScheduleError} as {@linkcode validateSeries}
 *
 * @example Daily at 09:00 in Shanghai
 * ```ts
 * import assert from "node:assert/strict";
 * import { nextOccurrence } from "@chime/schedule";
 * const series = { rrule: "FREQ=DAILY;BYHOUR=9;BYMINUTE=0", dtstart: "2026-12-01T09:00:00",
 *   timeZone: "Asia/Shanghai" };
 * const next = nextOccurrence(series, Date.parse("2026-12-05T02:00:00Z"));
 * assert.equal(new Date(next!).toISOString(), "2026-12-06T01:00:00.000Z");
 * ```
 */
export function nextOccurrence(series: RecurrenceSeries, afterMs: number): number | undefined {
  for (const instant of walk(compile(series), afterMs, series.exdates)) {
    if (instant > afterMs) return instant;
  }
  return undefined;
}

/** What a catch-up finds between a due target and now. */
export interface CatchUp {
  /** The latest occurrence at or before now, epoch ms (UTC); absent when none is. */
  readonly latest?: number;
  /** Occurrences in `[fromMs, nowMs]` (the latest included). */
  readonly count: number;
  /** The first occurrence strictly after now, or absent when the series is exhausted. */
  readonly next?: number;
}

/**
 * Counts the occurrences from a due target through now, for one coalesced follow-up
 * (docs/recurring.md "Delivery"): the latest is delivered, the others are `missed`.
 *
 * @param series the series
 * @param fromMs the due target (an occurrence), epoch ms (UTC)
 * @param nowMs the decision instant, epoch ms (UTC)
 * @returns the latest occurrence ≤ now, how many fell in `[fromMs, nowMs]`, and the next one
 * @throws {ScheduleError} as {@linkcode validateSeries}
 *
 * @example Five hours of an hourly series
 * ```ts
 * import assert from "node:assert/strict";
 * import { catchUp } from "@chime/schedule";
 * const series = { rrule: "FREQ=HOURLY", dtstart: "2026-01-01T00:00:00", timeZone: "UTC" };
 * const from = Date.parse("2026-01-01T01:00:00Z");
 * const result = catchUp(series, from, from + 5 * 3_600_000 + 1);
 * assert.equal(result.count, 6);
 * ```
 */
export function catchUp(series: RecurrenceSeries, fromMs: number, nowMs: number): CatchUp {
  const c = compile(series);
  // A long span of a rule without COUNT is counted in bulk between DST transitions
  // (`_rrule_count.ts`): a year of FREQ=MINUTELY downtime costs milliseconds, exclusions or not.
  if (occursOf(c) && c.rule.count === undefined && nowMs - fromMs > LONG_CATCH_UP_MS) {
    return bulkCatchUp(c, series, fromMs, nowMs);
  }
  let count = 0;
  let latest: number | undefined;
  for (const instant of walk(c, fromMs - 1, series.exdates)) {
    if (instant < fromMs) continue;
    if (instant > nowMs) {
      return { ...(latest === undefined ? {} : { latest }), count, next: instant };
    }
    count++;
    latest = instant;
  }
  return { ...(latest === undefined ? {} : { latest }), count };
}

/** {@linkcode catchUp} over a long span: counted in bulk, EXDATEs taken out afterwards. */
function bulkCatchUp(c: Entry, series: RecurrenceSeries, fromMs: number, nowMs: number): CatchUp {
  const end = Math.min(nowMs, c.rule.until ?? nowMs);
  let { count, latest } = countOccurrences(c, fromMs, end + 1);
  const plain = { rrule: series.rrule, dtstart: series.dtstart, timeZone: series.timeZone };
  // EXDATEs in the span that are occurrences (an exclusion is made only of one; checked anyway).
  const excluded = new Set(
    (series.exdates ?? []).map((at) => Date.parse(at)).filter((at) =>
      at >= fromMs && at <= end && nextOccurrence(plain, at - 1) === at
    ),
  );
  count -= excluded.size;
  // An excluded latest: the latest before it, looked for in windows growing eightfold.
  for (let window = 86_400_000; latest !== undefined && excluded.has(latest); window *= 8) {
    const low = Math.max(fromMs, latest - window);
    const found = countOccurrences(c, low, latest).latest;
    if (found !== undefined) latest = found;
    else if (low === fromMs) latest = undefined;
  }
  const next = nextOccurrence(series, nowMs);
  return {
    ...(latest === undefined ? {} : { latest }),
    count,
    ...(next === undefined ? {} : { next }),
  };
}

/**
 * One previewed occurrence (docs/recurring.md "Preview"): where it falls, in UTC and in the
 * series' zone, and why it may surprise a person.
 */
export interface OccurrencePreview {
  /** The occurrence, canonical UTC RFC 3339 with milliseconds and `Z`. */
  readonly at: string;
  /** Its local wall time in the series' zone, `YYYY-MM-DDTHH:MM`. */
  readonly local: string;
  /** The zone's UTC offset at that instant, `±HH:MM`. */
  readonly offset: string;
  /**
   * `"gap"`: the rule's local time does not exist that day (DST gap), so it moved forward by
   * the gap (RFC 5545 §3.3.5); `"overlap"`: the local time happens twice (DST overlap) and
   * the earlier instant is taken (a sub-daily series skips the repeated hour).
   */
  readonly dst?: "gap" | "overlap";
  /**
   * Periods of the rule between the previous previewed occurrence (or `afterMs`) and this one
   * that hold no occurrence at all, e.g. months without a 31st for `BYMONTHDAY=31`; absent
   * when none was passed over. Counted for MONTHLY and YEARLY rules only.
   */
  readonly skippedPeriods?: number;
  /** Occurrences between the previous previewed one and this one excluded by EXDATE (a skip). */
  readonly excluded?: readonly string[];
}

/**
 * The next occurrences strictly after an instant, with DST and skipped-period notes, so a
 * person and the model can check a rule before trusting it (docs/recurring.md "Preview").
 *
 * @param series the series (its `exdates` are left out and reported on the next occurrence)
 * @param afterMs the instant, epoch milliseconds (UTC)
 * @param limit how many occurrences at most @default 5
 * @returns up to `limit` occurrences, ascending; fewer once the series is exhausted
 * @throws {ScheduleError} as {@linkcode validateSeries}
 *
 * @example New York's spring-forward day moves 02:30 to 03:30
 * ```ts
 * import assert from "node:assert/strict";
 * import { previewOccurrences } from "@chime/schedule/recurrence";
 * const series = { rrule: "FREQ=DAILY;BYHOUR=2;BYMINUTE=30", dtstart: "2027-03-12T02:30:00",
 *   timeZone: "America/New_York" };
 * const [first, second] = previewOccurrences(series, Date.parse("2027-03-13T12:00:00Z"), 2);
 * assert.equal(first!.local, "2027-03-14T03:30");
 * assert.equal(first!.dst, "gap");
 * assert.equal(second!.local, "2027-03-15T02:30");
 * ```
 */
export function previewOccurrences(
  series: RecurrenceSeries,
  afterMs: number,
  limit = 5,
): OccurrencePreview[] {
  const c = compile(series);
  const excluded = new Set((series.exdates ?? []).map((at) => Date.parse(at)));
  const out: OccurrencePreview[] = [];
  let pending: string[] = [];
  let previous = afterMs;
  for (const instant of walk(c, afterMs)) {
    if (instant <= afterMs) continue;
    if (excluded.has(instant)) {
      pending.push(new Date(instant).toISOString());
      continue;
    }
    out.push(describeOccurrence(c, instant, previous, pending));
    pending = [];
    previous = instant;
    if (out.length >= limit) break;
  }
  return out;
}

function describeOccurrence(
  c: Compiled,
  instant: number,
  previous: number,
  excluded: readonly string[],
): OccurrencePreview {
  const zoned = Temporal.Instant.fromEpochMilliseconds(instant).toZonedDateTimeISO(c.clock.zone);
  const local = zoned.toPlainDateTime();
  const wall = local.toString({ smallestUnit: "minute" });
  const intended = intendedWall(c, local);
  let dst: "gap" | "overlap" | undefined;
  if (intended !== undefined) dst = "gap";
  else {
    const both = local.toZonedDateTime(c.clock.zone, { disambiguation: "earlier" });
    const later = local.toZonedDateTime(c.clock.zone, { disambiguation: "later" });
    if (!both.equals(later)) dst = "overlap";
  }
  const skipped = Math.max(0, skippedPeriods(c, previous, instant) - excluded.length);
  return {
    at: new Date(instant).toISOString(),
    local: wall,
    offset: zoned.offset,
    ...(dst === undefined ? {} : { dst }),
    ...(skipped > 0 ? { skippedPeriods: skipped } : {}),
    ...(excluded.length > 0 ? { excluded } : {}),
  };
}

/** The nonexistent wall time an occurrence was moved forward from, if it was (DST gap). */
function intendedWall(c: Compiled, local: Temporal.PlainDateTime): string | undefined {
  const zoned = local.toZonedDateTime(c.clock.zone, { disambiguation: "earlier" });
  const transition = zoned.add({ milliseconds: 1 }).getTimeZoneTransition("previous");
  if (transition === null) return undefined;
  const shift = zoned.offsetNanoseconds -
    transition.subtract({ nanoseconds: 1 }).offsetNanoseconds;
  if (shift <= 0) return undefined;
  // Moved forward by a gap iff it lies within one gap length after the transition and the rule
  // asked for the wall time one gap length earlier, which did not exist (an occurrence at 03:15
  // on the spring-forward day may be the rule's own 03:15).
  if (zoned.epochNanoseconds - transition.epochNanoseconds >= BigInt(shift)) return undefined;
  const earlier = local.subtract({ nanoseconds: shift });
  // (Within one shift after a forward transition, the wall one shift earlier never exists.)
  const wall = wallOfPlain(earlier);
  const grid = new Grid(c);
  const { walls } = grid.candidates(grid.index(wall, "floor"), { left: MAX_WORK, spent: false });
  return walls.includes(wall) ? earlier.toString() : undefined;
}

/** MONTHLY and YEARLY periods with no occurrence strictly between two instants. */
function skippedPeriods(c: Compiled, fromMs: number, toMs: number): number {
  const freq = c.rule.freq as string;
  if (freq !== "MONTHLY" && freq !== "YEARLY") return 0;
  // The rule's own periods (calendar months or years from DTSTART's, INTERVAL apart) lying
  // wholly between the two instants.
  const start = new Date(c.start);
  const period = (ms: number) => {
    const p = Temporal.Instant.fromEpochMilliseconds(ms).toZonedDateTimeISO(c.clock.zone);
    const n = freq === "YEARLY"
      ? p.year - start.getUTCFullYear()
      : (p.year - start.getUTCFullYear()) * 12 + p.month - 1 - start.getUTCMonth();
    return Math.floor(n / c.rule.interval);
  };
  return Math.max(0, period(toMs) - period(fromMs) - 1);
}
