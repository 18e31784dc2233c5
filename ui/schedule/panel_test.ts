import { deepEqual, equal } from "node:assert/strict";
import { signal } from "@preact/signals";
import { durableScheduleMark, ReminderPanelModel } from "./panel.ts";
import { SessionWindow } from "../window.ts";
import type { RemindersPage, WireEvent } from "../wire.ts";

const at = "2030-01-01T00:00:00.000Z";
const e = (seq: number, type: string): WireEvent => ({ seq, type, at, data: {} });

Deno.test("durableScheduleMark() moves only when a schedule/change event becomes durable", () => {
  const events = [
    e(0, "user-rpc"),
    e(1, "schedule/change"),
    e(2, "tool/result"),
    e(3, "schedule/change"),
  ];
  equal(durableScheduleMark(events, 0), -1);
  equal(durableScheduleMark(events, 1), -1, "a user message is not a schedule change");
  equal(durableScheduleMark(events, 2), 1);
  equal(durableScheduleMark(events, 3), 1, "other events do not move it");
  equal(durableScheduleMark(events, 4), 3);
  equal(durableScheduleMark([], 10), -1);
});

Deno.test("the panel refetches when a schedule/change becomes durable and drops stale answers", async () => {
  const current = signal<string | null>("a");
  const win = signal<SessionWindow | null>(null);
  const asked: string[] = [];
  const failed: unknown[] = [];
  const answers: ((page: RemindersPage) => void)[] = [];
  const panel = new ReminderPanelModel({
    current,
    win,
    request: <T>(id: string, path: string) => {
      asked.push(`${id}${path}`);
      return new Promise<T>((resolve) => answers.push(resolve as (page: RemindersPage) => void));
    },
    fail: (err) => failed.push(err),
  });
  const w = new SessionWindow({
    loadHistory: () => Promise.resolve({ events: [e(0, "user-rpc")], views: {}, nextBefore: null }),
    loadAfter: () => Promise.resolve({ events: [], views: {} }),
  });
  await w.start();
  win.value = w;
  w.receive({ event: e(1, "schedule/change") });
  equal(asked.length, 0, "not durable yet");
  w.flushed(2);
  deepEqual(asked, ["a/reminders"]);
  const row = {
    id: "sch_1",
    kind: "after",
    prompt: "stretch",
    scheduledAt: at,
    status: "scheduled",
    deliveryMode: "session-local",
  } as const;
  current.value = "b"; // the page moved on before the answer came
  answers[0]!({ reminders: [row], deliveryMode: "session-local" });
  await Promise.resolve();
  deepEqual(panel.reminders.value, [], "an answer for another session is dropped");
  panel.opened("b");
  answers[1]!({ reminders: [row], deliveryMode: "session-local" });
  await Promise.resolve();
  equal(panel.count.value, 1);
  panel.reset();
  equal(panel.count.value, 0);
  equal(failed.length, 0);
  w[Symbol.dispose]();
  panel[Symbol.dispose]();
});
