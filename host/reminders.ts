/**
 * `GET /api/sessions/:id/reminders`: the active reminders of a session, folded with
 * `@chime/schedule`'s {@linkcode foldSession} over the durable log only (seed "Commit-aware
 * Web 回执": the page shows nothing the log has not committed). A recurring reminder carries
 * `repeat` and its next occurrence as `scheduledAt` (docs/recurring.md "Host and page").
 *
 * @module
 */
import {
  DELIVERY_MODE,
  foldSession,
  type RepeatValue,
  scheduledAtMs,
  type ScheduleValue,
  scheduleValue,
  type SnoozeOf,
} from "@chime/schedule";
import type { SessionEvent, SessionHeader } from "@chime/session";
import type { HostRuntime } from "./runtime.ts";

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
  /** `overdue` once `now ≥ scheduledAt`, else `scheduled`. */
  readonly status: "scheduled" | "overdue";
  /** Always `session-local`. */
  readonly deliveryMode: typeof DELIVERY_MODE;
}

/** Answer of the reminders route. */
export interface RemindersPage {
  /** Active reminders, soonest first. */
  readonly reminders: readonly ActiveReminder[];
  /** Always `session-local`. */
  readonly deliveryMode: typeof DELIVERY_MODE;
}

function page(
  header: SessionHeader,
  events: readonly SessionEvent[],
  now: number,
): RemindersPage {
  const records = [...foldSession(header, events).active.values()]
    .sort((a, b) => scheduledAtMs(a) - scheduledAtMs(b));
  const reminders = records.map((record) => activeReminder(scheduleValue(record, now)));
  return { reminders, deliveryMode: DELIVERY_MODE };
}

/**
 * A schedule tool value as the page lists it.
 *
 * @param value the value of an active record
 * @returns `{ id, kind, prompt, scheduledAt, status, deliveryMode, repeat?, snoozeOf? }`
 */
export function activeReminder(value: ScheduleValue): ActiveReminder {
  const { id, kind, prompt, scheduledAt, status, deliveryMode, repeat, snoozeOf } = value;
  return {
    id,
    kind,
    prompt,
    scheduledAt,
    status,
    deliveryMode,
    ...(repeat === undefined ? {} : { repeat }),
    ...(snoozeOf === undefined ? {} : { snoozeOf }),
  };
}

/**
 * The durable active reminders of a session. A live session folds its events below the
 * host's flushed watermark (the same cursor that gates views); a cold one folds its stored
 * events and is never activated.
 *
 * @param runtime the host runtime (store, watermark, clock)
 * @param id the session id
 * @returns the page, or `undefined` for an unknown session
 * @throws {ScheduleError} `invalid_log` for a log the schedule fold rejects
 */
export async function sessionReminders(
  runtime: HostRuntime,
  id: string,
): Promise<RemindersPage | undefined> {
  const now = runtime.store.clock.now();
  const live = runtime.store.live(id);
  if (live !== undefined) {
    const durable = Math.min(runtime.watermark.get(live), live.length);
    // Stopgap until the schedule state is incremental (docs/long-sessions.md): older events
    // than the live tail come from storage.
    return page(live.header, await runtime.store.read(live, 0, durable), now);
  }
  const stored = await runtime.store.inspect(id);
  return stored === undefined ? undefined : page(stored.header, stored.events, now);
}
