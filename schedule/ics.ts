/**
 * The calendar feed (docs/upcoming.md "Calendar feed"; RFC 5545): a `VCALENDAR` with one
 * `VEVENT` per active reminder, written with `ical-generator`. A reminder's `UID` is its id;
 * a one-shot has `DTSTART;TZID=` its zone (the session's default zone, else UTC); a series has
 * its own `DTSTART;TZID=` (the local DTSTART in its zone), its canonical `RRULE` and one `EXDATE`
 * per skipped occurrence; a snooze of a series' occurrence is that series' `VEVENT` with
 * `RECURRENCE-ID` the snoozed occurrence and `DTSTART` the snooze's time. Each zone gets a
 * `VTIMEZONE` built from Temporal's transitions. A paused series is left out (it does not fire).
 * No `VALARM` unless asked: a calendar alarm would ring while the session is cold, and chime's
 * reminders are session-local (README "Calendar feed").
 *
 * @module
 */
import ical, { ICalAlarmType } from "ical-generator";
import type { SessionHeader } from "@chime/session";
import { isPaused, type ScheduleRecord } from "./protocol.ts";
import { describeRule, nextOccurrence, previewOccurrences } from "./recurrence.ts";
import { reminderZone } from "./upcoming.ts";

/** One reminder of a feed, with the session it belongs to. */
export interface FeedReminder {
  /** The session's header (its default zone, its id). */
  readonly header: SessionHeader;
  /** The session's title, `null` before one. */
  readonly sessionTitle: string | null;
  /** An active record. */
  readonly record: ScheduleRecord;
}

/** Options of {@linkcode remindersCalendar}. */
export interface CalendarOptions {
  /** The calendar's name (`X-WR-CALNAME`). */
  readonly name: string;
  /** The instant the feed is made, epoch ms (UTC): `DTSTAMP`, and the `VTIMEZONE` window. */
  readonly now: number;
  /**
   * Adds a display `VALARM` at each occurrence. Off by default: the alarm rings in the calendar
   * app even while the session is cold, when chime itself would not remind (session-local).
   * @default false
   */
  readonly alarm?: boolean;
}

/** The sentence every event's description ends with (the session-local boundary). */
export const SESSION_LOCAL_NOTE: string =
  "Session-local: chime delivers this reminder only while its session is open; a cold session " +
  "delivers it when you open it.";

/** `YYYYMMDDTHHMMSS` of a plain date-time. */
function basic(local: Temporal.PlainDateTime): string {
  const pad = (n: number, w = 2) => String(n).padStart(w, "0");
  return `${pad(local.year, 4)}${pad(local.month)}${pad(local.day)}T${pad(local.hour)}` +
    `${pad(local.minute)}${pad(local.second)}`;
}

/** `±HHMM` of an offset in nanoseconds. */
function offsetText(ns: number): string {
  const minutes = Math.round(ns / 60e9);
  const sign = minutes < 0 ? "-" : "+";
  const abs = Math.abs(minutes);
  return `${sign}${String(Math.floor(abs / 60)).padStart(2, "0")}${
    String(abs % 60).padStart(2, "0")
  }`;
}

/**
 * A `VTIMEZONE` for an IANA zone from Temporal's transitions between two instants (one
 * `STANDARD` or `DAYLIGHT` observance per transition, each with its `DTSTART` in the offset it
 * leaves, RFC 5545 §3.6.5), opened by the offset in force at the start.
 *
 * @param timeZone an IANA zone
 * @param fromMs window start, epoch ms
 * @param toMs window end, epoch ms
 * @returns the component text, CRLF line ends
 */
export function vtimezone(timeZone: string, fromMs: number, toMs: number): string {
  const lines = ["BEGIN:VTIMEZONE", `TZID:${timeZone}`];
  let zoned = Temporal.Instant.fromEpochMilliseconds(fromMs).toZonedDateTimeISO(timeZone);
  const first = offsetText(zoned.offsetNanoseconds);
  lines.push(
    "BEGIN:STANDARD",
    `DTSTART:${basic(zoned.toPlainDateTime().round("second"))}`,
    `TZOFFSETFROM:${first}`,
    `TZOFFSETTO:${first}`,
    "END:STANDARD",
  );
  for (;;) {
    const next = zoned.getTimeZoneTransition("next");
    if (next === null || next.epochMilliseconds > toMs) break;
    const before = zoned.offsetNanoseconds;
    const after = next.offsetNanoseconds;
    const kind = after > before ? "DAYLIGHT" : "STANDARD";
    const local = next.toInstant().toZonedDateTimeISO("UTC").toPlainDateTime()
      .add({ nanoseconds: before });
    lines.push(
      `BEGIN:${kind}`,
      `DTSTART:${basic(local)}`,
      `TZOFFSETFROM:${offsetText(before)}`,
      `TZOFFSETTO:${offsetText(after)}`,
      `END:${kind}`,
    );
    zoned = next;
  }
  lines.push("END:VTIMEZONE");
  return lines.join("\r\n") + "\r\n";
}

