/**
 * Wire shapes the browser reads from the host (docs/architecture.md#contracts), defined here so the
 * page depends on neither `@chime/session` nor `@chime/schedule` at run time; `wire_test.ts` checks
 * they stay assignable from the session types.
 *
 * @module
 */

/**
 * A durable event envelope `{ seq, type, at, data }` as sent over HTTP and SSE; structurally
 * `SessionEvent` of `@chime/session` (checked in `wire_test.ts`).
 */
export interface WireEvent {
  /** 0-based, dense position in the session log. */
  readonly seq: number;
  /** The durable event type. */
  readonly type: string;
  /** Append instant, UTC RFC 3339 with milliseconds. */
  readonly at: string;
  /** Type-specific JSON data. */
  readonly data: unknown;
}

/** The session header fields the page reads; structurally a subset of `SessionHeader`. */
export interface WireHeader {
  /** Session id. */
  readonly id: string;
  /** Creation instant, UTC RFC 3339. */
  readonly createdAt: string;
  /** Who created it, e.g. `web` or `fork`. */
  readonly origin: string;
  /** Fork parentage, or `null`. */
  readonly lineage: { readonly parentId: string; readonly forkedThroughSeq: number } | null;
  /** The immutable session default zone, when known. */
  readonly timeZone?: string;
  /** Length of the inherited prefix of a fork. */
  readonly seedLength?: number;
}

/** The presentation of a committed reminder dispatch (docs/architecture.md#views). */
export interface ReminderPresentation {
  /** The schedule id (`ScheduleId`), stable within the session. */
  readonly scheduleId: string;
  /** The trimmed user prompt; plain text, never HTML. */
  readonly prompt: string;
  /** The occurrence delivered, UTC RFC 3339 (a one-shot: the create record's `scheduledAt`). */
  readonly occurrenceAt: string;
  /** A recurring reminder's rule and next target (docs/recurring.md "Host and page"). */
  readonly recurring?: RecurringPresentation;
  /** Occurrences before this one that were coalesced into it (catch-up, budget). */
  readonly missed?: number;
  /** The reminder and occurrence a snooze record snoozes. */
  readonly snoozeOf?: SnoozeOfWire;
}

/** How a recurring reminder repeats, as the host presents it (docs/recurring.md). */
export interface RecurringPresentation {
  /** RFC 5545 RRULE value, e.g. `FREQ=DAILY;BYHOUR=9;BYMINUTE=0`. */
  readonly rrule: string;
  /** IANA zone the rule is expanded in. */
  readonly timeZone: string;
  /** The rule in words, per language (e.g. `daily at 09:00`). */
  readonly text: { readonly en: string; readonly zh: string };
  /** The next target, UTC RFC 3339, or `null` once the series is exhausted. */
  readonly nextAt: string | null;
}

/** `snoozeOf` of a snooze record: the reminder and the occurrence (UTC) it snoozes. */
export interface SnoozeOfWire {
  /** The snoozed reminder's id. */
  readonly id: string;
  /** The snoozed occurrence, UTC RFC 3339. */
  readonly occurrenceAt: string;
}

/** The view a host attaches to a `schedule/change` dispatch once it is durable. */
export interface ScheduleChangeView {
  /** Always `schedule/change`. */
  readonly type: "schedule/change";
  /** What the renderer shows. */
  readonly presentation: ReminderPresentation;
}

/** A sidecar view: generic `{ type, presentation }`; the durable event type picks the renderer. */
export interface EventView {
  /** The view type (for reminders the durable event type `schedule/change`). */
  readonly type: string;
  /** Renderer-specific JSON. */
  readonly presentation: unknown;
}

/** The JSON `data` of one SSE `session-event` message. */
export interface StreamMessage {
  /** The durable event. */
  readonly event: WireEvent;
  /** A commit-aware view, present on the late re-send of a covered dispatch. */
  readonly view?: EventView;
  /** `"event"` when the message is a sidecar for an already sent `seq`. */
  readonly for?: "event";
}

/**
 * The JSON `data` of one SSE `flushed` message: the host's commit watermark after a
 * `session/flushed(session, throughSeq)` observation (docs/flows.md#receipt).
 */
export interface FlushedMessage {
  /**
   * The durable checkpoint's **exclusive** bound: every event with `seq < throughSeq` is
   * durable; `throughSeq` itself is not covered (it is the log length at the flush).
   */
  readonly throughSeq: number;
}

/** One page of `GET /api/sessions/:id/history`. */
export interface HistoryPage {
  /** The session header. */
  readonly header: WireHeader;
  /** Whether the session is live. */
  readonly live: boolean;
  /** Dense, ascending events of this page. */
  readonly events: readonly WireEvent[];
  /** Views by seq (JSON object keys are decimal seq strings). */
  readonly views: Readonly<Record<string, EventView>>;
  /** The `before` value of the next older page, or `null` at the start of the log. */
  readonly nextBefore: number | null;
}

