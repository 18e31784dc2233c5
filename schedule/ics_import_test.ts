/**
 * Import from a calendar (docs/upcoming.md "Import from a calendar"): pasted VEVENTs become
 * `schedule_create` requests through the tool's own validation, parsed with `ical.js`; chime's
 * own feed (`remindersCalendar`, made with `ical-generator`) imports back to the same series.
 */
import assert from "node:assert/strict";
import fc from "fast-check";
import { ICS_IMPORT_MAX_EVENTS, icsCreateRequests } from "./ics_import.ts";
import { remindersCalendar } from "./ics.ts";
import type { ScheduleId } from "./protocol.ts";

const calendar = (...events: string[][]) =>
  ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//test//EN"]
    .concat(...events.map((e) => ["BEGIN:VEVENT", ...e, "END:VEVENT"]), ["END:VCALENDAR"])
    .join("\r\n");

/** A session header in Berlin (the feed's default zone). */
const header = {
  version: 1 as const,
  id: "s1",
  cwd: "/",
  createdAt: "2030-01-01T00:00:00.000Z",
  origin: "test",
  lineage: null,
  delegationDepth: 0,
  timeZone: "Europe/Berlin",
};

function ok(text: string) {
  const result = icsCreateRequests(text);
  assert.ok(result.ok, JSON.stringify(result));
  return result.value;
}

function refused(text: string) {
  const result = icsCreateRequests(text);
  assert.ok(!result.ok, "accepted");
  return result;
}

Deno.test("a TZID series, a UTC one-shot and a floating one-shot map to the tool's selectors", () => {
  const events = ok(calendar(
    [
      "UID:standup@example.com",
      "SUMMARY: Standup ",
      "DTSTART;TZID=America/New_York:20301202T093000",
      "RRULE:FREQ=WEEKLY;BYDAY=MO,WE;UNTIL=20310101T000000Z",
      "DESCRIPTION:ignored",
    ],
    ["SUMMARY:Flight", "DTSTART:20301203T061500Z"],
    ["SUMMARY:Dentist", "DTSTART:20301204T100000"],
  ));
  assert.deepEqual(events, [
    {
      uid: "standup@example.com",
      request: {
        prompt: "Standup",
        selector: {
          kind: "repeat",
          rrule: "FREQ=WEEKLY;BYDAY=MO,WE;UNTIL=20310101T000000Z",
          start: { date: "2030-12-02", time: "09:30" },
          timeZone: "America/New_York",
        },
      },
    },
    {
      request: {
        prompt: "Flight",
        selector: { kind: "instant", epochMs: Date.parse("2030-12-03T06:15:00Z") },
      },
    },
    {
      // Floating: the route gives it the session's zone.
      request: {
        prompt: "Dentist",
        selector: { kind: "local", local: { date: "2030-12-04", time: "10:00" } },
      },
    },
  ]);
});

Deno.test("a bare VEVENT (no VCALENDAR) and LF line ends are taken", () => {
  const text = "BEGIN:VEVENT\nSUMMARY:tea\nDTSTART;TZID=Asia/Kolkata:20301202T170000\nEND:VEVENT\n";
  assert.deepEqual(ok(text)[0]?.request.selector, {
    kind: "local",
    local: { date: "2030-12-02", time: "17:00" },
    timeZone: "Asia/Kolkata",
  });
});

Deno.test("what chime cannot keep is refused with its code, the event's index and the property", () => {
  const start = "DTSTART;TZID=Europe/Paris:20301202T090000";
  const rows: [string[], string, string | undefined][] = [
    [
      ["SUMMARY:a", start, "RRULE:FREQ=DAILY", "EXDATE;TZID=Europe/Paris:20301203T090000"],
      "unsupported_rule",
      "EXDATE",
    ],
    [["SUMMARY:a", start, "RDATE;TZID=Europe/Paris:20301205T090000"], "unsupported_rule", "RDATE"],
    [
      ["SUMMARY:a", start, "RECURRENCE-ID;TZID=Europe/Paris:20301202T090000"],
      "unsupported_rule",
      "RECURRENCE-ID",
    ],
    [["SUMMARY:a", start, "RRULE:FREQ=DAILY", "RRULE:FREQ=WEEKLY"], "unsupported_rule", "RRULE"],
    [["SUMMARY:a", "DTSTART;VALUE=DATE:20301202"], "unsupported_rule", "DTSTART"],
    // Outside the RRULE subset, through the tool's own check.
    [["SUMMARY:a", start, "RRULE:FREQ=SECONDLY"], "unsupported_rule", undefined],
    [["SUMMARY:a", start, "RRULE:FREQ=YEARLY;BYWEEKNO=20"], "unsupported_rule", undefined],
    [["SUMMARY:a", "DTSTART;TZID=Mars/Olympus:20301202T090000"], "invalid_time_zone", "DTSTART"],
    [["SUMMARY:   ", start], "invalid_arguments", undefined],
    [[start], "invalid_arguments", undefined],
    [["SUMMARY:a"], "invalid_arguments", undefined],
  ];
  for (const [lines, code, property] of rows) {
    const good = ["SUMMARY:fine", start];
    const failure = refused(calendar(good, lines));
    assert.equal(failure.error.code, code, lines.join(" / "));
    assert.equal(failure.index, 1, "the second event is named");
    assert.equal(failure.property, property);
  }
});

