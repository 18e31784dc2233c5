/**
 * {@linkcode JsonlBackend}: one append-only JSON Lines file per session, `<dir>/<id>.jsonl`
 * (header line, then one event per line, each ending with its CRC-32C `crc`: JSONL format 3,
 * `session/jsonl/_jsonl_format.ts`), fsync'd before a write resolves.
 *
 * @module
 */
import { join } from "node:path";
import type {
  EventPage,
  PersistenceBackend,
  StoredCursor,
  StoredSession,
  StoredTail,
} from "../backend.ts";
import { SessionError } from "../errors.ts";
import type { SessionEvent } from "../event.ts";
import { isSessionId, type SessionHeader } from "../header.ts";
import { readHeader, scanLog, setAside, syncDir, writeDurably } from "./_jsonl_io.ts";
import { lockFolder } from "../_writer_lock.ts";
import { eventLine, headerLine, prepareFolder } from "./_jsonl_format.ts";
import { checkForkPoint } from "../_fork.ts";

/** Header lines `list()` reads at once. */
const LIST_READ_AHEAD = 16;

/** Options of {@linkcode JsonlBackend.open}. */
export interface JsonlBackendOptions {
  /** The directory holding `<id>.jsonl` files; created when missing. */
  readonly dir: string;
}

/**
 * The JSONL backend: the small single-host backend. One writer per directory. Reads that the
 * libSQL backend answers from an index or a key range (`tail`, `readByType`, `readEvents`, the
 * fork copy) scan the session's file here. On the first touch of a session in a process the
 * file is scanned once; a torn last line (bytes after the last newline, left by a crash during a
 * write) is moved to `<id>.jsonl.torn-<n>` and the file truncated to its last complete line, so
 * no complete line is ever lost. Writes of one session are serialized.
 *
 * @example Store and read back a session
 * ```ts
 * import { JsonlBackend } from "@chime/session";
 * await using backend = await JsonlBackend.open({ dir: await Deno.makeTempDir() });
 * await backend.initialize({ version: 1, id: "s1", cwd: "/", createdAt: "2026-01-01T00:00:00.000Z",
 *   origin: "doc", lineage: null, delegationDepth: 0 }, []);
 * console.assert((await backend.cursor("s1"))?.length === 0);
 * ```
 */
export class JsonlBackend implements PersistenceBackend {
  /** Backend name. */
  readonly kind = "jsonl";
  readonly #dir: string;
  readonly #lock: Disposable;
  /** Stored event counts of sessions scanned (and repaired) in this process. */
  readonly #lengths = new Map<string, number>();
  readonly #locks = new Map<string, Promise<unknown>>();

  private constructor(dir: string, lock: Disposable) {
    this.#lock = lock;
    this.#dir = dir;
  }

  /**
   * Opens (creating if needed) a JSONL directory.
   *
   * @param options the directory
   * @returns the backend
   */
  static async open(options: JsonlBackendOptions): Promise<JsonlBackend> {
    await Deno.mkdir(options.dir, { recursive: true });
    // One writing process per folder, locked by identity (an OS lock on the folder itself):
    // appends check the file length they continue.
    const lock = await lockFolder(options.dir, `folder ${options.dir}`);
    try {
      // Format 3 (event and header checksums): a format-1 or format-2 folder is upgraded once,
      // before any write.
      await prepareFolder(options.dir);
    } catch (error) {
      lock[Symbol.dispose]();
      throw error;
    }
    return new JsonlBackend(options.dir, lock);
  }

  #path(id: string): string {
    // The id rule ([A-Za-z0-9_-]{1,64}) is what keeps `..` and `/` out of file names.
    if (!isSessionId(id)) {
      throw new SessionError("invalid_session_id", `Cannot use session id: ${String(id)}`);
    }
    return join(this.#dir, `${id}.jsonl`);
  }

  #locked<T>(id: string, op: () => Promise<T>): Promise<T> {
    const run = (this.#locks.get(id) ?? Promise.resolve()).catch(() => {}).then(op);
    const tail = run.catch(() => {});
    this.#locks.set(id, tail);
    tail.then(() => this.#locks.get(id) === tail && this.#locks.delete(id));
    return run;
  }

  /** Scans a file, setting a torn tail aside; `undefined` when the session is not stored. */
  async #scan(id: string): Promise<StoredSession | undefined> {
    const path = this.#path(id);
    const scanned = await scanLog(path, id);
    if (scanned === undefined) {
      this.#lengths.delete(id);
      return undefined;
    }
    if (scanned.tornAt !== undefined) await setAside(path, scanned.tornAt);
    this.#lengths.set(id, scanned.events.length);
    return { header: scanned.header, events: scanned.events };
  }

