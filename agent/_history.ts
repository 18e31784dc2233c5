/**
 * The agent's bounded view of its session log (docs/long-sessions.md "Bounded live session"):
 * the live tail from memory, anything older through a reader, in pages, newest first. Private
 * to `@chime/agent`.
 *
 * It works on today's `Session` (the whole log in memory, `tailStart` absent, read as 0) and on
 * the bounded one (`events(from)` throws `RangeError` below `tailStart`; older events come
 * from `store.read`).
 *
 * @module
 */
import type { Session, SessionEvent, SessionStore, UserRpcData } from "@chime/session";
import type { ReadEvents } from "./agent_options.ts";

/** A user message event. */
export type MessageEvent = SessionEvent<"user-rpc", UserRpcData>;

/** The first seq a session holds in memory: its `tailStart`, or 0 when it holds the whole log. */
export function tailStartOf(session: object): number {
  // `tailStart` is the bounded session's (docs/long-sessions.md); today's holds everything.
  const tail = (session as { readonly tailStart?: unknown }).tailStart;
  return typeof tail === "number" ? tail : 0;
}

/**
 * The default reader: the store's `read(session, from, to)` when it has one (the bounded
 * store), else the session's own events (a session holding its whole log).
 */
export function defaultReader(session: Session, store: SessionStore): ReadEvents {
  const read = (store as {
    read?: (session: Session, from: number, to: number) => Promise<readonly SessionEvent[]>;
  }).read;
  if (typeof read === "function") return (from, to) => read.call(store, session, from, to);
  return (from, to) => Promise.resolve(session.events(from, to));
}

/** Events per page read below the tail. */
export const PAGE = 256;

/** The session log as the agent reads it: memory first, the reader below the tail. */
export class History {
  readonly #session: Session;
  readonly #read: ReadEvents;

  constructor(session: Session, read: ReadEvents) {
    this.#session = session;
    this.#read = read;
  }

  /** The next seq. */
  get length(): number {
    return this.#session.length;
  }

  /**
   * The events `[from, to)`, oldest first: the part at or above the tail from memory (taken
   * synchronously, before any read), the older part through the reader.
   *
   * @throws {RangeError} when the reader returns anything but the dense range asked for
   */
  async range(from: number, to: number): Promise<readonly SessionEvent[]> {
    if (from >= to) return [];
    const tail = tailStartOf(this.#session);
    if (from >= tail) return this.#session.events(from, to);
    const held = to > tail ? this.#session.events(tail, to) : [];
    const end = Math.min(to, tail);
    const older = await this.#read(from, end);
    if (older.length !== end - from || older[0]?.seq !== from || older.at(-1)?.seq !== end - 1) {
      throw new RangeError(
        `Cannot read the session log: the reader did not return [${from}, ${end})`,
      );
    }
    return held.length === 0 ? older : [...older, ...held];
  }

  /**
   * The events of `[0, before)` in pages, newest page first, each oldest first.
   *
   * @param before the end of the first page
   * @param size events per page @default {@linkcode PAGE}
   */
  async *pages(before: number, size = PAGE): AsyncGenerator<readonly SessionEvent[]> {
    for (let hi = before; hi > 0;) {
      const lo = Math.max(0, hi - size);
      yield await this.range(lo, hi);
      hi = lo;
    }
  }

  /**
   * The `user-rpc` of each of `ids` (message ids are unique) with `seq < before`, searched
   * newest first (the memory tail, then older pages), stopping once all are found or `limit`
   * events were read.
   *
   * @returns the events found, by message id
   */
  async findMessages(
    ids: ReadonlySet<string>,
    options: { readonly before?: number; readonly limit?: number } = {},
  ): Promise<Map<string, MessageEvent>> {
    const found = new Map<string, MessageEvent>();
    if (ids.size === 0) return found;
    let budget = options.limit ?? Infinity;
    for await (const page of this.pages(options.before ?? this.length)) {
      for (const event of page) {
        if (event.type !== "user-rpc") continue;
        const id = (event.data as UserRpcData).messageId;
        if (ids.has(id) && !found.has(id)) found.set(id, event as MessageEvent);
      }
      budget -= page.length;
      if (found.size === ids.size || budget <= 0) break;
    }
    return found;
  }
}
