/**
 * Wire shapes the browser reads from the host (docs/architecture.md#contracts). The generic ones
 * (envelopes, headers, stream messages, pages, errors) are `@chime/contract`'s and re-exported
 * here; the reminder shapes below are the schedule plugin's part of the wire; `wire_test.ts`
 * checks they stay assignable from the session types.
 *
 * @module
 */
import type { HistoryEntry } from "@chime/schedule/history";
import type { OccurrencePreview } from "@chime/schedule/recurrence";
export type {
  EventView,
  FlushedMessage,
  HistoryPage,
  SessionsPage,
  SessionSummary,
  StreamMessage,
  WireError,
  WireEvent,
  WireHeader,
} from "@chime/contract";

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
  /**
   * Set when the dispatch came a minute or more after the occurrence: by how much (ms) and why,
   * from the log's facts before the dispatch (`lateCause`, `schedule/late.ts`): `closed` (the
   * session was closed from `from` to `until`), `host-down`, `busy` (a turn ran for `ms`),
   * `hourly-limit`; no `cause` when those facts tell nothing.
   */
  readonly late?: LateWire;
}

/**
 * A card's lateness as the host presents it (`Lateness` of `@chime/schedule/presentation`): how
 * late (ms) and, when the log before the dispatch tells, why (`LateCause` of `schedule/late.ts`,
 * its stretch in UTC; `ms` is `until − from`).
 */
export interface LateWire {
  /** Dispatch time minus the occurrence, ms. */
  readonly ms: number;
  /** Why, from log facts only. */
  readonly cause?: {
    readonly kind: "closed" | "host-down" | "busy" | "hourly-limit";
    readonly from: string;
    readonly until: string;
    readonly ms: number;
  };
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
  /** The series is paused: it keeps its id and history and never fires until resumed. */
  readonly paused?: true;
  /** The next occurrences in the rule's zone (docs/recurring.md "Host and page"). */
  readonly preview?: readonly PreviewOccurrenceWire[];
}

/**
 * One of the next occurrences of a series, as the host previews it in the rule's zone: the
 * server's own type (`@chime/schedule/recurrence`, docs/recurring.md "Preview").
 */
export type PreviewOccurrenceWire = OccurrencePreview;

/**
 * One entry of `GET /api/sessions/:id/reminders/:rid/history`, read from the log: the server's
 * own type (`@chime/schedule/history`, docs/recurring.md "History").
 */
export type ReminderHistoryEntryWire = Omit<HistoryEntry, "snoozeId"> & {
  /** The snooze record of the chain the entry concerns (a plain string on the wire). */
  readonly snoozeId?: string;
  /** A late delivery's cause (`lateCause`, `schedule/late.ts`; the history reads the followup too). */
  readonly cause?: LateWire["cause"];
};

/** The body of `POST /api/sessions/:id/reminders/:rid/update`: only the fields that change. */
export interface ReminderUpdateBody {
  /** The new text. */
  readonly prompt?: string;
  /** The new time, local in the reminder's (or session's) zone. */
  readonly at?: { readonly date: string; readonly time: string };
  /** The new rule. */
  readonly repeat?: { readonly rrule: string };
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
  /** A paused series (it never fires until resumed). */
  readonly paused?: true;
  /** A series' excluded occurrences (RFC 5545 EXDATE), UTC. */
  readonly exdates?: readonly string[];
  /** A series' next occurrences in its rule's zone. */
  readonly preview?: readonly PreviewOccurrenceWire[];
}

/** The answer of `GET /api/sessions/:id/reminders`: folded over the durable log only. */
export interface RemindersPage {
  /** Active reminders, soonest first. */
  readonly reminders: readonly ActiveReminderWire[];
  /** Always `session-local`. */
  readonly deliveryMode: "session-local";
  /**
   * Stored changes the host's fold quarantined (docs/recurring.md "Damaged changes"); the
   * reminders they name are held and never fire. Absent when there are none.
   */
  readonly damaged?: readonly DamagedChangeWire[];
}

/** A quarantined `schedule/change`: `{ code: "storage_corrupt", seq, id?, message }`. */
export interface DamagedChangeWire {
  /** Always `storage_corrupt`. */
  readonly code: "storage_corrupt";
  /** Its log position. */
  readonly seq: number;
  /** The held reminder, when the change names one. */
  readonly id?: string;
  /** Why it was refused. */
  readonly message: string;
}

// Types in the signatures above, re-exported for documentation.
export type { HistoryEntry, HistoryKind } from "@chime/schedule/history";
export type { ScheduleId } from "@chime/schedule/protocol";
export type { OccurrencePreview } from "@chime/schedule/recurrence";
