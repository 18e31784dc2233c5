// Private: the pure decisions of the management operations over the folded state
// (docs/design.md#session-log-authority-and-tools; docs/recurring.md "Tools"). Each returns a
// failure, or the changes to append and the answer; _tx.ts runs them.
import { carryOver, unfolded } from "./_apply.ts";
import { keptSkips } from "./_keep_skips.ts";
import type { Decision } from "./_tx.ts";
import { createChange, deleteChange, stopChange, updateChange } from "./decoder.ts";
import { toolError, type ToolFailure } from "./errors.ts";
import type { ScheduleState } from "./fold.ts";
import {
  makeScheduleId,
  type OneShotRecord,
  type RandomBytes,
  type ScheduleChange,
  scheduledAtMs,
  type ScheduleId,
  type ScheduleRecord,
} from "./protocol.ts";
import {
  type CreateContext,
  type CreateRequest,
  resolveCreate,
  toScheduleRecord,
  type UpdateRequest,
} from "./rules.ts";
import { nextOccurrence } from "./recurrence.ts";
import { formatInstant, MAX_INSTANT_MS } from "./rfc3339.ts";
import { DELIVERY_MODE, type RecordResult, type ScheduleValue, scheduleValue } from "./value.ts";

/**
 * Why `id` has no active record: `storage_corrupt` (with the seq) when a damaged change holds it
 * (docs/recurring.md "Damaged changes"), `schedule_not_active` when it was created in this suffix
 * and ended, else `schedule_not_found`.
 */
export function missing(state: ScheduleState, id: ScheduleId, action: string): ToolFailure {
  const seq = state.held.get(id);
  if (seq !== undefined) {
    return toolError(
      "storage_corrupt",
      `Cannot ${action}: ${id} is held because its stored change at seq ${seq} is damaged`,
      { id, seq },
    );
  }
  return state.seen.has(id)
    ? toolError("schedule_not_active", `Cannot ${action}: ${id} already ended`, { id })
    : toolError("schedule_not_found", `Cannot ${action}: no schedule ${id}`, { id });
}

/** `schedule_create`: resolve, allocate a fresh id, append `create`. */
export function decideCreate(
  state: ScheduleState,
  request: CreateRequest,
  context: CreateContext,
  random: RandomBytes,
): Decision<RecordResult> {
  const resolved = resolveCreate(request, context);
  if (!resolved.ok) return resolved;
  const record = toScheduleRecord(makeScheduleId(random, { avoid: state.seen }), resolved);
  const answer = { ok: true as const, ...scheduleValue(record, context.now) };
  return { ok: true, changes: [createChange(record)], answer };
}

/**
 * `schedule_update`: one `update` keeping the id; the prompt and/or the selector change (a paused
 * series stays paused; see `carryOver` in _apply.ts). A snooze
 * record moved to another one-shot time keeps its `snoozeOf` (docs/recurring.md "Tools"), so the
 * series it snoozes still owns it: ending the series by words ends it too. Only a snooze turned
 * into a series of its own drops it (a recurring record never carries `snoozeOf`).
 */
export function decideUpdate(
  state: ScheduleState,
  request: UpdateRequest,
  context: CreateContext,
): Decision<RecordResult> {
  const current = state.active.get(request.id);
  if (current === undefined) return missing(state, request.id, "update schedule");
  const prompt = request.prompt ?? current.prompt;
  let record: ScheduleRecord;
  if (request.selector === undefined) record = unfolded({ ...current, prompt });
  else {
    const resolved = resolveCreate({ prompt, selector: request.selector }, context);
    if (!resolved.ok) return resolved;
    record = toScheduleRecord(request.id, resolved);
    if (record.kind !== "recurring" && current.kind !== "recurring" && current.snoozeOf) {
      record = { ...record, snoozeOf: current.snoozeOf };
    }
    // The same series keeps its exclusions (_apply.ts carryOver): its target skips them too.
    const kept = carryOver(current, record);
    if (kept.kind === "recurring" && kept.exdates !== undefined) {
      const first = nextOccurrence(kept, context.now);
      if (first === undefined || first > MAX_INSTANT_MS) {
        return toolError("not_in_future", "Cannot update schedule: no occurrence is left");
      }
      record = { ...record, scheduledAt: formatInstant(first) };
    }
  }
  const kept = keptSkips(current, record, context.now);
  const answer = { ok: true as const, ...scheduleValue(kept.record, context.now) };
  return { ok: true, changes: [updateChange(record), ...kept.changes], answer };
}

/** Answer of a delete or stop: the record as it was. */
export interface EndAnswer {
  readonly ok: true;
  readonly deleted: ScheduleValue;
  readonly deliveryMode: typeof DELIVERY_MODE;
}

/** `schedule_delete`: an active record of any kind ends (a series ends for good). */
export function decideDelete(
  state: ScheduleState,
  id: ScheduleId,
  now: number,
): Decision<EndAnswer> {
  const record = state.active.get(id);
  if (record === undefined) return missing(state, id, "delete schedule");
  const answer = {
    ok: true as const,
    deleted: scheduleValue(record, now),
    deliveryMode: DELIVERY_MODE,
  };
  return { ok: true, changes: [deleteChange(id)], answer };
}

