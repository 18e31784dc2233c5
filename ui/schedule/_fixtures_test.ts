/**
 * Fixtures of the series-control tests: a daily series and a one-time reminder as the host
 * lists them, fake {@linkcode ScheduleServices} that record each call, and a render context
 * lending them.
 *
 * @module
 */
import type { RenderContext } from "../registry.ts";
import { type ReminderOutcome, SCHEDULE_SERVICES, type ScheduleServices } from "./view.ts";
import type { ActiveReminderWire } from "../wire.ts";

/** A daily series at 09:00 in Asia/Shanghai, its first occurrence skipped. */
export const SERIES: ActiveReminderWire = {
  id: "sch_1",
  kind: "recurring",
  prompt: "stretch",
  scheduledAt: "2030-01-02T01:00:00.000Z",
  status: "scheduled",
  deliveryMode: "session-local",
  repeat: {
    rrule: "FREQ=DAILY;BYHOUR=9;BYMINUTE=0",
    timeZone: "Asia/Shanghai",
    dtstart: "2030-01-01T09:00:00",
    text: { en: "daily at 09:00 (Asia/Shanghai)", zh: "每天 09:00（Asia/Shanghai）" },
  },
  preview: [
    {
      at: "2030-01-03T01:00:00.000Z",
      local: "2030-01-03T09:00",
      offset: "+08:00",
      excluded: ["2030-01-02T01:00:00.000Z"],
    },
    { at: "2030-01-04T01:00:00.000Z", local: "2030-01-04T09:00", offset: "+08:00" },
  ],
};

/** A one-time reminder. */
export const ONCE: ActiveReminderWire = {
  id: "sch_2",
  kind: "at",
  prompt: "call mum",
  scheduledAt: "2030-01-02T10:00:00.000Z",
  status: "scheduled",
  deliveryMode: "session-local",
};

/**
 * Fake services over a listed set of reminders; every action is recorded as a line.
 *
 * @param list the host's listed reminders
 * @param outcomes the outcome of each card or row key
 * @param accept what `update` answers
 * @returns the services and the calls they saw
 */
export function fakeServices(
  list: readonly ActiveReminderWire[],
  outcomes: Readonly<Record<string, ReminderOutcome>> = {},
  accept = true,
): { s: ScheduleServices; calls: string[] } {
  const calls: string[] = [];
  const s: ScheduleServices = {
    activeRecurring: new Set(list.filter((r) => r.kind === "recurring").map((r) => r.id)),
    promptOf: () => undefined,
    outcome: (key) => outcomes[key],
    snooze: (id, seconds, key) => void calls.push(`snooze ${id} ${seconds} ${key}`),
    stop: (id, key) => void calls.push(`stop ${id} ${key}`),
    reminder: (id) => list.find((r) => r.id === id),
    now: () => new Date("2030-01-01T17:30:00.000Z"), // 01:30 on Jan 2 in Shanghai
    snoozeUntil: (id, until, key) =>
      void calls.push(`until ${id} ${until.date} ${until.time} ${key}`),
    pause: (id, key) => void calls.push(`pause ${id} ${key}`),
    resume: (id, key) => void calls.push(`resume ${id} ${key}`),
    skip: (id, key) => void calls.push(`skip ${id} ${key}`),
    update: (id, body, key) => {
      calls.push(`update ${id} ${JSON.stringify(body)} ${key}`);
      return Promise.resolve(accept);
    },
    history: () => undefined,
    loadHistory: (id) => void calls.push(`history ${id}`),
  };
  return { s, calls };
}

/**
 * A render context at Asia/Shanghai lending the services.
 *
 * @param s the services
 * @param lang the UI language
 * @returns the context
 */
export function ctxWith(s: ScheduleServices, lang: "en" | "zh" = "en"): RenderContext {
  return { lang, timeZone: "Asia/Shanghai", services: { [SCHEDULE_SERVICES]: s } };
}
