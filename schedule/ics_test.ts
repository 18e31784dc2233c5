/**
 * The calendar feed round-trips through `ical.js` (a second, independent iCalendar library) and
 * expands to the same occurrences as chime's engine for DST-crossing rules in five zones
 * (docs/upcoming.md "Calendar feed").
 *
 * @module
 */
import assert from "node:assert/strict";
import fc from "fast-check";
import ICAL from "ical.js";
import { remindersCalendar } from "./ics.ts";
import { previewOccurrences } from "./recurrence.ts";
import type { RecurringRecord, ScheduleId } from "./protocol.ts";
import { header as fixtureHeader } from "./_fixtures_test.ts";

const ZONES = [
  "America/New_York",
  "Europe/Berlin",
  "Australia/Sydney",
  "America/Santiago",
  "Europe/London",
] as const;
const NOW = Date.parse("2026-01-10T00:00:00Z");

/** A session header in `timeZone` (the shared fixture's, with its zone). */
const header = (timeZone: string) => fixtureHeader(undefined, timeZone);

/** ical.js's expansion of the one series in `text`, as UTC epoch ms. */
function expand(text: string, count: number): number[] {
  const calendar = new ICAL.Component(ICAL.parse(text));
  for (const vtz of calendar.getAllSubcomponents("vtimezone")) {
    ICAL.TimezoneService.register(vtz);
  }
  const vevent = calendar.getAllSubcomponents("vevent").find((v) =>
    !v.hasProperty("recurrence-id")
  )!;
  const event = new ICAL.Event(vevent);
  const iterator = event.iterator();
  const out: number[] = [];
  for (let next = iterator.next(); next && out.length < count; next = iterator.next()) {
    out.push(next.toJSDate().getTime());
  }
  for (const vtz of calendar.getAllSubcomponents("vtimezone")) {
    ICAL.TimezoneService.remove(String(vtz.getFirstPropertyValue("tzid")));
  }
  return out;
}

Deno.test("a DST-crossing series expands with ical.js to chime's occurrences, in five zones", () => {
  const rules = [
    "FREQ=DAILY;BYHOUR=2;BYMINUTE=30", // the spring gap hour in most zones
    "FREQ=DAILY;BYHOUR=1;BYMINUTE=30", // the autumn overlap in London
    "FREQ=WEEKLY;BYDAY=SU;BYHOUR=9;BYMINUTE=0",
    "FREQ=MONTHLY;BYMONTHDAY=31;BYHOUR=8;BYMINUTE=15",
    "FREQ=DAILY;INTERVAL=3;BYHOUR=23;BYMINUTE=45;COUNT=40",
  ];
  fc.assert(
    fc.property(
      fc.constantFrom(...ZONES),
      fc.constantFrom(...rules),
      fc.integer({ min: 0, max: 330 }),
      (zone, rrule, dayOffset) => {
        const day = Temporal.PlainDate.from("2026-01-01").add({ days: dayOffset });
        const [, hh, mm] = /BYHOUR=(\d+);BYMINUTE=(\d+)/.exec(rrule)!;
        const dtstart = `${day.toString()}T${hh!.padStart(2, "0")}:${mm!.padStart(2, "0")}:00`;
        const record: RecurringRecord = {
          id: "sch_Series123456" as ScheduleId,
          kind: "recurring",
          prompt: "check",
          rrule,
          dtstart,
          timeZone: zone,
          scheduledAt: "2026-01-01T00:00:00.000Z",
        };
        const text = remindersCalendar([{ header: header(zone), sessionTitle: null, record }], {
          name: "t",
          now: NOW,
        });
        const ours = previewOccurrences(
          record,
          Date.parse(`${day.subtract({ days: 1 })}T00:00:00Z`),
          40,
        )
          .map((o) => Date.parse(o.at));
        assert.deepEqual(expand(text, ours.length), ours, `${zone} ${rrule} ${dtstart}`);
      },
    ),
    { numRuns: 60 },
  );
});

Deno.test("EXDATE for skipped occurrences, RECURRENCE-ID for a snoozed one, UID = the reminder id", () => {
  const zone = "America/New_York";
  const series: RecurringRecord = {
    id: "sch_Series123456" as ScheduleId,
    kind: "recurring",
    prompt: "vitamins",
    rrule: "FREQ=DAILY;BYHOUR=9;BYMINUTE=0",
    dtstart: "2026-03-06T09:00:00",
    timeZone: zone,
    scheduledAt: "2026-03-10T13:00:00.000Z",
    exdates: ["2026-03-08T13:00:00.000Z"],
  };
  const snooze = {
    id: "sch_Snooze123456" as ScheduleId,
    kind: "after" as const,
    prompt: "vitamins",
    afterSeconds: 600,
    scheduledAt: "2026-03-09T13:10:00.000Z",
    snoozeOf: { id: series.id, occurrenceAt: "2026-03-09T13:00:00.000Z" },
  };
  const paused: RecurringRecord = { ...series, id: "sch_Paused123456" as ScheduleId, paused: true };
  const oneShot = {
    id: "sch_OneShot12345" as ScheduleId,
    kind: "at" as const,
    prompt: "call",
    scheduledAt: "2026-03-12T18:00:00.000Z",
  };
  const h = header("Europe/Berlin");
  const text = remindersCalendar(
    [series, snooze, paused, oneShot].map((record) => ({
      header: h,
      sessionTitle: "plans",
      record,
    })),
    { name: "t", now: NOW },
  );
  assert.match(text, /EXDATE;TZID=America\/New_York:20260308T090000/);
  assert.match(text, /RECURRENCE-ID;TZID=America\/New_York:20260309T090000/);
  assert.match(text, /DTSTART;TZID=Europe\/Berlin:20260312T190000/);
  assert.doesNotMatch(text, /sch_Paused123456/, "a paused series does not fire: not listed");
  assert.doesNotMatch(text, /VALARM/);
  const calendar = new ICAL.Component(ICAL.parse(text));
  const events = calendar.getAllSubcomponents("vevent");
  assert.deepEqual(events.map((e) => e.getFirstPropertyValue("uid")).sort(), [
    "sch_OneShot12345",
    "sch_Series123456",
    "sch_Series123456",
  ]);
  assert.deepEqual(
    calendar.getAllSubcomponents("vtimezone").map((z) => z.getFirstPropertyValue("tzid")).sort(),
    ["America/New_York", "Europe/Berlin"],
  );
  assert.match(String(events[0]!.getFirstPropertyValue("description")), /Session-local/);
  const alarmed = remindersCalendar([{ header: h, sessionTitle: null, record: oneShot }], {
    name: "t",
    now: NOW,
    alarm: true,
  });
  assert.equal(
    new ICAL.Component(ICAL.parse(alarmed)).getAllSubcomponents("vevent")[0]!
      .getAllSubcomponents("valarm").length,
    1,
  );
});
