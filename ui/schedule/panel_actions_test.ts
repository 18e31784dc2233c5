import { deepEqual, equal } from "node:assert/strict";
import { signal } from "@preact/signals";
import { ReminderPanelModel, SCHEDULE_SERVICES, type ScheduleServices } from "./mod.ts";
import type { PanelRequest } from "../client_renderer.ts";
import type { SessionWindow } from "../window.ts";
import { SERIES } from "./_fixtures_test.ts";

const row = SERIES;

/** A fake host: answers by path, or refuses with a coded error. */
function fakeHost(refuse: Record<string, string> = {}) {
  const asked: string[] = [];
  const panel = new ReminderPanelModel({
    current: signal<string | null>("s1"),
    win: signal<SessionWindow | null>(null),
    request: <T>(id: string, path: string, init?: PanelRequest) => {
      asked.push(`${init?.method ?? "GET"} ${id}${path} ${JSON.stringify(init?.body ?? null)}`);
      const action = path.split("/").at(-1)!;
      if (refuse[action]) {
        return Promise.reject(Object.assign(new Error("no"), { code: refuse[action] }));
      }
      if (path === "/reminders") {
        return Promise.resolve({ reminders: [row], deliveryMode: "session-local" } as T);
      }
      if (action === "history") {
        return Promise.resolve({
          history: [{ seq: 1, at: row.scheduledAt, kind: "created" }],
        } as T);
      }
      return Promise.resolve(
        { reminder: { ...row, scheduledAt: "2030-01-03T01:00:00.000Z" } } as T,
      );
    },
    fail: () => {},
  });
  return { panel, asked };
}
/** Lets the fake host's answers and the refetches they start run (microtasks only). */
const settle = async () => {
  for (let i = 0; i < 20; i++) await Promise.resolve();
};

Deno.test("pause, resume, skip, update and snooze-until post their reminder routes; outcomes follow", async () => {
  const { panel, asked } = fakeHost();
  await panel.series("sch_1", "pause", "row:sch_1");
  equal(panel.outcomes.value.get("row:sch_1")?.state, "paused");
  await panel.series("sch_1", "resume", "row:sch_1");
  equal(panel.outcomes.value.get("row:sch_1")?.state, "resumed");
  await panel.series("sch_1", "skip", "row:sch_1");
  equal(panel.outcomes.value.get("row:sch_1")?.state, "skipped");
  const body = {
    at: { date: "2030-01-02", time: "10:00" },
    repeat: { rrule: "FREQ=DAILY;BYHOUR=10;BYMINUTE=0" },
  };
  equal(await panel.update("sch_1", body, "row:sch_1"), true);
  equal(panel.outcomes.value.get("row:sch_1")?.state, "changed");
  await panel.snoozeUntil("sch_2", { date: "2030-01-03", time: "09:00" }, "card:4");
  deepEqual(panel.outcomes.value.get("card:4"), {
    state: "snoozed",
    until: "2030-01-03T01:00:00.000Z",
    since: 0,
  });
  await settle();
  deepEqual(asked.filter((a) => a.startsWith("POST")), [
    "POST s1/reminders/sch_1/pause null",
    "POST s1/reminders/sch_1/resume null",
    "POST s1/reminders/sch_1/skip {}",
    `POST s1/reminders/sch_1/update ${JSON.stringify(body)}`,
    'POST s1/reminders/sch_2/snooze {"until":{"date":"2030-01-03","time":"09:00"}}',
  ]);
  equal(
    asked.filter((a) => a === "GET s1/reminders null").length,
    5,
    "the list follows each click",
  );
  panel[Symbol.dispose]();
});

Deno.test("a refusal keeps its code for the sentence; update answers false", async () => {
  const { panel } = fakeHost({ update: "unsupported_rule", skip: "not_an_occurrence" });
  equal(await panel.update("sch_1", { repeat: { rrule: "FREQ=SECONDLY" } }, "row:sch_1"), false);
  deepEqual(panel.outcomes.value.get("row:sch_1"), {
    state: "failed",
    code: "unsupported_rule",
    action: "edit",
  });
  await panel.series("sch_1", "skip", "card:2");
  deepEqual(panel.outcomes.value.get("card:2"), {
    state: "failed",
    code: "not_an_occurrence",
    action: "skip",
  });
  panel[Symbol.dispose]();
});

Deno.test("history is fetched on demand, refetched after a change, lent to the renderer", async () => {
  const { panel, asked } = fakeHost();
  await panel.refresh("s1");
  const lent = () => panel.services.value[SCHEDULE_SERVICES] as ScheduleServices;
  equal(lent().history?.("sch_1"), undefined);
  equal(lent().reminder?.("sch_1")?.prompt, "stretch");
  lent().loadHistory?.("sch_1");
  equal(lent().history?.("sch_1")?.state, "loading");
  await settle();
  deepEqual(lent().history?.("sch_1"), {
    state: "loaded",
    entries: [{ seq: 1, at: row.scheduledAt, kind: "created" }],
  });
  await panel.series("sch_1", "pause", "row:sch_1");
  await settle();
  equal(asked.filter((a) => a.startsWith("GET s1/reminders/sch_1/history")).length, 2);
  equal(lent().history?.("sch_1")?.state, "loaded", "a refetch keeps the entries shown");
  panel.reset();
  equal(lent().history?.("sch_1"), undefined);
  const failing = fakeHost({ history: "schedule_not_found" });
  await failing.panel.loadHistory("sch_1");
  deepEqual(failing.panel.histories.value.get("sch_1"), {
    state: "failed",
    code: "schedule_not_found",
  });
  failing.panel[Symbol.dispose]();
  panel[Symbol.dispose]();
});

Deno.test("importCalendar posts the pasted text, counts what was made and refetches; a refusal keeps its event", async () => {
  const asked: string[] = [];
  let refuse = false;
  const panel = new ReminderPanelModel({
    current: signal<string | null>("s1"),
    win: signal<SessionWindow | null>(null),
    request: <T>(id: string, path: string, init?: PanelRequest) => {
      asked.push(`${init?.method ?? "GET"} ${id}${path}`);
      if (path === "/reminders") {
        return Promise.resolve({ reminders: [row], deliveryMode: "session-local" } as T);
      }
      if (refuse) {
        const details = { field: "ics", index: 2, property: "EXDATE" };
        return Promise.reject(
          Object.assign(new Error("no"), { code: "unsupported_rule", details }),
        );
      }
      deepEqual(init?.body, { ics: "BEGIN:VEVENT" });
      return Promise.resolve({ created: [row, row], past: [{ index: 2 }] } as T);
    },
    fail: () => {},
  });
  equal(await panel.importCalendar("BEGIN:VEVENT"), true);
  deepEqual(panel.imported.value, { state: "done", created: 2, past: 1 });
  await settle();
  deepEqual(asked, ["POST s1/reminders/import", "GET s1/reminders"]);
  refuse = true;
  equal(await panel.importCalendar("BEGIN:VEVENT"), false);
  deepEqual(panel.imported.value, {
    state: "failed",
    code: "unsupported_rule",
    index: 2,
    property: "EXDATE",
  });
  panel.reset();
  equal(panel.imported.value, undefined, "a session change clears it");
});
