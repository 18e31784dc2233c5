// Private: the one transition function of the schedule fold
// (docs/design.md#session-log-authority-and-tools; docs/recurring.md "Transitions"). The pure fold
// (fold.ts) and the live state (live.ts) both apply events with it, so the incremental state can
// never drift from the reference fold.
import type { SessionEvent } from "@chime/session/event";
import { decodeScheduleChange } from "./decoder.ts";
import { ScheduleError } from "./errors.ts";
import type { Delivered } from "./fold.ts";
import type { ScheduleChange, ScheduleId, ScheduleRecord } from "./protocol.ts";

/** The fold's state while it is being built; `ScheduleState` is its read-only view. */
export interface MutableScheduleState {
  readonly active: Map<ScheduleId, ScheduleRecord>;
  readonly terminated: Set<ScheduleId>;
  readonly seen: Set<ScheduleId>;
  readonly delivered: Map<ScheduleId, Delivered>;
}

/** A state with nothing folded yet. */
export function emptyState(): MutableScheduleState {
  return { active: new Map(), terminated: new Set(), seen: new Set(), delivered: new Map() };
}

function invalidLog(seq: number, reason: string, cause?: unknown): ScheduleError {
  return new ScheduleError("invalid_log", `Cannot fold schedule/change at seq ${seq}: ${reason}`, {
    cause,
    details: { seq },
  });
}

/** Decodes a `schedule/change` event's data; `invalid_log` with its seq when it does not decode. */
export function decodeEvent(event: SessionEvent): ScheduleChange {
  try {
    return decodeScheduleChange(event.data);
  } catch (cause) {
    throw invalidLog(event.seq, "undecodable data", cause);
  }
}

function activeRecord(
  state: MutableScheduleState,
  id: ScheduleId,
  op: string,
  seq: number,
): ScheduleRecord {
  const record = state.active.get(id);
  if (record === undefined) {
    const what = state.terminated.has(id) ? "terminated" : "unknown";
    throw invalidLog(seq, `${op} of ${what} record ${id}`);
  }
  return record;
}

function end(state: MutableScheduleState, id: ScheduleId): void {
  state.active.delete(id);
  state.terminated.add(id);
}

/**
 * Applies one decoded change at `seq`. Every check runs before the first mutation, so a refused
 * change leaves the state as it was.
 *
 * @throws {ScheduleError} `invalid_log` as `foldSchedule` documents
 */
export function applyChange(
  state: MutableScheduleState,
  change: ScheduleChange,
  seq: number,
): void {
  if (change.op === "create") {
    const { id } = change.record;
    if (state.active.has(id) || state.terminated.has(id)) {
      throw invalidLog(seq, `duplicate create of ${id}`);
    }
    state.active.set(id, change.record);
    state.seen.add(id);
    return;
  }
  const record = activeRecord(state, change.id, change.op, seq);
  const recurring = record.kind === "recurring";
  switch (change.op) {
    case "update":
      state.active.set(change.id, change.record);
      return;
    case "delete":
      return end(state, change.id);
    case "stop":
      if (!recurring) throw invalidLog(seq, `stop of one-shot record ${change.id}`);
      return end(state, change.id);
    case "dispatch":
    case "skip": {
      if (!("occurrenceAt" in change)) {
        if (recurring) throw invalidLog(seq, `one-shot dispatch of recurring ${change.id}`);
        state.delivered.set(change.id, { record, occurrenceAt: record.scheduledAt });
        return end(state, change.id);
      }
      if (!recurring) throw invalidLog(seq, `${change.op} of one-shot record ${change.id}`);
      const { occurrenceAt, nextAt } = change;
      if (occurrenceAt < record.scheduledAt || (nextAt !== null && nextAt <= occurrenceAt)) {
        throw invalidLog(seq, `${change.op} of ${change.id} is out of order`);
      }
      if (change.op === "dispatch") state.delivered.set(change.id, { record, occurrenceAt });
      if (nextAt === null) return end(state, change.id);
      state.active.set(change.id, { ...record, scheduledAt: nextAt });
    }
  }
}
