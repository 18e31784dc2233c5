// Private: bounded reads of the recent log for the pre-step note and the request zones
// (docs/long-sessions.md "Bounded live session"). A walk starts at the tail and goes back only as
// far as its caller needs: the in-memory tail synchronously, older events from storage in pages
// (below `tailStart` every event is durable, so the stored prefix holds it).
import type { AgentHandle } from "@chime/contract";
import type { Session, SessionEvent } from "@chime/session";

/** What a walk needs of the agent. */
export type WalkAgent = Pick<AgentHandle, "session" | "store">;

/** Stored events read per page below the in-memory tail. */
export const PAGE_EVENTS = 256;

/** The first seq the live session holds in memory (0 for a session that holds them all). */
function tailStart(session: Session): number {
  return (session as { readonly tailStart?: number }).tailStart ?? 0;
}

/**
 * Visits the events with `stop ≤ seq < session.length` (the length when the walk starts), newest
 * first, until `visit` returns `true`. Synchronous (returns `undefined`) while the walk stays in
 * memory; a promise once it pages storage.
 *
 * @throws {RangeError} (the promise rejects) when storage lacks an event below the tail
 */
export function walkBack(
  agent: WalkAgent,
  stop: number,
  visit: (event: SessionEvent) => boolean | void,
): Promise<void> | undefined {
  const { session } = agent;
  let seq = session.length - 1;
  for (const floor = Math.max(stop, tailStart(session)); seq >= floor; seq--) {
    if (visit(session.event(seq)!) === true) return undefined;
  }
  return seq < stop ? undefined : (async () => {
    while (seq >= stop) {
      const before = seq + 1;
      const page = await agent.store.readStored(session.id, { before, limit: PAGE_EVENTS });
      if (page.at(-1)?.seq !== seq) {
        throw new RangeError(`Cannot read event ${seq} of ${session.id}: storage lacks it`);
      }
      for (let i = page.length - 1; i >= 0 && seq >= stop; i--, seq--) {
        if (visit(page[i]!) === true) return;
      }
    }
  })();
}
