/**
 * {@linkcode LibsqlBackend}: the durable libSQL {@linkcode PersistenceBackend} (file mode by
 * default, the same code accepts a remote libSQL URL), with ownership-checked open, the one
 * v13→v14 upgrade, WAL + `synchronous=FULL`, and group commit across sessions.
 *
 * @module
 */
import { type Client, createClient, type InStatement } from "@libsql/client";
import { setImmediate } from "node:timers";
import type { EventPage, PersistenceBackend, StoredCursor, StoredSession } from "./backend.ts";
import { SessionError } from "./errors.ts";
import type { SessionEvent } from "./event.ts";
import { normalizeHeader, type SessionHeader } from "./header.ts";
import { databasePath, prepareSchema, rejected } from "./_libsql_open.ts";
import { lockDatabaseFile } from "./_writer_lock.ts";
import { corrupt } from "./_decode.ts";
import {
  type EventRow,
  eventRows,
  insertEvents,
  insertHeader,
  pageEvents,
  rowToEvent,
  rowToHeader,
  SELECT_CURSOR,
  SELECT_EVENTS,
  SELECT_HEADERS,
  selectPage,
} from "./_libsql_sql.ts";

/** Options of {@linkcode LibsqlBackend.open}. */
export interface LibsqlBackendOptions {
  /** `file:path` (created when missing), or a remote `libsql:`/`https:` URL. */
  readonly url: string;
  /** Auth token for a remote URL. @default none */
  readonly authToken?: string;
}

interface Pending {
  readonly id: string;
  /** Set for `initialize`, absent for `append`. */
  readonly header?: SessionHeader;
  readonly events: readonly SessionEvent[];
  readonly done: PromiseWithResolvers<void>;
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
 * import { LibsqlBackend } from "./libsql_backend.ts";
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
  /** Stored event counts of sessions known to exist (authoritative after each commit). */
  readonly #lengths = new Map<string, number>();
  #queue: Pending[] = [];
  #draining: Promise<void> | undefined;
  #closed = false;
  #commits = 0;

  private constructor(client: Client, lock: Disposable | undefined) {
    this.#client = client;
    this.#lock = lock;
  }

