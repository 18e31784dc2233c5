/**
 * The strict `schedule/change` decoder (versions 1 and 2) and typed constructors
 * (docs/design.md#session-log-authority-and-tools: unknown versions, extra fields and bad values
 * are refused; docs/recurring.md for version 2).
 *
 * @module
 */
import { normalizeTimeZone } from "@chime/session/zone";
import { extraKeys, isPlainObject } from "./_shape.ts";
import { ScheduleError } from "./errors.ts";
import {
  type CreateChange,
  type DeleteChange,
  type DispatchChange,
  type ExcludeChange,
  isScheduleId,
  type OccurrenceFacts,
  type PauseChange,
  type RecurringDispatchChange,
  type ResumeChange,
  type ScheduleChange,
  type ScheduleId,
  type ScheduleRecord,
  type SkipChange,
  type SnoozeOf,
  type StopChange,
  type UpdateChange,
} from "./protocol.ts";
import { canonicalRule, type RecurrenceSeries, validateSeries } from "./recurrence.ts";
import { isCanonicalInstant } from "./rfc3339.ts";

function fail(reason: string): never {
  throw new ScheduleError("invalid_event", `Cannot decode schedule/change: ${reason}`);
}

function exactKeys(
  value: Record<string, unknown>,
  where: string,
  keys: readonly string[],
  optional: readonly string[] = [],
): Record<string, unknown> {
  const extra = extraKeys(value, [...keys, ...optional]);
  if (extra.length > 0) fail(`${where} has unknown field ${JSON.stringify(extra[0])}`);
  const missing = keys.find((key) => !Object.hasOwn(value, key));
  if (missing !== undefined) fail(`${where} lacks ${JSON.stringify(missing)}`);
  return value;
}

function decodeId(value: unknown, where: string): ScheduleId {
  if (!isScheduleId(value)) fail(`${where} is not a schedule id`);
  return value;
}

function instant(value: unknown, where: string): string {
  if (!isCanonicalInstant(value)) fail(`${where} is not canonical UTC`);
  return value;
}

function positive(value: unknown, where: string): number {
  if (!Number.isSafeInteger(value) || (value as number) <= 0) {
    fail(`${where} is not a positive safe integer`);
  }
  return value as number;
}

function decodeSnoozeOf(value: unknown): SnoozeOf {
  if (!isPlainObject(value)) fail("record.snoozeOf is not an object");
  exactKeys(value, "record.snoozeOf", ["id", "occurrenceAt"]);
  return {
    id: decodeId(value.id, "record.snoozeOf.id"),
    occurrenceAt: instant(value.occurrenceAt, "record.snoozeOf.occurrenceAt"),
  };
}

function decodeSeries(record: Record<string, unknown>): RecurrenceSeries {
  const { rrule, dtstart, timeZone } = record;
  if (typeof rrule !== "string" || typeof dtstart !== "string" || typeof timeZone !== "string") {
    fail("record.rrule, dtstart and timeZone must be strings");
  }
  let canonical: string;
  try {
    canonical = canonicalRule(rrule);
    validateSeries({ rrule, dtstart, timeZone }, { mustOccur: false });
  } catch (cause) {
    throw new ScheduleError("invalid_event", "Cannot decode schedule/change: bad series", {
      cause,
    });
  }
  if (canonical !== rrule) fail("record.rrule is not in canonical form");
  if (normalizeTimeZone(timeZone) !== timeZone) fail("record.timeZone is not case-normalized");
  return { rrule, dtstart, timeZone };
}

