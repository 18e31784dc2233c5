/**
 * {@linkcode SessionStore}: creates, resumes and forks live sessions, appends to them and runs the
 * `flush` checkpoint exactly as docs/design.md#persistence-checkpoint says.
 *
 * @module
 */
import type { EventPage, PersistenceBackend, StoredSession } from "./backend.ts";
import { type Clock, systemClock } from "./clock.ts";
import { SessionError } from "./errors.ts";
import type { SessionEvent } from "./event.ts";
import { isSessionId, normalizeHeader, type SessionHeader } from "./header.ts";
import { DEFAULT_LIVE_TAIL_EVENTS, Session } from "./session.ts";
import {
  checkTypeQuery,
  mergeHeaders,
  randomId,
  readSession,
  readTypes,
  withIdLock,
} from "./_store_read.ts";
import { Checkpoints } from "./_store_flush.ts";
import { readTypeAcross, scanTypes, type StoredTypes } from "./_store_scan.ts";

export type { StoredTypes };
import { forkChild, type ForkContext } from "./_store_fork.ts";
import type {
  CreateSessionOptions,
  FlushedObserver,
  FlushListener,
  ForkOptions,
  LiveCause,
  LiveObserver,
  ReadByTypeOptions,
  SessionStoreOptions,
  WithdrawnObserver,
} from "./store_types.ts";

export type * from "./store_types.ts";
import { checkCreate, checkExisting, newHeader } from "./_store_create.ts";

/**
 * The session store. Live sessions are kept by id; each has one persistence controller that is
 * registered as a scoped flush listener.
 *
 * @example Create, append, flush
 * ```ts
 * import { SessionStore } from "@chime/session";
 * import { MemoryBackend } from "@chime/session/testing";
 * await using store = new SessionStore({ backend: new MemoryBackend() });
 * const session = await store.create({ cwd: "/", timeZone: "Asia/Kolkata" });
 * store.append(session, "note", { text: "hello" });
 * console.assert(await store.flush(session) === true);
 * ```
 */
export class SessionStore implements AsyncDisposable {
  readonly #backend: PersistenceBackend;
  readonly #clock: Clock;
  readonly #generateId: () => string;
  readonly #reportError: (error: unknown) => void;
  readonly #persist: boolean;
  readonly #tail: number;
  readonly #live = new Map<string, Session>();
  readonly #checkpoints: Checkpoints;
  readonly #forkContext: ForkContext;
  readonly #liveObservers = new Set<LiveObserver>();
  /** Serializes create/resume/fork/close per session id. */
  readonly #locks = new Map<string, Promise<unknown>>();

