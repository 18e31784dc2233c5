/**
 * The version 1 `schedule/change` protocol: the only durable schedule authority
 * (seed §"Session 日志权威与工具"; ARCHITECTURE.md §4).
 *
 * @module
 */
import type { SessionEvent } from "@chime/session";

/** The event type of every schedule change in the session log. */
export const SCHEDULE_CHANGE = "schedule/change" as const;

/**
 * A schedule id: `sch_` followed by 8–64 url-safe characters (`[A-Za-z0-9_-]`). Branded so a
 * plain string cannot be passed where a validated id is required. Never reused inside one
 * session's own suffix.
 */
export type ScheduleId = string & { readonly __brand: "ScheduleId" };

const SCHEDULE_ID = /^sch_[A-Za-z0-9_-]{8,64}$/;
const ID_BYTES = 12;
const MAX_ID_ATTEMPTS = 16;

/**
 * Tells whether a value is a well-formed {@linkcode ScheduleId}.
 *
 * @param value any value
 * @returns `true` for `sch_` + 8–64 url-safe characters
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { isScheduleId } from "./protocol.ts";
 * assert(isScheduleId("sch_AbCd1234"));
 * assert(!isScheduleId("sch_short"));
 * ```
 */
export function isScheduleId(value: unknown): value is ScheduleId {
  return typeof value === "string" && SCHEDULE_ID.test(value);
}

/** Source of random bytes, e.g. `(n) => crypto.getRandomValues(new Uint8Array(n))`. */
export type RandomBytes = (length: number) => Uint8Array;

/** Options of {@linkcode makeScheduleId}. */
export interface MakeScheduleIdOptions {
  /** Ids that must not be returned (the fold's `seen` set). @default an empty set */
  readonly avoid?: ReadonlySet<string>;
}

/**
 * Allocates a fresh id: `sch_` + the base64url encoding of 12 random bytes (16 characters).
 * Randomness is injected so tests are deterministic.
 *
 * @param random the random byte source
 * @param options ids to avoid (the fold's `seen` set, so ids are never reused)
 * @returns a new id not in `options.avoid`
 * @throws {RangeError} when `random` returns fewer than 12 bytes, or keeps returning avoided
 *   ids (16 attempts)
 *
 * @example Deterministic in tests
 * ```ts
 * import assert from "node:assert/strict";
 * import { makeScheduleId } from "./protocol.ts";
 * const id = makeScheduleId((n) => new Uint8Array(n));
 * assert(id === "sch_AAAAAAAAAAAAAAAA");
 * ```
 */
export function makeScheduleId(
  random: RandomBytes,
  options: MakeScheduleIdOptions = {},
): ScheduleId {
  for (let attempt = 0; attempt < MAX_ID_ATTEMPTS; attempt++) {
    const bytes = random(ID_BYTES);
    if (bytes.length < ID_BYTES) {
      throw new RangeError(`Cannot make schedule id: ${bytes.length} random bytes, need 12`);
    }
    const text = btoa(String.fromCharCode(...bytes.subarray(0, ID_BYTES)))
      .replaceAll("+", "-").replaceAll("/", "_");
    const id = `sch_${text}` as ScheduleId;
    if (!options.avoid?.has(id)) return id;
  }
  throw new RangeError("Cannot make schedule id: every candidate was already used");
}

/** A one-shot delay: due `afterSeconds` after creation. */
export interface AfterRecord {
  /** Stable id. */
  readonly id: ScheduleId;
  /** Rule kind. */
  readonly kind: "after";
  /** The user's reminder text, trimmed, non-empty. */
  readonly prompt: string;
  /** The requested delay in seconds (positive safe integer). */
  readonly afterSeconds: number;
  /** Target instant, canonical UTC RFC 3339 with milliseconds and `Z`. */
  readonly scheduledAt: string;
}

/** A one-shot absolute target (from an explicit instant or a resolved local time). */
export interface AtRecord {
  /** Stable id. */
  readonly id: ScheduleId;
  /** Rule kind. */
  readonly kind: "at";
  /** The user's reminder text, trimmed, non-empty. */
  readonly prompt: string;
  /** Target instant, canonical UTC RFC 3339 with milliseconds and `Z`. */
  readonly scheduledAt: string;
}

/** A durable schedule record; only the UTC target is stored, never local fields or offsets. */
export type ScheduleRecord = AfterRecord | AtRecord;

/** Creates a record. */
export interface CreateChange {
  /** Protocol version. */
  readonly version: 1;
  /** Operation. */
  readonly op: "create";
  /** The new record. */
  readonly record: ScheduleRecord;
}

/** Terminates an active record at the user's request. */
export interface DeleteChange {
  /** Protocol version. */
  readonly version: 1;
  /** Operation. */
  readonly op: "delete";
  /** The record's id. */
  readonly id: ScheduleId;
}

/** Terminates an active record once its reminder was handed to the agent. */
export interface DispatchChange {
  /** Protocol version. */
  readonly version: 1;
  /** Operation. */
  readonly op: "dispatch";
  /** The record's id; the active record determines the occurrence. */
  readonly id: ScheduleId;
}

/** Data of a `schedule/change` event (version 1). */
export type ScheduleChange = CreateChange | DeleteChange | DispatchChange;

/** A `schedule/change` event whose data has been decoded. */
export type ScheduleChangeEvent = SessionEvent<typeof SCHEDULE_CHANGE, ScheduleChange>;

/**
 * The target of a record in epoch milliseconds (UTC).
 *
 * @param record a decoded record (its `scheduledAt` is canonical)
 * @returns epoch ms
 */
export function scheduledAtMs(record: ScheduleRecord): number {
  return Date.parse(record.scheduledAt);
}