  async #length(id: string): Promise<number | undefined> {
    return this.#lengths.get(id) ?? (await this.#scan(id))?.events.length;
  }

  /**
   * Rescans the file (setting a torn tail aside) and reports the stored header and length.
   *
   * @param id the session id
   * @returns the cursor, or `undefined` when no file exists
   * @throws {SessionError} `invalid_session_id`; `storage_corrupt` (`{ sessionId, seq? }`) for a
   *   damaged complete line (a torn tail is set aside, never damage)
   */
  cursor(id: string): Promise<StoredCursor | undefined> {
    return this.#locked(id, async () => {
      const stored = await this.#scan(id);
      return stored && { header: stored.header, length: stored.events.length };
    });
  }

  /**
   * Writes the header and initial events to a temporary file, fsyncs it and links it into place,
   * so the session appears complete or not at all.
   *
   * @param header the header; written in canonical form (no `timeZone` key when absent) with its
   *   checksum (`crc`, `session/jsonl/_jsonl_format.ts`), so a fork's header has one too
   * @param events the initial events, seqs `0..n-1`
   * @throws {SessionError} `session_exists`, `invalid_seq`, `invalid_session_id` for an id that
   *   is not a safe file name
   */
  initialize(header: SessionHeader, events: readonly SessionEvent[]): Promise<void> {
    return this.#locked(header.id, async () => {
      const path = this.#path(header.id);
      if (events.some((e, i) => e.seq !== i)) {
        throw new SessionError(
          "invalid_seq",
          `Cannot initialize ${header.id}: seqs must start at 0`,
        );
      }
      const text = [
        headerLine(header),
        ...events.map((e) => eventLine(header.id, e)),
      ];
      const tmp = `${path}.tmp-${crypto.randomUUID()}`;
      await writeDurably(tmp, text.join(""), { createNew: true });
      try {
        // link(2) never replaces an existing name: header and seed appear atomically, once.
        await Deno.link(tmp, path);
      } catch (error) {
        if (error instanceof Deno.errors.AlreadyExists) {
          throw new SessionError("session_exists", `Cannot initialize: ${header.id} is stored`);
        }
        // deno-coverage-ignore -- link fails only on I/O errors or a full disk
        throw error;
      } finally {
        await Deno.remove(tmp);
      }
      await syncDir(this.#dir);
      this.#lengths.set(header.id, events.length);
    });
  }

  /**
   * Appends one line per event and fsyncs (`fdatasync`) before resolving.
   *
   * @param id the session id
   * @param events events whose seqs continue from the stored length
   * @throws {SessionError} `invalid_seq`, `session_not_found`, `invalid_session_id`
   */
  append(id: string, events: readonly SessionEvent[]): Promise<void> {
    return this.#locked(id, async () => {
      const path = this.#path(id);
      const length = await this.#length(id);
      if (length === undefined) {
        throw new SessionError("session_not_found", `Cannot append: no session ${id}`);
      }
      if (events.some((e, i) => e.seq !== length + i)) {
        throw new SessionError(
          "invalid_seq",
          `Cannot append ${id}: events must start at ${length}`,
          {
            details: { expected: length },
          },
        );
      }
      if (events.length === 0) return;
      const text = events.map((e) => eventLine(id, e)).join("");
      // Unknown state after a failed write: the next touch rescans and sets a torn tail aside.
      this.#lengths.delete(id);
      await writeDurably(path, text, { append: true });
      this.#lengths.set(id, length + events.length);
    });
  }

  /**
   * Stores a fork: the parent's events `[0, throughSeq]` read from its file, then `own`, written
   * atomically like {@linkcode JsonlBackend.initialize}.
   *
   * @param header the child header
   * @param parentId the stored parent
   * @param throughSeq last parent seq to copy, inclusive (`-1`: none)
   * @param own the child's events from `throughSeq + 1`
   * @throws {SessionError} `session_exists`, `session_not_found`, `invalid_seq`
   */
  async fork(
    header: SessionHeader,
    parentId: string,
    throughSeq: number,
    own: readonly SessionEvent[],
  ): Promise<void> {
    const parent = await this.load(parentId);
    checkForkPoint(parentId, parent?.events.length, throughSeq);
    await this.initialize(header, [...parent!.events.slice(0, throughSeq + 1), ...own]);
  }

  /**
   * Reads the header, the length and the newest `count` events (scans the file).
   *
   * @param id the session id
   * @param count how many of the newest events
   * @returns the tail, or `undefined`
   * @throws {SessionError} like {@linkcode JsonlBackend.load}
   */
  async tail(id: string, count: number): Promise<StoredTail | undefined> {
    const stored = await this.load(id);
    if (stored === undefined) return undefined;
    const { header, events } = stored;
    return {
      header,
      length: events.length,
      events: events.slice(Math.max(0, events.length - count)),
    };
  }

  /**
   * Reads the events of some types with `from ≤ seq < to`, ascending (scans the file).
   *
   * @param id the session id
   * @param types event types
   * @param from first seq, inclusive
   * @param to end seq, exclusive
   * @returns the events (none for an unknown id)
   */
  async readByType(
    id: string,
    types: readonly string[],
    from: number,
    to: number,
  ): Promise<SessionEvent[]> {
    const wanted = new Set(types);
    const all = (await this.load(id))?.events ?? [];
    return all.filter((e) => e.seq >= from && e.seq < to && wanted.has(e.type));
  }

  /**
   * Reads a whole session, setting a torn tail aside first.
   *
   * @param id the session id
   * @returns the stored session, or `undefined`
   * @throws {SessionError} `invalid_session_id`; `storage_corrupt` (`{ sessionId, seq? }`) for a
   *   damaged complete line or a seq out of place
   */
  load(id: string): Promise<StoredSession | undefined> {
    return this.#locked(id, () => this.#scan(id));
  }

  /**
   * Reads one page of stored events in ascending seq order (same bounds as the other backends).
   *
   * @param id the session id
   * @param page `before`/`after` exclusive bounds and `limit` (default 500)
   * @returns the events, ascending
   * @throws {RangeError} when `limit` is not a non-negative integer
   */
  async readEvents(id: string, page: EventPage = {}): Promise<SessionEvent[]> {
    const limit = page.limit ?? 500;
    if (!Number.isSafeInteger(limit) || limit < 0) {
      throw new RangeError(`Cannot read events: limit ${limit} is not a non-negative integer`);
    }
    const all = (await this.load(id))?.events ?? [];
    const inRange = all.filter((e) =>
      (page.before === undefined || e.seq < page.before) &&
      (page.after === undefined || e.seq > page.after)
    );
    if (page.before === undefined) return inRange.slice(0, limit);
    return limit === 0 ? [] : inRange.slice(-limit);
  }

  /**
   * Removes a stored session's file (`<dir>/<id>.jsonl`).
   *
   * @param id the session id
   * @returns whether a file was removed
   */
  async remove(id: string): Promise<boolean> {
    try {
      await Deno.remove(this.#path(id));
      return true;
    } catch (error) {
      if (error instanceof Deno.errors.NotFound) return false;
      throw error;
    }
  }

  /**
   * Lists stored headers, newest first, reading only the first line of each file. A damaged
   * header line (a checksum mismatch included) is left out (reading that session answers
   * `storage_corrupt`; `deno task doctor` names it), so one damaged file never hides the others.
   *
   * @param onDamage called with each damaged header line's `storage_corrupt` @default none
   * @returns the readable headers
   */
  async list(onDamage?: (error: Error) => void): Promise<SessionHeader[]> {
    const files: [string, string][] = [];
    for await (const entry of Deno.readDir(this.#dir)) {
      const id = entry.name.endsWith(".jsonl") ? entry.name.slice(0, -6) : "";
      if (entry.isFile && isSessionId(id)) files.push([join(this.#dir, entry.name), id]);
    }
    // A few first lines at a time: each is an open and a short read.
    const headers: SessionHeader[] = [];
    for (let i = 0; i < files.length; i += LIST_READ_AHEAD) {
      const batch = files.slice(i, i + LIST_READ_AHEAD);
      const read = batch.map(([path, id]) => readHeader(path, id, onDamage));
      for (const header of await Promise.all(read)) {
        if (header !== undefined) headers.push(header);
      }
    }
    return headers.sort((a, b) =>
      b.createdAt.localeCompare(a.createdAt) || a.id.localeCompare(b.id)
    );
  }

  /**
   * Every stored session's length: kept in memory for the files this process wrote or scanned
   * (it is the only writer, `flock`), a scan for the others.
   *
   * @returns id → stored length
   */
  async lengths(): Promise<Map<string, number>> {
    const out = new Map<string, number>();
    for await (const entry of Deno.readDir(this.#dir)) {
      const id = entry.name.endsWith(".jsonl") ? entry.name.slice(0, -6) : "";
      if (!entry.isFile || !isSessionId(id)) continue;
      const length = this.#lengths.get(id) ??
        await this.#locked(id, () => this.#length(id)).catch(() => undefined);
      if (length !== undefined) out.set(id, length);
    }
    return out;
  }

  /** Waits for in-flight writes and releases the writer lock. Idempotent. */
  [Symbol.asyncDispose](): Promise<void> {
    this.#disposing ??= (async () => {
      await Promise.all([...this.#locks.values()]);
      this.#lock[Symbol.dispose]();
    })();
    return this.#disposing;
  }
  #disposing: Promise<void> | undefined;
}
