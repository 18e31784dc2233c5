/**
 * Upcoming: every stored session's active reminders in one list ordered by next occurrence
 * (docs/upcoming.md). It is a projection of the logs, not a second authority: each session's
 * part is the fold of its own committed `schedule/change` events (read through the store's type
 * index, from `seedLength` for a fork, never a whole log), kept in memory keyed by the session's
 * stored length and re-read only when that length moved (one `storedLengths()` read per
 * request). Listing never makes a session live, arms no timer, takes no lease and writes
 * nothing; a live session contributes its durable state (below the host's watermark).
 *
 * @module
 */
import type { WebHost } from "@chime/contract";
import type { SessionHeader } from "@chime/session";
import type { SessionEvent } from "@chime/session";
import { foldSession, foldStart } from "./fold.ts";
import { LiveSchedule } from "./live.ts";
import { isPaused, scheduledAtMs, type ScheduleId, type ScheduleRecord } from "./protocol.ts";
import { readStoredChanges, storeReader } from "./reader.ts";
import { type ActiveReminder, activeReminder } from "./reminders.ts";
import { DELIVERY_MODE, scheduleValue } from "./value.ts";
import { SCHEDULE_CHANGE } from "./protocol.ts";

/** Default and largest page size of {@linkcode UpcomingProjection.page}. */
export const UPCOMING_LIMIT = { default: 50, max: 200 } as const;

/**
 * Where a listed reminder stands: `live` (its session is live here and it will fire on time),
 * `cold` (its session is only in storage: it fires when the session is opened), `overdue` (its
 * time has passed and it has not fired: it fires once its session is live and idle), `paused` (a
 * paused series; it never fires until resumed).
 */
export type UpcomingState = "live" | "cold" | "overdue" | "paused";

/** One row of `GET /api/reminders`. */
export interface UpcomingEntry {
  /** The session the reminder belongs to (its actions go through that session's routes). */
  readonly sessionId: string;
  /** The session's title (its first own user message), `null` before one. */
  readonly sessionTitle: string | null;
  /** Whether the session is live in this host. */
  readonly live: boolean;
  /** The state shown beside the reminder. */
  readonly state: UpcomingState;
  /**
   * The next time in the reminder's zone: the series' zone, else the session's default zone,
   * else UTC. `local` is `YYYY-MM-DDTHH:MM`, `offset` `±HH:MM`.
   */
  readonly next: { readonly local: string; readonly timeZone: string; readonly offset: string };
  /** The reminder as the session's own list shows it (`GET /api/sessions/:id/reminders`). */
  readonly reminder: ActiveReminder;
}

/** Answer of `GET /api/reminders`. */
export interface UpcomingPage {
  /** Rows ordered by next occurrence (paused series last), then session id, then reminder id. */
  readonly reminders: readonly UpcomingEntry[];
  /** Pass as `cursor` for the next page; `null` on the last one. */
  readonly nextCursor: string | null;
  /** Always `session-local`. */
  readonly deliveryMode: typeof DELIVERY_MODE;
}

/** The query of {@linkcode UpcomingProjection.page}. */
export interface UpcomingQuery {
  /** Only reminders whose next occurrence is before this instant (epoch ms); paused are left out. */
  readonly before?: number;
  /** Page size, 1..{@linkcode UPCOMING_LIMIT}.max. @default 50 */
  readonly limit?: number;
  /** The `nextCursor` of the previous page. */
  readonly cursor?: string;
}

/** One session's part: its header and its durable active records, at a stored length. */
interface Part {
  readonly header: SessionHeader;
  readonly length: number;
  readonly active: readonly ScheduleRecord[];
}

