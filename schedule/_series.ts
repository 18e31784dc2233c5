// Private: the series transitions `pause`, `resume` and `exclude` (docs/recurring.md
// "Transitions"): the shape checks of `schedule_pause`, `schedule_resume` and `schedule_skip`, and
// their pure decisions over the folded state, run by _tx.ts for the tools and the page actions.
import { parseArgs, PAUSE_ARGS, RESUME_ARGS, SKIP_ARGS } from "./_args.ts";
import { missing } from "./_decide.ts";
import { isPlainObject } from "./_shape.ts";
import type { Decision } from "./_tx.ts";
import { excludeChange, pauseChange, resumeChange } from "./decoder.ts";
import { toolError, type ToolFailure } from "./errors.ts";
import type { ScheduleState } from "./fold.ts";
import { type RecurringRecord, scheduledAtMs, type ScheduleId } from "./protocol.ts";
import { nextOccurrence } from "./recurrence.ts";
import { formatInstant, MAX_INSTANT_MS, parseStrictInstant } from "./rfc3339.ts";
import type { Validated } from "./rules.ts";
import { type RecordResult, scheduleValue } from "./value.ts";

/** `schedule_pause` / `schedule_resume` arguments after the shape check. */
export interface SeriesRequest {
  /** The series' id. */
  readonly id: ScheduleId;
}

/** `schedule_skip` arguments after the shape check. */
export interface SkipRequest {
  /** The series' id. */
  readonly id: ScheduleId;
  /** The occurrence to exclude, epoch ms (UTC); default: the next one. */
  readonly occurrenceAt?: number;
}

/** What `schedule_skip` answers: the series after the exclusion. */
export type SkipResult = RecordResult & {
  /** The excluded occurrence, canonical UTC. */
  readonly skipped: string;
  /** Present when that was the last occurrence: the series ended. */
  readonly ended?: true;
};

function notObject(action: string): ToolFailure {
  return toolError("invalid_arguments", `Cannot ${action}: arguments are not an object`);
}

/** Shape check of `schedule_pause` or `schedule_resume`: exactly `{ id }`. */
export function validateSeriesArgs(
  action: "pause schedule" | "resume schedule",
): (args: unknown) => Validated<SeriesRequest> {
  const schema = action === "pause schedule" ? PAUSE_ARGS : RESUME_ARGS;
  return (args) => {
    if (!isPlainObject(args)) return notObject(action);
    const parsed = parseArgs(schema, args, action);
    return parsed.ok ? { ok: true, value: { id: parsed.value.id as ScheduleId } } : parsed;
  };
}

/** Shape check of `schedule_skip`: `{ id, occurrence_at? }`, an RFC 3339 instant. */
export function validateSkipArgs(args: unknown): Validated<SkipRequest> {
  const action = "skip occurrence";
  if (!isPlainObject(args)) return notObject(action);
  const parsed = parseArgs(SKIP_ARGS, args, action);
  if (!parsed.ok) return parsed;
  const id = parsed.value.id as ScheduleId;
  const at = parsed.value.occurrence_at;
  if (at === undefined) return { ok: true, value: { id } };
  let occurrenceAt: number;
  try {
    occurrenceAt = parseStrictInstant(at);
  } catch {
    return toolError(
      "invalid_arguments",
      `Cannot ${action}: occurrence_at ${JSON.stringify(at)} is not an RFC 3339 instant`,
    );
  }
  return { ok: true, value: { id, occurrenceAt } };
}

/** The active series `id`, or the failure naming why it is not one. */
function seriesOf(
  state: ScheduleState,
  id: ScheduleId,
  action: string,
): RecurringRecord | ToolFailure {
  const record = state.active.get(id);
  if (record === undefined) return missing(state, id, action);
  if (record.kind !== "recurring") {
    return toolError("schedule_not_active", `Cannot ${action}: ${id} does not repeat`, { id });
  }
  return record;
}

