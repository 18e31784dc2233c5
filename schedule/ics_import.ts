/**
 * Import from a calendar (docs/upcoming.md "Import from a calendar"): the VEVENTs of a pasted
 * RFC 5545 text become `schedule_create` requests through the tool's own validation
 * (`validateCreateArgs`, `./rules.ts`), so an import can hold nothing a model's call could not.
 * Parsed with `ical.js`, never by hand.
 *
 * The mapping: `SUMMARY` is the prompt; `DTSTART` the time (a `TZID` parameter is its zone, a UTC
 * `…Z` time an instant, a floating time the session's zone); `RRULE` the series rule inside
 * chime's subset (docs/recurring.md "Records"), expanded from `DTSTART`. Refused, never ignored:
 * an all-day `DTSTART` (no time to remind at), `RDATE`, `EXDATE`, `RECURRENCE-ID` and a second
 * `RRULE` (`unsupported_rule`, naming the property; only an `EXDATE` and `RDATE` pair that pins a
 * DST occurrence to the instant chime gives it anyway, as chime's own feed writes, is taken), a missing `SUMMARY` or `DTSTART`, text that
 * is not iCalendar, no VEVENT, more than {@linkcode ICS_IMPORT_MAX_EVENTS} events or more than
 * {@linkcode ICS_IMPORT_MAX_CHARS} characters (`invalid_arguments`). `DESCRIPTION`, `VALARM` and
 * the other properties do not change when the reminder fires.
 *
 * @module
 */
import ICAL from "ical.js";
import { isTimeZone } from "@chime/session/zone";
import { toolError, type ToolFailure } from "./errors.ts";
import { type CreateRequest, validateCreateArgs } from "./rules.ts";

/** Most VEVENTs one import takes. */
export const ICS_IMPORT_MAX_EVENTS = 50;
/** Most characters of one pasted text (256 Ki). */
export const ICS_IMPORT_MAX_CHARS = 262_144;

/**
 * An import refusal: a tool failure, with the 0-based `index` of the VEVENT at fault and the
 * iCalendar `property` that chime cannot keep, when one is.
 */
export type ImportFailure = ToolFailure & { readonly index?: number; readonly property?: string };

/** One VEVENT of an import, checked as a `schedule_create` request. */
export interface ImportedEvent {
  /** Its `UID`, when it has one. */
  readonly uid?: string;
  /** The create request (a local selector without a zone takes the session's in the route). */
  readonly request: CreateRequest;
}

/**
 * The epoch ms of each value of the event's `name` properties: a UTC time as it is, a local one
 * (its `TZID`, else `zone`) resolved as RFC 5545 §3.3.5 and chime do (a gap time moves forward
 * by the gap, an overlap takes the earlier instant: Temporal's `compatible`). `undefined` for a
 * value that is a date, a period or in no known zone.
 */
function instants(
  event: ICAL.Component,
  name: string,
  zone: string | undefined,
): (number | undefined)[] {
  return event.getAllProperties(name).flatMap((property) => {
    const tzid = property.getParameter("tzid");
    const where = typeof tzid === "string" ? tzid : zone;
    return property.getValues().map((value) => {
      if (!(value instanceof ICAL.Time) || value.isDate) return undefined;
      if (value.zone?.tzid === "UTC") {
        return Date.UTC(
          value.year,
          value.month - 1,
          value.day,
          value.hour,
          value.minute,
          value.second,
        );
      }
      if (where === undefined || !isTimeZone(where)) return undefined;
      const local = new Temporal.PlainDateTime(
        value.year,
        value.month,
        value.day,
        value.hour,
        value.minute,
        value.second,
      );
      return local.toZonedDateTime(where, { disambiguation: "compatible" }).epochMilliseconds;
    });
  });
}

/**
 * The `EXDATE` / `RDATE` lines left once the pairs that only pin a DST occurrence to the instant
 * chime gives it cancel out (chime's own feed writes one pair per such occurrence,
 * `dstCorrections` in `./ics.ts`: the nominal local time excluded, the same instant added in
 * UTC). What is left changes the series, which chime cannot hold: the caller refuses it.
 */
function unpaired(event: ICAL.Component, zone: string | undefined): string | undefined {
  const excluded = instants(event, "exdate", zone);
  const added = instants(event, "rdate", zone);
  for (const at of excluded) {
    const j = at === undefined ? -1 : added.indexOf(at);
    if (j < 0) return "EXDATE";
    added.splice(j, 1);
  }
  return added.length > 0 ? "RDATE" : undefined;
}

function bad(message: string, index?: number): ImportFailure {
  const failure = toolError("invalid_arguments", `Cannot import calendar: ${message}`);
  return index === undefined ? failure : { ...failure, index };
}

function unsupported(index: number, property: string, reason: string): ImportFailure {
  const failure = toolError("unsupported_rule", `Cannot import calendar: event ${index} ${reason}`);
  return { ...failure, index, property };
}

function two(n: number): string {
  return String(n).padStart(2, "0");
}