/**
 * "Stop repeating": only an active recurring record. The series goes with its pending snoozes
 * (README.md "Reminders": the active snooze records whose `snoozeOf.id` is the series), each
 * ended by a `delete` in the same batch as the `stop`, as stopping it by words does.
 */
export function decideStop(
  state: ScheduleState,
  id: ScheduleId,
  now: number,
): Decision<{ readonly ok: true; readonly stopped: ScheduleValue }> {
  const record = state.active.get(id);
  if (record === undefined) return missing(state, id, "stop schedule");
  if (record.kind !== "recurring") {
    return toolError("schedule_not_active", `Cannot stop schedule: ${id} does not repeat`, { id });
  }
  const snoozes = [...state.active.values()].filter((r) =>
    r.kind !== "recurring" && r.snoozeOf?.id === id
  );
  return {
    ok: true,
    changes: [stopChange(id), ...snoozes.map((r) => deleteChange(r.id))],
    answer: { ok: true, stopped: scheduleValue(record, now) },
  };
}

/** The active snooze record of one delivered occurrence, if one is pending. */
function pendingSnooze(
  state: ScheduleState,
  snoozeOf: { readonly id: ScheduleId; readonly occurrenceAt: string },
): OneShotRecord | undefined {
  for (const record of state.active.values()) {
    if (
      record.kind !== "recurring" && record.snoozeOf?.id === snoozeOf.id &&
      record.snoozeOf.occurrenceAt === snoozeOf.occurrenceAt
    ) return record;
  }
  return undefined;
}

/** How far a snooze goes: a delay (the tool, the page's presets) or a chosen instant (the page). */
export type SnoozeTarget =
  | { readonly afterSeconds: number }
  | { readonly untilMs: number };

/**
 * `schedule_snooze`: an active one-shot moves (`update` to `after` the delay, keeping the id and
 * any `snoozeOf`); otherwise the latest delivered occurrence gets a new `at` record with
 * `snoozeOf`, so a series' cadence never shifts. An occurrence snoozed again while its snooze
 * record is pending moves that record instead (one snooze per occurrence, never two).
 *
 * A snooze of a reminder that has not fired only ever makes it later (docs/recurring.md
 * "Tools"): it lands at `max(current target, now) + after_seconds`, pushed back from its own
 * target, never pulled earlier. A snooze record (a new one, or the pending one of an occurrence
 * snoozed again) lands at `now + after_seconds`: the user picks the delay anew from now. A
 * chosen instant (`untilMs`, the page's "tomorrow morning" and "a chosen time") makes an `at`
 * record there and must be after that same base (`not_in_future` otherwise).
 */
export function decideSnooze(
  state: ScheduleState,
  request: { readonly id: ScheduleId } & SnoozeTarget,
  now: number,
  random: RandomBytes,
): Decision<RecordResult> {
  const { id } = request;
  const land = (
    base: number,
    fields: { id: ScheduleId; prompt: string; snoozeOf?: OneShotRecord["snoozeOf"] },
  ): ScheduleRecord | ToolFailure => {
    const snooze = fields.snoozeOf === undefined ? {} : { snoozeOf: fields.snoozeOf };
    if ("afterSeconds" in request) {
      const { afterSeconds } = request;
      const scheduledAt = formatInstant(base + afterSeconds * 1000);
      return {
        id: fields.id,
        kind: "after",
        prompt: fields.prompt,
        afterSeconds,
        scheduledAt,
        ...snooze,
      };
    }
    if (request.untilMs <= base) {
      return toolError(
        "not_in_future",
        `Cannot snooze schedule: ${formatInstant(request.untilMs)} is not after ${
          formatInstant(base)
        }`,
        { id },
      );
    }
    const scheduledAt = formatInstant(request.untilMs);
    return { id: fields.id, kind: "at", prompt: fields.prompt, scheduledAt, ...snooze };
  };
  const answer = (
    record: ScheduleRecord | ToolFailure,
    change: (r: ScheduleRecord) => ScheduleChange,
  ): Decision<RecordResult> =>
    "ok" in record ? record : {
      ok: true,
      changes: [change(record)],
      answer: { ok: true as const, ...scheduleValue(record, now) },
    };
  const move = (current: OneShotRecord): Decision<RecordResult> => {
    const base = current.snoozeOf === undefined ? Math.max(scheduledAtMs(current), now) : now;
    return answer(land(base, current), updateChange);
  };
  const current = state.active.get(id);
  if (current !== undefined && current.kind !== "recurring") return move(current);
  const delivered = state.delivered.get(id);
  if (delivered === undefined) {
    return current === undefined ? missing(state, id, "snooze schedule") : toolError(
      "schedule_not_active",
      `Cannot snooze schedule: ${id} has not fired yet; update it instead`,
      { id },
    );
  }
  const snoozeOf = { id, occurrenceAt: delivered.occurrenceAt };
  const pending = pendingSnooze(state, snoozeOf);
  if (pending !== undefined) return move(pending);
  const newId = makeScheduleId(random, { avoid: state.seen });
  const made = land(now, { id: newId, prompt: delivered.record.prompt, snoozeOf });
  // A new snooze record is always an `at` record (due at a fixed instant).
  const record = "ok" in made || made.kind === "at" ? made : {
    id: newId,
    kind: "at" as const,
    prompt: made.prompt,
    scheduledAt: made.scheduledAt,
    snoozeOf,
  };
  return answer(record, createChange);
}
