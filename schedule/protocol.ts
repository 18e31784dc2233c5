/**
 * The `schedule/change` protocol, version 1 (one-shots;
 * docs/design.md#session-log-authority-and-tools, docs/events.md#schedule-change) and version 2
 * (recurring series, update, skip, stop, snooze, pause, resume and exclude; docs/recurring.md):
 * the only durable schedule authority.
 *
 * @module
 */
import type { SessionEvent } from "@chime/session/event";

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
 * import { isScheduleId } from "@chime/schedule";
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
 * import { makeScheduleId } from "@chime/schedule";
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

/** What a snooze record snoozes: a reminder and one of its delivered occurrences (v2 only). */
export interface SnoozeOf {
  /** The snoozed reminder's id. */
  readonly id: ScheduleId;
  /** The snoozed occurrence, canonical UTC. */
  readonly occurrenceAt: string;
}

/** A one-shot delay: due `afterSeconds` after creation. */
export interface AfterRecord {
  /** Stable id. */
  readonly id: ScheduleId;
  /** Rule kind. */
  readonly kind: "after";
  /** The user's reminder text, trimmed, non-empty. */
  readonly prompt: string;
  /**
   * The requested delay in seconds (positive safe integer): from creation, or, for a one-shot a
   * snooze moved before it fired, from the later of its previous target and the snooze
   * (docs/recurring.md "Tools").
   */
  readonly afterSeconds: number;
  /** Target instant, canonical UTC RFC 3339 with milliseconds and `Z`. */
  readonly scheduledAt: string;
  /** Only on a record a snooze created (version 2). */
  readonly snoozeOf?: SnoozeOf;
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
  /** Only on a record a snooze created (version 2). */
  readonly snoozeOf?: SnoozeOf;
}

/**
 * A recurring series (version 2 only; docs/recurring.md "Records"): an RFC 5545 RRULE value in
 * canonical form, expanded in local wall-clock time from `dtstart` in `timeZone`.
 */
export interface RecurringRecord {
  /** Stable id. */
  readonly id: ScheduleId;
  /** Rule kind. */
  readonly kind: "recurring";
  /** The user's reminder text, trimmed, non-empty. */
  readonly prompt: string;
  /** RRULE value without the `RRULE:` prefix, canonical (see `canonicalRule`). */
  readonly rrule: string;
  /** Local DTSTART `YYYY-MM-DDTHH:MM:SS`, no offset. */
  readonly dtstart: string;
  /** IANA zone (TZID), case-normalized. */
  readonly timeZone: string;
  /**
   * In a `create` or `update`: the first target, canonical UTC. In a folded state: the current
   * target (the last dispatch's or skip's `nextAt`).
   */
  readonly scheduledAt: string;
  /** Occurrences later than this many seconds are skipped, not delivered (positive). */
  readonly catchUpSeconds?: number;
  /**
   * Folded state only (never in a `create` or `update`): the series is paused by a `pause` and
   * never fires until a `resume` (docs/recurring.md "Transitions").
   */
  readonly paused?: true;
  /**
   * Folded state only: occurrences excluded by `exclude` changes (RFC 5545 EXDATE), canonical
   * UTC, ascending, no duplicates; still counted by `COUNT`.
   */
  readonly exdates?: readonly string[];
}

/** A one-shot record (the only kinds of version 1, where `snoozeOf` is refused). */
export type OneShotRecord = AfterRecord | AtRecord;

/** A durable schedule record; only UTC targets are stored, plus a series' local DTSTART. */
export type ScheduleRecord = OneShotRecord | RecurringRecord;

/** Creates a record (version 1: one-shot records without `snoozeOf`). */
export interface CreateChange {
  /** Protocol version. */
  readonly version: 1 | 2;
  /** Operation. */
  readonly op: "create";
  /** The new record. */
  readonly record: ScheduleRecord;
}

/** Replaces an active record, keeping its id (version 2; the kind may change). */
export interface UpdateChange {
  /** Protocol version. */
  readonly version: 2;
  /** Operation. */
  readonly op: "update";
  /** The active record's id (equal to `record.id`). */
  readonly id: ScheduleId;
  /** The replacement. */
  readonly record: ScheduleRecord;
}

/** Terminates an active record at the user's request. */
export interface DeleteChange {
  /** Protocol version. */
  readonly version: 1 | 2;
  /** Operation. */
  readonly op: "delete";
  /** The record's id. */
  readonly id: ScheduleId;
}

/** Terminates an active one-shot record once its reminder was handed to the agent. */
export interface DispatchChange {
  /** Protocol version. */
  readonly version: 1 | 2;
  /** Operation. */
  readonly op: "dispatch";
  /** The record's id; the active record determines the occurrence. */
  readonly id: ScheduleId;
  /**
   * Version 2 only: the owner held this delivery for the per-session hourly budget
   * (docs/recurring.md "Delivery"); a late card names the hourly limit from it.
   */
  readonly held?: true;
}

