/**
// Frozen copy of decoder.ts before protocol v2 (reference for fold_v2_test.ts). Not a test suite.
 * The strict version 1 `schedule/change` decoder and typed constructors
 * (docs/design.md#session-log-authority-and-tools: unknown versions, extra fields and bad values
 * are refused).
 *
 * @module
 */
import { extraKeys, isPlainObject } from "./_shape.ts";
import { ScheduleError } from "./errors.ts";
import {
  type CreateChange,
  type DeleteChange,
  type DispatchChange,
  isScheduleId,
  type ScheduleChange,
  type ScheduleId,
  type ScheduleRecord,
} from "./protocol.ts";
import { isCanonicalInstant } from "./rfc3339.ts";

function fail(reason: string): never {
  throw new ScheduleError("invalid_event", `Cannot decode schedule/change: ${reason}`);
}

function exactKeys(
  value: Record<string, unknown>,
  where: string,
  keys: readonly string[],
): Record<string, unknown> {
  const extra = extraKeys(value, keys);
  if (extra.length > 0) fail(`${where} has unknown field ${JSON.stringify(extra[0])}`);
  const missing = keys.find((key) => !Object.hasOwn(value, key));
  if (missing !== undefined) fail(`${where} lacks ${JSON.stringify(missing)}`);
  return value;
}

function decodeId(value: unknown, where: string): ScheduleId {
  if (!isScheduleId(value)) fail(`${where} is not a schedule id`);
  return value;
}

function decodeRecord(value: unknown): ScheduleRecord {
  if (!isPlainObject(value)) fail("record is not an object");
  const { kind } = value;
  if (kind !== "after" && kind !== "at") fail("record.kind is not 'after' or 'at'");
  const keys = kind === "after"
    ? ["id", "kind", "prompt", "afterSeconds", "scheduledAt"]
    : ["id", "kind", "prompt", "scheduledAt"];
  const record = exactKeys(value, "record", keys);
  const id = decodeId(record.id, "record.id");
  const { prompt, scheduledAt, afterSeconds } = record;
  if (typeof prompt !== "string" || prompt.length === 0 || prompt.trim() !== prompt) {
    fail("record.prompt is not a trimmed non-empty string");
  }
  if (!isCanonicalInstant(scheduledAt)) fail("record.scheduledAt is not canonical UTC");
  if (kind === "at") return { id, kind, prompt, scheduledAt };
  if (!Number.isSafeInteger(afterSeconds) || (afterSeconds as number) <= 0) {
    fail("record.afterSeconds is not a positive safe integer");
  }
  return { id, kind, prompt, afterSeconds: afterSeconds as number, scheduledAt };
}

/**
 * Decodes the data of a `schedule/change` event. Refuses unknown versions, unknown or missing
 * fields at every level, wrong types, an untrimmed or empty prompt, a non-positive or unsafe
 * `afterSeconds`, a `scheduledAt` that is not canonical UTC with milliseconds, and malformed ids.
 *
 * @param data the event's `data`
 * @returns a fresh, typed change (discriminate on `op`)
 * @throws {ScheduleError} `invalid_event`
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { decodeScheduleChange } from "./decoder.ts";
 * const change = decodeScheduleChange({ version: 1, op: "delete", id: "sch_AbCd1234" });
 * assert(change.op === "delete");
 * ```
 */
export function decodeScheduleChange(data: unknown): ScheduleChange {
  if (!isPlainObject(data)) fail("data is not an object");
  if (data.version !== 1) fail("version is not 1");
  const { op } = data;
  switch (op) {
    case "create": {
      const change = exactKeys(data, "change", ["version", "op", "record"]);
      return { version: 1, op, record: decodeRecord(change.record) };
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
 * Builds the data of a `create` change, validated by the decoder so nothing unreadable is ever
 * appended.
 *
 * @param record the new record
 * @returns `{ version: 1, op: 'create', record }` (a fresh copy)
 * @throws {ScheduleError} `invalid_event` when the record would not decode
 */
export function createChange(record: ScheduleRecord): CreateChange {
  return decodeScheduleChange({ version: 1, op: "create", record: { ...record } }) as CreateChange;
}

/**
 * Builds the data of a `delete` change.
 *
 * @param id the active record's id
 * @returns `{ version: 1, op: 'delete', id }`
 * @throws {ScheduleError} `invalid_event` for a malformed id
 */
export function deleteChange(id: ScheduleId): DeleteChange {
  return decodeScheduleChange({ version: 1, op: "delete", id }) as DeleteChange;
}

/**
 * Builds the data of a `dispatch` change (it stores only the id: the active record already
 * determines the occurrence).
 *
 * @param id the active record's id
 * @returns `{ version: 1, op: 'dispatch', id }`
 * @throws {ScheduleError} `invalid_event` for a malformed id
 */
export function dispatchChange(id: ScheduleId): DispatchChange {
  return decodeScheduleChange({ version: 1, op: "dispatch", id }) as DispatchChange;
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
