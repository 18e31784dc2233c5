/**
 * An in-memory {@linkcode PersistenceBackend} with fault injection, for tests of every member.
 *
 * @module
 */
import type {
  EventPage,
  PersistenceBackend,
  StoredCursor,
  StoredSession,
  StoredTail,
} from "../backend.ts";
import { SessionError } from "../errors.ts";
import type { SessionEvent } from "../event.ts";
import { normalizeHeader, type SessionHeader } from "../header.ts";
import { checkForkPoint } from "../_fork.ts";

/** Which operation a fault targets, and whether it strikes before or after the commit. */
export interface Fault {
  /** The operation. */
  readonly op: "initialize" | "append" | "cursor" | "load" | "fork" | "tail" | "read";
  /** `before`: nothing changes; `after`: the change commits, then the call rejects. */
  readonly when: "before" | "after";
  /** Only for this session id. @default any */
  readonly id?: string;
}

/**
 * Memory backend. `failNext(fault)` makes the next matching call reject once; `hold()` parks
 * writes until `release()`, to test barriers that are still in flight.
 */
export class MemoryBackend implements PersistenceBackend {
  /** Backend name. */
  readonly kind = "memory";
  readonly #sessions = new Map<string, { header: SessionHeader; events: SessionEvent[] }>();
  #faults: Fault[] = [];
  #gate: PromiseWithResolvers<void> | undefined;
  /** Count of calls per operation. */
  readonly calls: Record<string, number> = {};

  /** Arms a one-shot fault. */
  failNext(fault: Fault): void {
    this.#faults.push(fault);
  }

  /** Parks every later write until {@linkcode MemoryBackend.release}. */
  hold(): void {
    this.#gate ??= Promise.withResolvers();
  }

  /** Lets parked writes continue. */
  release(): void {
    this.#gate?.resolve();
    this.#gate = undefined;
  }

