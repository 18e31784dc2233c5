// Private helpers shared by the schedule tools and the owner: the flush barrier and the fold of
// the live session's own suffix.
import type { AgentHandle } from "@chime/agent";
import { foldSession, type ScheduleState } from "./fold.ts";

/** What a barrier needs of the agent. */
export type BarrierAgent = Pick<AgentHandle, "store" | "session">;

/**
 * One persistence checkpoint (seed §"Persistence checkpoint"): only the literal `true` is a
 * durability acknowledgement; `false` (no acknowledging listener) and a rejection are failures.
 *
 * @returns `{ ok: true }` on acknowledgement, else `{ ok: false, cause }`
 */
export async function barrier(
  agent: BarrierAgent,
): Promise<{ readonly ok: true } | { readonly ok: false; readonly cause: unknown }> {
  try {
    const acknowledged = await agent.store.flush(agent.session);
    return acknowledged === true
      ? { ok: true }
      : { ok: false, cause: new Error("flush returned no durability acknowledgement") };
  } catch (cause) {
    return { ok: false, cause };
  }
}

/** Folds the exact live session suffix the agent owns (from `seedLength` for forks). */
export function foldLive(agent: Pick<AgentHandle, "session">): ScheduleState {
  const { session } = agent;
  return foldSession(session.header, session.events(session.header.seedLength ?? 0));
}
