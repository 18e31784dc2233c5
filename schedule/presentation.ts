/**
 * Reminder receipts derived from `create` (or `update`) + `dispatch`
 * (docs/design.md#receipt-presentation; docs/architecture.md#views; docs/recurring.md
 * "Host and page" for recurring dispatches, `missed` and `snoozeOf`).
 *
 * Pairing: an `update` counts as the record's create from its seq on. A fork's `seedLength` is the hard boundary for the child's own dispatches (a dispatch
 * at `seq ≥ seedLength` pairs only with a create at `seq ≥ seedLength`). An inherited dispatch
 * (`seq < seedLength`) pairs with the nearest same-id create before it, because
 * `session/end-seed` also marks replay and recovery construction, not only fork ownership; so
 * recovered ancestor receipts render and ids reused across nested generations pair correctly.
 * Presentation never changes live ownership (that is the fold's job).
 *
 * @module
 */
import type { SessionEvent } from "@chime/session/event";
import type { SessionHeader } from "@chime/session/header";
import { tryDecodeScheduleChange } from "./decoder.ts";
import { foldStart } from "./fold.ts";
import {
  type DispatchChange,
  isRecurringDispatch,
  type RecurringDispatchChange,
  SCHEDULE_CHANGE,
  type ScheduleId,
  type ScheduleRecord,
  type SnoozeOf,
} from "./protocol.ts";
import { describeRule, type OccurrencePreview, previewOccurrences } from "./recurrence.ts";
import { OVERDUE_THRESHOLD_MS } from "./frame.ts";
import { LATE_CONTEXT_BEFORE, type LateCause, lateCause } from "./late.ts";

/** How many occurrences after a delivered one a recurring card previews. */
const CARD_PREVIEW = 5;

/**
 * From this lateness on (ms) a card says its delivery was late: the frame's `overdue` threshold
 * (`OVERDUE_THRESHOLD_MS`, `./frame.ts`). A live, idle session delivers within about a second of
 * the due time (docs/recurring.md "Delivery": the clock check runs every second), so a minute late
 * means something held it; {@linkcode Lateness.cause} says what, from the log (`./late.ts`).
 */
export const LATE_AFTER_MS: number = OVERDUE_THRESHOLD_MS;

/** How late a delivery was, and why as far as the log before its dispatch tells. */
export interface Lateness {
  /** Dispatch time minus the occurrence, ms (≥ {@linkcode LATE_AFTER_MS}). */
  readonly ms: number;
  /**
   * Why, from log facts only (`lateCause` of `./late.ts` over the events before the dispatch):
   * `closed`, `host-down` or `busy` with the stretch that held it; absent when those events hold
   * no fact (e.g. a turn longer than the window). `hourly-limit` is read from the `followup`
   * after the dispatch, so only the reminder's history names it.
   */
  readonly cause?: LateCause;
}

/** What a reminder receipt shows. */
export interface ReminderPresentation {
  /** The dispatched record's id. */
  readonly scheduleId: ScheduleId;
  /** The reminder text. */
  readonly prompt: string;
  /**
   * The delivered occurrence (canonical UTC), not the dispatch time: a one-shot's record
   * `scheduledAt`, a recurring dispatch's `occurrenceAt`.
   */
  readonly occurrenceAt: string;
  /** For a recurring record: its rule, zone, the rule in words and the next target (or null). */
  readonly recurring?: {
    readonly rrule: string;
    readonly timeZone: string;
    readonly text: { readonly en: string; readonly zh: string };
    readonly nextAt: string | null;
    /**
     * The next occurrences after this one as of the dispatch (at most 5, from `nextAt`; the
     * series' excluded occurrences left out), `[]` when the series was exhausted.
     */
    readonly preview: readonly OccurrencePreview[];
  };
  /** Earlier occurrences coalesced into this delivery (recurring, only when > 0). */
  readonly missed?: number;
  /** The reminder occurrence a snooze record snoozes. */
  readonly snoozeOf?: SnoozeOf;
  /** Set when the dispatch came {@linkcode LATE_AFTER_MS} or more after the occurrence. */
  readonly late?: Lateness;
}