  async #step(op: Fault["op"], id: string, when: Fault["when"]): Promise<void> {
    if (when === "before") {
      this.calls[op] = (this.calls[op] ?? 0) + 1;
      if (op === "initialize" || op === "append" || op === "fork") await this.#gate?.promise;
    }
    const index = this.#faults.findIndex((f) =>
      f.op === op && f.when === when && (f.id === undefined || f.id === id)
    );
    if (index >= 0) {
      this.#faults.splice(index, 1);
      throw new Error(`injected ${op} failure ${when} commit`);
    }
  }

  /**
   * The stored header and event count.
   *
   * @param id session id
   * @returns the cursor, or `undefined` when the session is not stored
   */
  async cursor(id: string): Promise<StoredCursor | undefined> {
    await this.#step("cursor", id, "before");
    const s = this.#sessions.get(id);
    return s && { header: s.header, length: s.events.length };
  }

  /**
   * Stores a new session with its first events.
   *
   * @param header the session header
   * @param events the first events (seq from 0)
   * @throws {SessionError} `session_exists` when the id is stored
   */
  async initialize(header: SessionHeader, events: readonly SessionEvent[]): Promise<void> {
    await this.#step("initialize", header.id, "before");
    if (this.#sessions.has(header.id)) {
      throw new SessionError("session_exists", `Cannot initialize: ${header.id} is stored`);
    }
    this.#sessions.set(header.id, {
      header: normalizeHeader(structuredClone(header)),
      events: structuredClone([...events]),
    });
    await this.#step("initialize", header.id, "after");
  }

  /**
   * Appends events after the stored ones.
   *
   * @param id session id
   * @param events events whose first `seq` is the stored length
   * @throws {SessionError} `session_not_found`, or `invalid_seq` on a gap or overlap
   */
  async append(id: string, events: readonly SessionEvent[]): Promise<void> {
    await this.#step("append", id, "before");
    const s = this.#sessions.get(id);
    if (s === undefined) throw new SessionError("session_not_found", `Cannot append: ${id}`);
    if (events.length > 0 && events[0]!.seq !== s.events.length) {
      throw new SessionError("invalid_seq", `Cannot append: ${id} expects ${s.events.length}`);
    }
    s.events.push(...structuredClone([...events]));
    await this.#step("append", id, "after");
  }

  /**
   * Stores a fork: the parent's events `0..throughSeq` followed by the child's own events.
   *
   * @param header the child's header
   * @param parentId the stored parent
   * @param throughSeq the last parent seq copied
   * @param own the child's own first events (its `session/end-seed`)
   * @throws {SessionError} `session_not_found`, `invalid_seq`, or `session_exists`
   */
  async fork(
    header: SessionHeader,
    parentId: string,
    throughSeq: number,
    own: readonly SessionEvent[],
  ): Promise<void> {
    await this.#step("fork", header.id, "before");
    const parent = this.#sessions.get(parentId);
    checkForkPoint(parentId, parent?.events.length, throughSeq);
    if (this.#sessions.has(header.id)) {
      throw new SessionError("session_exists", `Cannot fork: ${header.id} is stored`);
    }
    this.#sessions.set(header.id, {
      header: normalizeHeader(structuredClone(header)),
      events: structuredClone([...parent!.events.slice(0, throughSeq + 1), ...own]),
    });
    await this.#step("fork", header.id, "after");
  }

  /**
   * The header, the stored length and the newest `count` events (what resume reads).
   *
   * @param id session id
   * @param count how many of the newest events
   * @returns the tail, or `undefined` when the session is not stored
   */
  async tail(id: string, count: number): Promise<StoredTail | undefined> {
    await this.#step("tail", id, "before");
    const s = this.#sessions.get(id);
    return s && structuredClone({
      header: s.header,
      length: s.events.length,
      events: s.events.slice(s.events.length - Math.min(count, s.events.length)),
    });
  }

  /**
   * The stored events of the given types with `from ≤ seq < to`, in seq order.
   *
   * @param id session id
   * @param types event types
   * @param from first seq, inclusive
   * @param to end seq, exclusive
   * @returns copies of the matching events (empty for an unknown id)
   */
  async readByType(
    id: string,
    types: readonly string[],
    from: number,
    to: number,
  ): Promise<SessionEvent[]> {
    await this.#step("read", id, "before");
    const all = this.#sessions.get(id)?.events ?? [];
    return structuredClone(
      all.filter((e) => e.seq >= from && e.seq < to && types.includes(e.type)),
    );
  }

  /**
   * Loads a stored session (copies, never the kept objects).
   *
   * @param id session id
   * @returns the header and all events, or `undefined`
   */
  async load(id: string): Promise<StoredSession | undefined> {
    await this.#step("load", id, "before");
    const s = this.#sessions.get(id);
    return s && structuredClone({ header: s.header, events: s.events });
  }

  /**
   * A page of stored events.
   *
   * @param id session id
   * @param page `after`/`before` seq bounds and `limit` (default 500)
   * @returns the events in seq order (empty for an unknown id)
   */
  async readEvents(id: string, page: EventPage = {}): Promise<SessionEvent[]> {
    await this.#step("read", id, "before");
    const all = this.#sessions.get(id)?.events ?? [];
    const limit = page.limit ?? 500;
    const inRange = all.filter((e) =>
      (page.before === undefined || e.seq < page.before) &&
      (page.after === undefined || e.seq > page.after)
    );
    const out = page.before !== undefined ? inRange.slice(-limit) : inRange.slice(0, limit);
    return structuredClone(out);
  }

  /**
   * Every stored header, newest first.
   *
   * @returns copies of the headers
   */
  list(): Promise<SessionHeader[]> {
    return Promise.resolve(
      [...this.#sessions.values()].map((s) => s.header)
        .sort((a, b) => b.createdAt.localeCompare(a.createdAt)),
    );
  }

  /**
   * Every stored session's length.
   *
   * @returns id → stored length
   */
  lengths(): Promise<Map<string, number>> {
    return Promise.resolve(
      new Map([...this.#sessions].map(([id, s]) => [id, s.events.length] as const)),
    );
  }

  /** Direct write access for tests that forge storage states. */
  raw(id: string): { header: SessionHeader; events: SessionEvent[] } | undefined {
    return this.#sessions.get(id);
  }

  /** Nothing to release. */
  [Symbol.asyncDispose](): Promise<void> {
    return Promise.resolve();
  }
}
