// Frozen copy of fold.ts before protocol v2 (reference for fold_v2_test.ts). Not a test suite.
/**
 * The pure fold of a session's `schedule/change` stream
 * (docs/design.md#session-log-authority-and-tools): ordinary sessions fold the whole stream, forks
 * only events at `seq ≥ SessionHeader.seedLength`.
 *
 * @module
 */
import type { SessionEvent, SessionHeader } from "@chime/session";
import { decodeScheduleChange } from "./_decoder_v1_ref_test.ts";
import { ScheduleError } from "./errors.ts";
import {
  SCHEDULE_CHANGE,
  type ScheduleChange,
  scheduledAtMs,
  type ScheduleId,
  type ScheduleRecord,
} from "./protocol.ts";

/** The folded schedule state of one session suffix. */
export interface ScheduleState {
  /** Active records by id, in create order. */
  readonly active: ReadonlyMap<ScheduleId, ScheduleRecord>;
  /** Ids ended by a `delete` or a `dispatch`. */
  readonly terminated: ReadonlySet<ScheduleId>;
  /** Every id created in the folded suffix (active ∪ terminated); never reuse one. */
  readonly seen: ReadonlySet<ScheduleId>;
}

/** Options of {@linkcode foldSchedule}. */
export interface FoldOptions {
  /** Fold only events with `seq ≥ from` (a fork's `seedLength`). @default 0 */
  readonly from?: number;
}

function invalidLog(seq: number, reason: string, cause?: unknown): ScheduleError {
  return new ScheduleError("invalid_log", `Cannot fold schedule/change at seq ${seq}: ${reason}`, {
    cause,
    details: { seq },
  });
}

function apply(
  state: { active: Map<ScheduleId, ScheduleRecord>; terminated: Set<ScheduleId> },
  change: ScheduleChange,
  seq: number,
): void {
  if (change.op === "create") {
    const { id } = change.record;
    if (state.active.has(id) || state.terminated.has(id)) {
      throw invalidLog(seq, `duplicate create of ${id}`);
    }
    state.active.set(id, change.record);
    return;
  }
  if (!state.active.delete(change.id)) {
    const what = state.terminated.has(change.id) ? "terminated" : "unknown";
    throw invalidLog(seq, `${change.op} of ${what} record ${change.id}`);
  }
  state.terminated.add(change.id);
}

/**
 * Folds `schedule/change` events (other event types are ignored) in log order.
 *
 * @param events session events in log order; a suffix is fine as long as it starts at or before
 *   `options.from`
 * @param options where the folded suffix starts
 * @returns active records (create order), terminated ids and all seen ids
 * @throws {ScheduleError} `invalid_log` (with `details.seq`) for undecodable data, a duplicate
 *   create id, or a `delete`/`dispatch` of a record that is not active
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { foldSchedule } from "./fold.ts";
 * const record = {
 *   id: "sch_AbCd1234", kind: "at", prompt: "stretch", scheduledAt: "2030-01-01T00:00:00.000Z",
 * };
 * const state = foldSchedule([
 *   { seq: 0, type: "schedule/change", at: "2029-01-01T00:00:00.000Z",
 *     data: { version: 1, op: "create", record } },
 * ]);
 * assert(state.active.size === 1);
 * ```
 */
export function foldSchedule(
  events: readonly SessionEvent[],
  options: FoldOptions = {},
): ScheduleState {
  const from = options.from ?? 0;
  const active = new Map<ScheduleId, ScheduleRecord>();
  const terminated = new Set<ScheduleId>();
  const seen = new Set<ScheduleId>();
  for (const event of events) {
    if (event.type !== SCHEDULE_CHANGE || event.seq < from) continue;
    let change: ScheduleChange;
    try {
      change = decodeScheduleChange(event.data);
    } catch (cause) {
      throw invalidLog(event.seq, "undecodable data", cause);
    }
    apply({ active, terminated }, change, event.seq);
    if (change.op === "create") seen.add(change.record.id);
  }
  return { active, terminated, seen };
}

/**
 * Where the fold of a session starts: `seedLength` for forks (the inherited prefix is never the
 * child's active work), `0` otherwise.
 *
 * @param header the session header
 * @returns the first folded `seq`
 */
export function foldStart(header: SessionHeader): number {
  return header.seedLength ?? 0;
}

/**
 * Folds a session's own schedule state: {@linkcode foldSchedule} from {@linkcode foldStart}.
 *
 * @param header the session header
 * @param events the session's events in log order
 * @returns the folded state
 * @throws {ScheduleError} `invalid_log` as {@linkcode foldSchedule}
 */
export function foldSession(
  header: SessionHeader,
  events: readonly SessionEvent[],
): ScheduleState {
  return foldSchedule(events, { from: foldStart(header) });
}

/**
 * The next target: the active record with the smallest `scheduledAt`; ties go to the record
 * created first.
 *
 * @param state a folded state
 * @returns the earliest active record, or `undefined` when none is active
 */
export function earliestActive(state: ScheduleState): ScheduleRecord | undefined {
  let best: ScheduleRecord | undefined;
  for (const record of state.active.values()) {
    if (best === undefined || scheduledAtMs(record) < scheduledAtMs(best)) best = record;
  }
  return best;
}