/** The sidecar view attached to a durable dispatch event. */
export interface ScheduleChangeView {
  /** The persisted event type, which selects the client renderer. */
  readonly type: typeof SCHEDULE_CHANGE;
  /** The receipt. */
  readonly presentation: ReminderPresentation;
}

function receipt(
  record: ScheduleRecord,
  change: DispatchChange | RecurringDispatchChange,
  exdates: readonly string[] | undefined,
): ReminderPresentation {
  const { id: scheduleId, prompt } = record;
  if (record.kind !== "recurring" || !isRecurringDispatch(change)) {
    const snooze = record.kind !== "recurring" && record.snoozeOf !== undefined
      ? { snoozeOf: record.snoozeOf }
      : {};
    return { scheduleId, prompt, occurrenceAt: record.scheduledAt, ...snooze };
  }
  const { rrule, timeZone } = record;
  const text = { en: describeRule(record, "en"), zh: describeRule(record, "zh") };
  const series = exdates === undefined ? record : { ...record, exdates };
  const preview = change.nextAt === null
    ? []
    : previewOccurrences(series, Date.parse(change.occurrenceAt), CARD_PREVIEW);
  return {
    scheduleId,
    prompt,
    occurrenceAt: change.occurrenceAt,
    recurring: { rrule, timeZone, text, nextAt: change.nextAt, preview },
    ...(change.missed > 0 ? { missed: change.missed } : {}),
  };
}

function sameSeries(a: ScheduleRecord | undefined, b: ScheduleRecord): boolean {
  return a?.kind === "recurring" && b.kind === "recurring" && a.rrule === b.rrule &&
    a.dtstart === b.dtstart && a.timeZone === b.timeZone;
}

/**
 * Derives the receipts of every dispatch in one pass over the log.
 *
 * Undecodable `schedule/change` data neither creates nor dispatches here: history rendering
 * must not fail on foreign data (the fold, which owns live work, rejects it).
 *
 * @param header the session header (its `seedLength` is the ownership boundary)
 * @param events the session's events in log order
 * @param options `through`: stop after this seq (inclusive), @default Infinity; `seqs`: build
 *   only the receipts of these dispatch seqs, @default every dispatch
 * @returns receipts keyed by the dispatch event's `seq`
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { scheduleReminderPresentations } from "@chime/schedule";
 * const header = {
 *   version: 1 as const, id: "s", cwd: "/", createdAt: "2030-01-01T00:00:00.000Z",
 *   origin: "test", lineage: null, delegationDepth: 0,
 * };
 * const record = {
 *   id: "sch_AbCd1234", kind: "at", prompt: "stretch", scheduledAt: "2030-01-01T00:05:00.000Z",
 * };
 * const at = "2030-01-01T00:00:00.000Z";
 * const receipts = scheduleReminderPresentations(header, [
 *   { seq: 0, type: "schedule/change", at, data: { version: 1, op: "create", record } },
 *   { seq: 1, type: "schedule/change", at, data: { version: 1, op: "dispatch", id: record.id } },
 * ]);
 * assert(receipts.get(1)?.occurrenceAt === record.scheduledAt);
 * ```
 */
export function scheduleReminderPresentations(
  header: SessionHeader,
  events: readonly SessionEvent[],
  options: { readonly through?: number; readonly seqs?: ReadonlySet<number> } = {},
): Map<number, ReminderPresentation> {
  const seedLength = foldStart(header);
  const through = options.through ?? Infinity;
  const nearest = new Map<ScheduleId, ScheduleRecord>();
  const nearestOwn = new Map<ScheduleId, ScheduleRecord>();
  // Excluded occurrences per id, kept as the fold keeps them (`carryOver` in _apply.ts).
  const excluded = new Map<ScheduleId, readonly string[]>();
  const receipts = new Map<number, ReminderPresentation>();
  for (const [index, event] of events.entries()) {
    if (event.seq > through) break;
    if (event.type !== SCHEDULE_CHANGE) continue;
    const change = tryDecodeScheduleChange(event.data);
    if (change?.op === "create" || change?.op === "update") {
      const { id } = change.record;
      const before = nearest.get(id);
      if (change.op === "create" || !sameSeries(before, change.record)) excluded.delete(id);
      nearest.set(id, change.record);
      if (event.seq >= seedLength) nearestOwn.set(id, change.record);
    } else if (change?.op === "exclude") {
      excluded.set(change.id, [...(excluded.get(change.id) ?? []), change.occurrenceAt].sort());
    } else if (change?.op === "dispatch") {
      if (options.seqs !== undefined && !options.seqs.has(event.seq)) continue;
      const record = (event.seq >= seedLength ? nearestOwn : nearest).get(change.id);
      if (record !== undefined) {
        const shown = receipt(record, change, excluded.get(change.id));
        const late = latenessAt(header, events, index, shown, change.id);
        receipts.set(event.seq, late === undefined ? shown : { ...shown, late });
      }
    }
  }
  return receipts;
}