/** The local wall time of an instant in a zone, as a plain date-time. */
function wall(iso: string, timeZone: string): Temporal.PlainDateTime {
  return Temporal.Instant.from(iso).toZonedDateTimeISO(timeZone).toPlainDateTime();
}

/** The DST corrections cover the zone's transitions from a year before `now` to 5 years on. */
const CORRECTION_YEARS = { before: 1, after: 5 } as const;
const DAY_MS = 86_400_000;

/** One UTC offset change of a zone: its instant (epoch ms) and the offset change (ns). */
interface Transition {
  readonly at: number;
  readonly shiftNs: number;
}

/** Per-zone results kept across feeds (a calendar app polls): at most this many entries each. */
const ZONE_CACHE_SIZE = 64;

/** A small insertion-ordered cache: the oldest entry goes first once it is full. */
function cached<T>(cache: Map<string, T>, key: string, make: () => T): T {
  let value = cache.get(key);
  if (value === undefined) {
    value = make();
    if (cache.size >= ZONE_CACHE_SIZE) cache.delete(cache.keys().next().value!);
    cache.set(key, value);
  }
  return value;
}

const transitionCache = new Map<string, readonly Transition[]>();
const vtimezoneCache = new Map<string, string>();

/** Widens a window to whole UTC days, so that a cache key holds for a day of feeds. */
function days(fromMs: number, toMs: number): [number, number] {
  return [Math.floor(fromMs / DAY_MS) * DAY_MS, Math.ceil(toMs / DAY_MS) * DAY_MS];
}

/** A zone's transitions in a window (whole UTC days around it), from Temporal, cached per zone. */
function zoneTransitions(timeZone: string, fromMs: number, toMs: number): readonly Transition[] {
  const [from, to] = days(fromMs, toMs);
  return cached(transitionCache, `${timeZone}\n${from}\n${to}`, () => {
    const out: Transition[] = [];
    let zoned = Temporal.Instant.fromEpochMilliseconds(from).toZonedDateTimeISO(timeZone);
    for (;;) {
      const next = zoned.getTimeZoneTransition("next");
      if (next === null || next.epochMilliseconds > to) break;
      out.push({
        at: next.epochMilliseconds,
        shiftNs: next.offsetNanoseconds - zoned.offsetNanoseconds,
      });
      zoned = next;
    }
    return out;
  });
}

/** {@linkcode vtimezone} over whole UTC days around the window, cached per zone and window. */
function zoneComponent(timeZone: string, fromMs: number, toMs: number): string {
  const [from, to] = days(fromMs, toMs);
  return cached(vtimezoneCache, `${timeZone}\n${from}\n${to}`, () => vtimezone(timeZone, from, to));
}

/**
 * Lines that pin a series' DST occurrences to chime's instants whatever the client's own gap
 * rule: for each occurrence whose local time falls in a gap (moved forward, RFC 5545 §3.3.5) or
 * an overlap (the earlier instant), an `EXDATE` of the nominal local time (the client drops
 * whatever instant it gives that time) and an `RDATE` of chime's instant in UTC. Clients differ
 * here (ical.js reads a gap time with the later offset); the pair makes them all agree. Only the
 * zone's transitions from a year before `now` to five years after it are looked at, and of each
 * only the instants whose wall time it moved (within one shift of it, either side): the engine's
 * next occurrence from just before that reach, then each next one inside it; a series with no
 * occurrence there costs one look-up per transition, an exhausted one stops at the first.
 */
function dstCorrections(
  record: Extract<ScheduleRecord, { kind: "recurring" }>,
  now: number,
): string[] {
  const out: string[] = [];
  const seen = new Set<number>();
  const from = now - CORRECTION_YEARS.before * 366 * DAY_MS;
  const to = now + CORRECTION_YEARS.after * 366 * DAY_MS;
  for (const { at, shiftNs } of zoneTransitions(record.timeZone, from, to)) {
    const reach = Math.ceil(Math.abs(shiftNs) / 1e6);
    let o = nextOccurrence(record, at - reach - 1);
    if (o === undefined) break;
    for (; o !== undefined && o < at + reach; o = nextOccurrence(record, o)) {
      if (seen.has(o)) continue;
      seen.add(o);
      const [preview] = previewOccurrences(record, o - 1, 1);
      if (preview === undefined || preview.dst === undefined) continue;
      // A gap moved the rule's time forward by the gap: the nominal time is that much earlier.
      const local = wall(preview.at, record.timeZone);
      const nominal = preview.dst === "gap" ? local.subtract({ nanoseconds: shiftNs }) : local;
      const utc = Temporal.Instant.fromEpochMilliseconds(o).toZonedDateTimeISO("UTC")
        .toPlainDateTime();
      out.push(`EXDATE;TZID=${record.timeZone}:${basic(nominal)}`, `RDATE:${basic(utc)}Z`);
    }
  }
  return out;
}

