/**
 * {@linkcode LibsqlBackend}: the durable libSQL {@linkcode PersistenceBackend} (file mode by
 * default, the same code accepts a remote libSQL URL), with ownership-checked open, the one
 * v13→v14 upgrade, WAL + `synchronous=FULL`, and group commit across sessions.
 *
 * @module
 */
import { type Client, createClient } from "@libsql/client";
import type {
  EventPage,
  PersistenceBackend,
  StoredCursor,
  StoredSession,
  StoredTail,
  TypeAcrossPage,
  TypedEvent,
} from "../backend.ts";
import type { SessionEvent } from "../event.ts";
import { normalizeHeader, type SessionHeader } from "../header.ts";
import { databasePath, prepareSchema, rejected, remoteUnavailable } from "./_libsql_open.ts";
import { storageUnavailable } from "../_redact.ts";
import { lockDatabaseFile } from "../_writer_lock.ts";
import { checkForkPoint } from "../_fork.ts";
import { rowToHeader, SELECT_CURSOR } from "./_libsql_sql.ts";
import {
  loadAll,
  readHeaders,
  readLengths,
  readPage,
  readTail,
  readTypes,
  readTypesAcross,
} from "./_libsql_read.ts";
import { type Fence, GroupCommit } from "../_group_commit.ts";
import { libsqlCommitTarget } from "./_libsql_commit.ts";

/** Options of {@linkcode LibsqlBackend.open}. */
export interface LibsqlBackendOptions {
  /** `file:path` (created when missing), or a remote `libsql:`/`http(s):`/`ws(s):` URL. */
  readonly url: string;
  /** Auth token for a remote URL. @default none */
  readonly authToken?: string;
  /**
   * Several processes share the database (`docs/long-sessions.md` §"Fenced appends"): no
   * per-file writer lock is taken. @default `true` for remote URLs, `false` for `file:`
   */
  readonly shared?: boolean;
  /**
   * The fencing token this process holds for a session, or `undefined` when unfenced (the
   * single-host default). A fenced session's writes commit only while `session_leases` holds
   * exactly that token; otherwise they reject with `lease_lost`. @default always unfenced
   */
  readonly fence?: (sessionId: string) => number | undefined;
}

/**
 * The libSQL backend. Open it with {@linkcode LibsqlBackend.open}; hold it with `await using`.
 *
 * Group commit: `initialize`/`append` calls arriving in the same tick, or while a commit is in
 * flight, share one write transaction. Each call is validated on its own against the stored
 * lengths (cached after each commit, backed by the `(session_id, seq)` primary key), so one
 * invalid call is rejected without failing the others; if the shared transaction fails anyway,
 * every call is retried in a transaction of its own so only the faulty one fails.
 *
 * @example Open a file database
 * ```ts
 * import { LibsqlBackend } from "@chime/session";
 * const dir = await Deno.makeTempDir();
 * await using backend = await LibsqlBackend.open({ url: `file:${dir}/chime.db` });
 * console.assert((await backend.list()).length === 0);
 * ```
 */
export class LibsqlBackend implements PersistenceBackend {
  /** Backend name. */
  readonly kind = "libsql";
  readonly #client: Client;
  readonly #lock: Disposable | undefined;
  readonly #group: GroupCommit;

  private constructor(client: Client, lock: Disposable | undefined, fence: Fence | undefined) {
    this.#client = client;
    this.#lock = lock;
    this.#group = new GroupCommit(libsqlCommitTarget(client), fence, (id) => this.cursor(id));
  }

