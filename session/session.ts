/**
 * {@linkcode Session}: one live, append-only, dense-`seq` event log in memory.
 *
 * @module
 */
import type { SessionEvent } from "./event.ts";
import type { SessionHeader } from "./header.ts";
import { SessionError } from "./errors.ts";

/** Called synchronously after each append, in append order. */
export type AppendListener = (event: SessionEvent, session: Session) => void;

/** Construction options of a {@linkcode Session}; built by `SessionStore`, not by users. */
export interface SessionInit {
  /** The immutable header. */
  readonly header: SessionHeader;
  /** Events already in the log (a loaded or seeded prefix), dense from seq 0. */
  readonly events?: readonly SessionEvent[];
  /** Wall clock for `at`, epoch ms. */
  readonly now: () => number;
  /** Where listener exceptions go (never swallowed). @default globalThis.reportError */
  readonly reportError?: (error: unknown) => void;
}

// The live log holds exactly what storage holds: attached history compares them event by event.
function toJson<D>(data: D): D {
  const text = JSON.stringify(data);
  if (text === undefined) throw new TypeError("Cannot append: the data has no JSON form");
  return JSON.parse(text) as D;
}

function deepFreeze<T>(value: T): T {
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
  readonly #events: SessionEvent[];
  readonly #now: () => number;
  readonly #listeners = new Set<AppendListener>();
  readonly #reportError: (error: unknown) => void;
  #closed = false;

  /**
   * Creates a live log from a header and an existing dense prefix.
   *
   * @param init header, existing events and clock
   * @throws {RangeError} when an event's `seq` is not its index
   */
  constructor(init: SessionInit) {
    this.header = deepFreeze(structuredClone(init.header));
    this.#events = (init.events ?? []).map((e, i) => {
      if (e.seq !== i) throw new RangeError(`Cannot load session: event ${i} has seq ${e.seq}`);
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
    return this.#events.length;
  }

  /** `true` once the store closed this live object (the session went cold). */
  get closed(): boolean {
    return this.#closed;
  }

  /**
   * The event at `seq`.
   *
   * @param seq a 0-based position
   * @returns the event, or `undefined` when out of range
   */
  event(seq: number): SessionEvent | undefined {
    return this.#events[seq];
  }

  /**
   * A copy of the events in `[from, to)`.
   *
   * @param from first seq, inclusive @default 0
   * @param to end seq, exclusive @default this.length
   * @returns frozen events in seq order
   */
  events(from = 0, to: number = this.#events.length): readonly SessionEvent[] {
    return this.#events.slice(from, to);
  }

  /**
   * Appends one event and notifies append listeners synchronously.
   *
   * @param type the event type (ARCHITECTURE.md §4)
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
    const event: SessionEvent<T, D> = deepFreeze({
      seq: this.#events.length,
      type,
      at: new Date(this.#now()).toISOString(),
      data: toJson(data),
    });
    this.#events.push(event);
    for (const listener of [...this.#listeners]) {
      try {
        listener(event, this);
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
    return { [Symbol.dispose]: () => this.#listeners.delete(listener) };
  }

  /** Marks the object cold; later appends throw `session_closed`. Used by the store. */
  close(): void {
    this.#closed = true;
    this.#listeners.clear();
  }
}