/** A row before it is presented: its sort key and where it comes from. */
interface Candidate {
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
function encodeCursor(c: Candidate): string {
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

/** How often shared storage's stored lengths are polled (ms), off the request path: other hosts' writes. */
export const REVALIDATE_MS = 2_000;

function byKey(a: Candidate, b: Candidate): number {
  return compare(a, keyOf(b));
}

/** The index of the first candidate after `key` in an ascending array. */
function firstAfter(sorted: readonly Candidate[], key: readonly [number, string, string]): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (compare(sorted[mid]!, key) <= 0) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * The cross-session projection of one store (docs/upcoming.md). One instance per store; it
 * holds, per cold session, the fold of its stored changes at the stored length it read them,
 * and their rows sorted. A session that goes live in this process drops its part (its log can
 * grow only while live here); every {@linkcode REVALIDATE_MS} one `storedLengths()` read also
 * catches what other hosts of shared storage wrote. Live sessions are read at each request
 * from their durable state.
 */
export class UpcomingProjection implements Disposable {
  readonly #parts = new Map<string, Part>();
  #sorted: Candidate[] | undefined;
  #subscription: Disposable | undefined;
  readonly #watch = new Set<string>();
  #warming: Promise<void> | undefined;
  #poll: number | undefined;
  #polling: Promise<void> | undefined;
  #refreshing: Promise<void> | undefined;

  /**
   * Starts reading every cold session's part in the background (the host calls it at start,
   * `PluginWeb.warm`): a few keyset-paged queries over the type index for the whole store
   * (`SessionStore.readTypeAcross`). With shared storage it also polls the stored lengths every
   * {@linkcode REVALIDATE_MS}, off the request path (the timer does not keep the process alive).
   *
   * @param host the store and whether other hosts write it
   * @returns the warm-up (it never rejects: a failure leaves the parts to the first request)
   */
  warm(host: Pick<WebHost, "store" | "sharedStorage">): Promise<void> {
    const { store } = host;
    this.#subscription ??= store.onLive((session) => {
      this.#watch.add(session.id);
      if (this.#parts.delete(session.id)) this.#sorted = undefined;
    });
    this.#warming ??= this.#readAll(store).catch(() => {
      this.#warming = undefined;
    });
    if (host.sharedStorage && this.#poll === undefined) {
      const poll = setInterval(() => {
        this.#polling ??= this.#revalidate(store).catch(() => {}).finally(() => {
          this.#polling = undefined;
        });
      }, REVALIDATE_MS) as unknown as number;
      Deno.unrefTimer(poll);
      this.#poll = poll;
    }
    return this.#warming;
  }

  /**
   * One page of the list.
   *
   * @param host the store, the durable bound of live sessions and, when the host has them,
   *   session titles
   * @param query `before`, `limit`, `cursor`
   * @returns the page
   * @throws {RangeError} for a cursor that is not one of this list's (`invalid_arguments`)
   * @throws {ScheduleError} `invalid_log` for a log the schedule fold rejects
   */
  async page(
    host: Pick<WebHost, "store" | "durableLength" | "sessionTitle" | "sharedStorage">,
    query: UpcomingQuery = {},
  ): Promise<UpcomingPage> {
    const limit = query.limit ?? UPCOMING_LIMIT.default;
    const after = query.cursor === undefined ? undefined : decodeCursor(query.cursor);
    if (query.cursor !== undefined && after === undefined) {
      throw new RangeError("Cannot list reminders: cursor is not one this list gave");
    }
    const now = host.store.clock.now();
    const cold = await this.#cold(host);
    const live = (await liveCandidates(host)).sort(byKey);
    const picked: Candidate[] = [];
    let i = after === undefined ? 0 : firstAfter(cold, after);
    let j = after === undefined ? 0 : firstAfter(live, after);
    while (picked.length <= limit && (i < cold.length || j < live.length)) {
      const a = cold[i];
      const b = live[j];
      const c = b === undefined || (a !== undefined && byKey(a, b) < 0) ? cold[i++]! : live[j++]!;
      if (query.before !== undefined && c.key >= query.before) break;
      picked.push(c);
    }
    const more = picked.length > limit;
    const rows = picked.slice(0, limit);
    const reminders = await Promise.all(rows.map((c) => present(host, c, now)));
    return {
      reminders,
      nextCursor: more ? encodeCursor(rows[rows.length - 1]!) : null,
      deliveryMode: DELIVERY_MODE,
    };
  }

  /**
   * Every active reminder of every root session, from the durable logs, in list order (the feed
   * of all sessions).
   *
   * @param host the store and the durable bound
   * @returns `{ header, record, live }` per reminder
   */
  async records(
    host: Pick<WebHost, "store" | "durableLength" | "sharedStorage">,
  ): Promise<{ header: SessionHeader; record: ScheduleRecord; live: boolean }[]> {
    return [...await this.#cold(host), ...await liveCandidates(host)];
  }

  /** Stops following the store (and the poll of shared storage). */
  [Symbol.dispose](): void {
    this.#subscription?.[Symbol.dispose]();
    this.#subscription = undefined;
    if (this.#poll !== undefined) clearInterval(this.#poll);
    this.#poll = undefined;
  }

  /** Sets one cold session's part from its stored changes at a stored length. */
  #set(header: SessionHeader, length: number, events: readonly SessionEvent[]): void {
    const from = foldStart(header);
    const own = events.filter((e) => e.seq >= from && e.seq < length);
    const active = header.delegationDepth > 0 ? [] : [...foldSession(header, own).active.values()];
    this.#parts.set(header.id, { header, length, active });
    this.#sorted = undefined;
  }

  /**
   * Reads every cold session's part in one pass over the store (`SessionStore.scanTypes`: the
   * lengths, the headers, then the changes of all sessions).
   */
  async #readAll(store: WebHost["store"]): Promise<void> {
    for await (const { header, length, events } of store.scanTypes([SCHEDULE_CHANGE])) {
      if (store.live(header.id) !== undefined) continue;
      this.#set(header, length, events);
    }
  }

  /** Reads one cold session's part (its stored changes, one indexed query after the cursor). */
  async #read(store: WebHost["store"], id: string): Promise<void> {
    const cursor = await store.backend.cursor(id);
    const stored = await readStoredChanges(store, id);
    if (stored === undefined || cursor === undefined) return;
    this.#set(stored.header, cursor.length, stored.events);
  }

  /** Shared storage: re-reads the parts whose stored length moved (other hosts' writes). */
  async #revalidate(store: WebHost["store"]): Promise<void> {
    const lengths = await store.storedLengths();
    for (const [id, part] of this.#parts) {
      if (lengths.get(id) !== part.length) {
        this.#parts.delete(id);
        this.#sorted = undefined;
      }
    }
    for (const [id] of lengths) {
      if (this.#parts.has(id) || store.live(id) !== undefined) continue;
      await this.#read(store, id);
    }
  }

  /** The cold sessions' rows, sorted, from the parts kept as the class comment says. */
  async #cold(host: Pick<WebHost, "store" | "sharedStorage">): Promise<Candidate[]> {
    const { store } = host;
    // The first request of a host that was not warmed waits for the warm-up.
    await this.warm(host);
    // Sessions seen live here that are cold again: their logs may have grown.
    if (this.#watch.size > 0) {
      this.#refreshing ??= (async () => {
        for (const id of [...this.#watch]) {
          if (store.live(id) !== undefined) continue;
          this.#watch.delete(id);
          await this.#read(store, id);
        }
      })().finally(() => {
        this.#refreshing = undefined;
      });
      await this.#refreshing;
    }
    // A part of a session that is live now is shown from its live state instead.
    for (const id of this.#parts.keys()) {
      if (store.live(id) === undefined) continue;
      this.#parts.delete(id);
      this.#watch.add(id);
      this.#sorted = undefined;
    }
    if (this.#sorted === undefined) {
      const rows: Candidate[] = [];
      for (const [id, part] of this.#parts) add(rows, id, part.header, part.active, false);
      this.#sorted = rows.sort(byKey);
    }
    return this.#sorted;
  }
}

