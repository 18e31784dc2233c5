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

/** Reads the `user-rpc` events with `from ≤ seq < to`, oldest first (an indexed read). */
export type ReadMessages = (from: number, to: number) => Promise<readonly SessionEvent[]>;

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

/**
 * The default message reader: the store's `readByType(session, ["user-rpc"], { from, to })`
 * (the `(session_id, type, seq)` index, docs/long-sessions.md) when it has one, else
 * `undefined` (the history then filters ranges it reads).
 */
export function defaultMessageReader(
  session: Session,
  store: SessionStore,
): ReadMessages | undefined {
  const readByType = (store as {
    readByType?: (
      session: Session,
      types: readonly string[],
      options: { from: number; to: number },
    ) => Promise<readonly SessionEvent[]>;
  }).readByType;
  if (typeof readByType !== "function") return undefined;
  return (from, to) => readByType.call(store, session, ["user-rpc"], { from, to });
}

/** Events per page read below the tail. */
export const PAGE = 256;

/** The session log as the agent reads it: memory first, the reader below the tail. */
export class History {
  readonly #session: Session;
  readonly #read: ReadEvents;
  readonly #readMessages: ReadMessages | undefined;

  /**
   * @param session the live session
   * @param read reads any range of it
   * @param readMessages reads its `user-rpc` events by index; without it, ranges are filtered
   */
  constructor(session: Session, read: ReadEvents, readMessages?: ReadMessages) {
    this.#session = session;
    this.#read = read;
    this.#readMessages = readMessages;
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
   * The `user-rpc` events with `from ≤ seq < to`, oldest first: one indexed read when the
   * history has a message reader, else the range read and filtered.
   */
  async messagesIn(from: number, to: number): Promise<readonly MessageEvent[]> {
    if (from >= to) return [];
    const events = this.#readMessages === undefined || from >= tailStartOf(this.#session)
      ? (await this.range(from, to)).filter((e) => e.type === "user-rpc")
      : await this.#readMessages(from, to);
    return events as readonly MessageEvent[];
  }

  /**
   * The `user-rpc` of each of `ids` (message ids are unique) with `seq < before`, searched
   * newest first in spans of `span` seqs ({@linkcode History.messagesIn}), stopping once all
   * are found.
   *
   * @returns the events found, by message id
   */
  async findMessages(
    ids: ReadonlySet<string>,
    options: { readonly before?: number; readonly span?: number } = {},
  ): Promise<Map<string, MessageEvent>> {
    const found = new Map<string, MessageEvent>();
    const span = options.span ?? (this.#readMessages === undefined ? PAGE : 16 * PAGE);
    for (let hi = options.before ?? this.length; hi > 0 && found.size < ids.size;) {
      const lo = Math.max(0, hi - span);
      const events = await this.messagesIn(lo, hi);
      for (const event of events) {
        const id = (event.data as UserRpcData).messageId;
        if (ids.has(id) && !found.has(id)) found.set(id, event);
      }
      hi = lo;
    }
    return found;
  }
}