Deno.test("text that is not iCalendar, holds no VEVENT, or is too big is invalid_arguments", () => {
  const many = Array.from(
    { length: ICS_IMPORT_MAX_EVENTS + 1 },
    (_, i) => [`SUMMARY:r${i}`, "DTSTART:20301202T090000Z"],
  );
  for (
    const text of [
      "remind me at 9",
      "",
      "   \n",
      "BEGIN:VEVENT\nSUMMARY:x\nDTSTART:2030-12-02\nEND:VEVENT",
      "BEGIN:VEVENT\nSUMMARY:x\nDTSTART;TZID=Europe/Paris:nonsense\nEND:VEVENT",
      calendar(),
      calendar(...many),
      "BEGIN:VCALENDAR\r\nX-LONG:" + "x".repeat(300_000) + "\r\nEND:VCALENDAR",
    ]
  ) {
    const failure = refused(text);
    assert.equal(failure.error.code, "invalid_arguments");
    assert.match(failure.error.message, /^Cannot import calendar: /);
  }
});

Deno.test("chime's own feed imports back to the same series and one-shot", () => {
  const series = {
    id: "sch_Series000001" as ScheduleId,
    kind: "recurring" as const,
    prompt: "water the plants",
    rrule: "FREQ=MONTHLY;BYDAY=-1FR;BYHOUR=18;BYMINUTE=0",
    dtstart: "2030-03-29T18:00:00",
    timeZone: "America/Sao_Paulo",
    scheduledAt: "2030-03-29T21:00:00.000Z",
  };
  const oneShot = {
    id: "sch_OneShot00001" as ScheduleId,
    kind: "at" as const,
    prompt: "call mum",
    scheduledAt: "2030-03-31T00:30:00.000Z", // 02:30 in Berlin, after the spring-forward gap
  };
  const text = remindersCalendar([
    { header, sessionTitle: "home", record: series },
    { header, sessionTitle: "home", record: oneShot },
  ], { name: "chime", now: Date.parse("2030-01-01T00:00:00Z") });
  const events = ok(text);
  assert.deepEqual(events.map((e) => e.uid), [series.id, oneShot.id]);
  const [s, o] = events;
  assert.equal(s!.request.prompt, series.prompt);
  assert.deepEqual(s!.request.selector, {
    kind: "repeat",
    rrule: series.rrule,
    start: { date: "2030-03-29", time: "18:00" },
    timeZone: "America/Sao_Paulo",
  });
  assert.equal(o!.request.prompt, oneShot.prompt);
  const selector = o!.request.selector;
  assert.ok(selector.kind === "local" || selector.kind === "instant");
  if (selector.kind === "local") {
    assert.equal(selector.timeZone, "Europe/Berlin");
    const instant = Temporal.PlainDateTime.from(`${selector.local.date}T${selector.local.time}`)
      .toZonedDateTime(selector.timeZone!).toInstant().toString();
    assert.equal(instant, "2030-03-31T00:30:00Z");
  } else {
    assert.equal(selector.epochMs, Date.parse(oneShot.scheduledAt));
  }
});

Deno.test("chime's DST pins (EXDATE + RDATE of the same instant) import; a real skip does not", () => {
  // 02:30 every day: on 2030-03-31 it falls in Berlin's spring-forward gap (chime: 03:30).
  const series = {
    id: "sch_Gap000000001" as ScheduleId,
    kind: "recurring" as const,
    prompt: "night check",
    rrule: "FREQ=DAILY;BYHOUR=2;BYMINUTE=30",
    dtstart: "2030-03-01T02:30:00",
    timeZone: "Europe/Berlin",
    scheduledAt: "2030-03-01T01:30:00.000Z",
  };
  const now = Date.parse("2030-01-01T00:00:00Z");
  const text = remindersCalendar([{ header, sessionTitle: null, record: series }], {
    name: "chime",
    now,
  });
  assert.match(text, /EXDATE;TZID=Europe\/Berlin:20300331T023000/);
  assert.match(text, /RDATE:20300331T013000Z/);
  assert.deepEqual(ok(text)[0]?.request.selector, {
    kind: "repeat",
    rrule: series.rrule,
    start: { date: "2030-03-01", time: "02:30" },
    timeZone: "Europe/Berlin",
  });
  const skipped = remindersCalendar([{
    header,
    sessionTitle: null,
    record: { ...series, exdates: ["2030-03-05T01:30:00.000Z"] },
  }], { name: "chime", now });
  const failure = refused(skipped);
  assert.equal(failure.error.code, "unsupported_rule");
  assert.equal(failure.property, "EXDATE");
});

Deno.test("any text, and any single-character damage of a valid event, is imported or refused with a code, never thrown", () => {
  const valid = calendar([
    "UID:u@example.com",
    "SUMMARY:Standup",
    "DTSTART;TZID=America/New_York:20301202T093000",
    "RRULE:FREQ=WEEKLY;BYDAY=MO,WE",
  ]);
  const codes = new Set(["invalid_arguments", "unsupported_rule", "invalid_time_zone"]);
  const check = (text: string) => {
    const result = icsCreateRequests(text);
    if (!result.ok) assert.ok(codes.has(result.error.code), `${result.error.code}: ${text}`);
  };
  fc.assert(fc.property(fc.string({ maxLength: 200 }), check), { numRuns: 300 });
  fc.assert(
    fc.property(
      fc.nat({ max: valid.length - 1 }),
      fc.constantFrom(":", ";", "=", "\r\n", "", "Z", "T", "0", "\\", ","),
      (at, insert) => check(valid.slice(0, at) + insert + valid.slice(at + 1)),
    ),
    { numRuns: 600 },
  );
});