/**
 * The lateness of the dispatch at `events[index]`, its cause read by `lateCause` (`./late.ts`)
 * from the events before it within its window (own dispatches: none below `seedLength`).
 */
function latenessAt(
  header: SessionHeader,
  events: readonly SessionEvent[],
  index: number,
  shown: ReminderPresentation,
  id: ScheduleId,
): Lateness | undefined {
  const dispatch = events[index]!;
  const ms = Date.parse(dispatch.at) - Date.parse(shown.occurrenceAt);
  if (!(ms >= LATE_AFTER_MS)) return undefined;
  const seedLength = foldStart(header);
  const floor = Math.max(
    dispatch.seq - LATE_CONTEXT_BEFORE,
    dispatch.seq >= seedLength ? seedLength : 0,
  );
  let lo = index;
  while (lo > 0 && events[lo - 1]!.seq >= floor) lo--;
  const entry = {
    seq: dispatch.seq,
    at: dispatch.at,
    kind: "delivered" as const,
    occurrenceAt: shown.occurrenceAt,
    latenessMs: ms,
  };
  const cause = lateCause(entry, id, events.slice(lo, index + 1), header.timeZone ?? "UTC");
  return cause === undefined ? { ms } : { ms, cause };
}

/**
 * Derives the receipt of the dispatch event at `seq` (see the module doc for pairing).
 *
 * @param header the session header
 * @param events the session's events in log order, including the create the dispatch pairs with
 * @param seq the dispatch event's `seq`
 * @returns `{ scheduleId, prompt, occurrenceAt, recurring?, missed?, snoozeOf? }`, or
 *   `undefined` when `seq` is not a decodable
 *   dispatch or it has no create to pair with under the boundary rule
 */
export function scheduleReminderPresentation(
  header: SessionHeader,
  events: readonly SessionEvent[],
  seq: number,
): ReminderPresentation | undefined {
  return scheduleReminderPresentations(header, events, { through: seq, seqs: new Set([seq]) })
    .get(seq);
}

/**
 * Wraps a receipt in the event view the host sends as a sidecar
 * (`{ type: 'schedule/change', presentation }`).
 *
 * @param presentation a receipt
 * @returns the view
 */
export function scheduleChangeView(presentation: ReminderPresentation): ScheduleChangeView {
  return { type: SCHEDULE_CHANGE, presentation };
}

/**
 * What names one delivered occurrence within its session: `<scheduleId>@<occurrenceAt>`. The
 * page's notification and a push of the same occurrence carry the same tag built from it
 * (`notificationTag` of `@chime/contract/page`, docs/push.md).
 *
 * @param presentation a receipt
 * @returns the key
 *
 * @example
 * ```ts
 * import { occurrenceKey } from "@chime/schedule/presentation";
 * const key = occurrenceKey({ scheduleId: "sch_abcdefgh",
 *   occurrenceAt: "2030-01-01T08:00:00.000Z" });
 * console.assert(key === "sch_abcdefgh@2030-01-01T08:00:00.000Z");
 * ```
 */
export function occurrenceKey(
  presentation: { readonly scheduleId: string; readonly occurrenceAt: string },
): string {
  return `${presentation.scheduleId}@${presentation.occurrenceAt}`;
}

// Types in the signatures above, re-exported for documentation.
export type { SCHEDULE_CHANGE, ScheduleId, SnoozeOf } from "./protocol.ts";
export type { SessionEvent } from "@chime/session/event";
export type { SessionHeader } from "@chime/session/header";
export type { SessionLineage } from "@chime/session/header";
export type { OccurrencePreview } from "./recurrence.ts";
export type { LateCause } from "./late.ts";
