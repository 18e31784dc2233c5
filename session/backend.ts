/**
 * The storage port every persistence backend (libSQL, JSONL, memory) implements.
 * Interface first, one transport per file (CONTRIBUTING.md#code).
 *
 * @module
 */
import type { SessionEvent } from "./event.ts";
import type { SessionHeader } from "./header.ts";

/** A session as stored: its header and the stored events, dense from seq 0. */
export interface StoredSession {
  /** The stored header (canonical form: `delegationDepth` explicit). */
  readonly header: SessionHeader;
  /** Stored events in seq order. */
  readonly events: readonly SessionEvent[];
}

/** The stored header and how many events are durable for it. */
export interface StoredCursor {
  /** The stored header. */
  readonly header: SessionHeader;
  /** Number of stored events (the next seq to write). */
  readonly length: number;
}

/** The stored header, the stored length and the newest stored events (a resume's read). */
export interface StoredTail extends StoredCursor {
  /** The newest stored events, dense, ending at `length - 1` (at most the count asked for). */
  readonly events: readonly SessionEvent[];
}

/** A page request over stored events. */
export interface EventPage {
  /** Only events with `seq < before`. @default no bound */
  readonly before?: number;
  /** Only events with `seq > after`. @default no bound */
  readonly after?: number;
  /** At most this many (newest first when `before` is given, else oldest). @default 500 */
  readonly limit?: number;
}

/**
 * A persistence backend. Every method either fully happens or throws; a throw after commit is
 * allowed (the caller re-reads {@linkcode PersistenceBackend.cursor} to learn what is durable).
 */
export interface PersistenceBackend extends AsyncDisposable {
  /** Short name for logs and benchmarks (`libsql`, `jsonl`, `memory`). */
  readonly kind: string;
  /**
   * Reads the stored header and event count.
   *
   * @returns `undefined` when the session id is not stored
   */
  cursor(id: string): Promise<StoredCursor | undefined>;
  /**
   * Stores a header with its initial events, atomically.
   *
   * @throws {SessionError} `session_exists` when the id is already stored
   */
  initialize(header: SessionHeader, events: readonly SessionEvent[]): Promise<void>;
  /**
   * Appends events whose seqs continue exactly from the stored length, atomically per call.
   * Backends may group calls from many sessions into one commit.
   *
   * @param dataTexts optional, index-aligned with `events`: `JSON.stringify(event.data)` where
   *   the caller already has it (an entry may be `undefined`), so a backend that stores JSON text
   *   need not serialize again; a backend may ignore it
   * @throws {SessionError} `invalid_seq` when the first seq is not the stored length
   */
  append(
    id: string,
    events: readonly SessionEvent[],
    dataTexts?: readonly (string | undefined)[],
  ): Promise<void>;
  /**
   * Optional: {@linkcode PersistenceBackend.append} without a promise, for a caller that writes
   * on every append (the persistence coordinator). Exactly one of `done` / `failed` is called,
   * never before the method returns; the contract is otherwise `append`'s.
   *
   * @param done called once the events are committed
   * @param failed called with what `append` would reject with
   */
  appendCallback?(
    id: string,
    events: readonly SessionEvent[],
    dataTexts: readonly (string | undefined)[] | undefined,
    done: () => void,
    failed: (error: unknown) => void,
  ): void;
  /**
   * Stores a fork atomically: its header, a copy of the parent's stored events `[0, throughSeq]`
   * (copied inside storage, never through memory where the backend allows it) and the child's
   * own seed events that follow (its `session/end-seed`).
   *
   * @throws {SessionError} `session_exists` when the child id is stored, `session_not_found`
   *   when the parent is not, `invalid_seq` when the parent holds fewer than `throughSeq + 1`
   *   events or `own` does not continue at `throughSeq + 1`
   */
  fork(
    header: SessionHeader,
    parentId: string,
    throughSeq: number,
    own: readonly SessionEvent[],
  ): Promise<void>;
  /** Reads a whole stored session, or `undefined` (inspection and tools; never a resume). */
  load(id: string): Promise<StoredSession | undefined>;
  /**
   * Reads the header, the stored length and the newest `count` events, or `undefined`.
   *
   * @throws {SessionError} `storage_corrupt` for a damaged row or a seq missing in the tail
   */
  tail(id: string, count: number): Promise<StoredTail | undefined>;
  /** Reads a page of stored events in ascending seq order. */
  readEvents(id: string, page?: EventPage): Promise<SessionEvent[]>;
  /**
   * Reads the stored events of the given types with `from ≤ seq < to`, ascending (libSQL: the
   * `(session_id, type, seq)` index; JSONL and memory scan).
   */
  readByType(
    id: string,
    types: readonly string[],
    from: number,
    to: number,
  ): Promise<SessionEvent[]>;
  /** Lists stored headers, newest first. */
  list(): Promise<SessionHeader[]>;
}