function decodeRecord(value: unknown, version: 1 | 2): ScheduleRecord {
  if (!isPlainObject(value)) fail("record is not an object");
  const { kind } = value;
  const kinds = version === 1 ? ["after", "at"] : ["after", "at", "recurring"];
  if (typeof kind !== "string" || !kinds.includes(kind)) {
    fail(`record.kind is not one of ${kinds.join(", ")} (version ${version})`);
  }
  const keys = kind === "after"
    ? ["id", "kind", "prompt", "afterSeconds", "scheduledAt"]
    : kind === "at"
    ? ["id", "kind", "prompt", "scheduledAt"]
    : ["id", "kind", "prompt", "rrule", "dtstart", "timeZone", "scheduledAt"];
  const optional = version === 1 ? [] : kind === "recurring" ? ["catchUpSeconds"] : ["snoozeOf"];
  const record = exactKeys(value, "record", keys, optional);
  const id = decodeId(record.id, "record.id");
  const { prompt } = record;
  if (typeof prompt !== "string" || prompt.length === 0 || prompt.trim() !== prompt) {
    fail("record.prompt is not a trimmed non-empty string");
  }
  const scheduledAt = instant(record.scheduledAt, "record.scheduledAt");
  if (kind === "recurring") {
    const series = decodeSeries(record);
    return {
      id,
      kind,
      prompt,
      ...series,
      scheduledAt,
      ...(Object.hasOwn(record, "catchUpSeconds")
        ? { catchUpSeconds: positive(record.catchUpSeconds, "record.catchUpSeconds") }
        : {}),
    };
  }
  const snooze = Object.hasOwn(record, "snoozeOf")
    ? { snoozeOf: decodeSnoozeOf(record.snoozeOf) }
    : {};
  if (kind === "at") return { id, kind, prompt, scheduledAt, ...snooze };
  const afterSeconds = positive(record.afterSeconds, "record.afterSeconds");
  return { id, kind: "after", prompt, afterSeconds, scheduledAt, ...snooze };
}

function occurrence(change: Record<string, unknown>): OccurrenceFacts {
  const occurrenceAt = instant(change.occurrenceAt, "occurrenceAt");
  const { missed, nextAt } = change;
  if (!Number.isSafeInteger(missed) || (missed as number) < 0) {
    fail("missed is not a non-negative safe integer");
  }
  if (nextAt !== null) instant(nextAt, "nextAt");
  return { occurrenceAt, missed: missed as number, nextAt: nextAt as string | null };
}

function decodeV2(data: Record<string, unknown>): ScheduleChange {
  const { op } = data;
  switch (op) {
    case "create": {
      const change = exactKeys(data, "change", ["version", "op", "record"]);
      return { version: 2, op, record: decodeRecord(change.record, 2) };
    }
    case "update": {
      const change = exactKeys(data, "change", ["version", "op", "id", "record"]);
      const id = decodeId(change.id, "id");
      const record = decodeRecord(change.record, 2);
      if (record.id !== id) fail("record.id differs from id");
      return { version: 2, op, id, record };
    }
    case "delete":
    case "stop":
    case "pause": {
      const change = exactKeys(data, "change", ["version", "op", "id"]);
      return { version: 2, op, id: decodeId(change.id, "id") };
    }
    case "resume": {
      const change = exactKeys(data, "change", ["version", "op", "id", "nextAt"]);
      const id = decodeId(change.id, "id");
      return { version: 2, op, id, nextAt: instant(change.nextAt, "nextAt") };
    }
    case "exclude": {
      const keys = ["version", "op", "id", "occurrenceAt", "nextAt"];
      const change = exactKeys(data, "change", keys);
      const id = decodeId(change.id, "id");
      const occurrenceAt = instant(change.occurrenceAt, "occurrenceAt");
      const nextAt = change.nextAt === null ? null : instant(change.nextAt, "nextAt");
      return { version: 2, op, id, occurrenceAt, nextAt };
    }
    case "dispatch": {
      if (Object.hasOwn(data, "held") && data.held !== true) fail("held is not true");
      const held = data.held === true ? { held: true as const } : {};
      if (!Object.hasOwn(data, "occurrenceAt")) {
        const change = exactKeys(data, "change", ["version", "op", "id"], ["held"]);
        return { version: 2, op, id: decodeId(change.id, "id"), ...held };
      }
      const change = exactKeys(data, "change", [
        "version",
        "op",
        "id",
        "occurrenceAt",
        "missed",
        "nextAt",
      ], ["held"]);
      return { version: 2, op, id: decodeId(change.id, "id"), ...occurrence(change), ...held };
    }
    case "skip": {
      const keys = ["version", "op", "id", "occurrenceAt", "missed", "nextAt", "reason"];
      const change = exactKeys(data, "change", keys);
      if (change.reason !== "catch-up-window") fail("reason is not 'catch-up-window'");
      const id = decodeId(change.id, "id");
      return { version: 2, op, id, ...occurrence(change), reason: "catch-up-window" };
    }
    default:
      return fail(
        "op is not create, update, delete, dispatch, skip, stop, pause, resume or exclude",
      );
  }
}

