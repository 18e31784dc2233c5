/**
 * `POST /api/sessions/:id/reminders/import` (docs/upcoming.md "Import from a calendar") over a
 * real libSQL file: the pasted VEVENTs become reminders in one transaction, through the tool's
 * own validation; past events are listed and left out; a refused text writes nothing and leaves
 * a cold session cold; the model hears of the import at its next turn.
 *
 * @module
 */
import assert from "node:assert/strict";
import { ScriptedModel } from "@chime/agent";
import { createApp } from "@chime/host";
import { fileRuntime } from "./_file_runtime.ts";
import { postJson } from "./_helpers.ts";

const calendar = (...events: string[][]) =>
  ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//test//EN"]
    .concat(...events.map((e) => ["BEGIN:VEVENT", ...e, "END:VEVENT"]), ["END:VCALENDAR"])
    .join("\r\n");

const STANDUP = [
  "UID:standup@example.com",
  "SUMMARY:Standup",
  "DTSTART;TZID=America/New_York:20301202T093000",
  "RRULE:FREQ=WEEKLY;BYDAY=MO,WE",
];
const FLIGHT = ["UID:flight@example.com", "SUMMARY:Flight", "DTSTART:20301203T061500Z"];
const DENTIST = ["SUMMARY:Dentist", "DTSTART:20301204T100000"];
const OLD = ["UID:old@example.com", "SUMMARY:Old party", "DTSTART:20200101T200000Z"];

function schedule(events: { type: string; data: unknown }[]): string[] {
  return events.filter((e) => e.type === "schedule/change").map((e) =>
    (e.data as { op: string }).op
  );
}

Deno.test("a pasted calendar becomes reminders in one transaction; past events are listed, not imported", async () => {
  const dir = await Deno.makeTempDir({ prefix: "chime-ics-import-" });
  const seen: string[] = [];
  const model = new ScriptedModel((request) => {
    seen.push(JSON.stringify(request.messages));
    return { text: "ok" };
  });
  try {
    await using runtime = await fileRuntime(dir, model);
    const app = createApp(runtime);
    const { session } = await runtime.create({ timeZone: "Europe/Berlin" });
    await runtime.store.flush(session);
    const base = `/api/sessions/${session.id}/reminders`;
    const ics = calendar(STANDUP, FLIGHT, DENTIST, OLD);
    const answer = await app.request(`${base}/import`, postJson({ ics }));
    assert.equal(answer.status, 200);
    const body = await answer.json();
    assert.deepEqual(
      body.created.map((r: { uid?: string; prompt: string }) => [r.uid, r.prompt]),
      [["standup@example.com", "Standup"], ["flight@example.com", "Flight"], [
        undefined,
        "Dentist",
      ]],
    );
    const [standup, flight, dentist] = body.created;
    assert.deepEqual(standup.repeat.rrule, "FREQ=WEEKLY;BYDAY=MO,WE");
    assert.equal(standup.repeat.timeZone, "America/New_York");
    assert.equal(standup.scheduledAt, "2030-12-02T14:30:00.000Z", "09:30 in New York");
    assert.equal(flight.scheduledAt, "2030-12-03T06:15:00.000Z");
    assert.equal(dentist.scheduledAt, "2030-12-04T09:00:00.000Z", "floating: the session's zone");
    assert.deepEqual(body.past, [{ index: 3, uid: "old@example.com" }]);
    // Durable before the answer, one create each.
    const stored = (await runtime.store.inspect(session.id))!.events;
    assert.deepEqual(schedule([...stored]), ["create", "create", "create"]);
    const listed = await (await app.request(base)).json();
    assert.deepEqual(
      listed.reminders.map((r: { id: string }) => r.id).sort(),
      [
        standup.id,
        flight.id,
        dentist.id,
      ].sort(),
    );
    // The model hears of it at its next turn (a `[schedule-activity]` note), like a page snooze.
    const sent = await app.request(
      `/api/sessions/${session.id}/messages`,
      postJson({ text: "hi", clientTimeZone: "Europe/Berlin" }),
    );
    assert.equal(sent.status, 202);
    await (await runtime.agentFor(session)).whenIdle();
    assert.ok(seen.some((m) => m.includes("imported reminder") && m.includes("Standup")));
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a refused import writes nothing and leaves a cold session cold", async () => {
  const dir = await Deno.makeTempDir({ prefix: "chime-ics-import-" });
  const model = new ScriptedModel(() => ({ text: "ok" }));
  try {
    let id: string;
    {
      await using runtime = await fileRuntime(dir, model);
      const { session } = await runtime.create({ timeZone: "UTC" });
      id = session.id;
      await runtime.store.flush(session);
    }
    await using runtime = await fileRuntime(dir, model);
    const app = createApp(runtime);
    const length = (await runtime.store.inspect(id))!.events.length;
    const url = `/api/sessions/${id}/reminders/import`;
    const cases: [unknown, number, string, Record<string, unknown>][] = [
      [{}, 400, "invalid_arguments", { field: "ics" }],
      [{ ics: 7 }, 400, "invalid_arguments", { field: "ics" }],
      [{ ics: "x", extra: 1 }, 400, "invalid_arguments", { field: "extra" }],
      [{ ics: "remind me at 9" }, 400, "invalid_arguments", { field: "ics" }],
      [
        { ics: calendar(FLIGHT, [...STANDUP, "EXDATE:20301207T143000Z"]) },
        400,
        "unsupported_rule",
        {
          index: 1,
          property: "EXDATE",
        },
      ],
      [{ ics: calendar(["SUMMARY:a", "DTSTART;VALUE=DATE:20301202"]) }, 400, "unsupported_rule", {
        index: 0,
        property: "DTSTART",
      }],
      [
        { ics: calendar(["SUMMARY:a", "DTSTART;TZID=Nowhere/Land:20301202T090000"]) },
        400,
        "invalid_time_zone",
        {
          index: 0,
        },
      ],
    ];
    for (const [body, status, code, extra] of cases) {
      const answer = await app.request(url, postJson(body));
      assert.equal(answer.status, status, JSON.stringify(body));
      const { error } = await answer.json();
      assert.equal(error.code, code, JSON.stringify(body));
      for (const [key, value] of Object.entries(extra)) assert.equal(error[key], value, key);
    }
    assert.equal(runtime.store.live(id), undefined, "never resumed");
    assert.equal((await runtime.store.inspect(id))!.events.length, length, "nothing written");
    const unknown = await app.request(
      `/api/sessions/s_nope/reminders/import`,
      postJson({
        ics: calendar(FLIGHT),
      }),
    );
    assert.equal(unknown.status, 404);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
