import { deepEqual, equal, ok } from "node:assert/strict";
import { signal } from "@preact/signals";
import { cardFacts, cardState } from "./_outcomes.ts";
import type { RenderContext } from "../registry.ts";
import {
  type ReminderOutcome,
  renderScheduleChange,
  SCHEDULE_SERVICES,
  type ScheduleServices,
} from "./view.ts";
import { ReminderPanelModel } from "./panel.ts";
import { RemindersPanel } from "./panel_view.tsx";
import { byTestId, vnodeText } from "../testing/vnode_text.ts";
import { presentEvent } from "../transcript.ts";
import { SessionWindow } from "../window.ts";
import type { ActiveReminderWire, EventView, WireEvent } from "../wire.ts";

const at = "2030-01-01T00:00:00.000Z";
const T1 = "2030-01-01T01:00:00.000Z";
const T2 = "2030-01-01T01:01:00.000Z";
const change = (seq: number, data: unknown): WireEvent => ({
  seq,
  type: "schedule/change",
  at,
  data: { version: 2, ...(data as object) },
});
const series = {
  id: "sch_s",
  kind: "recurring",
  prompt: "blink",
  rrule: "FREQ=MINUTELY",
  dtstart: "2030-01-01T09:00:00",
  timeZone: "Asia/Shanghai",
  scheduledAt: T1,
};
const snooze = (scheduledAt: string, occurrenceAt = T2) => ({
  id: "sch_z",
  kind: "at",
  prompt: "blink",
  scheduledAt,
  snoozeOf: { id: "sch_s", occurrenceAt },
});
/** A series delivered twice (cards at seq 1 and 2). */
const delivered = [
  change(0, { op: "create", record: series }),
  change(1, { op: "dispatch", id: "sch_s", occurrenceAt: T1, missed: 0, nextAt: T2 }),
  change(2, { op: "dispatch", id: "sch_s", occurrenceAt: T2, missed: 0, nextAt: at }),
];

Deno.test("cardState(): a snooze or stop in the committed log is the card's outcome", () => {
  const log = [
    ...delivered,
    change(3, { op: "create", record: snooze("2030-01-01T01:11:00.000Z") }),
    change(4, { op: "update", id: "sch_z", record: snooze("2030-01-01T02:11:00.000Z") }),
  ];
  const facts = cardFacts(log, 5);
  deepEqual(cardState(facts, "sch_s", T2, 2), {
    actionable: true,
    outcome: { state: "snoozed", until: "2030-01-01T02:11:00.000Z", seq: 4 },
  }, "the moved snooze's latest target");
  deepEqual(cardState(facts, "sch_s", T1, 1), { actionable: false }, "an older card never acts");
  deepEqual(
    cardState(cardFacts(log, 4), "sch_s", T2, 2).outcome?.until,
    "2030-01-01T01:11:00.000Z",
    "an event not yet durable does not count",
  );
  const stopped = [...log, change(5, { op: "stop", id: "sch_s" })];
  deepEqual(cardState(cardFacts(stopped, 6), "sch_s", T2, 2), {
    actionable: true,
    outcome: { state: "stopped", seq: 5 },
    ended: true,
  }, "the later of snooze and stop");
  deepEqual(
    cardState(cardFacts(stopped, 6), "sch_s", T1, 1),
    { actionable: false, ended: true },
    "an older card of a stopped series names no next occurrence either",
  );
  const resnoozed = [...stopped, change(6, { op: "update", id: "sch_z", record: snooze(at) })];
  equal(cardState(cardFacts(resnoozed, 7), "sch_s", T2, 2).outcome?.state, "snoozed");
  const cancelled = [...log, change(5, { op: "delete", id: "sch_z" })];
  deepEqual(cardState(cardFacts(cancelled, 6), "sch_s", T2, 2), { actionable: true });
  deepEqual(cardState(cardFacts([], 0), "sch_x", T1, 9), { actionable: true }, "unknown: may act");
  deepEqual(
    cardState(cardFacts(delivered, 3, 3), "sch_s", T2, 2),
    { actionable: false },
    "a fork's inherited card is its parent's",
  );
});

const view = (occurrenceAt: string): EventView => ({
  type: "schedule/change",
  presentation: {
    scheduleId: "sch_s",
    prompt: "blink",
    occurrenceAt,
    recurring: {
      rrule: "FREQ=MINUTELY",
      timeZone: "Asia/Shanghai",
      text: { en: "every minute", zh: "每分钟" },
      nextAt: T2,
    },
  },
});

function services(
  log: readonly WireEvent[],
  outcomes: Record<string, ReminderOutcome> = {},
): ScheduleServices {
  const facts = cardFacts(log, log.length);
  return {
    activeRecurring: new Set(["sch_s"]),
    promptOf: () => "blink",
    outcome: (key) => outcomes[key],
    card: (id, occurrenceAt, seq) => cardState(facts, id, occurrenceAt, seq),
    snooze: () => {},
    stop: () => {},
  };
}
const ctx = (s: ScheduleServices): RenderContext => ({
  lang: "en",
  timeZone: "Asia/Shanghai",
  services: { [SCHEDULE_SERVICES]: s },
});
const card = (seq: number, occurrenceAt: string, s: ScheduleServices) =>
  renderScheduleChange(presentEvent(delivered[seq]!, view(occurrenceAt)), ctx(s));

