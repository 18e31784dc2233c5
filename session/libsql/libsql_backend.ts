/**
 * {@linkcode LibsqlBackend}: the durable libSQL {@linkcode PersistenceBackend} (file mode by
 * default, the same code accepts a remote libSQL URL), with ownership-checked open, the one
 * v13→v14 upgrade, WAL + `synchronous=FULL`, and group commit across sessions.
 *
 * @module
 */
import { type Client, createClient } from "@libsql/client";
import type { StorageHealth, StorageLoss, TypeAcrossPage, TypedEvent } from "../backend.ts";
import type { SessionError } from "../errors.ts";
import { FileIdentity } from "./_identity.ts";
import {
  checkSideFiles,
  databasePath,
  prepareSchema,
  rejected,
  remoteUnavailable,
} from "./_libsql_open.ts";
import { storageUnavailable } from "../_redact.ts";
import { lockDatabaseFile } from "../_writer_lock.ts";
import {
  loadAll,
  readCursor,
  readHeaders,
  readLengths,
  readPage,
  readTail,
  readTypes,
  readTypesAcross,
} from "./_libsql_read.ts";
import type { Fence } from "../_group_commit.ts";
import { SqlBackend } from "../_sql_backend.ts";
import { libsqlCommitTarget } from "./_libsql_commit.ts";
import { guarded } from "./_libsql_errors.ts";

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
export class LibsqlBackend extends SqlBackend {
  /** Backend name. */
  readonly kind = "libsql";
  readonly #client: Client;
  readonly #lock: Disposable | undefined;
  /** The identity check of a local database file; `undefined` in memory or remote. */
  readonly #identity: FileIdentity | undefined;
  /** Set once the files vanished and the rescue copy was attempted. */
  #loss: StorageLoss | undefined;
  readonly #lossListeners = new Set<(loss: StorageLoss) => void>();

  private constructor(
    client: Client,
    lock: Disposable | undefined,
    fence: Fence | undefined,
    path: string | undefined,
  ) {
    const holder: { rescue?: (error: SessionError) => Promise<void> } = {};
    const identity = path === undefined
      ? undefined
      : new FileIdentity(path, { onLost: (error) => void holder.rescue?.(error) });
    super(
      {
        // A damaged page is `storage_corrupt` for the session read (_libsql_errors.ts).
        cursor: (id) => guarded(id, () => readCursor(client, id)),
        load: (id) => guarded(id, () => loadAll(client, id)),
        tail: (id, count) => guarded(id, () => readTail(client, id, count)),
        readByType: (id, types, from, to) =>
          guarded(id, () => readTypes(client, id, types, from, to)),
        readEvents: (id, page) => guarded(id, () => readPage(client, id, page)),
        list: (onDamage) => guarded(undefined, () => readHeaders(client, onDamage)),
      },
      libsqlCommitTarget(client),
      fence,
      identity === undefined ? {} : { guard: identity },
    );
    holder.rescue = (error) => this.#rescue(error);
    this.#client = client;
    this.#lock = lock;
    this.#identity = identity;
  }

  /**
   * The still-open connection sees the unlinked files: it copies what it holds (every
   * acknowledged write) beside the database path, then tells the listeners.
   */
  async #rescue(error: SessionError): Promise<void> {
    const path = this.#identity!.path;
    const stamp = new Date().toISOString().replaceAll(":", "-").replace(".", "-");
    const to = `${path}.rescued-${stamp}`;
    let rescuedTo: string | undefined;
    let rescueError: string | undefined;
    try {
      await this.#client.execute(`VACUUM INTO '${to.replaceAll("'", "''")}'`);
      rescuedTo = to;
    } catch (cause) {
      rescueError = cause instanceof Error ? cause.message : String(cause);
    }
    this.#loss = {
      code: "storage_lost",
      message: error.message,
      path,
      rescuedTo,
      ...(rescueError === undefined ? {} : { rescueError }),
    };
    for (const listener of this.#lossListeners) listener(this.#loss);
    this.#lossListeners.clear();
  }

  /**
   * Whether writes can be stored: for a local file, checks now that the database and its
   * `-wal` are still the files at the path.
   *
   * @returns `ready: false` with the `storage_lost` message once they are not
   */
  health(): StorageHealth {
    try {
      this.#identity?.check();
      return { ready: true, reasons: [] };
    } catch (error) {
      return { ready: false, reasons: [(error as Error).message] };
    }
  }

  /**
   * Calls `listener` once the database file or its `-wal` vanished (or was replaced) under this
   * backend and the rescue copy (`VACUUM INTO '<path>.rescued-<UTC time>'`) was attempted; at
   * once (on a later microtask) when that happened already. Every write after the loss is
   * refused with `storage_lost`.
   *
   * @param listener told the loss and the rescue copy's path
   * @returns a handle whose disposal unsubscribes
   */
  onStorageLost(listener: (loss: StorageLoss) => void): Disposable {
    const loss = this.#loss;
    if (loss !== undefined) {
      queueMicrotask(() => listener(loss));
      return { [Symbol.dispose]: () => {} };
    }
    this.#lossListeners.add(listener);
    return { [Symbol.dispose]: () => this.#lossListeners.delete(listener) };
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
   *   database; `storage_read_only` when the file, its directory, or an existing `-wal` or
   *   `-shm` cannot be written; `storage_in_use` when another process holds a file not opened `shared`;
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
    if (path !== undefined) {
      try {
        await checkSideFiles(path, `database ${options.url}`);
      } catch (error) {
        lock?.[Symbol.dispose]();
        throw error;
      }
    }
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
      return new LibsqlBackend(client, lock, options.fence, path);
    } catch (error) {
      client.close();
      lock?.[Symbol.dispose]();
      throw error;
    }
  }

  /**
   * Every stored session's length in one query (a `max(seq)` seek per session).
   *
   * @returns id → stored length
   */
  async lengths(): Promise<Map<string, number>> {
    return await guarded(undefined, () => readLengths(this.#client));
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
    return await guarded(undefined, () => readTypesAcross(this.#client, types, page));
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

  /** Closes the client and releases the file lock (after the last queued write). */
  protected closeClient(): Promise<void> {
    this.#identity?.[Symbol.dispose]();
    this.#client.close();
    this.#lock?.[Symbol.dispose]();
    return Promise.resolve();
  }
}