/**
 * Decodes the data of a `schedule/change` event, version 1 (unchanged: `create` of an `after`
 * or `at` record, `delete`, `dispatch`) or version 2 (docs/recurring.md "Transitions": also
 * recurring records, `snoozeOf`, `update`, the recurring `dispatch`, `skip`, `stop`, `pause`,
 * `resume` and `exclude`). A record in a `create` or `update` never carries the folded-only
 * `paused` or `exdates`.
 * Refuses other versions, unknown or missing fields at every level, wrong types, an untrimmed or
 * empty prompt, a non-positive or unsafe `afterSeconds` or `catchUpSeconds`, instants that are
 * not canonical UTC with milliseconds, an `rrule` outside the subset or not canonical, a bad
 * DTSTART, a zone that is not a case-normalized IANA name, and malformed ids.
 *
 * @param data the event's `data`
 * @returns a fresh, typed change (discriminate on `op`, then `version`)
 * @throws {ScheduleError} `invalid_event`
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { decodeScheduleChange } from "@chime/schedule";
 * const change = decodeScheduleChange({ version: 1, op: "delete", id: "sch_AbCd1234" });
 * assert(change.op === "delete");
 * ```
 */
export function decodeScheduleChange(data: unknown): ScheduleChange {
  if (!isPlainObject(data)) fail("data is not an object");
  if (data.version === 2) return decodeV2(data);
  if (data.version !== 1) fail("version is not 1 or 2");
  const { op } = data;
  switch (op) {
    case "create": {
      const change = exactKeys(data, "change", ["version", "op", "record"]);
      return { version: 1, op, record: decodeRecord(change.record, 1) };
    }
    case "delete":
    case "dispatch": {
      const change = exactKeys(data, "change", ["version", "op", "id"]);
      return { version: 1, op, id: decodeId(change.id, "id") };
    }
    default:
      return fail("op is not 'create', 'delete' or 'dispatch'");
  }
}

/**
 * Decodes like {@linkcode decodeScheduleChange} but returns `undefined` instead of throwing;
 * for readers that must tolerate foreign data (e.g. rendering history).
 *
 * @param data the event's `data`
 * @returns the change, or `undefined` when it does not decode
 */
export function tryDecodeScheduleChange(data: unknown): ScheduleChange | undefined {
  try {
    return decodeScheduleChange(data);
  } catch {
    return undefined;
  }
}

/**
 * Builds the data of a `create` change (version 2), validated by the decoder so nothing
 * unreadable is ever appended.
 *
 * @param record the new record
 * @returns `{ version: 2, op: 'create', record }` (a fresh copy)
 * @throws {ScheduleError} `invalid_event` when the record would not decode
 */
export function createChange(record: ScheduleRecord): CreateChange {
  return decodeScheduleChange({ version: 2, op: "create", record: { ...record } }) as CreateChange;
}

/**
 * Builds the data of an `update` change: the active record `record.id` is replaced.
 *
 * @param record the replacement (its id names the record to replace)
 * @returns `{ version: 2, op: 'update', id, record }`
 * @throws {ScheduleError} `invalid_event` when the record would not decode
 */
export function updateChange(record: ScheduleRecord): UpdateChange {
  const data = { version: 2, op: "update", id: record.id, record: { ...record } };
  return decodeScheduleChange(data) as UpdateChange;
}

/**
 * Builds the data of a `delete` change.
 *
 * @param id the active record's id
 * @returns `{ version: 2, op: 'delete', id }`
 * @throws {ScheduleError} `invalid_event` for a malformed id
 */
export function deleteChange(id: ScheduleId): DeleteChange {
  return decodeScheduleChange({ version: 2, op: "delete", id }) as DeleteChange;
}

/**
 * Builds the data of a `stop` change ("stop repeating" a recurring record).
 *
 * @param id the active recurring record's id
 * @returns `{ version: 2, op: 'stop', id }`
 * @throws {ScheduleError} `invalid_event` for a malformed id
 */
export function stopChange(id: ScheduleId): StopChange {
  return decodeScheduleChange({ version: 2, op: "stop", id }) as StopChange;
}