Deno.test("regression: after a reload the card shows its durable outcome, not the buttons alone", () => {
  const snoozed = [...delivered, change(3, { op: "create", record: snooze(T2) })];
  const latest = card(2, T2, services(snoozed));
  equal(byTestId(latest, "reminder-outcome")?.["data-state"], "snoozed");
  equal(
    vnodeText(byTestId(latest, "reminder-outcome")?.children),
    "Snoozed until Jan 1, 2030, 09:01",
  );
  ok(byTestId(latest, "snooze-600"), "snoozing again moves the pending snooze: still offered");
  const stopped = [...snoozed, change(4, { op: "stop", id: "sch_s" })];
  const after = card(2, T2, { ...services(stopped), activeRecurring: new Set() });
  equal(vnodeText(byTestId(after, "reminder-outcome")?.children), "Stopped repeating");
  equal(byTestId(after, "stop-repeating"), undefined, "a stopped series offers no Stop");
  // The older card of the series offers nothing: the host snoozes the latest occurrence only.
  const older = card(1, T1, services(stopped));
  equal(byTestId(older, "snooze-600"), undefined);
  equal(byTestId(older, "stop-repeating"), undefined);
  equal(byTestId(older, "reminder-outcome"), undefined);
});

Deno.test("a click newer than the durable outcome is shown until the log catches up", () => {
  const snoozed = [...delivered, change(3, { op: "create", record: snooze(T2) })];
  const state = (o: ReminderOutcome) =>
    byTestId(card(2, T2, services(snoozed, { "card:2": o })), "reminder-outcome")?.["data-state"];
  equal(state({ state: "stopped", since: 4 }), "stopped", "clicked after the durable snooze");
  equal(state({ state: "stopped", since: 3 }), "snoozed", "the durable outcome is newer");
  equal(state({ state: "pending" }), "pending");
  equal(state({ state: "failed", code: "x" }), "failed");
});

Deno.test("regression: the panel offers Snooze only on one-time rows; failures read as sentences", async () => {
  const current = signal<string | null>("a");
  const win = signal<SessionWindow | null>(null);
  const rows: ActiveReminderWire[] = [
    {
      id: "sch_s",
      kind: "recurring",
      prompt: "blink",
      scheduledAt: T1,
      status: "scheduled",
      deliveryMode: "session-local",
      repeat: {
        rrule: "FREQ=MINUTELY",
        timeZone: "Asia/Shanghai",
        dtstart: series.dtstart,
        text: { en: "every minute", zh: "每分钟" },
      },
    },
    {
      id: "sch_o",
      kind: "after",
      prompt: "tea",
      scheduledAt: T2,
      status: "scheduled",
      deliveryMode: "session-local",
    },
  ];
  const panel = new ReminderPanelModel({
    current,
    win,
    request: <T>(_id: string, path: string): Promise<T> => {
      if (path === "/reminders") {
        return Promise.resolve({ reminders: rows, deliveryMode: "session-local" } as T);
      }
      return Promise.reject(Object.assign(new Error("409"), { code: "schedule_not_active" }));
    },
    fail: () => {},
  });
  await panel.refresh("a");
  const render = () => {
    const lent = panel.services.value[SCHEDULE_SERVICES] as ScheduleServices;
    return RemindersPanel({
      model: panel,
      ctx: { lang: "en", timeZone: "Asia/Shanghai", services: { [SCHEDULE_SERVICES]: lent } },
      open: true,
      onClose: () => {},
    });
  };
  /** The panel's `<li>` rows. */
  const rowsOf = (aside: unknown): unknown[] =>
    ((aside as { props: { children: unknown[] } }).props.children[1] as {
      props: { children: unknown[] };
    }).props.children;
  const [seriesRow, oneShotRow] = rowsOf(render());
  equal(byTestId(seriesRow, "snooze-600"), undefined, "no Snooze on a series row");
  ok(byTestId(seriesRow, "stop-repeating"));
  ok(byTestId(oneShotRow, "snooze-600"));
  equal(byTestId(oneShotRow, "stop-repeating"), undefined);
  // Whatever the host answers, the row says it in words.
  await panel.snooze("sch_o", 600, "row:sch_o");
  deepEqual(panel.outcomes.value.get("row:sch_o"), {
    state: "failed",
    code: "schedule_not_active",
    action: "snooze",
  });
  const text = vnodeText(byTestId(rowsOf(render())[1], "reminder-outcome")?.children);
  equal(text, "This reminder can't be snoozed now: it has not fired yet, or it has ended.");
  ok(!text.includes("schedule_not_active"));
  panel[Symbol.dispose]();
});

