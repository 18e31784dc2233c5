// Private: the owner's maintenance task (docs/design.md#admission; docs/recurring.md "Delivery"),
// synchronous from the read of the live schedule state (live.ts) to the last append.
import type { AgentHandle } from "@chime/contract";
import { dispatchChange, occurrenceChange } from "./decoder.ts";
import { reminderFrame } from "./frame.ts";
import { LiveSchedule } from "./live.ts";
import {
  isPaused,
  type OccurrenceFacts,
  SCHEDULE_CHANGE,
  scheduledAtMs,
  type ScheduleId,
  type ScheduleRecord,
} from "./protocol.ts";
import { catchUp } from "./recurrence.ts";
import { formatInstant } from "./rfc3339.ts";
import type { Delivered } from "./_telemetry.ts";

const HOUR_MS = 3_600_000;

/** What one delivery pass did. */
export interface Delivery {
  /** The single decision-clock sample, epoch ms (UTC). */
  readonly decisionNow: number;
  /** Dispatches and skips appended (each dispatch after exactly one enqueued follow-up). */
  readonly appended: number;
  /** The occurrences dispatched (not skips), for the owner's telemetry. */
  readonly delivered: readonly Delivered[];
  /** The hourly budget is full: due dispatches wait until this instant (epoch ms, UTC). */
  readonly budgetUntil?: number;
  /** A contained framing or enqueue failure: that record and later ones stay active. */
  readonly contained?: { readonly id: ScheduleId; readonly cause: unknown };
  /** The state read (a refused log) or an append failed: the owner must fault. */
  readonly fault?: { readonly cause: unknown };
}

/** The occurrence a due recurring record delivers now: the latest ≤ now; the rest are missed. */
function occurrenceOf(
  record: Extract<ScheduleRecord, { kind: "recurring" }>,
  now: number,
): OccurrenceFacts {
  const target = scheduledAtMs(record);
  const found = catchUp(record, target, now);
  const latest = found.latest ?? target;
  return {
    occurrenceAt: formatInstant(latest),
    missed: Math.max(0, found.count - 1),
    nextAt: found.next === undefined ? null : formatInstant(found.next),
  };
}

/**
 * Reads the live state (applied at each append, so a management change that won the race is
 * seen: no stale dispatch), samples `now()` once, then for each due record in due order: a recurring record
 * outside its catch-up window gets a `skip`; otherwise, while the trailing-hour budget of
 * `maxPerHour` dispatches allows, the fixed frame is enqueued as one follow-up and the dispatch
 * appended (a recurring one names its occurrence, `missed` and `nextAt`). `heldUntil` is the
 * previous pass's `budgetUntil`: a recurring record whose target came before it waited for the
 * budget, and its frame says `coalesced` (docs/recurring.md "Delivery").
 */
export function deliverDue(
  agent: AgentHandle,
  options: {
    readonly now: () => number;
    readonly maxPerHour: number;
    readonly heldUntil?: number | undefined;
  },
): Delivery {
  const schedule = LiveSchedule.for(agent);
  let active: ScheduleRecord[];
  try {
    active = [...schedule.state.active.values()];
  } catch (cause) {
    return { decisionNow: options.now(), appended: 0, delivered: [], fault: { cause } };
  }
  const decisionNow = options.now();
  // A paused series never fires; an excluded occurrence (the record's `exdates`, passed to the
  // engine with the record) is never delivered nor counted as missed.
  const due = active.filter((record) => !isPaused(record) && scheduledAtMs(record) <= decisionNow)
    .sort((a, b) => scheduledAtMs(a) - scheduledAtMs(b));
  const used = schedule.recentDispatches(decisionNow);
  let appended = 0;
  const delivered: Delivered[] = [];
  let budgetUntil: number | undefined;
  for (const record of due) {
    const facts = record.kind === "recurring" ? occurrenceOf(record, decisionNow) : undefined;
    const window = record.kind === "recurring" ? record.catchUpSeconds : undefined;
    const skip = facts !== undefined && window !== undefined &&
      decisionNow - Date.parse(facts.occurrenceAt) > window * 1000;
    if (!skip && used.length >= options.maxPerHour) {
      budgetUntil = used[used.length - options.maxPerHour]! + HOUR_MS;
      continue;
    }
    const held = options.heldUntil !== undefined && scheduledAtMs(record) < options.heldUntil;
    if (!skip) {
      try {
        // The previous pass held this record for the budget: say so (not for downtime misses).
        const occurrence = held && facts !== undefined ? { ...facts, coalesced: true } : facts;
        agent.followup(reminderFrame(record, decisionNow, occurrence));
      } catch (cause) {
        return { decisionNow, appended, delivered, contained: { id: record.id, cause } };
      }
    }
    try {
      const change = facts === undefined
        ? dispatchChange(record.id, held)
        : occurrenceChange(skip ? "skip" : "dispatch", record.id, facts, held);
      agent.append(SCHEDULE_CHANGE, change);
    } catch (cause) {
      // The follow-up may already be queued: stop rather than risk a second delivery.
      return { decisionNow, appended, delivered, fault: { cause } };
    }
    appended++;
    if (!skip) {
      used.push(decisionNow);
      delivered.push({
        id: record.id,
        dueAt: facts === undefined ? scheduledAtMs(record) : Date.parse(facts.occurrenceAt),
        missed: facts?.missed ?? 0,
        coalesced: held && facts !== undefined,
        held,
      });
    }
  }
  return {
    decisionNow,
    appended,
    delivered,
    ...(budgetUntil === undefined ? {} : { budgetUntil }),
  };
}
