/**
 * The schedule plugin's storage check (`Plugin.logCheck`, README "Failure behaviour"): the
 * storage doctor hands it each stored session's `schedule/change` events and it names every one
 * the strict decoder or the fold refuses, as the host would quarantine it
 * (docs/recurring.md "Damaged changes").
 *
 * @module
 */
import type { LogCheck, LogFinding, SessionEvent, SessionHeader } from "@chime/session";
import { foldSchedule, foldSession } from "./fold.ts";
import { SCHEDULE_CHANGE } from "./protocol.ts";

function findings(events: readonly SessionEvent[], header?: SessionHeader): LogFinding[] {
  const state = header === undefined
    ? foldSchedule(events, { contain: true })
    : foldSession(header, events);
  return state.quarantined.map(({ seq, reason }) => ({
    seq,
    what: `schedule/change refused: ${reason}`,
  }));
}

/**
 * Checks one session's `schedule/change` events. A fork's inherited prefix is folded as the
 * ordinary log it was copied from, its own suffix as the fork folds it, so a change is judged by
 * the state it was written against.
 *
 * @example A damaged change is named by its seq
 * ```ts
 * import { scheduleLogCheck } from "@chime/schedule";
 * const header = { id: "s", createdAt: "2030-01-01T00:00:00.000Z", cwd: "/" } as never;
 * const at = "2030-01-01T00:00:00.000Z";
 * const events = [{ seq: 0, type: "schedule/change", at, data: { version: 1, op: "nope" } }];
 * console.assert(scheduleLogCheck.check(header, events)[0]?.seq === 0);
 * ```
 */
export const scheduleLogCheck: LogCheck = {
  types: [SCHEDULE_CHANGE],
  check(header, events) {
    const seed = header.seedLength ?? 0;
    if (seed === 0) return findings(events, header);
    return [...findings(events.filter((e) => e.seq < seed)), ...findings(events, header)];
  },
};