  /**
   * Opens (or creates) a database. The ownership marker, version and layout are read before any
   * write: an empty database gets schema v14; an owned v14 database is used as is; an owned v13
   * database is upgraded to v14 in one transaction (existing rows keep `time_zone` NULL);
   * anything else is rejected with the file byte-for-byte unchanged. Only then does a file switch
   * to WAL with `synchronous=FULL` (seed §"Session 与请求时区归属").
   *
   * @param options the URL (and token)
   * @returns the open backend
   * @throws {SessionError} `schema_rejected` for an older, newer, foreign, forged or unreadable
   *   database
   */
  static async open(options: LibsqlBackendOptions): Promise<LibsqlBackend> {
    const local = options.url.startsWith("file:");
    const path = databasePath(options.url);
    // One writing process per database file, locked by identity (an OS lock on the file itself,
    // whatever name reaches it); its content is not touched before its schema is accepted.
    // In-memory and remote databases need no lock.
    const lock = path === undefined
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
        // more. A local file is locked to one writer before this point, so only a remote
        // database shared by several hosts reaches this (no sqld server in the tests: uncovered).
        reason = await prepareSchema(client).catch(() => {
          throw rejected(options.url, "cannot read or prepare the schema", cause);
        });
      }
      if (reason !== undefined) throw rejected(options.url, reason);
      if (local) {
        // Only now: switching to WAL rewrites the file header, which a rejected file must keep.
        await client.execute("PRAGMA journal_mode = WAL");
        await client.execute("PRAGMA synchronous = FULL");
      }
      return new LibsqlBackend(client, lock);
    } catch (error) {
      client.close();
      lock?.[Symbol.dispose]();
      throw error;
    }
  }

  /** Number of write transactions committed so far (for tests and benchmarks). */
  get commits(): number {
    return this.#commits;
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
    return this.#submit(header.id, events, normalizeHeader(header));
  }

  /**
   * Appends events in one transaction (shared with other calls of the same tick). Resolves once
   * committed; a rejected call never rolls back the other calls of its group.
   *
   * @param id the session id
   * @param events events whose seqs continue from the stored length
   * @throws {SessionError} `invalid_seq` when the first seq is not the stored length (or seqs
   *   are not dense), `session_not_found`, `persistence_failed` after dispose
   */
  append(id: string, events: readonly SessionEvent[]): Promise<void> {
    return this.#submit(id, events);
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
    const [head, rows] = await this.#client.batch([
      { sql: SELECT_CURSOR, args: [id] },
      { sql: SELECT_EVENTS, args: [id] },
    ], "read");
    const row = head!.rows[0];
    return row === undefined ? undefined : {
      header: rowToHeader(row, id),
      events: rows!.rows.map((r, i) => rowToEvent(r, id, i)),
    };
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
    const { stmt } = selectPage(id, page);
    const { events, missingIfStored } = pageEvents(
      (await this.#client.execute(stmt)).rows,
      id,
      page,
    );
    if (missingIfStored !== undefined) {
      const { rows } = await this.#client.execute({
        sql: "SELECT max(seq) AS last FROM events WHERE session_id = ?",
        args: [id],
      });
      const last = rows[0]!.last;
      if (last !== null && Number(last) >= missingIfStored) {
        throw corrupt({ sessionId: id, seq: missingIfStored }, "missing");
      }
    }
    return events;
  }

  /**
   * Lists stored headers, newest `createdAt` first. A damaged header row is left out (reading
   * that session answers `storage_corrupt`; `deno task doctor` names it), so one damaged row
   * never hides the others.
   *
   * @returns the readable headers
   */
  async list(): Promise<SessionHeader[]> {
    const rows = (await this.#client.execute(SELECT_HEADERS)).rows;
    return rows.flatMap((row) => {
      try {
        return [rowToHeader(row)];
      } catch {
        return [];
      }
    });
  }

  #submit(id: string, events: readonly SessionEvent[], header?: SessionHeader): Promise<void> {
    if (this.#closed) {
      return Promise.reject(new SessionError("persistence_failed", "Cannot write: backend closed"));
    }
    const done = Promise.withResolvers<void>();
    this.#queue.push({ id, events, done, ...(header === undefined ? {} : { header }) });
    // setImmediate runs after every microtask of this tick, so calls from many sessions made in
    // the same tick join one group (setTimeout(0) would add ~1–4 ms of clamping).
    this.#draining ??= new Promise<void>((resolve) => setImmediate(resolve)).then(() =>
      this.#drain()
    );
    return done.promise;
  }

  async #drain(): Promise<void> {
    try {
      while (this.#queue.length > 0) {
        const group = this.#queue;
        this.#queue = [];
        await this.#commit(group, true);
      }
    } finally {
      this.#draining = undefined;
    }
  }

  async #commit(group: readonly Pending[], shared: boolean): Promise<void> {
    const lengths = new Map<string, number | undefined>();
    const unreadable = new Map<string, unknown>();
    const unknown = [...new Set(group.map((p) => p.id))].filter((id) => !this.#lengths.has(id));
    for (const id of unknown) {
      // One session's damaged or unreadable header fails only that session's calls.
      try {
        lengths.set(id, (await this.cursor(id))?.length);
      } catch (error) {
        unreadable.set(id, error);
      }
    }
    const stmts: InStatement[] = [];
    const rows: EventRow[] = [];
    const accepted: Pending[] = [];
    for (const p of group) {
      const stored = lengths.has(p.id) ? lengths.get(p.id) : this.#lengths.get(p.id);
      try {
        if (unreadable.has(p.id)) throw unreadable.get(p.id);
        const error = validate(p, stored);
        if (error !== undefined) throw error;
        // JSON.stringify throws for data such as BigInt: only this call fails.
        const own = eventRows(p.id, p.events);
        if (p.header !== undefined) stmts.push(insertHeader(p.header));
        for (const row of own) rows.push(row);
      } catch (error) {
        p.done.reject(error);
        continue;
      }
      lengths.set(p.id, (stored ?? 0) + p.events.length);
      accepted.push(p);
    }
    if (accepted.length === 0) return;
    try {
      await this.#client.batch([...stmts, ...insertEvents(rows)], "write");
    } catch (error) {
      for (const p of accepted) this.#lengths.delete(p.id);
      if (!shared || accepted.length === 1) {
        for (const p of accepted) p.done.reject(error);
        return;
      }
      for (const p of accepted) await this.#commit([p], false);
      return;
    }
    this.#commits++;
    for (const p of accepted) this.#lengths.set(p.id, lengths.get(p.id)!);
    for (const p of accepted) p.done.resolve();
  }

  /** Waits for queued writes, then closes the client; later writes reject. Idempotent. */
  [Symbol.asyncDispose](): Promise<void> {
    this.#disposing ??= (async () => {
      this.#closed = true;
      await this.#draining;
      this.#client.close();
      this.#lock?.[Symbol.dispose]();
    })();
    return this.#disposing;
  }
  #disposing: Promise<void> | undefined;
}

function validate(p: Pending, stored: number | undefined): SessionError | undefined {
  if (p.header !== undefined && stored !== undefined) {
    return new SessionError("session_exists", `Cannot initialize: ${p.id} is stored`);
  }
  if (p.header === undefined && stored === undefined) {
    return new SessionError("session_not_found", `Cannot append: no session ${p.id}`);
  }
  const from = stored ?? 0;
  if (p.events.some((e, i) => e.seq !== from + i)) {
    return new SessionError(
      "invalid_seq",
      `Cannot write ${p.id}: events must start at seq ${from}`,
      {
        details: { expected: from },
      },
    );
  }
  return undefined;
}
