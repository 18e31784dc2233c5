/**
 * A stand-in for the bounded live `Session` of docs/long-sessions.md, for agent tests: it holds
 * only a tail in memory (`tailStart`), `events(from)` throws `RangeError` below it, and every
 * older event comes from {@linkcode BoundedSession.read} (the `store.read` of the contract).
 * Older events can be generated on demand, so a session of 1,000,000 events never holds them.
 * Not published.
 *
 * @module
 */
import {
  type AppendListener,
  Session,
  SessionError,
  type SessionEvent,
  type SessionHeader,
} from "@chime/session";

/** Options of {@linkcode BoundedSession}. */
export interface BoundedSessionOptions {
  /** The header. @default a root session `bounded` with zone Europe/Berlin */
  readonly header?: SessionHeader;
  /** Wall clock for `at`, epoch ms. */
  readonly now: () => number;
  /** How many events precede the appended ones (seqs `0 … prefix - 1`), built by `generate`. */
  readonly prefix: number;
  /** The type and data of the generated event at `seq` (must be a pure function of `seq`). */
  readonly generate: (seq: number) => { readonly type: string; readonly data: unknown };
  /** Events held in memory. @default 100 */
  readonly liveTail?: number;
}

const AT = "2026-01-01T00:00:00.000Z";

/** A bounded live session whose older events are generated, never stored. */
export class BoundedSession extends Session {
  readonly #prefix: number;
  readonly #generate: BoundedSessionOptions["generate"];
  readonly #liveTail: number;
  readonly #appended: SessionEvent[] = [];
  readonly #listeners = new Set<AppendListener>();
  readonly #clock: () => number;
  /** Events served by {@linkcode BoundedSession.read} so far. */
  served = 0;
  /** Calls of `events()` that asked below `tailStart` (each also threw). */
  refused = 0;

  constructor(options: BoundedSessionOptions) {
    super({
      header: options.header ?? {
        version: 1,
        id: "bounded",
        cwd: "/work",
        createdAt: AT,
        origin: "test",
        lineage: null,
        delegationDepth: 0,
        timeZone: "Europe/Berlin",
      },
      now: options.now,
    });
    this.#prefix = options.prefix;
    this.#generate = options.generate;
    this.#liveTail = options.liveTail ?? 100;
    this.#clock = options.now;
  }

  /** The first seq held in memory. */
  override get tailStart(): number {
    return Math.max(0, this.length - this.#liveTail);
  }

  override get length(): number {
    return this.#prefix + this.#appended.length;
  }

  override event(seq: number): SessionEvent | undefined {
    return seq >= this.tailStart && seq < this.length ? this.#at(seq) : undefined;
  }

  /** @throws {RangeError} when `from` is below `tailStart` */
  override events(from = 0, to: number = this.length): readonly SessionEvent[] {
    if (from < this.tailStart) {
      this.refused++;
      throw new RangeError(`Cannot read events from ${from}: below tailStart ${this.tailStart}`);
    }
    const out: SessionEvent[] = [];
    for (let seq = from; seq < Math.min(to, this.length); seq++) out.push(this.#at(seq));
    return out;
  }

  /** The `store.read(session, from, to)` of the contract: any range, oldest first. */
  readonly read = (from: number, to: number): Promise<SessionEvent[]> => {
    const out: SessionEvent[] = [];
    for (let seq = Math.max(0, from); seq < Math.min(to, this.length); seq++) {
      out.push(this.#at(seq));
    }
    this.served += out.length;
    return Promise.resolve(out);
  };

  override append<T extends string, D>(type: T, data: D): SessionEvent<T, D> {
    if (this.closed) {
      throw new SessionError("session_closed", `Cannot append: session ${this.id} is closed`);
    }
    const event = Object.freeze({
      seq: this.length,
      type,
      at: new Date(this.#clock()).toISOString(),
      data: Object.freeze(JSON.parse(JSON.stringify(data)) as D),
    });
    this.#appended.push(event);
    for (const listener of [...this.#listeners]) listener(event, this);
    return event;
  }

  override subscribe(listener: AppendListener): Disposable {
    this.#listeners.add(listener);
    return { [Symbol.dispose]: () => this.#listeners.delete(listener) };
  }

  #at(seq: number): SessionEvent {
    if (seq >= this.#prefix) return this.#appended[seq - this.#prefix]!;
    const { type, data } = this.#generate(seq);
    return Object.freeze({ seq, type, at: AT, data: Object.freeze(data) });
  }
}