/** The `schedule_create` arguments of one VEVENT, or the refusal naming its index. */
function eventArgs(
  event: ICAL.Component,
  index: number,
): Record<string, unknown> | ImportFailure {
  if (event.hasProperty("recurrence-id")) {
    return unsupported(index, "RECURRENCE-ID", "moves one occurrence, which chime cannot keep");
  }
  const rules = event.getAllProperties("rrule");
  if (rules.length > 1) return unsupported(index, "RRULE", "has two RRULEs");
  const summary = event.getFirstPropertyValue("summary");
  if (typeof summary !== "string" || summary.trim() === "") {
    return bad(`event ${index} has no SUMMARY`, index);
  }
  const dtstart = event.getFirstProperty("dtstart");
  const time = dtstart?.getFirstValue();
  if (dtstart === null || !(time instanceof ICAL.Time)) {
    return bad(`event ${index} has no DTSTART`, index);
  }
  if (time.isDate) return unsupported(index, "DTSTART", "is all-day; give DTSTART a time");
  const date = `${String(time.year).padStart(4, "0")}-${two(time.month)}-${two(time.day)}`;
  const clock = `${two(time.hour)}:${two(time.minute)}${time.second ? `:${two(time.second)}` : ""}`;
  const tzid = dtstart.getParameter("tzid");
  const utc = time.zone?.tzid === "UTC";
  const zone = typeof tzid === "string" ? tzid : utc ? "UTC" : undefined;
  // Checked here, before the route resumes a session (the tool checks it in its transaction).
  if (zone !== undefined && !isTimeZone(zone)) {
    const failure = toolError(
      "invalid_time_zone",
      `Cannot import calendar: event ${index} has TZID ${JSON.stringify(zone)}, not an IANA zone`,
    );
    return { ...failure, index, property: "DTSTART" };
  }
  const extra = unpaired(event, zone);
  if (extra !== undefined) {
    return unsupported(index, extra, `has ${extra}, which chime cannot keep`);
  }
  const rule = rules[0]?.getFirstValue();
  if (rule === undefined) {
    const at = utc && zone === "UTC" && typeof tzid !== "string"
      ? `${date}T${clock.length === 5 ? `${clock}:00` : clock}Z`
      : { date, time: clock, ...(zone === undefined ? {} : { time_zone: zone }) };
    return { prompt: summary, at };
  }
  const repeat = {
    rrule: String(rule),
    start: { date, time: clock },
    ...(zone === undefined ? {} : { time_zone: zone }),
  };
  return { prompt: summary, repeat };
}

/**
 * The VEVENTs of a pasted iCalendar text as checked `schedule_create` requests, in the text's
 * order. A text that is one bare `VEVENT` (no `VCALENDAR`) is taken too.
 *
 * @param text RFC 5545 text (CRLF or LF line ends)
 * @returns the events, or the first refusal: `invalid_arguments` (not iCalendar, no VEVENT,
 *   too many or too long, a missing `SUMMARY` / `DTSTART`, and the tool's own argument
 *   checks) or `unsupported_rule` (see the module), with `index` naming the event
 *
 * @example A weekly standup
 * ```ts
 * import { icsCreateRequests } from "@chime/schedule";
 * const text = [
 *   "BEGIN:VCALENDAR", "VERSION:2.0", "BEGIN:VEVENT", "UID:standup@example.com",
 *   "SUMMARY:Standup", "DTSTART;TZID=Europe/Berlin:20301202T093000",
 *   "RRULE:FREQ=WEEKLY;BYDAY=MO,WE", "END:VEVENT", "END:VCALENDAR",
 * ].join("\r\n");
 * const result = icsCreateRequests(text);
 * console.assert(result.ok && result.value[0]?.request.selector.kind === "repeat");
 * ```
 */
export function icsCreateRequests(
  text: string,
): { readonly ok: true; readonly value: readonly ImportedEvent[] } | ImportFailure {
  if (text.length > ICS_IMPORT_MAX_CHARS) {
    return bad(`the text is longer than ${ICS_IMPORT_MAX_CHARS} characters`);
  }
  let events: ICAL.Component[];
  try {
    const parsed = ICAL.parse(text.trim()) as unknown[];
    // An empty text parses to no component at all.
    if (!Array.isArray(parsed) || typeof parsed[0] !== "string") {
      return bad("the text holds no VEVENT");
    }
    const root = new ICAL.Component(parsed);
    events = root.name === "vevent" ? [root] : root.getAllSubcomponents("vevent");
  } catch (error) {
    return bad(`not iCalendar text (${(error as Error).message})`);
  }
  if (events.length === 0) return bad("the text holds no VEVENT");
  if (events.length > ICS_IMPORT_MAX_EVENTS) {
    return bad(`more than ${ICS_IMPORT_MAX_EVENTS} events (${events.length})`);
  }
  const out: ImportedEvent[] = [];
  for (const [index, event] of events.entries()) {
    let args: ReturnType<typeof eventArgs>;
    try {
      args = eventArgs(event, index);
    } catch (error) {
      // A value `ical.js` cannot read (a malformed date, a broken parameter).
      return bad(`event ${index} cannot be read (${(error as Error).message})`, index);
    }
    if (args.ok === false) return args as ImportFailure;
    const checked = validateCreateArgs(args);
    if (!checked.ok) return { ...checked, index };
    const uid = event.getFirstPropertyValue("uid");
    out.push({ ...(typeof uid === "string" ? { uid } : {}), request: checked.value });
  }
  return { ok: true, value: out };
}
