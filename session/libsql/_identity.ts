/**
 * Private: {@linkcode FileIdentity}, the check that the files a libSQL connection writes are
 * still the files at its path (README.md "How it behaves on failure"). A database or `-wal` removed (or replaced)
 * under a running host keeps taking writes through the open descriptors, and every one of them
 * is gone at the next open: so the identity (`dev` + `ino`) of the database file and of its
 * `-wal` is recorded and compared on a short cadence and before each commit is acknowledged.
 *
 * @module
 */
import { SessionError } from "../errors.ts";
import type { StorageGuard } from "../_group_commit.ts";

/** How often the identity is checked between commits (ms). */
export const IDENTITY_CHECK_MS = 1_000;

/** A file's identity: the device and inode `Deno.stat` reports. */
interface Identity {
  readonly dev: number;
  readonly ino: number;
}

/** The identity of the file at `path`, `undefined` when nothing is there, `null` when unknown. */
function identityOf(path: string): Identity | undefined | null {
  try {
    const info = Deno.statSync(path);
    return { dev: info.dev, ino: info.ino ?? 0 };
  } catch (error) {
    // Only a missing file is a loss: a stat refused for another reason proves nothing.
    return error instanceof Deno.errors.NotFound ? undefined : null;
  }
}

function same(a: Identity, b: Identity): boolean {
  return a.dev === b.dev && a.ino === b.ino;
}

/** Options of {@linkcode FileIdentity}. */
export interface FileIdentityOptions {
  /** Called once, synchronously, when a check first finds the files lost. @default none */
  readonly onLost?: (error: SessionError) => void;
  /** Period of the background check (ms); `0` runs none. @default IDENTITY_CHECK_MS */
  readonly intervalMs?: number;
}

/**
 * The identity of a database file and its `-wal`, taken at open (the `-wal` when it first
 * exists, as SQLite creates it on first use), then checked: by {@linkcode FileIdentity.check}
 * (the group commit calls it before and after each write transaction) and by an unref'd timer
 * every {@linkcode IDENTITY_CHECK_MS}. Once a check finds either file removed or replaced, the
 * loss is final: every later check throws the same `storage_lost` error.
 */
export class FileIdentity implements StorageGuard, Disposable {
  /** The database file path. */
  readonly path: string;
  readonly #db: Identity;
  #wal: Identity | undefined;
  #lost: SessionError | undefined;
  #timer: ReturnType<typeof setInterval> | undefined;
  readonly #onLost: (error: SessionError) => void;

  /**
   * Records the identities now and starts the background check.
   *
   * @param path the database file (it exists: the caller opened it)
   * @param options `onLost` and `intervalMs`
   * @throws {Deno.errors.NotFound} when no file is at `path`
   */
  constructor(path: string, options: FileIdentityOptions = {}) {
    this.path = path;
    const info = Deno.statSync(path);
    this.#db = { dev: info.dev, ino: info.ino ?? 0 };
    this.#wal = identityOf(`${path}-wal`) ?? undefined;
    this.#onLost = options.onLost ?? (() => {});
    const interval = options.intervalMs ?? IDENTITY_CHECK_MS;
    if (interval > 0) {
      const timer = setInterval(() => {
        try {
          this.check();
        } catch {
          // Reported through `onLost`; the timer stops itself.
        }
      }, interval);
      Deno.unrefTimer(timer);
      this.#timer = timer;
    }
  }

  /** The loss, once a check found it; `undefined` while the files are the ones opened. */
  get lost(): SessionError | undefined {
    return this.#lost;
  }

  /**
   * Compares the files at the path with the ones opened.
   *
   * @throws {SessionError} `storage_lost` (`details.path`, `details.file`) when the database or
   *   its `-wal` was removed or replaced, now or by an earlier check
   */
  check(): void {
    if (this.#lost !== undefined) throw this.#lost;
    const reason = this.#verify();
    if (reason === undefined) return;
    this.#lost = new SessionError(
      "storage_lost",
      `Cannot write: ${reason.what} ${reason.file} was ${reason.how} under the running host; ` +
        "nothing more is acknowledged",
      { details: { path: this.path, file: reason.file } },
    );
    this[Symbol.dispose]();
    this.#onLost(this.#lost);
    throw this.#lost;
  }

  #verify(): { what: string; file: string; how: string } | undefined {
    const db = identityOf(this.path);
    if (db === undefined || (db !== null && !same(db, this.#db))) {
      return {
        what: "the database",
        file: this.path,
        how: db === undefined ? "removed" : "replaced",
      };
    }
    const walPath = `${this.path}-wal`;
    const wal = identityOf(walPath);
    if (wal === null) return undefined;
    if (this.#wal === undefined) {
      this.#wal = wal;
      return undefined;
    }
    if (wal === undefined || !same(wal, this.#wal)) {
      return {
        what: "the write-ahead log",
        file: walPath,
        how: wal === undefined ? "removed" : "replaced",
      };
    }
    return undefined;
  }

  /** Stops the background check (the recorded identities stay). Idempotent. */
  [Symbol.dispose](): void {
    if (this.#timer !== undefined) clearInterval(this.#timer);
    this.#timer = undefined;
  }
}