  /**
   * Opens (or creates) a database. The ownership marker, version and layout are read before any
   * write: an empty database gets schema v15; an owned v15 database is used as is; an owned v13
   * or v14 database is upgraded to v15 in one transaction (existing rows keep `time_zone` NULL,
   * no lease rows are made up); anything else is rejected with the file byte-for-byte unchanged.
   * Only then does a file switch to WAL with `synchronous=FULL` (docs/design.md#schema-v14-upgrade,
   * `docs/long-sessions.md` §"Schema v15").
   *
   * @param options the URL (and token), `shared` and `fence`
   * @returns the open backend
   * @throws {SessionError} `schema_rejected` for an older, newer, foreign, forged or unreadable
   *   database; `storage_in_use` when another process holds a file not opened `shared`;
   *   `storage_unavailable` when a remote server cannot be reached or refuses the token
   *   (messages and details carry the URL with `authToken` redacted)
   */
  static async open(options: LibsqlBackendOptions): Promise<LibsqlBackend> {
    const local = options.url.startsWith("file:");
    const shared = options.shared ?? !local;
    const path = databasePath(options.url);
    // One writing process per database file, locked by identity (an OS lock on the file itself,
    // whatever name reaches it); its content is not touched before its schema is accepted.
    // In-memory, remote and shared databases take no lock: leases fence their writers.
    const lock = path === undefined || shared
      ? undefined
      : await lockDatabaseFile(path, `database ${options.url}`);
    // One connection in file mode keeps per-connection pragmas in force for every statement;
    // native calls are synchronous, so a pool would add nothing but connections.
    const client = createClient({
      url: options.url,
      ...(options.authToken === undefined ? {} : { authToken: options.authToken }),
      ...(local ? { concurrency: 1, timeout: 5_000 } : {}),
    });
    try {
      let reason: string | undefined;
      try {
        reason = await prepareSchema(client);
      } catch (cause) {
        // A concurrent opener may have created or upgraded the database first: classify once
        // more. Only a shared database reaches this (a private file is locked to one writer).
        reason = await prepareSchema(client).catch((again) => {
          // A remote server that cannot be reached (or refuses the token) is not a schema fault.
          if (remoteUnavailable(options.url, again)) throw storageUnavailable(options.url, again);
          throw rejected(options.url, "cannot read or prepare the schema", cause);
        });
      }
      if (reason !== undefined) throw rejected(options.url, reason);
      if (local) {
        // Only now: switching to WAL rewrites the file header, which a rejected file must keep.
        await client.execute("PRAGMA journal_mode = WAL");
        await client.execute("PRAGMA synchronous = FULL");
      }
      return new LibsqlBackend(client, lock, options.fence);
    } catch (error) {
      client.close();
      lock?.[Symbol.dispose]();
      throw error;
    }
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
  async cursor(id: string): Promise<StoredCursor | undefined> {
    const row = (await this.#client.execute({ sql: SELECT_CURSOR, args: [id] })).rows[0];
    if (row === undefined) return undefined;
    return {
      header: rowToHeader(row, id),
      length: row.last_seq === null ? 0 : Number(row.last_seq) + 1,
    };
  }

  /**
   * Stores a header with its initial events in one transaction (shared with other calls of the
   * same tick). Resolves once committed.
   *
   * @param header the header; stored in canonical form
   * @param events the initial events, seqs `0..n-1`
   * @throws {SessionError} `session_exists` when the id is stored, `invalid_seq` for seqs that
   *   do not start at 0, `persistence_failed` after the backend was disposed
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
   *   session that `session_leases` no longer holds (nothing of this call is written; the other
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
   * {@linkcode LibsqlBackend.append} without a promise: the call joins the same group commit,
   * then exactly one of `done` / `failed` is called, never before this method returns.
   *
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
   * Reads the header and every stored event, in one read transaction.
   *
   * @param id the session id
   * @returns the stored session, or `undefined`
   * @throws {SessionError} `storage_corrupt` (`{ sessionId, seq? }`) for a damaged header or
   *   event row, or a seq missing from the stored log
   */
  async load(id: string): Promise<StoredSession | undefined> {
    return await loadAll(this.#client, id);
  }

  /**
   * Reads the stored header, length and newest `count` events in one read transaction (two
   * primary-key seeks, independent of the log length).
   *
   * @param id the session id
   * @param count how many of the newest events to return
   * @returns the tail, or `undefined` when the id is not stored
   * @throws {SessionError} `storage_corrupt` (`{ sessionId, seq? }`) for a damaged header or
   *   event row, or a seq missing inside the tail
   */
  async tail(id: string, count: number): Promise<StoredTail | undefined> {
    return await readTail(this.#client, id, count);
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
  async readByType(
    id: string,
    types: readonly string[],
    from: number,
    to: number,
  ): Promise<SessionEvent[]> {
    return await readTypes(this.#client, id, types, from, to);
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
  async readEvents(id: string, page: EventPage = {}): Promise<SessionEvent[]> {
    return await readPage(this.#client, id, page);
  }

  /**
   * Lists stored headers, newest `createdAt` first. A damaged header row is left out (reading
   * that session answers `storage_corrupt`; `deno task doctor` names it), so one damaged row
   * never hides the others.
   *
   * @returns the readable headers
   */
  async list(): Promise<SessionHeader[]> {
    return await readHeaders(this.#client);
  }

  /**
   * Every stored session's length in one query (a `max(seq)` seek per session).
   *
   * @returns id → stored length
   */
  async lengths(): Promise<Map<string, number>> {
    return await readLengths(this.#client);
  }

  /**
   * One page of the stored events of some types across every session, in `(session id, type,
   * seq)` order, walking the `events_by_type` index from a keyset bound (one query per page).
   *
   * @param types event types
   * @param page `after` and `limit`
   * @returns the rows with their session ids
   * @throws {SessionError} `storage_corrupt` for a damaged row
   */
  async readTypeAcross(types: readonly string[], page: TypeAcrossPage): Promise<TypedEvent[]> {
    return await readTypesAcross(this.#client, types, page);
  }

  /**
   * Removes a stored session: its events and its header row, in one write transaction.
   *
   * @param id the session id
   * @returns whether a header row was removed
   */
  async remove(id: string): Promise<boolean> {
    const [, removed] = await this.#client.batch([
      { sql: "DELETE FROM events WHERE session_id = ?", args: [id] },
      { sql: "DELETE FROM sessions WHERE id = ?", args: [id] },
    ], "write");
    return (removed?.rowsAffected ?? 0) > 0;
  }

  /** Waits for queued writes, then closes the client; later writes reject. Idempotent. */
  [Symbol.asyncDispose](): Promise<void> {
    this.#disposing ??= (async () => {
      await this.#group.close();
      this.#client.close();
      this.#lock?.[Symbol.dispose]();
    })();
    return this.#disposing;
  }
  #disposing: Promise<void> | undefined;
}
