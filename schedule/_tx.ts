// Private: the one transaction skeleton of every schedule management operation
// (docs/design.md#fifo-preflight-barrier): FIFO → preflight barrier → abort check → confirm →
// decision over the live state (live.ts) → appends → second barrier → confirm. Tools, page actions
// and the owner's start preflight use it; each operation only supplies a pure decision over the
// state.
import type { AgentHandle } from "@chime/contract";
import { toolError, type ToolFailure } from "./errors.ts";
import type { ScheduleFifo } from "./fifo.ts";
import type { ScheduleState } from "./fold.ts";
import { LiveSchedule } from "./live.ts";
import { SCHEDULE_CHANGE, type ScheduleChange } from "./protocol.ts";
import { deferringProbes, ProbeNeeded, probeSeries } from "./recurrence.ts";

/** What a barrier needs of the agent. */
export type BarrierAgent = Pick<AgentHandle, "store" | "session">;

/**
 * One persistence checkpoint (docs/design.md#persistence-checkpoint): only the literal `true` is a
 * durability acknowledgement; `false` (no acknowledging listener) and a rejection are failures.
 * An acknowledgement also moves the session's live schedule state's durable cursor to the
 * flush's bound (`flush` captures `session.length` on entry, as this does).
 *
 * @returns `{ ok: true }` on acknowledgement, else `{ ok: false, cause }`
 */
export async function barrier(
  agent: BarrierAgent,
): Promise<{ readonly ok: true } | { readonly ok: false; readonly cause: unknown }> {
  const { session } = agent;
  const through = session.length;
  try {
    const acknowledged = await agent.store.flush(session);
    if (acknowledged !== true) {
      return { ok: false, cause: new Error("flush returned no durability acknowledgement") };
    }
  } catch (cause) {
    return { ok: false, cause };
  }
  LiveSchedule.of(session)?.settle(through);
  return { ok: true };
}

/**
 * The agent's live schedule state once its initial read is applied (no await when it already
 * is, so callers keep their synchronous steps).
 */
export function loadedSchedule(
  agent: Pick<AgentHandle, "session" | "store">,
): LiveSchedule | Promise<LiveSchedule> {
  const schedule = LiveSchedule.for(agent);
  return schedule.loaded ? schedule : schedule.ready.then(() => schedule);
}

/** The `persistence_uncertain` answer: never guess whether an eager write committed. */
export function uncertain(action: string, cause: unknown): ToolFailure {
  const reason = cause instanceof Error ? cause.message : String(cause);
  return toolError(
    "persistence_uncertain",
    `Cannot ${action}: the session log could not be confirmed durable (${reason}); ` +
      "list the schedules before retrying",
  );
}

/** A decision: a failure to return as is, or an answer after appending `changes` (if any). */
export type Decision<R> =
  | ToolFailure
  | { readonly ok: true; readonly changes?: readonly ScheduleChange[]; readonly answer: R };

/** Where a transaction runs. */
export interface Tx {
  /** The agent's FIFO (shared by tools, page actions and the owner). */
  readonly fifo: ScheduleFifo;
  /** The agent. */
  readonly agent: Pick<AgentHandle, "store" | "session" | "append">;
  /** Called after every successful preflight and confirmed append (the owner recomputes). */
  readonly confirmed: () => void;
}

/** Names for the two `persistence_uncertain` answers of an operation. */
export interface TxNames {
  /** e.g. `create schedule`. */
  readonly action: string;
  /** e.g. `confirm the new schedule`. */
  readonly confirm: string;
  /** A tool's turn signal: a transaction whose turn ended records nothing. */
  readonly signal?: AbortSignal;
}

/** How many times a decision is retried after finishing a series' probe off the event loop. */
const PROBE_ROUNDS = 3;

/**
 * Runs a pure decision so that no rule that never occurs blocks the event loop: a series whose
 * probe needs more than one slice stops the decision ({@linkcode ProbeNeeded}); its probe then
 * runs in slices with waits between them and the decision runs again over the same state (the
 * FIFO holds it). The last round finishes any probe at once, so a clock that keeps moving the
 * series cannot defer forever.
 */
async function decideWithProbes<R>(
  decide: () => Decision<R>,
  signal: AbortSignal | undefined,
): Promise<Decision<R>> {
  for (let round = 1;; round++) {
    if (round === PROBE_ROUNDS) return decide();
    try {
      return deferringProbes(decide);
    } catch (error) {
      if (!(error instanceof ProbeNeeded)) throw error;
      await probeSeries(error.series).catch(() => {}); // a refusal is the decision's to report
      signal?.throwIfAborted();
    }
  }
}

/**
 * Runs one management transaction alone in the FIFO: preflight, the abort check (no change may
 * land after its turn's `turn/end`; the thrown reason becomes the unrecorded tool error), the
 * decision over the durable fold, its appends and the second barrier.
 */
export function transact<R>(
  tx: Tx,
  names: TxNames,
  decide: (state: ScheduleState) => Decision<R>,
): Promise<R | ToolFailure> {
  return tx.fifo.run(async () => {
    const loading = loadedSchedule(tx.agent);
    const schedule = loading instanceof Promise ? await loading : loading;
    const preflight = await barrier(tx.agent);
    names.signal?.throwIfAborted();
    if (!preflight.ok) return uncertain(names.action, preflight.cause);
    tx.confirmed();
    const decision = await decideWithProbes(() => decide(schedule.state), names.signal);
    if (!decision.ok) return decision;
    const changes = decision.changes ?? [];
    if (changes.length === 0) return decision.answer;
    for (const change of changes) tx.agent.append(SCHEDULE_CHANGE, change);
    const after = await barrier(tx.agent);
    if (!after.ok) return uncertain(names.confirm, after.cause);
    tx.confirmed();
    return decision.answer;
  });
}
