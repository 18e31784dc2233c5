/**
 * The storage port every persistence backend (libSQL, JSONL, memory) implements.
 * Interface first, one transport per file (STYLE.md).
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
   * @throws {SessionError} `invalid_seq` when the first seq is not the stored length
   */
  append(id: string, events: readonly SessionEvent[]): Promise<void>;
  /** Reads a whole stored session, or `undefined`. */
  load(id: string): Promise<StoredSession | undefined>;
  /** Reads a page of stored events in ascending seq order. */
  readEvents(id: string, page?: EventPage): Promise<SessionEvent[]>;
  /** Lists stored headers, newest first. */
  list(): Promise<SessionHeader[]>;
}
