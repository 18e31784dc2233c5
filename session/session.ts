/**
 * {@linkcode Session}: one live, append-only, dense-`seq` event log whose bounded tail is held in
 * memory (`docs/long-sessions.md` §"Bounded live session").
 *
 * @module
 */
import type { SessionEvent } from "./event.ts";
import type { SessionHeader } from "./header.ts";
import { SessionError } from "./errors.ts";
import { NOT_PLAIN, plainJsonCopy } from "./_json_form.ts";

/**
 * Called synchronously after each append, in append order, with the JSON text of `event.data`
 * (`JSON.stringify` of the appended value: what storage holds, so a persistence writer need not
 * serialize it again; `undefined` from a session that does not provide it).
 */
export type AppendListener = (event: SessionEvent, session: Session, dataText?: string) => void;

/** How many committed events a live session keeps in memory by default. */
export const DEFAULT_LIVE_TAIL_EVENTS = 1_000;

/** Construction options of a {@linkcode Session}; built by `SessionStore`, not by users. */
export interface SessionInit {
  /** The immutable header. */
  readonly header: SessionHeader;
  /**
   * Events already in the log and held in memory (a loaded tail or a seeded prefix), dense from
   * `tailStart`.
   */
  readonly events?: readonly SessionEvent[];
  /**
   * The seq of the first element of `events`; every event below it must be durable already.
   * @default 0
   */
  readonly tailStart?: number;
  /**
   * At least this many of the newest events stay in memory once committed (never fewer than
   * the ones not yet durable). @default DEFAULT_LIVE_TAIL_EVENTS
   */
  readonly liveTailEvents?: number;
  /** Wall clock for `at`, epoch ms. */
  readonly now: () => number;
  /** Where listener exceptions go (never swallowed). @default globalThis.reportError */
  readonly reportError?: (error: unknown) => void;
}

/** The last instant formatted and its ISO form: appends of the same millisecond share it. */
let lastEpochMs = Number.NaN;
let lastIso = "";

/** `new Date(epochMs).toISOString()`, reusing the last result for the same instant. */
function isoAt(epochMs: number): string {
  if (epochMs !== lastEpochMs) {
    lastIso = new Date(epochMs).toISOString();
    lastEpochMs = epochMs;
  }
  return lastIso;
}

/** Freezes a fresh JSON value (from `JSON.parse`: plain objects and arrays, no cycle). */
function freezeParsed(value: unknown): void {
  Object.freeze(value);
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const v: unknown = value[i];
      if (typeof v === "object" && v !== null) freezeParsed(v);
    }
    return;
  }
  for (const key in value as Record<string, unknown>) {
    const v = (value as Record<string, unknown>)[key];
    if (typeof v === "object" && v !== null) freezeParsed(v);
  }
}

/**
 * Freezes a JSON value and everything in it (a frozen value is left as it is).
 *
 * @param value a JSON value
 * @returns the same value, frozen
 */
export function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === "object" && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value)) deepFreeze(v);
  }
  return value;
}

/**
 * A live session log. Appends are synchronous, assign the next dense `seq`, stamp `at` (UTC,
 * ms) and freeze a structured clone of `data`, so a committed event can never change.
 * Durability is not the session's concern: `SessionStore.flush()` is the barrier.
 *
 * Memory is bounded: the session holds the events from {@linkcode Session.tailStart} on, that is
 * at least the newest `liveTailEvents` and every event not yet durable (`tailStart ≤ durable
 * length`). Older events are read from storage with `SessionStore.read`.
 *
 * @example Append and read
 * ```ts
 * import { Session } from "@chime/session";
 * const session = new Session({
 *   header: { version: 1, id: "s1", cwd: "/", createdAt: "2026-01-01T00:00:00.000Z",
 *     origin: "doc", lineage: null, delegationDepth: 0 },
 *   now: () => 0,
 * });
 * const event = session.append("note", { text: "hi" });
 * console.assert(event.seq === 0 && session.length === 1);
 * ```
 */
export class Session {
  /** The immutable header. */
  readonly header: SessionHeader;
  /** The held events; `#events[#offset]` has seq `#tailStart`. */
  #events: SessionEvent[];
  #offset = 0;
  #tailStart: number;
  readonly #keep: number;
  readonly #now: () => number;
  readonly #listeners = new Set<AppendListener>();
  /** `#listeners` as an array, replaced (never changed) when the set changes. */
  #listenerList: readonly AppendListener[] = [];
  readonly #reportError: (error: unknown) => void;
  #closed = false;

