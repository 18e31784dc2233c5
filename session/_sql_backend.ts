/**
 * {@linkcode SqlBackend}: what the SQL backends (`LibsqlBackend`, `PostgresBackend`) share
 * above their queries: writes through one {@linkcode GroupCommit}, reads through the query
 * module each passes in, and the order of closing.
 *
 * @module
 */
import type {
  EventPage,
  PersistenceBackend,
  StoredCursor,
  StoredSession,
  StoredTail,
} from "./backend.ts";
import type { SessionEvent } from "./event.ts";
import { normalizeHeader, type SessionHeader } from "./header.ts";
import { checkForkPoint } from "./_fork.ts";
import {
  type CommitTarget,
  type Fence,
  GroupCommit,
  type GroupCommitOptions,
} from "./_group_commit.ts";

/** A SQL backend's read queries, each bound to its client or pool. */
export interface SqlReads {
  /** The header and `max(seq) + 1`. */
  cursor(id: string): Promise<StoredCursor | undefined>;
  /** The header and every event, in one snapshot. */
  load(id: string): Promise<StoredSession | undefined>;
  /** The header, length and newest `count` events, in one snapshot. */
  tail(id: string, count: number): Promise<StoredTail | undefined>;
  /** Events of some types with `from ≤ seq < to`, ascending. */
  readByType(
    id: string,
    types: readonly string[],
    from: number,
    to: number,
  ): Promise<SessionEvent[]>;
  /** One dense page, ascending. */
  readEvents(id: string, page: EventPage): Promise<SessionEvent[]>;
  /** Readable headers, newest `createdAt` first; each damaged one reported to `onDamage`. */
  list(onDamage?: (error: Error) => void): Promise<SessionHeader[]>;
}

/**
 * The part of {@linkcode PersistenceBackend} every SQL backend implements the same way: calls of
 * one tick share one write transaction (group commit), each validated on its own against the
 * stored lengths, so one invalid call is rejected without failing the others; a fenced session's
 * rows commit only while the lease table holds this process's token, checked inside that
 * transaction. A write resolves only after its transaction committed.
 *
 * Subclasses open their client, pass their read queries and commit target in, and close their
 * client in {@linkcode SqlBackend.closeClient}.
 */
export abstract class SqlBackend implements PersistenceBackend {
  /** Backend name. */
  abstract readonly kind: string;
  readonly #reads: SqlReads;
  readonly #group: GroupCommit;
  #disposing: Promise<void> | undefined;

  /**
   * Builds the shared part; the subclass has opened its client and prepared its schema.
   *
   * @param reads the read queries
   * @param target what one write transaction runs
   * @param fence the token this process holds per session, `undefined` when unfenced
   * @param options `guard`: checked before each write transaction and before its calls
   *   resolve (libSQL's file identity); none by default (PostgreSQL)
   */
  protected constructor(
    reads: SqlReads,
    target: CommitTarget,
    fence: Fence | undefined,
    options: GroupCommitOptions = {},
  ) {
    this.#reads = reads;
    this.#group = new GroupCommit(target, fence, (id) => this.cursor(id), options);
  }

  /** Number of write transactions committed so far (for tests and benchmarks). */
  get commits(): number {
    return this.#group.commits;
  }

  /**
   * Reads the stored header and durable event count (`max(seq) + 1`, a primary-key seek).
   *
   * @param id the session id
   * @returns the cursor, or `undefined` when the id is not stored
   * @throws {SessionError} `storage_corrupt` (`{ sessionId }`) for a damaged header row
   */
  cursor(id: string): Promise<StoredCursor | undefined> {
    return this.#reads.cursor(id);
  }

  /**
   * Stores a header with its initial events in one transaction (shared with other calls of the
   * same tick). Resolves once committed.
   *
   * @param header the header; stored in canonical form
   * @param events the initial events, seqs `0..n-1`
   * @throws {SessionError} `session_exists` when the id is stored, `invalid_seq` for seqs that
   *   do not start at 0, `lease_lost`, `persistence_failed` after the backend was disposed
   */
  initialize(header: SessionHeader, events: readonly SessionEvent[]): Promise<void> {
    return this.#group.submit(header.id, events, normalizeHeader(header));
  }

