/**
 * The schedule plugin's part of deleting a session (`Plugin.endSession`, README.md "The page"):
 * every active reminder of the session ends with a recorded `delete`, through the same decision
 * as `schedule_delete` (`decideDelete` of `_decide.ts`) over the folded state, appended and then
 * made durable by one persistence checkpoint (`barrier` of `_tx.ts`). The host calls it with no
 * agent running, so nothing else writes to the session meanwhile (no FIFO is needed).
 *
 * @module
 */
import type { EndingSession } from "@chime/contract";
import { decideDelete } from "./_decide.ts";
import { barrier, uncertain } from "./_tx.ts";
import { ScheduleError } from "./errors.ts";
import { foldSession } from "./fold.ts";
import { SCHEDULE_CHANGE, type ScheduleChange } from "./protocol.ts";
import { type ScheduleChangeReader, storeReader } from "./reader.ts";

/**
 * Ends every active reminder of a session that is being deleted.
 *
 * @param target the session (live, no agent), its store and the delete's instant
 * @param read where the session's `schedule/change` events come from @default the store's index
 * @returns how many `delete` changes were recorded (0: nothing was active)
 * @throws {ScheduleError} `invalid_log` for an undecodable log; `persistence_uncertain` when the
 *   checkpoint was not acknowledged (the deletes may or may not be durable)
 *
 * @example A session without reminders records nothing
 * ```ts
 * import { SessionStore } from "@chime/session";
 * import { MemoryBackend } from "@chime/session/testing";
 * import { endSchedules } from "@chime/schedule";
 * await using store = new SessionStore({ backend: new MemoryBackend() });
 * const session = await store.create({ cwd: "/" });
 * console.assert(await endSchedules({ session, store, now: Date.now() }) === 0);
 * ```
 */
export async function endSchedules(
  target: EndingSession,
  read: ScheduleChangeReader = storeReader(target.store),
): Promise<number> {
  const { session, store, now } = target;
  const state = foldSession(session.header, await read(session, { from: 0, to: session.length }));
  const changes: ScheduleChange[] = [];
  for (const id of state.active.keys()) {
    const decision = decideDelete(state, id, now);
    if (decision.ok) changes.push(...(decision.changes ?? []));
  }
  if (changes.length === 0) return 0;
  for (const change of changes) session.append(SCHEDULE_CHANGE, change);
  const checkpoint = await barrier({ session, store });
  if (!checkpoint.ok) {
    const failure = uncertain("end the session's reminders", checkpoint.cause);
    throw new ScheduleError("persistence_uncertain", failure.error.message);
  }
  return changes.length;
}