  /**
   * Creates a store over one backend.
   *
   * @param options backend, clock, id generator, tail bound
   * @throws {RangeError} when `liveTailEvents` is not a positive integer (the newest event always
   *   stays in memory)
   */
  constructor(options: SessionStoreOptions) {
    const tail = options.liveTailEvents ?? DEFAULT_LIVE_TAIL_EVENTS;
    if (!Number.isSafeInteger(tail) || tail < 1) {
      throw new RangeError(`Cannot create store: liveTailEvents ${tail} is not a positive count`);
    }
    this.#tail = tail;
    this.#backend = options.backend;
    this.#clock = options.clock ?? systemClock;
    this.#generateId = options.generateId ?? randomId;
    this.#reportError = options.reportError ?? ((e) => globalThis.reportError(e));
    this.#persist = options.persist ?? true;
    this.#checkpoints = new Checkpoints(this.#reportError);
    this.#withdraw = options.withdrawFailedWrites ?? false;
    this.#forkContext = {
      backend: this.#backend,
      persist: this.#persist,
      tail,
      now: () => this.#clock.now(),
      read: (session, from, to) => this.read(session, from, to),
      controller: (session) => this.#checkpoints.controller(session),
      goLive: (header, events, seedEnd, durable) =>
        this.#goLive(header, events, seedEnd, durable, "fork"),
    };
  }

  /** The backend, for independent inspection (attached history). */
  get backend(): PersistenceBackend {
    return this.#backend;
  }

  /** The store's clock. */
  get clock(): Clock {
    return this.#clock;
  }

  #withLock<T>(id: string, op: () => Promise<T>): Promise<T> {
    return withIdLock(this.#locks, id, op);
  }

  #checkId(id: unknown): string {
    if (!isSessionId(id)) {
      throw new SessionError("invalid_session_id", `Cannot use session id: ${String(id)}`);
    }
    return id;
  }

  #goLive(
    header: SessionHeader,
    events: readonly SessionEvent[],
    seedEnd: number,
    durableLength: number,
    cause: LiveCause,
  ): Session {
    const session = new Session({
      header,
      events,
      tailStart: durableLength === 0 ? 0 : durableLength - events.length,
      liveTailEvents: this.#tail,
      now: () => this.#clock.now(),
      reportError: this.#reportError,
    });
    this.#live.set(header.id, session);
    this.#checkpoints.attach(
      session,
      this.#persist ? this.#backend : undefined,
      seedEnd,
      durableLength,
      this.#withdraw ? (error) => this.#withdrawFailedWrites(session, error) : undefined,
    );
    for (const observer of [...this.#liveObservers]) {
      try {
        observer(session, durableLength, cause);
      } catch (error) {
        this.#reportError(error);
      }
    }
    return session;
  }

  /**
   * Creates a live session, or returns the existing one for the same id and cwd when its zone
   * is equal (Temporal equivalence). The header is durable after the first acknowledged flush.
   *
   * @param options cwd, optional id, zone, origin
   * @returns the live session
   * @throws {SessionError} `invalid_arguments` for a `cwd` that is not a well-formed string (a
   *   lone surrogate would be stored as U+FFFD, so the stored header would differ from the live
   *   one), `invalid_time_zone`, `invalid_session_id`, `time_zone_conflict` (same id and cwd,
   *   non-equal or missing-vs-present zone, `details.knownTimeZone`), `session_exists` (same id,
   *   other cwd)
   */
  async create(options: CreateSessionOptions): Promise<Session> {
    const timeZone = checkCreate(options);
    const id = this.#checkId(options.id ?? this.#generateId());
    return await this.#withLock(id, async () => {
      const existing = this.#live.get(id)?.header ?? (await this.#backend.cursor(id))?.header;
      if (existing === undefined) {
        const header = newHeader(id, options, timeZone, this.#clock.now());
        return this.#goLive(header, [], 0, 0, "create");
      }
      checkExisting(existing, options.cwd, timeZone);
      return this.#live.get(id) ?? await this.#resumeUnlocked(id);
    });
  }

  /**
   * Returns the live session for `id`, loading it from persistence when cold (cold → live).
   * Idempotent: a live session is returned as the same object.
   *
   * @throws {SessionError} `session_not_found`, `invalid_session_id`
   */
  async resume(id: string): Promise<Session> {
    this.#checkId(id);
    return await this.#withLock(id, () => this.#resumeUnlocked(id));
  }

  async #resumeUnlocked(id: string): Promise<Session> {
    const live = this.#live.get(id);
    if (live !== undefined) return live;
    // The header, the stored length and the newest events only: resume costs the same for a
    // 10-event and a 1,000,000-event log.
    const stored = await this.#backend.tail(id, this.#tail);
    if (stored === undefined) {
      throw new SessionError("session_not_found", `Cannot resume: no session ${id}`);
    }
    return this.#goLive(
      normalizeHeader(stored.header),
      stored.events,
      stored.length,
      stored.length,
      "resume",
    );
  }

  /**
   * Forks a session: the child copies the parent's events `[0, throughSeq]`, then
   * `session/end-seed { seedLength }`; its header carries `lineage`, `seedLength` and the
   * parent's `timeZone`. The child is stored before it goes live: the parent's prefix is made
   * durable first (a flush of the parent's own write path when needed) and copied inside storage
   * (`PersistenceBackend.fork`), never through memory. The parent is untouched. A store that
   * does not persist builds the child in memory.
   *
   * @param parent the live parent or its id (read from storage when cold)
   * @param options `throughSeq` (inclusive) and an optional child id
   * @throws {SessionError} `invalid_seq` when `throughSeq` is outside the parent log,
   *   `session_not_found`, `invalid_session_id`, `session_exists`, `persistence_failed` when the
   *   parent's prefix or the child cannot be stored
   */
  async fork(parent: Session | string, options: ForkOptions = {}): Promise<Session> {
    const live = typeof parent === "string" ? this.#live.get(this.#checkId(parent)) : parent;
    const cold = live === undefined ? await this.#backend.cursor(parent as string) : undefined;
    const source = live ?? cold;
    if (source === undefined) {
      throw new SessionError("session_not_found", `Cannot fork: no session ${String(parent)}`);
    }
    const through = options.throughSeq ?? source.length - 1;
    if (!Number.isSafeInteger(through) || through < -1 || through >= source.length) {
      throw new SessionError("invalid_seq", `Cannot fork: seq ${through} is not in the parent`);
    }
    const id = this.#checkId(options.id ?? this.#generateId());
    return this.#withLock(id, () => {
      if (this.#live.has(id)) throw new SessionError("session_exists", `Cannot fork: ${id} exists`);
      return forkChild(this.#forkContext, source, live, id, through);
    });
  }

  /**
   * Appends one event to a live session (see `Session.append`).
   *
   * @throws {SessionError} `session_closed`
   */
  append<T extends string, D>(session: Session, type: T, data: D): SessionEvent<T, D> {
    return session.append(type, data);
  }

  /**
   * Registers a scoped flush listener for one live session.
   *
   * @returns a handle whose disposal removes it
   */
  addFlushListener(session: Session, listener: FlushListener): Disposable {
    return this.#checkpoints.addListener(session, listener);
  }

  /**
   * Subscribes to withdrawn writes ({@linkcode SessionStoreOptions.withdrawFailedWrites}): the
   * observer is told the live session whose write failed, and makes it cold.
   *
   * @returns a handle whose disposal unsubscribes
   */
  onWithdrawn(observer: WithdrawnObserver): Disposable {
    this.#withdrawnObservers.add(observer);
    return { [Symbol.dispose]: () => this.#withdrawnObservers.delete(observer) };
  }

  /**
   * A live session's write failed and was withdrawn: its controller has halted (nothing of the
   * failed write, nor of later appends, is stored), its close skips the flush, and the
   * observers make it cold, so the next resume reads back the durable log only.
   */
  #withdrawFailedWrites(session: Session, error: unknown): void {
    this.#withdrawn.add(session);
    for (const observer of [...this.#withdrawnObservers]) {
      try {
        observer(session, error);
      } catch (failure) {
        this.#reportError(failure);
      }
    }
  }

  readonly #withdraw: boolean;
  readonly #withdrawn = new WeakSet<Session>();
  readonly #withdrawnObservers = new Set<WithdrawnObserver>();

  /**
   * Subscribes to sessions going live, with how much of each was read back from storage (see
   * {@linkcode LiveObserver}). The host seeds its commit watermark from it: a prefix loaded from
   * storage is durable by construction (docs/design.md#receipt-watermark).
   *
   * @returns a handle whose disposal unsubscribes
   */
  onLive(observer: LiveObserver): Disposable {
    this.#liveObservers.add(observer);
    return { [Symbol.dispose]: () => this.#liveObservers.delete(observer) };
  }

  /**
   * Subscribes to `session/flushed(session, throughSeq)` observations.
   *
   * @returns a handle whose disposal unsubscribes
   */
  onFlushed(observer: FlushedObserver): Disposable {
    return this.#checkpoints.onFlushed(observer);
  }

  /**
   * The checkpoint. Captures the exclusive bound `throughSeq = session.length` at entry, waits
   * for all scoped listeners to settle, and:
   * - if any rejected: throws (after all settled) and publishes nothing;
   * - if any returned literal `true`: publishes `session/flushed(session, throughSeq)`, returns
   *   `true`;
   * - otherwise (no listeners, or observers only): returns `false`.
   *
   * @returns `true` when durability was acknowledged
   * @throws {SessionError} `persistence_failed` with the listener error(s) as `cause`
   */
  flush(session: Session): Promise<boolean> {
    return this.#checkpoints.flush(session);
  }

  /**
   * The live session for `id`, if any. Never activates a cold session.
   */
  live(id: string): Session | undefined {
    return this.#live.get(id);
  }

  /**
   * Removes a cold stored session for good (the purge of deleted sessions, README.md "The
   * page"). The caller decides what may be purged; this only refuses a live session.
   *
   * @param id the session id
   * @returns `true` when it was stored and is now gone
   * @throws {SessionError} `invalid_session_id`; `storage_in_use` while it is live here
   * @throws {TypeError} when the backend cannot remove sessions
   */
  purge(id: string): Promise<boolean> {
    const checked = this.#checkId(id);
    return this.#withLock(checked, async () => {
      if (this.#live.has(checked)) {
        throw new SessionError("storage_in_use", `Cannot purge session ${checked}: it is live`);
      }
      const remove = this.#backend.remove?.bind(this.#backend);
      if (remove === undefined) {
        throw new TypeError(`Cannot purge: the ${this.#backend.kind} backend cannot remove`);
      }
      return await remove(checked);
    });
  }

  /** All live sessions. */
  liveSessions(): Session[] {
    return [...this.#live.values()];
  }

  /** Stored headers merged with live ones not yet stored, newest first (ties by id). */
  async list(): Promise<SessionHeader[]> {
    const live = [...this.#live.values()].map((s) => s.header);
    return mergeHeaders(await this.#backend.list(), live);
  }

  /**
   * The stored length of every stored session (durable events only; a live session's unflushed
   * tail is not counted): one backend read when the backend has `lengths()`, else one cursor per
   * listed session. Never activates a session.
   *
   * @returns session id → stored length
   * @throws {SessionError} what the backend throws for unreadable storage
   */
  async storedLengths(): Promise<Map<string, number>> {
    if (this.#backend.lengths !== undefined) return await this.#backend.lengths();
    const out = new Map<string, number>();
    for (const header of await this.#backend.list()) {
      const cursor = await this.#backend.cursor(header.id);
      if (cursor !== undefined) out.set(header.id, cursor.length);
    }
    return out;
  }

  /**
   * The stored events of some types of every stored session, one session at a time in id
   * order (durable events only; a live session's unflushed tail is not read). With a backend
   * that has `readTypeAcross` (libSQL) this is a few keyset-paged queries for the whole store;
   * otherwise one `readByType` per listed session. Never activates a session.
   *
   * @param types event types
   * @param pageSize rows per backend page @default 4096
   * @param onDamage called with each `storage_corrupt` that names one session, which is then
   *   left out while the others are read @default none: the error is raised
   * @yields `{ sessionId, events }` with the events ascending by seq; a session without such
   *   events is not yielded
   * @throws {SessionError} what the backend throws for unreadable storage (without `onDamage`,
   *   or damage that names no session)
   */
  readTypeAcross(
    types: readonly string[],
    pageSize = 4096,
    onDamage?: (error: Error) => void,
  ): AsyncGenerator<{ sessionId: string; events: SessionEvent[] }> {
    return readTypeAcross(this.#backend, types, pageSize, onDamage);
  }

  /**
   * Every stored session with its stored header, its stored length and its stored events of
   * some types, one session at a time in id order, in one pass over the store (a projection of
   * many logs, the schedule's Upcoming list, docs/upcoming.md). With a backend that has
   * `readTypeAcross` (libSQL): one `lengths()` read, one `list()` read, then a few keyset-paged
   * queries over the type index. Otherwise each listed session is read once (JSONL: one file
   * read gives its header, length and events), a few at a time. The length is read no later
   * than the events: events at or past it belong to a later length. Durable events only; never
   * activates a session.
   *
   * @param types event types
   * @param pageSize rows per backend page @default 4096
   * @param onDamage called with each `storage_corrupt` that names one session, which is then
   *   not yielded while the others are (README.md "How it behaves on failure") @default none:
   *   the error is raised
   * @yields `{ header, length, events }` for every stored session (`events` maybe empty)
   * @throws {SessionError} what the backend throws for unreadable storage (without `onDamage`,
   *   or damage that names no session)
   */
  scanTypes(
    types: readonly string[],
    pageSize = 4096,
    onDamage?: (error: Error) => void,
  ): AsyncGenerator<StoredTypes> {
    return scanTypes(this.#backend, types, pageSize, onDamage);
  }

  /**
   * Reads what persistence holds for `id`, independently of the live object
   * (docs/design.md#attached-history).
   *
   * @returns the stored header and events, or `undefined`
   */
  inspect(id: string): Promise<StoredSession | undefined> {
    return this.#backend.load(this.#checkId(id));
  }

  /** A page of stored events (durable prefix only). */
  readStored(id: string, page?: EventPage): Promise<SessionEvent[]> {
    return this.#backend.readEvents(this.#checkId(id), page);
  }

  /**
   * Any range `[from, to)` of a live session (`docs/long-sessions.md` §"Bounded live
   * session"): the part below {@linkcode Session.tailStart} from storage (ranged queries of
   * 4,096 events on the primary key), the rest from memory; the same frozen JSON form either way.
   *
   * @param session the live session (a closed one still serves its stored part)
   * @param from first seq, inclusive @default 0
   * @param to end seq, exclusive; clamped to `session.length` @default session.length
   * @returns the events in seq order
   * @throws {RangeError} when `from` or `to` is not a non-negative integer
   * @throws {SessionError} `storage_corrupt` for a damaged or missing stored row
   */
  read(session: Session, from = 0, to: number = session.length): Promise<SessionEvent[]> {
    return readSession(this.#backend, session, from, to);
  }

  /**
   * The events of the given types with `from ≤ seq < to`, in seq order: from storage by the
   * `(session_id, type, seq)` index (libSQL; JSONL scans) plus, for a live session, its tail
   * from memory (`docs/long-sessions.md` §"Bounded live session").
   *
   * @param session a live session, or an id (its live session when live, else storage only)
   * @param types event types
   * @param options `from` (default 0) and `to` (default no bound)
   * @returns frozen events in seq order
   * @throws {RangeError} when `types` is not an array of strings or a bound is not a seq
   * @throws {SessionError} `invalid_session_id`, `storage_corrupt`
   */
  async readByType(
    session: Session | string,
    types: readonly string[],
    options: ReadByTypeOptions = {},
  ): Promise<SessionEvent[]> {
    const from = options.from ?? 0;
    const to = options.to ?? Number.MAX_SAFE_INTEGER;
    checkTypeQuery(types, from, to);
    const live = typeof session === "string" ? this.#live.get(this.#checkId(session)) : session;
    return await readTypes(this.#backend, live ?? (session as string), types, from, to);
  }

  /**
   * Makes a live session cold: flushes it, stops its controller and closes the object.
   * A failed final flush is thrown after the session is closed (nothing acknowledged is lost;
   * the unacknowledged tail is reported).
   */
  close(session: Session): Promise<void> {
    return this.#withLock(session.id, async () => {
      if (this.#live.get(session.id) !== session) return;
      try {
        // A withdrawn session's unstored tail is dropped, never written now.
        if (!this.#withdrawn.has(session)) await this.flush(session);
      } finally {
        this.#live.delete(session.id);
        const controller = this.#checkpoints.detach(session);
        session.close();
        await controller?.[Symbol.asyncDispose]();
      }
    });
  }

  /**
   * Closes every live session, then the backend. Idempotent: a second call (the store and its
   * backend both held with `await using`) awaits the first.
   */
  [Symbol.asyncDispose](): Promise<void> {
    this.#disposing ??= (async () => {
      const results = await Promise.allSettled(this.liveSessions().map((s) => this.close(s)));
      await this.#backend[Symbol.asyncDispose]();
      const failed = results.flatMap((r) => r.status === "rejected" ? [r.reason] : []);
      if (failed.length > 0) throw failed[0];
    })();
    return this.#disposing;
  }
  #disposing: Promise<void> | undefined;
}
