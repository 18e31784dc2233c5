/**
 * The pure fold of a session's `schedule/change` stream
 * (docs/design.md#session-log-authority-and-tools): ordinary sessions fold the whole stream, forks
 * only events at `seq ≥ SessionHeader.seedLength`.
 *
 * @module
 */
import type { SessionEvent } from "@chime/session/event";
import type { SessionHeader } from "@chime/session/header";
import { applyChange, applyEvent, decodeEvent, emptyState } from "./_apply.ts";
import {
  isPaused,
  SCHEDULE_CHANGE,
  scheduledAtMs,
  type ScheduleId,
  type ScheduleRecord,
} from "./protocol.ts";

/** The folded schedule state of one session suffix. */
export interface ScheduleState {
  /**
   * Active records by id, in create order. A recurring record's `scheduledAt` is its current
   * target (its last dispatch's or skip's `nextAt`); an `update` replaces a record in place.
   */
  readonly active: ReadonlyMap<ScheduleId, ScheduleRecord>;
  /** Ids ended by a `delete`, a terminal `dispatch` or `skip`, or a `stop`. */
  readonly terminated: ReadonlySet<ScheduleId>;
  /** Every id created in the folded suffix (active ∪ terminated); never reuse one. */
  readonly seen: ReadonlySet<ScheduleId>;
  /** The latest delivered occurrence of each dispatched id, with the record it delivered. */
  readonly delivered: ReadonlyMap<ScheduleId, Delivered>;
  /**
   * Changes a containing fold refused, in log order (always empty for a strict fold):
   * quarantined, never applied (docs/recurring.md "Damaged changes").
   */
  readonly quarantined: readonly Quarantined[];
  /**
   * Reminders a quarantined change names, each with the seq of its first damaged change: held,
   * never active, never fired, their ids never reused.
   */
  readonly held: ReadonlyMap<ScheduleId, number>;
}

/** A `schedule/change` event a containing fold refused (docs/recurring.md "Damaged changes"). */
export interface Quarantined {
  /** Its log position. */
  readonly seq: number;
  /** The reminder it names, when its data names a well-formed id. */
  readonly id?: ScheduleId;
  /** Why it was refused (the strict decoder's or the transition's message). */
  readonly reason: string;
}

/** The latest delivered occurrence of a record (what a snooze snoozes). */
export interface Delivered {
  /** The record as it was when delivered. */
  readonly record: ScheduleRecord;
  /** The delivered occurrence, canonical UTC. */
  readonly occurrenceAt: string;
}

/** Options of {@linkcode foldSchedule}. */
export interface FoldOptions {
  /** Fold only events with `seq ≥ from` (a fork's `seedLength`). @default 0 */
  readonly from?: number;
  /**
   * Contain refusals: a refused change is quarantined and its reminder held instead of failing
   * the whole fold (docs/recurring.md "Damaged changes"). @default false (the strict fold)
   */
  readonly contain?: boolean;
}

/**
 * Folds `schedule/change` events (other event types are ignored) in log order.
 *
 * @param events session events in log order; a suffix is fine as long as it starts at or before
 *   `options.from`
 * @param options where the folded suffix starts
 * @returns active records (create order), terminated ids and all seen ids
 * @throws {ScheduleError} `invalid_log` (with `details.seq`) for undecodable data, a duplicate
 *   create id, a transition of a record that is not active, a one-shot dispatch of a recurring
 *   record (or the recurring form of a one-shot), `stop`, `skip`, `pause`, `resume` or `exclude`
 *   of a one-shot, an occurrence before the record's current target or a `nextAt` not after it,
 *   a dispatch or `skip` of a paused series, `pause` of a paused or `resume` of an unpaused one,
 *   a `resume` to before the current target, or an `exclude` of an instant already excluded,
 *   before the current target, or with a `nextAt` other than the current target (unless it
 *   excludes the current target)
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { foldSchedule } from "@chime/schedule";
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
  const state = emptyState();
  for (const event of events) {
    if (event.type !== SCHEDULE_CHANGE || event.seq < from) continue;
    if (options.contain) applyEvent(state, event);
    else applyChange(state, decodeEvent(event), event.seq);
  }
  return state;
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
 * Folds a session's own schedule state: {@linkcode foldSchedule} from {@linkcode foldStart},
 * containing refusals (`contain: true`), as the live state does: one damaged change holds only
 * the reminder it names (docs/recurring.md "Damaged changes").
 *
 * @param header the session header
 * @param events the session's events in log order
 * @param options `contain: false` for the strict fold @default { contain: true }
 * @returns the folded state, refused changes in `quarantined`
 * @throws {ScheduleError} `invalid_log` as {@linkcode foldSchedule}, only with `contain: false`
 */
export function foldSession(
  header: SessionHeader,
  events: readonly SessionEvent[],
  options: { readonly contain?: boolean } = {},
): ScheduleState {
  return foldSchedule(events, { from: foldStart(header), contain: options.contain ?? true });
}

/**
 * The next target: the active record with the smallest `scheduledAt`; ties go to the record
 * created first. A paused series is never a target (docs/recurring.md "Transitions").
 *
 * @param state a folded state
 * @returns the earliest active, unpaused record, or `undefined` when none is
 */
export function earliestActive(state: ScheduleState): ScheduleRecord | undefined {
  let best: ScheduleRecord | undefined;
  for (const record of state.active.values()) {
    if (isPaused(record)) continue;
    if (best === undefined || scheduledAtMs(record) < scheduledAtMs(best)) best = record;
  }
  return best;
}

// Types in the signatures above, re-exported for documentation.
export type { ScheduleId, ScheduleRecord } from "./protocol.ts";
export type { SessionEvent } from "@chime/session/event";
export type { SessionHeader } from "@chime/session/header";
export type { OneShotRecord, RecurringRecord } from "./protocol.ts";
export type { SessionLineage } from "@chime/session/header";
export type { AfterRecord, AtRecord } from "./protocol.ts";
export type { SnoozeOf } from "./protocol.ts";