function inactive(action: string, id: ScheduleId, reason: string): ToolFailure {
  return toolError("schedule_not_active", `Cannot ${action}: ${id} ${reason}`, { id });
}

/** A next occurrence the protocol can store, or `undefined` once the series is exhausted. */
function storable(next: number | undefined): number | undefined {
  return next === undefined || next > MAX_INSTANT_MS ? undefined : next;
}

/** `schedule_pause`: an active, unpaused series gets `pause`; it never fires until resumed. */
export function decidePause(
  state: ScheduleState,
  id: ScheduleId,
  now: number,
): Decision<RecordResult> {
  const action = "pause schedule";
  const record = seriesOf(state, id, action);
  if ("ok" in record) return record;
  if (record.paused) return inactive(action, id, "is already paused");
  const answer = { ok: true as const, ...scheduleValue({ ...record, paused: true }, now) };
  return { ok: true, changes: [pauseChange(id)], answer };
}

/**
 * `schedule_resume`: a paused series gets `resume` with `nextAt` = its first occurrence strictly
 * after the decision instant (never before its current target), so the occurrences the pause
 * swallowed are neither delivered nor counted as missed: no catch-up burst. A series with no
 * occurrence left answers `schedule_not_active`.
 */
export function decideResume(
  state: ScheduleState,
  id: ScheduleId,
  now: number,
): Decision<RecordResult> {
  const action = "resume schedule";
  const record = seriesOf(state, id, action);
  if ("ok" in record) return record;
  if (!record.paused) return inactive(action, id, "is not paused");
  const next = storable(nextOccurrence(record, Math.max(now, scheduledAtMs(record) - 1)));
  if (next === undefined) return inactive(action, id, "has no occurrence left");
  const nextAt = formatInstant(next);
  const { paused: _, ...rest } = record;
  const answer = { ok: true as const, ...scheduleValue({ ...rest, scheduledAt: nextAt }, now) };
  return { ok: true, changes: [resumeChange(id, nextAt)], answer };
}

/**
 * `schedule_skip`: one occurrence is excluded (`exclude`, RFC 5545 EXDATE). It must be an
 * occurrence of the series not yet excluded, at or after its current target (a paused series:
 * strictly after now); default: the next one (the current target, or for a paused series the
 * first occurrence after now). Excluding the current target moves the target to the next
 * occurrence, or ends an exhausted series.
 */
export function decideSkip(
  state: ScheduleState,
  request: SkipRequest,
  now: number,
): Decision<SkipResult> {
  const action = "skip occurrence";
  const { id } = request;
  const record = seriesOf(state, id, action);
  if ("ok" in record) return record;
  const target = scheduledAtMs(record);
  const floor = record.paused ? Math.max(now, target - 1) : target - 1;
  let at = request.occurrenceAt;
  if (at === undefined) {
    at = storable(nextOccurrence(record, floor));
    if (at === undefined) return inactive(action, id, "has no occurrence left");
  } else if (at <= floor || nextOccurrence(record, at - 1) !== at) {
    return toolError(
      "not_an_occurrence",
      `Cannot ${action}: ${formatInstant(at)} is not a coming occurrence of ${id}`,
      { id },
    );
  }
  const occurrenceAt = formatInstant(at);
  const exdates = [...(record.exdates ?? []), occurrenceAt].sort();
  const excluded = { ...record, exdates };
  let nextAt: string | null = record.scheduledAt;
  if (at === target) {
    const next = storable(nextOccurrence(excluded, at));
    nextAt = next === undefined ? null : formatInstant(next);
  }
  const value = scheduleValue({ ...excluded, scheduledAt: nextAt ?? record.scheduledAt }, now);
  const answer = {
    ok: true as const,
    ...value,
    skipped: occurrenceAt,
    ...(nextAt === null ? { ended: true as const } : {}),
  };
  return { ok: true, changes: [excludeChange(id, occurrenceAt, nextAt)], answer };
}