function add(
  out: Candidate[],
  sessionId: string,
  header: SessionHeader,
  records: Iterable<ScheduleRecord>,
  live: boolean,
): void {
  for (const record of records) {
    const key = isPaused(record) ? PAUSED_KEY : scheduledAtMs(record);
    out.push({ key, sessionId, record, header, live });
  }
}

/** The live root sessions' rows, from their durable state (below the watermark). */
async function liveCandidates(
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

async function present(
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

// Types in the signatures above, re-exported for documentation.
export type { ScheduleId };

// Types the signatures above name, re-exported so each entry point documents whole
// (`deno doc --lint` per entry point, tests/doc_lint.ts).
export type { ActiveReminder } from "./reminders.ts";
export type { DELIVERY_MODE, RepeatValue } from "./value.ts";
export type {
  AfterRecord,
  AtRecord,
  OneShotRecord,
  RecurringRecord,
  ScheduleRecord,
  SnoozeOf,
} from "./protocol.ts";
export type {
  AppendListener,
  Clock,
  CreateSessionOptions,
  EventPage,
  FlushedObserver,
  FlushListener,
  ForkOptions,
  LiveCause,
  LiveObserver,
  PersistenceBackend,
  ReadByTypeOptions,
  Session,
  SessionEvent,
  SessionHeader,
  SessionLineage,
  SessionStore,
  StoredCursor,
  StoredSession,
  StoredTail,
  StoredTypes,
  TimerHandle,
  TypeAcrossPage,
  TypedEvent,
} from "@chime/session";
export type { AgentHandle, AgentPhase, LinkKeys, WebHost } from "@chime/contract";
export type { OccurrencePreview } from "./recurrence.ts";
