/**
 * The incremental schedule state of one live session (docs/long-sessions.md "Incremental
 * schedule state"): built once from the session's `schedule/change` events (from `seedLength`
 * for forks) and then kept current by applying each appended `schedule/change` event
 * synchronously, at its append, with the same transition function as {@linkcode foldSchedule}.
 * Tools, page actions, the owner and `keepsLive` read it in O(active records); nothing here is
 * authoritative: the session log is, and the state is rebuilt from it on every resume.
 *
 * Durable view: the host's reminders list may show only what is committed
 * (docs/design.md#commit-aware-web-receipt). Beside the live state the object keeps a second state
 * at a durable cursor and the short list of changes appended after it;
 * {@linkcode LiveSchedule.activeAt} moves the cursor to a durable length it is given, and every
 * acknowledged schedule barrier moves it to the barrier's bound, so the list holds only changes no
 * barrier has confirmed yet.
 *
 * @module
 */
import type { AgentHandle } from "@chime/contract";
import type { Session, SessionEvent } from "@chime/session";
import { applyEvent, emptyState, type MutableScheduleState } from "./_apply.ts";
import { foldStart, type ScheduleState } from "./fold.ts";
import { SCHEDULE_CHANGE, type ScheduleId } from "./protocol.ts";
import type { ScheduleRecord } from "./protocol.ts";
import { type ScheduleChangeReader, storeReader } from "./reader.ts";

const HOUR_MS = 3_600_000;

/** Options of {@linkcode LiveSchedule.for}. */
export interface LiveScheduleOptions {
  /**
   * Where the initial `schedule/change` events come from.
   * @default {@linkcode storeReader} of the agent's store (indexed when the store is)
   */
  readonly read?: ScheduleChangeReader;
}

const registry = new WeakMap<Session, LiveSchedule>();

/**
 * One session's incremental schedule state. Get it with {@linkcode LiveSchedule.for} (the
 * schedule plugin makes one per live root agent, and disposes it with the agent's scope).
 *
 * @example Follow a session's reminders as they are appended
 * ```ts
 * import { SessionStore } from "@chime/session";
 * import { MemoryBackend } from "@chime/session/testing";
 * import { LiveSchedule } from "@chime/schedule";
 * await using store = new SessionStore({ backend: new MemoryBackend() });
 * const session = await store.create({ cwd: "/" });
 * using schedule = LiveSchedule.for({ session, store });
 * await schedule.ready;
 * const record = {
 *   id: "sch_AbCd1234", kind: "at", prompt: "stretch", scheduledAt: "2030-01-01T00:00:00.000Z",
 * };
 * session.append("schedule/change", { version: 2, op: "create", record });
 * console.assert(schedule.state.active.size === 1);
 * ```
 */
export class LiveSchedule implements Disposable {
  readonly #session: Session;
  readonly #from: number;
  readonly #live: MutableScheduleState = emptyState();
  /** The state at `#durableAt`; made when a first change becomes durable (idle sessions: none). */
  #durable: MutableScheduleState | undefined;
  #durableAt: number;
  /** `schedule/change` events at `seq ≥ #durableAt`, in the live state only, in seq order. */
  #pending: SessionEvent[] = [];
  /** Own dispatch instants (epoch ms), append order, none older than the newest minus an hour. */
  #dispatches: number[] = [];
  /** The first event the live state refused (or the failed read), and why. */
  #failure: { readonly seq: number; readonly error: unknown } | undefined;
  /** Appends that arrived while the initial read ran; `undefined` once loaded. */
  #buffer: SessionEvent[] | undefined = [];
  readonly #subscription: Disposable;
  #disposed = false;
  /** Resolves once the initial read is applied (also when it failed: reads then throw). */
  readonly ready: Promise<void>;