/** How far back and ahead each `VTIMEZONE` reaches (years). */
const ZONE_YEARS_BEFORE = 1;
const ZONE_YEARS_AFTER = 30;

/**
 * The feed.
 *
 * @param reminders the active reminders to list (paused series are left out)
 * @param options name, instant, alarm opt-in
 * @returns the `text/calendar` body (CRLF line ends, folded by `ical-generator`)
 *
 * @example One reminder
 * ```ts
 * import { remindersCalendar } from "@chime/schedule";
 * const header = {
 *   version: 1 as const, id: "s1", cwd: "/", createdAt: "2030-01-01T00:00:00.000Z",
 *   origin: "test", lineage: null, delegationDepth: 0, timeZone: "Europe/Paris",
 * };
 * const record = {
 *   id: "sch_AbCd1234" as never, kind: "at" as const, prompt: "stretch",
 *   scheduledAt: "2030-01-02T08:00:00.000Z",
 * };
 * const text = remindersCalendar([{ header, sessionTitle: null, record }], {
 *   name: "chime", now: Date.parse("2030-01-01T00:00:00Z"),
 * });
 * console.assert(text.includes("DTSTART;TZID=Europe/Paris:20300102T090000"));
 * ```
 */
export function remindersCalendar(
  reminders: readonly FeedReminder[],
  options: CalendarOptions,
): string {
  const calendar = ical({ name: options.name, prodId: "//chime//reminders//EN" });
  const listed = reminders.filter(({ record }) => !isPaused(record));
  const series = new Map<string, ScheduleRecord>();
  for (const { record } of listed) if (record.kind === "recurring") series.set(record.id, record);
  let earliest = options.now;
  for (const { record } of listed) {
    const start = record.kind === "recurring"
      ? Temporal.PlainDateTime.from(record.dtstart).toZonedDateTime(record.timeZone)
        .epochMilliseconds
      : Date.parse(record.scheduledAt);
    earliest = Math.min(earliest, start);
  }
  const yearMs = 366 * 86_400_000;
  const from = earliest - ZONE_YEARS_BEFORE * yearMs;
  const to = options.now + ZONE_YEARS_AFTER * yearMs;
  calendar.timezone({ name: null, generator: (zone) => zoneComponent(zone, from, to) });
  for (const { header, sessionTitle, record } of listed) {
    const zone = reminderZone(record, header);
    const about = [
      sessionTitle === null ? `Session ${header.id}` : `Session: ${sessionTitle}`,
      ...(record.kind === "recurring" ? [describeRule(record, "en")] : []),
      SESSION_LOCAL_NOTE,
    ].join("\n");
    const base = {
      summary: record.prompt,
      description: about,
      stamp: new Date(options.now),
      timezone: zone,
      x: { "X-CHIME-SESSION": header.id },
    };
    let event;
    if (record.kind === "recurring") {
      const exdates = (record.exdates ?? []).map((at) =>
        `EXDATE;TZID=${zone}:${basic(wall(at, zone))}`
      );
      exdates.push(...dstCorrections(record, options.now));
      event = calendar.createEvent({
        ...base,
        id: record.id,
        start: Temporal.PlainDateTime.from(record.dtstart) as never,
        repeating: [`RRULE:${record.rrule}`, ...exdates].join("\n"),
      });
    } else if (record.snoozeOf !== undefined && series.has(record.snoozeOf.id)) {
      const of = series.get(record.snoozeOf.id)!;
      const seriesZone = reminderZone(of, header);
      event = calendar.createEvent({
        ...base,
        id: record.snoozeOf.id,
        timezone: seriesZone,
        start: wall(record.scheduledAt, seriesZone) as never,
        recurrenceId: wall(record.snoozeOf.occurrenceAt, seriesZone) as never,
        x: { "X-CHIME-SESSION": header.id, "X-CHIME-SNOOZE": record.id },
      });
    } else {
      event = calendar.createEvent({
        ...base,
        id: record.id,
        start: wall(record.scheduledAt, zone) as never,
      });
    }
    if (options.alarm === true) {
      event.createAlarm({
        type: ICalAlarmType.display,
        trigger: 0,
        description: `${record.prompt} (${SESSION_LOCAL_NOTE})`,
      });
    }
  }
  return calendar.toString();
}