/** One row of `GET /api/sessions`. */
export interface SessionSummary {
  /** The session header. */
  readonly header: WireHeader;
  /** Whether the session is live in the host. */
  readonly live: boolean;
  /** The first user message, shortened; `null` before any (absent from older hosts). */
  readonly title?: string | null;
  /** For a fork: the parent's id and title. */
  readonly forkOf?: { readonly id: string; readonly title: string | null };
}

/** The answer of `GET /api/sessions?limit&before`. */
export interface SessionsPage {
  /** Sessions, newest first. */
  readonly sessions: readonly SessionSummary[];
  /** The `before` cursor of the next page, or `null` when this page is the last. */
  readonly nextBefore: string | null;
}

/** The error body every failing route returns. */
export interface WireError {
  /** The error. */
  readonly error: {
    /** A closed, machine-readable code such as `invalid_time_zone`. */
    readonly code: string;
    /** A human-readable message. */
    readonly message: string;
    /** `session_owned_elsewhere` (docs/deploy.md): the base URL of the host owning the session. */
    readonly url?: string;
    /** `payload_too_large`: the limit (characters of a named `field`, else body bytes). */
    readonly limit?: number;
    /** The request field the error is about, e.g. `text`. */
    readonly field?: string;
    /** `too_many_attempts`: seconds before another try. */
    readonly retryAfterSeconds?: number;
  };
}

/**
 * Data of a `schedule/change` event as far as the UI reads it: version 1, and version 2 of
 * docs/recurring.md (update, recurring dispatch, skip, stop).
 */
export type ScheduleChangeData =
  | {
    readonly version: 1 | 2;
    readonly op: "create";
    readonly record: ScheduleRecordWire;
  }
  | {
    readonly version: 2;
    readonly op: "update";
    readonly id: string;
    readonly record: ScheduleRecordWire;
  }
  | { readonly version: 1 | 2; readonly op: "delete" | "stop"; readonly id: string }
  | {
    readonly version: 1 | 2;
    readonly op: "dispatch" | "skip";
    readonly id: string;
    /** Recurring only: the delivered (or skipped) occurrence, UTC. */
    readonly occurrenceAt?: string;
    /** Recurring only: coalesced occurrences before it. */
    readonly missed?: number;
    /** Recurring only: the next target (UTC), `null` = exhausted. */
    readonly nextAt?: string | null;
    /** `skip` only, e.g. `catch-up-window`. */
    readonly reason?: string;
  };

/** A schedule record as carried by a `create` or `update`. */
export interface ScheduleRecordWire {
  /** Stable schedule id. */
  readonly id: string;
  /** `after` (relative delay), `at` (absolute instant) or `recurring` (v2). */
  readonly kind: "after" | "at" | "recurring";
  /** The trimmed prompt. */
  readonly prompt: string;
  /** Delay in seconds for `after` records. */
  readonly afterSeconds?: number;
  /** The UTC target instant (recurring: the first occurrence), RFC 3339. */
  readonly scheduledAt: string;
  /** Recurring: RFC 5545 RRULE value. */
  readonly rrule?: string;
  /** Recurring: local DTSTART without offset. */
  readonly dtstart?: string;
  /** Recurring: IANA zone. */
  readonly timeZone?: string;
  /** Recurring: catch-up window in seconds. */
  readonly catchUpSeconds?: number;
  /** A snooze record: what it snoozes. */
  readonly snoozeOf?: SnoozeOfWire;
}

/** `repeat` of a recurring reminder in `GET /reminders` (docs/recurring.md "Tools"). */
export interface RepeatWire {
  /** RFC 5545 RRULE value. */
  readonly rrule: string;
  /** IANA zone. */
  readonly timeZone: string;
  /** Local DTSTART. */
  readonly dtstart: string;
  /** The rule in words. */
  readonly text: { readonly en: string; readonly zh: string };
  /** Catch-up window in seconds. */
  readonly catchUpSeconds?: number;
}

/** One active reminder of `GET /api/sessions/:id/reminders`. */
export interface ActiveReminderWire {
  /** Stable schedule id. */
  readonly id: string;
  /** `after`, `at` or `recurring`. */
  readonly kind: "after" | "at" | "recurring";
  /** The prompt. */
  readonly prompt: string;
  /** Target instant (recurring: the next occurrence), UTC RFC 3339. */
  readonly scheduledAt: string;
  /** `overdue` once due (at the host's clock when it answered). */
  readonly status: "scheduled" | "overdue";
  /** Always `session-local`. */
  readonly deliveryMode: "session-local";
  /** How a recurring reminder repeats. */
  readonly repeat?: RepeatWire;
  /** A snooze record: what it snoozes. */
  readonly snoozeOf?: SnoozeOfWire;
}

/** The answer of `GET /api/sessions/:id/reminders`: folded over the durable log only. */
export interface RemindersPage {
  /** Active reminders, soonest first. */
  readonly reminders: readonly ActiveReminderWire[];
  /** Always `session-local`. */
  readonly deliveryMode: "session-local";
}
