import { equal } from "node:assert/strict";
import { durableScheduleMark } from "./reminders.ts";
import type { WireEvent } from "../wire.ts";

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
