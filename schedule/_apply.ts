// Private: the one transition function of the schedule fold
// (docs/design.md#session-log-authority-and-tools; docs/recurring.md "Transitions"). The pure fold
// (fold.ts) and the live state (live.ts) both apply events with it, so the incremental state can
// never drift from the reference fold.
import type { SessionEvent } from "@chime/session/event";
import { decodeScheduleChange } from "./decoder.ts";
import { ScheduleError } from "./errors.ts";
import type { Delivered, Quarantined } from "./fold.ts";
import {
  isScheduleId,
  type RecurringRecord,
  type ScheduleChange,
  type ScheduleId,
  type ScheduleRecord,
} from "./protocol.ts";

/** The fold's state while it is being built; `ScheduleState` is its read-only view. */
export interface MutableScheduleState {
  readonly active: Map<ScheduleId, ScheduleRecord>;
  readonly terminated: Set<ScheduleId>;
  readonly seen: Set<ScheduleId>;
  readonly delivered: Map<ScheduleId, Delivered>;
  readonly quarantined: Quarantined[];
  readonly held: Map<ScheduleId, number>;
}

/** A state with nothing folded yet. */
export function emptyState(): MutableScheduleState {
  return {
    active: new Map(),
    terminated: new Set(),
    seen: new Set(),
    delivered: new Map(),
    quarantined: [],
    held: new Map(),
  };
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

/**
 * The schedule id a change names (`id`, or `record.id` of a create or update), read from the
 * stored data without trusting it: `undefined` when no well-formed id is there.
 */
function namedId(data: unknown): ScheduleId | undefined {
  if (typeof data !== "object" || data === null) return undefined;
  const { id, record } = data as { id?: unknown; record?: unknown };
  if (typeof id === "string" && isScheduleId(id)) return id;
  const inner = typeof record === "object" && record !== null
    ? (record as { id?: unknown }).id
    : undefined;
  return typeof inner === "string" && isScheduleId(inner) ? inner : undefined;
}

/**
 * Applies one `schedule/change` event, containing a refusal (docs/recurring.md "Damaged
 * changes"): a change the strict decoder or the transition refuses is never applied; it is
 * recorded in `quarantined` with its seq, and the reminder it names is held: taken out of
 * `active` (so it never fires from a state the log may not mean, nor twice for a damaged
 * dispatch), kept in `seen` (its id is never reused), and every later change of it is
 * quarantined too. The session's other reminders fold as usual.
 *
 * @returns the applied change, or `undefined` when the event was quarantined
 */
export function applyEvent(
  state: MutableScheduleState,
  event: SessionEvent,
): ScheduleChange | undefined {
  const id = namedId(event.data);
  if (id !== undefined && state.held.has(id)) {
    const reason = `change of ${id}, held since its damaged change at seq ${state.held.get(id)}`;
    quarantine(state, event.seq, id, reason);
    return undefined;
  }
  try {
    const change = decodeEvent(event);
    applyChange(state, change, event.seq);
    return change;
  } catch (error) {
    if (!(error instanceof ScheduleError) || error.code !== "invalid_log") throw error;
    quarantine(state, event.seq, id, error.message);
    return undefined;
  }
}

function quarantine(
  state: MutableScheduleState,
  seq: number,
  id: ScheduleId | undefined,
  reason: string,
): void {
  state.quarantined.push({ seq, ...(id === undefined ? {} : { id }), reason });
  if (id === undefined) return;
  if (!state.held.has(id)) state.held.set(id, seq);
  state.active.delete(id);
  state.seen.add(id);
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
 * The folded record an `update` leaves (docs/recurring.md "Transitions"): a series stays paused
 * when it is updated to another series, and keeps its `exdates` only while its rule, DTSTART and
 * zone are unchanged (an excluded instant names an occurrence of that series only). A one-shot
 * carries neither.
 */
export function carryOver(current: ScheduleRecord, next: ScheduleRecord): ScheduleRecord {
  if (current.kind !== "recurring" || next.kind !== "recurring") return next;
  const same = current.rrule === next.rrule && current.dtstart === next.dtstart &&
    current.timeZone === next.timeZone;
  return {
    ...next,
    ...(current.paused ? { paused: true as const } : {}),
    ...(same && current.exdates !== undefined ? { exdates: current.exdates } : {}),
  };
}

/** A recurring record without its folded-only members: what a `create` or `update` carries. */
export function unfolded(record: ScheduleRecord): ScheduleRecord {
  if (record.kind !== "recurring") return record;
  const { paused: _, exdates: __, ...rest } = record;
  return rest;
}

function withExdate(record: RecurringRecord, at: string): readonly string[] {
  return [...(record.exdates ?? []), at].sort();
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
      state.active.set(change.id, carryOver(record, change.record));
      return;
    case "delete":
      return end(state, change.id);
    case "stop":
      if (!recurring) throw invalidLog(seq, `stop of one-shot record ${change.id}`);
      return end(state, change.id);
    case "pause":
    case "resume":
    case "exclude": {
      if (!recurring) throw invalidLog(seq, `${change.op} of one-shot record ${change.id}`);
      if (change.op === "pause") {
        if (record.paused) throw invalidLog(seq, `pause of paused record ${change.id}`);
        state.active.set(change.id, { ...record, paused: true });
        return;
      }
      if (change.op === "resume") {
        if (!record.paused) throw invalidLog(seq, `resume of unpaused record ${change.id}`);
        if (change.nextAt < record.scheduledAt) {
          throw invalidLog(seq, `resume of ${change.id} is out of order`);
        }
        const { paused: _, ...rest } = record;
        state.active.set(change.id, { ...rest, scheduledAt: change.nextAt });
        return;
      }
      const { occurrenceAt, nextAt } = change;
      const current = occurrenceAt === record.scheduledAt;
      if (
        occurrenceAt < record.scheduledAt || record.exdates?.includes(occurrenceAt) ||
        (current ? nextAt !== null && nextAt <= occurrenceAt : nextAt !== record.scheduledAt)
      ) throw invalidLog(seq, `exclude of ${change.id} is out of order`);
      if (nextAt === null) return end(state, change.id);
      const exdates = withExdate(record, occurrenceAt);
      state.active.set(change.id, { ...record, exdates, scheduledAt: nextAt });
      return;
    }
    case "dispatch":
    case "skip": {
      if (!("occurrenceAt" in change)) {
        if (recurring) throw invalidLog(seq, `one-shot dispatch of recurring ${change.id}`);
        state.delivered.set(change.id, { record, occurrenceAt: record.scheduledAt });
        return end(state, change.id);
      }
      if (!recurring) throw invalidLog(seq, `${change.op} of one-shot record ${change.id}`);
      if (record.paused) throw invalidLog(seq, `${change.op} of paused record ${change.id}`);
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
