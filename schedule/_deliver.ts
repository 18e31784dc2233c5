// Private: the owner's maintenance task (seed §"Live 交付生命周期"), synchronous from the re-fold
// of the exact session suffix to the last id-only dispatch append.
import type { AgentHandle } from "@chime/agent";
import { foldLive } from "./_tx.ts";
import { dispatchChange } from "./decoder.ts";
import { reminderFrame } from "./frame.ts";
import {
  SCHEDULE_CHANGE,
  scheduledAtMs,
  type ScheduleId,
  type ScheduleRecord,
} from "./protocol.ts";

/** What one delivery pass did. */
export interface Delivery {
  /** The single decision-clock sample, epoch ms (UTC). */
  readonly decisionNow: number;
  /** Dispatches appended (each after exactly one enqueued follow-up). */
  readonly appended: number;
  /** A contained framing or enqueue failure: that record and later ones stay active. */
  readonly contained?: { readonly id: ScheduleId; readonly cause: unknown };
  /** The re-fold or a dispatch append failed: the owner must fault. */
  readonly fault?: { readonly cause: unknown };
}

/**
 * Re-folds the live suffix (a management change that won the race is seen, so no stale
 * dispatch), samples `now()` once, then for each due record in due order builds the fixed frame,
 * enqueues one follow-up and appends `{ version: 1, op: 'dispatch', id }`.
 */
export function deliverDue(agent: AgentHandle, now: () => number): Delivery {
  let active: ScheduleRecord[];
  try {
    active = [...foldLive(agent).active.values()];
  } catch (cause) {
    return { decisionNow: now(), appended: 0, fault: { cause } };
  }
  const decisionNow = now();
  const due = active.filter((record) => scheduledAtMs(record) <= decisionNow)
    .sort((a, b) => scheduledAtMs(a) - scheduledAtMs(b));
  let appended = 0;
  for (const record of due) {
    try {
      agent.followup(reminderFrame(record, decisionNow));
    } catch (cause) {
      return { decisionNow, appended, contained: { id: record.id, cause } };
    }
    try {
      agent.append(SCHEDULE_CHANGE, dispatchChange(record.id));
    } catch (cause) {
      // The follow-up may already be queued: stop rather than risk a second delivery.
      return { decisionNow, appended, fault: { cause } };
    }
    appended++;
  }
  return { decisionNow, appended };
}
