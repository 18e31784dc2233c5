/**
 * Private: the Upcoming list's rows before they are presented (`./upcoming.ts`): their sort key
 * (next occurrence, paused series last), the page cursor, and the zone and wall time a row shows.
 *
 * @module
 */
import type { WebHost } from "@chime/contract";
import type { SessionHeader } from "@chime/session";
import { foldSession } from "./fold.ts";
import { LiveSchedule } from "./live.ts";
import { isPaused, scheduledAtMs, type ScheduleRecord } from "./protocol.ts";
import { storeReader } from "./reader.ts";
import { activeReminder } from "./reminders.ts";
import { scheduleValue } from "./value.ts";
import type { UpcomingEntry, UpcomingState } from "./upcoming.ts";

/** A row before it is presented: its sort key and where it comes from. */
export interface Candidate {
  readonly key: number;
  readonly sessionId: string;
  readonly record: ScheduleRecord;
  readonly header: SessionHeader;
  readonly live: boolean;
}

/** Paused series sort after every dated reminder. */
const PAUSED_KEY = Number.MAX_SAFE_INTEGER;

/**
 * An opaque page cursor: the last row's sort key, session id and reminder id.
 *
 * @param c the last row of a page
 * @returns base64url text
 */
export function encodeCursor(c: Candidate): string {
  const text = JSON.stringify([c.key, c.sessionId, c.record.id]);
  return btoa(text).replaceAll("+", "-").replaceAll("/", "_").replace(/=+$/, "");
}

/**
 * Reads a cursor back.
 *
 * @param text a `nextCursor`
 * @returns the key, or `undefined` for text that is not one
 */
export function decodeCursor(text: string): [number, string, string] | undefined {
  try {
    const value = JSON.parse(atob(text.replaceAll("-", "+").replaceAll("_", "/")));
    const ok = Array.isArray(value) && value.length === 3 && Number.isSafeInteger(value[0]) &&
      typeof value[1] === "string" && typeof value[2] === "string";
    return ok ? value as [number, string, string] : undefined;
  } catch {
    return undefined;
  }
}

function compare(a: Candidate, b: readonly [number, string, string]): number {
  return a.key - b[0] || (a.sessionId < b[1] ? -1 : a.sessionId > b[1] ? 1 : 0) ||
    (a.record.id < b[2] ? -1 : a.record.id > b[2] ? 1 : 0);
}

function keyOf(c: Candidate): [number, string, string] {
  return [c.key, c.sessionId, c.record.id];
}

/**
 * The local wall time of an instant in a zone.
 *
 * @param ms epoch ms (UTC)
 * @param timeZone an IANA zone
 * @returns `{ local: 'YYYY-MM-DDTHH:MM', timeZone, offset: '±HH:MM' }`
 */
export function localTime(
  ms: number,
  timeZone: string,
): { local: string; timeZone: string; offset: string } {
  const zoned = Temporal.Instant.fromEpochMilliseconds(ms).toZonedDateTimeISO(timeZone);
  const local = zoned.toPlainDateTime().toString({ smallestUnit: "minute" });
  return { local, timeZone, offset: zoned.offset.slice(0, 6) };
}

/** The zone a reminder's time is shown in: the series' zone, the session's, else UTC. */
export function reminderZone(record: ScheduleRecord, header: SessionHeader): string {
  return record.kind === "recurring" ? record.timeZone : header.timeZone ?? "UTC";
}

export function byKey(a: Candidate, b: Candidate): number {
  return compare(a, keyOf(b));
}

/** The index of the first candidate after `key` in an ascending array. */
export function firstAfter(
  sorted: readonly Candidate[],
  key: readonly [number, string, string],
): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (compare(sorted[mid]!, key) <= 0) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

export function keyFor(record: ScheduleRecord): number {
  return isPaused(record) ? PAUSED_KEY : scheduledAtMs(record);
}

export function add(
  out: Candidate[],
  sessionId: string,
  header: SessionHeader,
  records: Iterable<ScheduleRecord>,
  live: boolean,
): void {
  for (const record of records) out.push({ key: keyFor(record), sessionId, record, header, live });
}

/** The live root sessions' rows, from their durable state (below the watermark). */
export async function liveCandidates(
  host: Pick<WebHost, "store" | "durableLength">,
): Promise<Candidate[]> {
  const { store } = host;
  const out: Candidate[] = [];
  for (const session of store.liveSessions()) {
    if (session.header.delegationDepth > 0) continue;
    const durable = host.durableLength(session);
    const active = LiveSchedule.of(session)?.activeAt(durable);
    if (active !== undefined) {
      add(out, session.id, session.header, active.values(), true);
      continue;
    }
    const from = session.header.seedLength ?? 0;
    const events = await storeReader(store)(session, { from, to: Math.max(from, durable) });
    add(out, session.id, session.header, foldSession(session.header, events).active.values(), true);
  }
  return out;
}

export async function present(
  host: Pick<WebHost, "sessionTitle">,
  c: Candidate,
  now: number,
): Promise<UpcomingEntry> {
  const reminder = activeReminder(scheduleValue(c.record, now));
  const state: UpcomingState = reminder.paused
    ? "paused"
    : reminder.status === "overdue"
    ? "overdue"
    : c.live
    ? "live"
    : "cold";
  const title = host.sessionTitle === undefined ? null : await host.sessionTitle(c.header);
  return {
    sessionId: c.sessionId,
    sessionTitle: title,
    live: c.live,
    state,
    next: localTime(Date.parse(reminder.scheduledAt), reminderZone(c.record, c.header)),
    reminder,
  };
}
