/**
 * The active reminders of a session as the page lists them (`GET /api/sessions/:id/reminders`,
 * `./web.ts`), over the durable log only (docs/design.md#commit-aware-web-receipt: the page
 * shows nothing the log has not committed). A live session answers from its
 * {@linkcode LiveSchedule} in O(active reminders); a cold one folds its stored `schedule/change`
 * events (one indexed query, docs/long-sessions.md). A recurring reminder carries `repeat` and its
 * next occurrence as `scheduledAt` (docs/recurring.md "Host and page").
 *
 * @module
 */
import type { WebHost } from "@chime/contract";
import type { SessionEvent } from "@chime/session";
import { foldSession, type ScheduleState } from "./fold.ts";
import { LiveSchedule } from "./live.ts";
import { scheduledAtMs, type SnoozeOf } from "./protocol.ts";
import { readStoredChanges, type StoredChanges, storeReader } from "./reader.ts";
import type { OccurrencePreview } from "./recurrence.ts";
import { DELIVERY_MODE, type RepeatValue, type ScheduleValue, scheduleValue } from "./value.ts";

/** One active reminder as the page lists it. */
export interface ActiveReminder {
  /** The schedule id. */
  readonly id: string;
  /** Rule kind. */
  readonly kind: "after" | "at" | "recurring";
  /** The reminder text. */
  readonly prompt: string;
  /** Target instant (a series' next occurrence), UTC RFC 3339. */
  readonly scheduledAt: string;
  /** How a recurring reminder repeats: `{ rrule, timeZone, dtstart, text: { en, zh } }`. */
  readonly repeat?: RepeatValue;
  /** The reminder occurrence a snooze reminder snoozes. */
  readonly snoozeOf?: SnoozeOf;
  /** A paused series. */
  readonly paused?: true;
  /** A series' excluded (skipped) occurrences, canonical UTC, ascending. */
  readonly exdates?: readonly string[];
  /** A series' next occurrences, as in `schedule_list` (`./value.ts`). */
  readonly preview?: readonly OccurrencePreview[];
  /** `overdue` once `now ≥ scheduledAt`, else `scheduled`. */
  readonly status: "scheduled" | "overdue";
  /** Always `session-local`. */
  readonly deliveryMode: typeof DELIVERY_MODE;
}

/**
 * A stored `schedule/change` the fold quarantined (docs/recurring.md "Damaged changes"): the
 * reminder it names is held and never fires; `deno task doctor` lists the same ones.
 */
export interface DamagedChange {
  /** Always `storage_corrupt`. */
  readonly code: "storage_corrupt";
  /** The damaged change's log position. */
  readonly seq: number;
  /** The reminder it names, when its data names a well-formed id. */
  readonly id?: string;
  /** What the strict decoder or the transition refused. */
  readonly message: string;
}

/** Answer of the reminders route. */
export interface RemindersPage {
  /** Active reminders, soonest first. */
  readonly reminders: readonly ActiveReminder[];
  /** Always `session-local`. */
  readonly deliveryMode: typeof DELIVERY_MODE;
  /** Damaged changes, in log order; absent when there are none. */
  readonly damaged?: readonly DamagedChange[];
}

function page(state: ScheduleState, now: number): RemindersPage {
  const records = [...state.active.values()].sort((a, b) => scheduledAtMs(a) - scheduledAtMs(b));
  const reminders = records.map((record) => activeReminder(scheduleValue(record, now)));
  if (state.quarantined.length === 0) return { reminders, deliveryMode: DELIVERY_MODE };
  const damaged = state.quarantined.map(({ seq, id, reason }): DamagedChange => ({
    code: "storage_corrupt",
    seq,
    ...(id === undefined ? {} : { id }),
    message: reason,
  }));
  return { reminders, deliveryMode: DELIVERY_MODE, damaged };
}

/**
 * A schedule tool value as the page lists it.
 *
 * @param value the value of an active record
 * @returns `{ id, kind, prompt, scheduledAt, status, deliveryMode, repeat?, snoozeOf?, paused?,
 *   exdates?, preview? }`
 */
export function activeReminder(value: ScheduleValue): ActiveReminder {
  const { id, kind, prompt, scheduledAt, status, deliveryMode, repeat, snoozeOf } = value;
  const { paused, exdates, preview } = value;
  return {
    id,
    kind,
    prompt,
    scheduledAt,
    status,
    deliveryMode,
    ...(repeat === undefined ? {} : { repeat }),
    ...(snoozeOf === undefined ? {} : { snoozeOf }),
    ...(paused === undefined ? {} : { paused }),
    ...(exdates === undefined ? {} : { exdates }),
    ...(preview === undefined ? {} : { preview }),
  };
}

/**
 * The durable active reminders of a session. A live session answers below the host's durable
 * bound ({@linkcode WebHost.durableLength}, the cursor that gates views): from the state the
 * schedule plugin keeps for it ({@linkcode LiveSchedule.activeAt}), or, without one (an agent
 * the plugin did not set up, state still loading), by folding its `schedule/change` events below
 * the bound. A cold one folds its stored changes and is never activated.
 *
 * @param host the store and the durable bound
 * @param id the session id
 * @returns the page (damaged changes in `damaged`), or `undefined` for an unknown session
 */
export async function sessionReminders(
  host: Pick<WebHost, "store" | "durableLength">,
  id: string,
): Promise<RemindersPage | undefined> {
  const { store } = host;
  const now = store.clock.now();
  const live = store.live(id);
  if (live !== undefined) {
    const durable = host.durableLength(live);
    const state = LiveSchedule.of(live)?.stateAt(durable);
    if (state !== undefined) return page(state, now);
    const from = live.header.seedLength ?? 0;
    const events = await storeReader(store)(live, { from, to: Math.max(from, durable) });
    return page(foldSession(live.header, events), now);
  }
  const stored = await readStoredChanges(store, id);
  return stored === undefined ? undefined : page(foldSession(stored.header, stored.events), now);
}

/**
 * Committed events of any type of a session with `from ≤ seq < to`, ascending, never
 * activating a cold one: below the durable bound for a live session, from storage for a cold one.
 *
 * @param host the store and the durable bound
 * @param id the session id
 * @param from first seq, inclusive
 * @param to end seq, exclusive
 * @returns the events (fewer near the ends of the log)
 */
export async function durableEvents(
  host: Pick<WebHost, "store" | "durableLength">,
  id: string,
  from: number,
  to: number,
): Promise<SessionEvent[]> {
  const { store } = host;
  const start = Math.max(0, from);
  if (to <= start) return [];
  const live = store.live(id);
  if (live !== undefined) {
    const end = Math.min(to, host.durableLength(live));
    return end <= start ? [] : await store.read(live, start, end);
  }
  return await store.readStored(id, { after: start - 1, limit: to - start });
}

/**
 * A session's committed `schedule/change` events (its own suffix), never activating a cold one:
 * below the host's durable bound for a live session, the stored ones for a cold one.
 *
 * @param host the store and the durable bound
 * @param id the session id
 * @returns the header and the events, or `undefined` for an unknown session
 */
export async function durableChanges(
  host: Pick<WebHost, "store" | "durableLength">,
  id: string,
): Promise<StoredChanges | undefined> {
  const { store } = host;
  const live = store.live(id);
  if (live === undefined) return await readStoredChanges(store, id);
  const from = live.header.seedLength ?? 0;
  const to = Math.max(from, host.durableLength(live));
  return { header: live.header, events: await storeReader(store)(live, { from, to }) };
}
