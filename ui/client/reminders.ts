/**
 * When the page refreshes its active reminders from the host (`GET /reminders`, folded over
 * the durable log): on open, and whenever a `schedule/change` event becomes durable.
 *
 * @module
 */
import type { WireEvent } from "../wire.ts";

/**
 * The highest `seq` of a `schedule/change` event the host reported durable, or `-1`. The page
 * refetches its reminders whenever this moves (a create, delete or dispatch was committed).
 *
 * @param events the window's events, ascending by seq
 * @param durableBefore the window's exclusive `flushed` bound
 * @returns the mark
 * @example
 * ```ts
 * import { durableScheduleMark } from "./reminders.ts";
 * const at = "2030-01-01T00:00:00.000Z";
 * const events = [{ seq: 0, type: "schedule/change", at, data: {} }];
 * console.assert(durableScheduleMark(events, 0) === -1 && durableScheduleMark(events, 1) === 0);
 * ```
 */
export function durableScheduleMark(events: readonly WireEvent[], durableBefore: number): number {
  for (let i = events.length - 1; i >= 0; i--) {
    const e = events[i]!;
    if (e.seq < durableBefore && e.type === "schedule/change") return e.seq;
  }
  return -1;
}