/** The occurrence facts shared by a recurring dispatch and a skip. */
export interface OccurrenceFacts {
  /** The delivered (or skipped) occurrence, canonical UTC. */
  readonly occurrenceAt: string;
  /** Earlier occurrences coalesced into this one (≥ 0). */
  readonly missed: number;
  /** The next target, canonical UTC, or `null`: the series is exhausted (terminal). */
  readonly nextAt: string | null;
}

/** Delivers one occurrence of a recurring record (version 2); terminal only when `nextAt` is null. */
export interface RecurringDispatchChange extends OccurrenceFacts {
  /** Protocol version. */
  readonly version: 2;
  /** Operation. */
  readonly op: "dispatch";
  /** The recurring record's id. */
  readonly id: ScheduleId;
  /**
   * The owner held this delivery for the per-session hourly budget (docs/recurring.md
   * "Delivery"); a late card names the hourly limit from it.
   */
  readonly held?: true;
}

/** A recurring occurrence outside its catch-up window: reported, not delivered (version 2). */
export interface SkipChange extends OccurrenceFacts {
  /** Protocol version. */
  readonly version: 2;
  /** Operation. */
  readonly op: "skip";
  /** The recurring record's id. */
  readonly id: ScheduleId;
  /** Why it was skipped. */
  readonly reason: "catch-up-window";
}

/** "Stop repeating": terminates an active recurring record (version 2). */
export interface StopChange {
  /** Protocol version. */
  readonly version: 2;
  /** Operation. */
  readonly op: "stop";
  /** The recurring record's id. */
  readonly id: ScheduleId;
}

/** "Pause": an active, unpaused recurring record stops firing, keeping its id (version 2). */
export interface PauseChange {
  /** Protocol version. */
  readonly version: 2;
  /** Operation. */
  readonly op: "pause";
  /** The recurring record's id. */
  readonly id: ScheduleId;
}

/**
 * "Resume": a paused recurring record fires again from `nextAt`, the first occurrence strictly
 * after the resume decision (no catch-up burst; version 2).
 */
export interface ResumeChange {
  /** Protocol version. */
  readonly version: 2;
  /** Operation. */
  readonly op: "resume";
  /** The paused recurring record's id. */
  readonly id: ScheduleId;
  /** The new target, canonical UTC (never before the record's current target). */
  readonly nextAt: string;
}

/**
 * "Skip this one": one future occurrence of an active recurring record is excluded (RFC 5545
 * EXDATE; version 2). Not the catch-up `skip`.
 */
export interface ExcludeChange {
  /** Protocol version. */
  readonly version: 2;
  /** Operation. */
  readonly op: "exclude";
  /** The recurring record's id. */
  readonly id: ScheduleId;
  /** The excluded occurrence, canonical UTC (at or after the current target). */
  readonly occurrenceAt: string;
  /**
   * The target after the exclusion: the current target unless that was the excluded one, then
   * the next occurrence, or `null`: the series is exhausted (terminal).
   */
  readonly nextAt: string | null;
}

/** Data of a `schedule/change` event (version 1 or 2). */
export type ScheduleChange =
  | CreateChange
  | UpdateChange
  | DeleteChange
  | DispatchChange
  | RecurringDispatchChange
  | SkipChange
  | StopChange
  | PauseChange
  | ResumeChange
  | ExcludeChange;

/** A `schedule/change` event whose data has been decoded. */
export type ScheduleChangeEvent = SessionEvent<typeof SCHEDULE_CHANGE, ScheduleChange>;

/**
 * Tells whether a dispatch is the recurring form (it names its occurrence).
 *
 * @param change a decoded dispatch
 * @returns `true` for `{ version: 2, op: 'dispatch', id, occurrenceAt, missed, nextAt }`
 */
export function isRecurringDispatch(
  change: DispatchChange | RecurringDispatchChange,
): change is RecurringDispatchChange {
  return "occurrenceAt" in change;
}

/**
 * The target of a record in epoch milliseconds (UTC).
 *
 * @param record a decoded record (its `scheduledAt` is canonical)
 * @returns epoch ms
 */
export function scheduledAtMs(record: ScheduleRecord): number {
  return Date.parse(record.scheduledAt);
}

/**
 * Tells whether a record is a paused series (it never fires; docs/recurring.md "Transitions").
 *
 * @param record a folded record
 * @returns `true` for a recurring record with `paused: true`
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { isPaused } from "@chime/schedule";
 * assert(!isPaused({ id: "sch_AbCd1234" as never, kind: "at", prompt: "x",
 *   scheduledAt: "2030-01-01T00:00:00.000Z" }));
 * ```
 */
export function isPaused(record: ScheduleRecord): boolean {
  return record.kind === "recurring" && record.paused === true;
}

// Types in the signatures above, re-exported for documentation.
export type { SessionEvent } from "@chime/session/event";