/**
 * Builds the data of a `pause` change (a recurring record stops firing).
 *
 * @param id the active, unpaused recurring record's id
 * @returns `{ version: 2, op: 'pause', id }`
 * @throws {ScheduleError} `invalid_event` for a malformed id
 */
export function pauseChange(id: ScheduleId): PauseChange {
  return decodeScheduleChange({ version: 2, op: "pause", id }) as PauseChange;
}

/**
 * Builds the data of a `resume` change.
 *
 * @param id the paused recurring record's id
 * @param nextAt its new target: the first occurrence strictly after the decision instant
 * @returns `{ version: 2, op: 'resume', id, nextAt }`
 * @throws {ScheduleError} `invalid_event` for a malformed id or instant
 */
export function resumeChange(id: ScheduleId, nextAt: string): ResumeChange {
  return decodeScheduleChange({ version: 2, op: "resume", id, nextAt }) as ResumeChange;
}

/**
 * Builds the data of an `exclude` change (RFC 5545 EXDATE of one occurrence).
 *
 * @param id the active recurring record's id
 * @param occurrenceAt the excluded occurrence, canonical UTC
 * @param nextAt the target after the exclusion, or `null` when none is left
 * @returns `{ version: 2, op: 'exclude', id, occurrenceAt, nextAt }`
 * @throws {ScheduleError} `invalid_event` for a malformed id or instant
 */
export function excludeChange(
  id: ScheduleId,
  occurrenceAt: string,
  nextAt: string | null,
): ExcludeChange {
  const data = { version: 2, op: "exclude", id, occurrenceAt, nextAt };
  return decodeScheduleChange(data) as ExcludeChange;
}

/**
 * Builds the data of a one-shot `dispatch` change (it stores only the id: the active record
 * already determines the occurrence).
 *
 * @param id the active record's id
 * @param held `true` when the owner held the delivery for the hourly budget (docs/recurring.md
 *   "Delivery")
 * @returns `{ version: 2, op: 'dispatch', id, held? }`
 * @throws {ScheduleError} `invalid_event` for a malformed id
 */
export function dispatchChange(id: ScheduleId, held = false): DispatchChange {
  const data = { version: 2, op: "dispatch", id, ...(held ? { held } : {}) };
  return decodeScheduleChange(data) as DispatchChange;
}

/**
 * Builds the data of a recurring `dispatch` or a `skip` change.
 *
 * @param op `dispatch` (delivered) or `skip` (outside the catch-up window)
 * @param id the active recurring record's id
 * @param facts the occurrence, how many were coalesced, and the next target or `null`
 * @param held a `dispatch` the owner held for the hourly budget (docs/recurring.md "Delivery");
 *   ignored for a `skip`
 * @returns the change
 * @throws {ScheduleError} `invalid_event` for malformed facts
 */
export function occurrenceChange(
  op: "dispatch" | "skip",
  id: ScheduleId,
  facts: OccurrenceFacts,
  held = false,
): RecurringDispatchChange | SkipChange {
  const data = op === "skip"
    ? { version: 2, op, id, ...facts, reason: "catch-up-window" }
    : { version: 2, op, id, ...facts, ...(held ? { held } : {}) };
  return decodeScheduleChange(data) as RecurringDispatchChange | SkipChange;
}

/**
 * Encodes a change as plain JSON-compatible data; the inverse of
 * {@linkcode decodeScheduleChange} (`decode(encode(c))` deep-equals `c`).
 *
 * @param change a change
 * @returns a fresh plain object with only protocol fields
 * @throws {ScheduleError} `invalid_event` when the change would not decode
 */
export function encodeScheduleChange(change: ScheduleChange): ScheduleChange {
  return decodeScheduleChange(structuredClone(change));
}

// Types in the signatures above, re-exported for documentation.
export type {
  CreateChange,
  DeleteChange,
  DispatchChange,
  ExcludeChange,
  OccurrenceFacts,
  PauseChange,
  RecurringDispatchChange,
  ResumeChange,
  ScheduleChange,
  ScheduleId,
  ScheduleRecord,
  SkipChange,
  StopChange,
  UpdateChange,
} from "./protocol.ts";
export type { OneShotRecord, RecurringRecord } from "./protocol.ts";
export type { AfterRecord, AtRecord } from "./protocol.ts";
export type { SnoozeOf } from "./protocol.ts";