  /**
   * Stores a fork in one transaction: the header, the parent's rows `[0, throughSeq]` copied by
   * one `INSERT … SELECT` inside the database (never through memory), then `own`.
   *
   * @param header the child header; stored in canonical form
   * @param parentId the stored parent
   * @param throughSeq last parent seq to copy, inclusive (`-1`: none)
   * @param own the child's events from `throughSeq + 1` (its `session/end-seed`)
   * @throws {SessionError} `session_exists`, `session_not_found` (parent), `invalid_seq`,
   *   `lease_lost`, `persistence_failed` after dispose
   */
  async fork(
    header: SessionHeader,
    parentId: string,
    throughSeq: number,
    own: readonly SessionEvent[],
  ): Promise<void> {
    checkForkPoint(parentId, (await this.cursor(parentId))?.length, throughSeq);
    return await this.#group.submit(header.id, own, normalizeHeader(header), {
      parentId,
      throughSeq,
    });
  }

  /**
   * Appends events in one transaction (shared with other calls of the same tick). Resolves once
   * committed; a rejected call never rolls back the other calls of its group.
   *
   * @param id the session id
   * @param events events whose seqs continue from the stored length
   * @param dataTexts `JSON.stringify(event.data)` per event where the caller has it (stored as
   *   is, so it must be exactly that); missing entries are serialized here
   * @throws {SessionError} `invalid_seq` when the first seq is not the stored length (or seqs
   *   are not dense), `session_not_found`, `lease_lost` when this process holds a token for the
   *   session that the lease table no longer holds (nothing of this call is written; the other
   *   calls of the group commit), `persistence_failed` after dispose
   */
  append(
    id: string,
    events: readonly SessionEvent[],
    dataTexts?: readonly (string | undefined)[],
  ): Promise<void> {
    return this.#group.submit(id, events, undefined, undefined, dataTexts);
  }

  /**
   * {@linkcode SqlBackend.append} without a promise: the call joins the same group commit,
   * then exactly one of `done` / `failed` is called, never before this method returns.
   *
   * @param id the session id
   * @param events events whose seqs continue from the stored length
   * @param dataTexts as for {@linkcode SqlBackend.append}
   * @param done called once committed
   * @param failed receives what `append` would reject with
   */
  appendCallback(
    id: string,
    events: readonly SessionEvent[],
    dataTexts: readonly (string | undefined)[] | undefined,
    done: () => void,
    failed: (error: unknown) => void,
  ): void {
    this.#group.enqueue(id, events, dataTexts, done, failed);
  }

  /**
   * Reads the header and every stored event, in one snapshot.
   *
   * @param id the session id
   * @returns the stored session, or `undefined`
   * @throws {SessionError} `storage_corrupt` (`{ sessionId, seq? }`) for a damaged header or
   *   event row, or a seq missing from the stored log
   */
  load(id: string): Promise<StoredSession | undefined> {
    return this.#reads.load(id);
  }

  /**
   * Reads the stored header, length and newest `count` events in one snapshot (primary-key
   * seeks, independent of the log length).
   *
   * @param id the session id
   * @param count how many of the newest events to return
   * @returns the tail, or `undefined` when the id is not stored
   * @throws {SessionError} `storage_corrupt` (`{ sessionId, seq? }`) for a damaged header or
   *   event row, or a seq missing inside the tail
   */
  tail(id: string, count: number): Promise<StoredTail | undefined> {
    return this.#reads.tail(id, count);
  }

  /**
   * Reads the events of some types with `from ≤ seq < to`, ascending, from the
   * `events_by_type` index (cost grows with the events returned, not the log).
   *
   * @param id the session id
   * @param types event types
   * @param from first seq, inclusive
   * @param to end seq, exclusive
   * @returns the events (none for an unknown id)
   * @throws {SessionError} `storage_corrupt` (`{ sessionId, seq }`) for a damaged row
   */
  readByType(
    id: string,
    types: readonly string[],
    from: number,
    to: number,
  ): Promise<SessionEvent[]> {
    return this.#reads.readByType(id, types, from, to);
  }

  /**
   * Reads one page of stored events in ascending seq order, driven by the primary key (a
   * 200-event page costs the same in a 10-event or a 1,000,000-event session).
   *
   * @param id the session id
   * @param page `before`/`after` exclusive bounds, `limit` (default 500); with `before` the page
   *   holds the newest events below it, otherwise the oldest above `after`
   * @returns the events, ascending
   * @throws {RangeError} when `limit` is not a non-negative integer
   * @throws {SessionError} `storage_corrupt` (`{ sessionId, seq }`) for a damaged row or a seq
   *   missing inside the page's range: a page never shows history with a hole
   */
  readEvents(id: string, page: EventPage = {}): Promise<SessionEvent[]> {
    return this.#reads.readEvents(id, page);
  }

  /**
   * Lists stored headers, newest `createdAt` first. A damaged header row is left out (reading
   * that session answers `storage_corrupt`; `deno task doctor` names it), so one damaged row
   * never hides the others.
   *
   * @param onDamage called with each damaged header's `storage_corrupt` @default none
   * @returns the readable headers
   */
  list(onDamage?: (error: Error) => void): Promise<SessionHeader[]> {
    return this.#reads.list(onDamage);
  }

  /** Closes the subclass's client or pool, once, after the last queued write. */
  protected abstract closeClient(): Promise<void>;

  /** Waits for queued writes, then closes the client; later writes reject. Idempotent. */
  [Symbol.asyncDispose](): Promise<void> {
    this.#disposing ??= this.#group.close().then(() => this.closeClient());
    return this.#disposing;
  }
}