  private constructor(session: Session, read: ScheduleChangeReader) {
    this.#session = session;
    this.#from = foldStart(session.header);
    this.#durableAt = this.#from;
    this.#subscription = session.subscribe((event) => this.#appended(event));
    const to = session.length;
    let events: readonly SessionEvent[] | Promise<readonly SessionEvent[]>;
    try {
      events = read(session, { from: this.#from, to });
    } catch (error) {
      events = Promise.reject(error);
    }
    this.ready = Array.isArray(events)
      ? Promise.resolve(this.#load(events, to))
      : Promise.resolve(events).then((loaded) => this.#load(loaded, to), (error) => {
        this.#failure = { seq: -Infinity, error }; // nothing can be answered
        this.#load([], to);
      });
  }

  /**
   * The state of `agent`'s session, made (and its initial read started) on first use.
   *
   * @param agent the live agent (only `session` and `store` are used)
   * @param options the initial reader, used only when the state is made now
   * @returns the session's state
   */
  static for(
    agent: Pick<AgentHandle, "session" | "store">,
    options: LiveScheduleOptions = {},
  ): LiveSchedule {
    const existing = registry.get(agent.session);
    if (existing !== undefined) return existing;
    const made = new LiveSchedule(agent.session, options.read ?? storeReader(agent.store));
    registry.set(agent.session, made);
    return made;
  }

  /**
   * The state kept for a live session object, if one was made and not disposed.
   *
   * @param session the exact live session object
   * @returns its state, or `undefined`
   */
  static of(session: Session): LiveSchedule | undefined {
    return registry.get(session);
  }

  /** `true` once the initial read is applied. */
  get loaded(): boolean {
    return this.#buffer === undefined;
  }

  /**
   * The state after every appended event: the same value {@linkcode foldSession} computes over
   * the whole session (a read-only view, no copy).
   *
   * A change the fold refuses is quarantined in it (docs/recurring.md "Damaged changes").
   *
   * @throws the initial read's error when it failed
   * @throws {Error} while {@linkcode LiveSchedule.loaded} is `false`
   */
  get state(): ScheduleState {
    if (this.#failure !== undefined) throw this.#failure.error;
    if (!this.loaded) throw new Error("Cannot read the schedule state: it is still loading");
    return this.#live;
  }

  /**
   * The own dispatches in the trailing hour: instants (epoch ms, UTC, from each event's `at`)
   * after `now − 1 h`, oldest first. Costs O(dispatches in that hour).
   *
   * @param now the decision instant, epoch ms
   * @returns the instants
   */
  recentDispatches(now: number): number[] {
    const cutoff = now - HOUR_MS;
    let i = this.#dispatches.length;
    while (i > 0 && this.#dispatches[i - 1]! > cutoff) i--;
    return this.#dispatches.slice(i);
  }

  /**
   * Records that everything below `through` is durable (an acknowledged barrier or the host's
   * flushed watermark): the durable state absorbs the pending changes below it.
   *
   * @param through an exclusive durable bound
   */
  settle(through: number): void {
    // While loading, the pending list is not complete yet: the next bound moves the cursor.
    if (!this.loaded || through <= this.#durableAt) return;
    let n = 0;
    for (; n < this.#pending.length && this.#pending[n]!.seq < through; n++) {
      applyEvent(this.#durable ??= emptyState(), this.#pending[n]!);
    }
    this.#pending.splice(0, n);
    this.#durableAt = through;
  }

  /**
   * The active records as of a durable length, in create order: the state of the events below
   * `max(durableLength, the last confirmed bound)`, so nothing uncommitted ever shows. Costs
   * O(active + changes not yet confirmed).
   *
   * @param durableLength a proven durable length of the session (the host's flushed watermark)
   * @returns the active records, or `undefined` while the initial read runs
   * @throws the initial read's error when it failed
   */
  activeAt(durableLength: number): ReadonlyMap<ScheduleId, ScheduleRecord> | undefined {
    return this.stateAt(durableLength)?.active;
  }

  /**
   * The whole state as of a durable length (as {@linkcode LiveSchedule.activeAt}), with the
   * changes it quarantined (docs/recurring.md "Damaged changes").
   *
   * @param durableLength a proven durable length of the session
   * @returns the state, or `undefined` while the initial read runs
   * @throws the initial read's error when it failed
   */
  stateAt(durableLength: number): ScheduleState | undefined {
    if (!this.loaded) return undefined;
    this.settle(durableLength);
    if (this.#failure !== undefined && this.#failure.seq < this.#durableAt) {
      throw this.#failure.error;
    }
    return this.#durable ??= emptyState();
  }

  #appended(event: SessionEvent): void {
    if (event.type !== SCHEDULE_CHANGE || event.seq < this.#from) return;
    if (this.#buffer !== undefined) this.#buffer.push(event);
    else this.#apply(event);
  }

  #load(events: readonly SessionEvent[], to: number): void {
    for (const event of events) {
      if (event.type === SCHEDULE_CHANGE && event.seq >= this.#from && event.seq < to) {
        this.#apply(event);
      }
    }
    const buffered = this.#buffer ?? [];
    this.#buffer = undefined;
    for (const event of buffered) this.#apply(event);
  }

  // Never throws: it runs inside the session's append listener.
  #apply(event: SessionEvent): void {
    if (this.#failure !== undefined) return;
    try {
      // A refused change is quarantined, its reminder held (docs/recurring.md "Damaged changes").
      const change = applyEvent(this.#live, event);
      this.#pending.push(event);
      if (change?.op === "dispatch") this.#dispatched(Date.parse(event.at));
    } catch (error) {
      this.#failure = { seq: event.seq, error };
    }
  }

  #dispatched(at: number): void {
    this.#dispatches.push(at);
    let old = 0;
    while (this.#dispatches[old]! <= at - HOUR_MS) old++;
    if (old > 0) this.#dispatches.splice(0, old);
  }

  /** Stops following the session and forgets the state; a later `for()` rebuilds it. */
  [Symbol.dispose](): void {
    if (this.#disposed) return;
    this.#disposed = true;
    this.#subscription[Symbol.dispose]();
    if (registry.get(this.#session) === this) registry.delete(this.#session);
  }
}