  /**
   * Creates a live log from a header and an existing dense prefix.
   *
   * @param init header, existing events (from `tailStart`), tail bound and clock
   * @throws {RangeError} when an event's `seq` is not `tailStart` plus its index, or when
   *   `tailStart` is not a non-negative integer or `liveTailEvents` not a positive one (the
   *   newest event always stays in memory)
   */
  constructor(init: SessionInit) {
    const tailStart = init.tailStart ?? 0;
    const keep = init.liveTailEvents ?? DEFAULT_LIVE_TAIL_EVENTS;
    if (!Number.isSafeInteger(tailStart) || tailStart < 0) {
      throw new RangeError(`Cannot load session: tailStart ${tailStart} is not a seq`);
    }
    if (!Number.isSafeInteger(keep) || keep < 1) {
      throw new RangeError(`Cannot load session: liveTailEvents ${keep} is not a positive count`);
    }
    this.header = deepFreeze(structuredClone(init.header));
    this.#tailStart = tailStart;
    this.#keep = keep;
    this.#events = (init.events ?? []).map((e, i) => {
      if (e.seq !== tailStart + i) {
        throw new RangeError(`Cannot load session: event ${tailStart + i} has seq ${e.seq}`);
      }
      return deepFreeze(structuredClone(e));
    });
    this.#now = init.now;
    this.#reportError = init.reportError ?? ((e) => globalThis.reportError(e));
  }

  /** The session id (`header.id`). */
  get id(): string {
    return this.header.id;
  }

  /** Number of events; also the next `seq`. */
  get length(): number {
    return this.#tailStart + this.#events.length - this.#offset;
  }

  /** The first seq held in memory; older events are read with `SessionStore.read`. */
  get tailStart(): number {
    return this.#tailStart;
  }

  /** `true` once the store closed this live object (the session went cold). */
  get closed(): boolean {
    return this.#closed;
  }

  /**
   * The event at `seq`, if held in memory.
   *
   * @param seq a 0-based position
   * @returns the event, or `undefined` when out of range or below {@linkcode Session.tailStart}
   */
  event(seq: number): SessionEvent | undefined {
    if (seq < this.#tailStart) return undefined;
    return this.#events[this.#offset + seq - this.#tailStart];
  }

  /**
   * A copy of the events in `[from, to)` held in memory.
   *
   * @param from first seq, inclusive @default 0
   * @param to end seq, exclusive (clamped to the length) @default this.length
   * @returns frozen events in seq order
   * @throws {RangeError} when `from < tailStart`: read older events with `SessionStore.read`
   */
  events(from = 0, to: number = this.length): readonly SessionEvent[] {
    if (!(from >= this.#tailStart)) {
      throw new RangeError(
        `Cannot read events from seq ${from}: session ${this.id} holds seqs from ${this.#tailStart}`,
      );
    }
    const base = this.#offset - this.#tailStart;
    return this.#events.slice(base + from, Math.max(base + from, base + to));
  }

  /**
   * Tells the session that every event below `durableLength` is committed, so the tail may drop
   * the ones beyond its bound. Used by the store's persistence coordinator, not by users.
   *
   * @param durableLength exclusive bound of the committed prefix
   */
  markDurable(durableLength: number): void {
    const start = Math.min(durableLength, this.length - this.#keep);
    if (start <= this.#tailStart) return;
    this.#offset += start - this.#tailStart;
    this.#tailStart = start;
    // Amortized O(1) per event: compact once the dropped part outgrows the kept bound.
    if (this.#offset > Math.max(this.#keep, 256)) {
      this.#events = this.#events.slice(this.#offset);
      this.#offset = 0;
    }
  }

  /**
   * Appends one event and notifies append listeners synchronously.
   *
   * @param type the event type (docs/events.md#catalog)
   * @param data JSON data; stored as its JSON form (a JSON round trip), so the live event is
   *   exactly what persistence writes and reads back (`undefined` keys dropped, a `Date` becomes
   *   its ISO string), and frozen
   * @returns the committed-to-memory envelope
   * @throws {SessionError} `session_closed` after the session went cold
   * @throws {TypeError} when `data` has no JSON form (a `BigInt`, a cycle, or `undefined` itself)
   */
  append<T extends string, D>(type: T, data: D): SessionEvent<T, D> {
    if (this.#closed) {
      throw new SessionError("session_closed", `Cannot append: session ${this.id} is closed`);
    }
    // The live log holds exactly what storage holds (attached history compares them event by
    // event): the JSON form, a fresh copy that nothing but this envelope reaches, each node
    // frozen once, so the committed event is immutable. Plain data is copied in one pass and
    // its text serialized from the copy; anything else takes the JSON round trip.
    let json = plainJsonCopy(data);
    let text: string;
    if (json !== NOT_PLAIN) {
      text = JSON.stringify(json);
    } else {
      const round = JSON.stringify(data);
      if (round === undefined) throw new TypeError("Cannot append: the data has no JSON form");
      text = round;
      json = JSON.parse(text);
      if (typeof json === "object" && json !== null) freezeParsed(json);
    }
    const event = Object.freeze({
      seq: this.length,
      type,
      at: isoAt(this.#now()),
      data: json as D,
    });
    this.#events.push(event);
    // A snapshot: a listener (un)subscribing during the call changes the next append only.
    const listeners = this.#listenerList;
    for (let i = 0; i < listeners.length; i++) {
      try {
        listeners[i]!(event, this, text);
      } catch (error) {
        this.#reportError(error);
      }
    }
    return event;
  }

  /**
   * Subscribes to appends.
   *
   * @param listener called synchronously after each append
   * @returns a handle whose disposal unsubscribes
   */
  subscribe(listener: AppendListener): Disposable {
    this.#listeners.add(listener);
    this.#listenerList = [...this.#listeners];
    return {
      [Symbol.dispose]: () => {
        this.#listeners.delete(listener);
        this.#listenerList = [...this.#listeners];
      },
    };
  }

  /** Marks the object cold; later appends throw `session_closed`. Used by the store. */
  close(): void {
    this.#closed = true;
    this.#listeners.clear();
    this.#listenerList = [];
  }
}
