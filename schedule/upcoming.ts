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
import type { SessionError, SessionHeader } from "@chime/session";
import type { SessionEvent } from "@chime/session";
import { foldSession, foldStart } from "./fold.ts";
import type { ScheduleId, ScheduleRecord } from "./protocol.ts";
import { readStoredChanges } from "./reader.ts";
import type { ActiveReminder } from "./reminders.ts";
import { DELIVERY_MODE } from "./value.ts";
import { SCHEDULE_CHANGE } from "./protocol.ts";
import { type CachedPart, type CachedRows, readCacheMeta, writeCache } from "./_upcoming_cache.ts";
import {
  add,
  byKey,
  type Candidate,
  decodeCursor,
  encodeCursor,
  firstAfter,
  keyFor,
  liveCandidates,
  localTime,
  present,
  reminderZone,
} from "./_upcoming_rows.ts";

export { decodeCursor, localTime, reminderZone };

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
  /**
   * The cold sessions whose stored log could not be read (`storage_corrupt`: a damaged header
   * or row, README.md "How it behaves on failure"), by id, with the damaged seq when one is
   * named: their reminders are not listed; every other session's are.
   */
  readonly damaged: readonly UpcomingDamage[];
}

/** One session {@linkcode UpcomingPage} leaves out because its stored log is damaged. */
export interface UpcomingDamage {
  /** The session. */
  readonly sessionId: string;
  /** The damaged event's seq; absent for a damaged header. */
  readonly seq?: number;
}

