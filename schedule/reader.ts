/**
 * Where the schedule state reads its `schedule/change` events from (docs/long-sessions.md
 * "Incremental schedule state"): the store's `(session_id, type, seq)` index through
 * `store.readByType` when the store has it, else a scan of the events the session holds.
 *
 * @module
 */
import type { Session, SessionEvent, SessionHeader, SessionStore } from "@chime/session";
import { foldStart } from "./fold.ts";
import { SCHEDULE_CHANGE } from "./protocol.ts";

/** A half-open seq range `[from, to)`. */
export interface SeqRange {
  /** First seq, inclusive. */
  readonly from: number;
  /** End seq, exclusive. */
  readonly to: number;
}

/**
 * Reads the `schedule/change` events of a live session with `from ≤ seq < to`, in seq order. A
 * synchronous answer lets the live state be built before the caller's next statement.
 */
export type ScheduleChangeReader = (
  session: Session,
  range: SeqRange,
) => readonly SessionEvent[] | Promise<readonly SessionEvent[]>;

/** The indexed read of docs/long-sessions.md ("Bounded live session"). */
export interface TypeIndexedStore {
  /**
   * The events of the given types with `from ≤ seq < to`, in seq order, from the index plus the
   * live tail.
   */
  readByType(
    session: Session | string,
    types: readonly string[],
    options?: { readonly from?: number; readonly to?: number },
  ): Promise<SessionEvent[]>;
}

/**
 * The store's indexed read, when it has one.
 *
 * @param store a session store
 * @returns the store as a {@linkcode TypeIndexedStore}, or `undefined` when it has no `readByType`
 */
export function typeIndex(store: object): TypeIndexedStore | undefined {
  const candidate = store as Partial<TypeIndexedStore>;
  return typeof candidate.readByType === "function" ? candidate as TypeIndexedStore : undefined;
}

/**
 * The default reader of a store: one `readByType(session, ["schedule/change"], { from, to })`
 * when the store is indexed, else (an unindexed store, whose live session holds every event) the
 * session's own events of that type, synchronously.
 *
 * @param store the agent's store
 * @returns the reader
 *
 * @example Read a session's schedule changes
 * ```ts
 * import { SessionStore } from "@chime/session";
 * import { MemoryBackend } from "@chime/session/testing";
 * import { storeReader } from "@chime/schedule";
 * await using store = new SessionStore({ backend: new MemoryBackend() });
 * const session = await store.create({ cwd: "/" });
 * session.append("note", {});
 * const events = await storeReader(store)(session, { from: 0, to: session.length });
 * console.assert(events.length === 0);
 * ```
 */
export function storeReader(store: object): ScheduleChangeReader {
  const index = typeIndex(store);
  if (index !== undefined) {
    return (session, { from, to }) => index.readByType(session, [SCHEDULE_CHANGE], { from, to });
  }
  return (session, { from, to }) =>
    session.events(from, to).filter((event) => event.type === SCHEDULE_CHANGE);
}

/** What {@linkcode readStoredChanges} answers. */
export interface StoredChanges {
  /** The stored header. */
  readonly header: SessionHeader;
  /** The stored `schedule/change` events from `seedLength` (forks) or 0, in seq order. */
  readonly events: readonly SessionEvent[];
}

/**
 * The stored `schedule/change` events of a session, without making it live: one indexed query
 * (after the header lookup) when the store is indexed, else the stored log filtered by type.
 *
 * @param store the session store
 * @param id the session id
 * @returns the header and the own suffix's changes, or `undefined` for an unknown session
 * @throws {SessionError} what the store throws for a malformed id or unreadable storage
 */
export async function readStoredChanges(
  store: SessionStore,
  id: string,
): Promise<StoredChanges | undefined> {
  const index = typeIndex(store);
  if (index === undefined) {
    const stored = await store.inspect(id);
    if (stored === undefined) return undefined;
    const from = foldStart(stored.header);
    const events = stored.events.filter((e) => e.type === SCHEDULE_CHANGE && e.seq >= from);
    return { header: stored.header, events };
  }
  const cursor = await store.backend.cursor(id);
  if (cursor === undefined) return undefined;
  const range = { from: foldStart(cursor.header), to: cursor.length };
  return { header: cursor.header, events: await index.readByType(id, [SCHEDULE_CHANGE], range) };
}