Deno.test("the panel lends each card its state from the window's committed events", async () => {
  const current = signal<string | null>("a");
  const win = signal<SessionWindow | null>(null);
  const panel = new ReminderPanelModel({
    current,
    win,
    request: <T>(): Promise<T> =>
      Promise.resolve({ reminders: [], deliveryMode: "session-local" } as T),
    fail: () => {},
  });
  const log = [...delivered, change(3, { op: "stop", id: "sch_s" })];
  const w = new SessionWindow({
    loadHistory: () => Promise.resolve({ events: log, views: {}, nextBefore: null }),
    loadAfter: () => Promise.resolve({ events: [], views: {} }),
  });
  await w.start();
  win.value = w;
  const lent = () => panel.services.value[SCHEDULE_SERVICES] as ScheduleServices;
  deepEqual(lent().card?.("sch_s", T2, 2), { actionable: true }, "nothing durable yet");
  w.flushed(4);
  deepEqual(lent().card?.("sch_s", T2, 2), {
    actionable: true,
    outcome: { state: "stopped", seq: 3 },
    ended: true,
  });
  w[Symbol.dispose]();
  panel[Symbol.dispose]();
});

Deno.test("regression: a delivered snooze record takes the buttons from the card it snoozed", () => {
  const tea = { id: "sch_t", kind: "after", prompt: "tea", afterSeconds: 60, scheduledAt: T1 };
  const z1 = { id: "sch_z1", kind: "at", prompt: "tea", scheduledAt: T2 };
  const log = [
    change(0, { op: "create", record: tea }),
    change(1, { op: "dispatch", id: "sch_t" }),
    change(2, { op: "create", record: { ...z1, snoozeOf: { id: "sch_t", occurrenceAt: T1 } } }),
  ];
  equal(cardState(cardFacts(log, 3), "sch_t", T1, 1).actionable, true, "snoozed, not delivered");
  const fired = [...log, change(3, { op: "dispatch", id: "sch_z1" })];
  const facts = cardFacts(fired, 4);
  equal(cardState(facts, "sch_t", T1, 1).actionable, false, "the original card offers nothing");
  equal(
    cardState(facts, "sch_z1", T2, 3).actionable,
    true,
    "the snooze's card is the chain's latest",
  );
  // Snoozing the snooze's card extends the chain: the grandchild's delivery takes them again.
  const again = [
    ...fired,
    change(4, {
      op: "create",
      record: { ...z1, id: "sch_z2", snoozeOf: { id: "sch_z1", occurrenceAt: T2 } },
    }),
    change(5, { op: "dispatch", id: "sch_z2" }),
  ];
  const chain = cardFacts(again, 6);
  deepEqual(
    [1, 3, 5].map((seq, i) =>
      cardState(chain, ["sch_t", "sch_z1", "sch_z2"][i]!, T1, seq).actionable
    ),
    [false, false, true],
  );
  // A series' card loses its buttons to its snooze's delivery; its stop still shows on it.
  const seriesChain = [
    ...delivered,
    change(3, { op: "create", record: snooze(T2) }),
    change(4, { op: "dispatch", id: "sch_z" }),
    change(5, { op: "stop", id: "sch_s" }),
  ];
  deepEqual(cardState(cardFacts(seriesChain, 6), "sch_s", T2, 2), {
    actionable: false,
    outcome: { state: "stopped", seq: 5 },
    ended: true,
  });
  deepEqual(cardState(cardFacts(seriesChain, 6), "sch_z", T2, 4), { actionable: true });
});

Deno.test("a stop that ends the series' pending snooze reads as Stopped repeating", () => {
  const log = [
    ...delivered,
    change(3, { op: "create", record: snooze(T2) }),
    change(4, { op: "stop", id: "sch_s" }),
    change(5, { op: "delete", id: "sch_z" }),
  ];
  const after = card(2, T2, { ...services(log), activeRecurring: new Set() });
  equal(vnodeText(byTestId(after, "reminder-outcome")?.children), "Stopped repeating");
  equal(byTestId(after, "stop-repeating"), undefined);
});

Deno.test("regression: a series ended by words (a delete) reads as Stopped repeating", () => {
  const log = [...delivered, change(3, { op: "delete", id: "sch_s" })];
  const facts = cardFacts(log, 4);
  deepEqual(cardState(facts, "sch_s", T2, 2).outcome, { state: "stopped", seq: 3 });
  const after = card(2, T2, { ...services(log), activeRecurring: new Set() });
  equal(vnodeText(byTestId(after, "reminder-outcome")?.children), "Stopped repeating");
  // A snooze record's delete is not a stop of anything.
  const snoozed = [
    ...delivered,
    change(3, { op: "create", record: snooze(T2) }),
    change(4, { op: "delete", id: "sch_z" }),
  ];
  equal(cardState(cardFacts(snoozed, 5), "sch_s", T2, 2).outcome, undefined);
});