/** The damage entry of a `storage_corrupt` that names one session, else `undefined`. */
function damageOf(error: unknown): UpcomingDamage | undefined {
  // By its code, not `instanceof`: this module is one the page's halves load, which import no
  // value from the session barrel (tests/arrows_test.ts).
  const coded = error as Partial<SessionError> | null;
  if (coded?.code !== "storage_corrupt" || typeof coded.details !== "object") return undefined;
  const { sessionId, seq } = coded.details as { sessionId?: unknown; seq?: unknown };
  if (typeof sessionId !== "string") return undefined;
  return typeof seq === "number" ? { sessionId, seq } : { sessionId };
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
type Part = CachedPart;

/** The start-up cache in use: its parts count unless `skip` names their session. */
interface Snapshot {
  readonly lengths: ReadonlyMap<string, number>;
  readonly rows: CachedRows;
  /** Sessions whose cached part is not used: read again, live, or gone from storage. */
  readonly skip: Set<string>;
}

/** Parts in the cache whose length moved beyond this many are read by one scan instead. */
const STALE_SCAN = 256;

/** The cache is written again at most this often (ms), after a part changed. */
export const CACHE_SAVE_MS = 60_000;

/** How often shared storage's stored lengths are polled (ms), off the request path: other hosts' writes. */
export const REVALIDATE_MS = 2_000;

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
  /** Cold sessions whose log read as damaged, left out until a read of them succeeds. */
  readonly #damaged = new Map<string, UpcomingDamage>();
  readonly #cacheDir: string | undefined;
  #snapshot: Snapshot | undefined;
  #materializing: Promise<void> | undefined;
  #dirty = false;
  #savedAt = -Infinity;

  /**
   * A projection of one store, empty until {@linkcode UpcomingProjection.warm}.
   *
   * @param options `cacheDir`: the folder of the start-up cache (docs/upcoming.md "The start-up
   *   cache"), @default none: every start reads the logs
   */
  constructor(options: { readonly cacheDir?: string } = {}) {
    this.#cacheDir = options.cacheDir;
  }
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
      this.#snapshot?.skip.add(session.id);
      if (this.#parts.delete(session.id)) this.#sorted = undefined;
    });
    this.#warming ??= this.#start(store).catch(() => {
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
    // A later page seeks by its cursor: that needs every part in memory.
    if (after !== undefined) await this.#materialize(host);
    const cold = await this.#cold(host);
    const live = (await liveCandidates(host)).sort(byKey);
    const picked: Candidate[] = [];
    let i = after === undefined ? 0 : firstAfter(cold, after);
    let j = after === undefined ? 0 : firstAfter(live, after);
    // The first page after a start with a verified cache: its rows, read only as far as needed.
    const cached = this.#cachedFrom();
    let k = await cached?.(0);
    while (picked.length <= limit) {
      const a = cold[i];
      const b = live[j];
      const d = k?.candidate;
      let c = a;
      if (c === undefined || (b !== undefined && byKey(b, c) < 0)) c = b;
      if (c === undefined || (d !== undefined && byKey(d, c) < 0)) c = d;
      if (c === undefined) break;
      if (c === a) i++;
      else if (c === b) j++;
      else k = await cached!(k!.next);
      if (query.before !== undefined && c.key >= query.before) break;
      picked.push(c);
    }
    const more = picked.length > limit;
    const rows = picked.slice(0, limit);
    const reminders = await Promise.all(rows.map((c) => present(host, c, now)));
    const damaged = [...this.#damaged.values()].filter((d) =>
      host.store.live(d.sessionId) === undefined
    )
      .sort((a, b) => (a.sessionId < b.sessionId ? -1 : a.sessionId > b.sessionId ? 1 : 0));
    return {
      reminders,
      nextCursor: more ? encodeCursor(rows[rows.length - 1]!) : null,
      deliveryMode: DELIVERY_MODE,
      damaged,
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
    await this.#materialize(host);
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
    this.#damaged.delete(header.id);
    this.#snapshot?.skip.add(header.id);
    this.#sorted = undefined;
    this.#dirty = true;
  }

  /**
   * The start: the cache when there is one whose parts the stored lengths confirm (the parts
   * whose length moved, or that it lacks, read again from the log), else one pass over the store;
   * then the cache is written.
   */
  async #start(store: WebHost["store"]): Promise<void> {
    const meta = this.#cacheDir === undefined ? undefined : await readCacheMeta(this.#cacheDir);
    if (meta !== undefined) {
      const stored = await store.storedLengths();
      // Sessions live before the projection followed the store (`onLive` notes the later ones)
      // are shown from their live state, and read again once cold.
      const skip = new Set(store.liveSessions().map((session) => session.id));
      for (const id of skip) this.#watch.add(id);
      for (const [id, length] of meta.lengths) if (stored.get(id) !== length) skip.add(id);
      // Read again: the sessions whose length moved or that are new, and the cached ones the
      // lengths no longer name (removed, or a damaged log a backend leaves out: then named in
      // the page's `damaged`).
      const stale = [
        ...[...stored.keys()].filter((id) => meta.lengths.get(id) !== stored.get(id)),
        ...[...meta.lengths.keys()].filter((id) => !stored.has(id)),
      ];
      if (stale.length <= STALE_SCAN) {
        this.#snapshot = { lengths: meta.lengths, rows: meta.rows, skip };
        for (const id of stale) if (store.live(id) === undefined) await this.#read(store, id);
        this.#save(store);
        return;
      }
    }
    await this.#readAll(store);
    this.#save(store, true);
  }

  /**
   * Writes the cache (synchronously: no write outlives the call) when parts changed since the
   * last write, at most every {@linkcode CACHE_SAVE_MS} unless `now`. While a cache is in use
   * its parts are not all in memory: nothing is written (the next start reads again only what
   * moved). A failed write costs the next start its speed, nothing else, so it is not raised.
   */
  #save(store: WebHost["store"], now = false): void {
    if (this.#cacheDir === undefined || this.#snapshot !== undefined || !this.#dirty) return;
    const at = store.clock.now();
    if (!now && at - this.#savedAt < CACHE_SAVE_MS) return;
    this.#savedAt = at;
    this.#dirty = false;
    try {
      writeCache(this.#cacheDir, this.#parts, keyFor);
    } catch {
      // A derived cache: see the method comment.
    }
  }

  /**
   * A reader of the cache's candidates in list order from row `i`, skipping the sessions
   * whose cached part is not used (read again, live, gone).
   */
  #cachedFrom():
    | ((i: number) => Promise<{ candidate: Candidate; next: number } | undefined>)
    | undefined {
    const snapshot = this.#snapshot;
    if (snapshot === undefined) return undefined;
    return async (i) => {
      for (;; i++) {
        const row = await snapshot.rows.row(i);
        if (row === undefined) return undefined;
        const id = row.header.id;
        if (snapshot.skip.has(id)) continue;
        const { key, header, record } = row;
        return { candidate: { key, sessionId: id, record, header, live: false }, next: i + 1 };
      }
    };
  }

  /** Moves every used part of the cache into memory (a later page, the feed, a poll). */
  async #materialize(host: Pick<WebHost, "store">): Promise<void> {
    const snapshot = this.#snapshot;
    if (snapshot === undefined) return;
    this.#materializing ??= (async () => {
      const active = new Map<string, ScheduleRecord[]>();
      const headers = new Map<string, SessionHeader>();
      for (const { header, record } of await snapshot.rows.all()) {
        headers.set(header.id, header);
        const list = active.get(header.id);
        if (list === undefined) active.set(header.id, [record]);
        else list.push(record);
      }
      for (const [id, length] of snapshot.lengths) {
        if (snapshot.skip.has(id) || this.#parts.has(id)) continue;
        this.#parts.set(id, { header: headers.get(id), length, active: active.get(id) ?? [] });
      }
      this.#snapshot = undefined;
      this.#sorted = undefined;
      this.#save(host.store);
    })().catch(async () => {
      // A cache that cannot be read whole: read the logs instead.
      this.#snapshot = undefined;
      await this.#readAll(host.store);
    }).finally(() => {
      this.#materializing = undefined;
    });
    await this.#materializing;
  }

  /**
   * Reads every cold session's part in one pass over the store (`SessionStore.scanTypes`: the
   * lengths, the headers, then the changes of all sessions).
   */
  async #readAll(store: WebHost["store"]): Promise<void> {
    const contain = (error: Error) => this.#quarantine(error);
    for await (
      const { header, length, events } of store.scanTypes([SCHEDULE_CHANGE], 4096, contain)
    ) {
      if (store.live(header.id) !== undefined) continue;
      this.#set(header, length, events);
    }
  }

  /**
   * Reads one cold session's part (its stored changes, one indexed query after the cursor). A
   * damaged log leaves that session out (and named in the page's `damaged`), not the list.
   */
  async #read(store: WebHost["store"], id: string): Promise<void> {
    let cursor, stored;
    try {
      cursor = await store.backend.cursor(id);
      stored = await readStoredChanges(store, id);
    } catch (error) {
      this.#quarantine(error);
      return;
    }
    if (stored === undefined || cursor === undefined) return;
    this.#set(stored.header, cursor.length, stored.events);
  }

  /**
   * Leaves a session whose stored log is damaged out of the list (its part and cached rows)
   * and records it for the page's `damaged`.
   *
   * @throws the error itself when it is not one session's `storage_corrupt`
   */
  #quarantine(error: unknown): void {
    const damage = damageOf(error);
    if (damage === undefined) throw error;
    this.#damaged.set(damage.sessionId, damage);
    if (this.#parts.delete(damage.sessionId)) this.#sorted = undefined;
    this.#snapshot?.skip.add(damage.sessionId);
  }

  /** Shared storage: re-reads the parts whose stored length moved (other hosts' writes). */
  async #revalidate(store: WebHost["store"]): Promise<void> {
    await this.#materialize({ store });
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
      this.#save(store);
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
      for (const [id, part] of this.#parts) {
        if (part.header !== undefined) add(rows, id, part.header, part.active, false);
      }
      this.#sorted = rows.sort(byKey);
    }
    return this.#sorted;
  }
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
  StorageHealth,
  StorageLoss,
  StoredCursor,
  StoredSession,
  StoredTail,
  StoredTypes,
  TimerHandle,
  TypeAcrossPage,
  TypedEvent,
  WithdrawnObserver,
} from "@chime/session";
export type { AgentHandle, AgentPhase, LinkKeys, WebHost } from "@chime/contract";
export type { OccurrencePreview } from "./recurrence.ts";
