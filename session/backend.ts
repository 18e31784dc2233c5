/**
 * The storage port every persistence backend (libSQL, JSONL, memory) implements, the
 * {@linkcode LeaseTable} of shared storage (docs/long-sessions.md "Schema v15"), and the
 * {@linkcode StorageDriver} seam a host registers storage through: one driver per folder
 * (`session/libsql/`, `session/jsonl/`), one row in the host's table (docs/architecture.md
 * "Storage drivers"). Interface first, one transport per file (CONTRIBUTING.md#code).
 *
 * @module
 */
import type { Clock } from "./clock.ts";
import type { CheckOptions, StorageReport } from "./doctor.ts";
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
  /**
   * Lists stored headers, newest first. A damaged header is left out (reading that session
   * answers `storage_corrupt`), so one damaged header never hides the others.
   *
   * @param onDamage called with each damaged header's `storage_corrupt` `SessionError` (a reader
   *   that must say what it left out: the Upcoming list) @default none
   */
  list(onDamage?: (error: Error) => void): Promise<SessionHeader[]>;
  /**
   * Optional: the stored length of every stored session in one read (libSQL: one query seeking
   * `max(seq)` per session on the primary key). A reader that keeps a projection of many logs
   * (the schedule's Upcoming list, docs/upcoming.md) re-reads only the sessions whose length
   * moved. Without it, {@linkcode SessionStore.storedLengths} asks each session's cursor.
   *
   * @returns session id → stored length (number of stored events)
   */
  lengths?(): Promise<Map<string, number>>;
  /**
   * Optional: one page of the stored events of some types across every stored session, in
   * `(session id, type, seq)` order after `page.after` (libSQL: one query walking the
   * `events_by_type` index). A projection of many logs (the schedule's Upcoming list,
   * docs/upcoming.md) reads every session's `schedule/change` events in a few queries instead
   * of one per session. Without it, {@linkcode SessionStore.readTypeAcross} reads each listed
   * session's events by type.
   *
   * @param types event types
   * @param page `after` (exclusive key of the previous page's last row) and `limit` (rows)
   * @returns the rows, each with its session id
   * @throws {SessionError} `storage_corrupt` for a damaged row
   */
  readTypeAcross?(types: readonly string[], page: TypeAcrossPage): Promise<TypedEvent[]>;
  /**
   * Removes a stored session for good, its header and every event (the purge of deleted
   * sessions, README.md "The page"; `deno task purge`). A fork keeps its own copy of the events
   * it inherited, so removing a parent never damages a child. Optional: a backend without it
   * cannot purge.
   *
   * @param id the session id
   * @returns `true` when something was removed, `false` when nothing was stored
   */
  remove?(id: string): Promise<boolean>;
  /**
   * Optional: whether this backend can take writes now (a host's `GET /readyz`). A libSQL file
   * whose database or `-wal` is no longer the file at its path reports `storage_lost`
   * (docs/errors.md). Without it, the backend is taken as ready.
   *
   * @returns `{ ready: true, reasons: [] }`, or `ready: false` with why
   */
  health?(): StorageHealth;
  /**
   * Optional: calls `listener` once when the backend stops taking writes because its files
   * vanished (`storage_lost`), after its rescue copy was attempted; at once when that happened
   * already.
   *
   * @param listener told the loss, with the rescue copy's path when it was written
   * @returns a handle whose disposal unsubscribes
   */
  onStorageLost?(listener: (loss: StorageLoss) => void): Disposable;
}

/** What {@linkcode PersistenceBackend.health} reports. */
export interface StorageHealth {
  /** `true` while writes can be stored durably. */
  readonly ready: boolean;
  /** Why not ready, one sentence each (empty when ready). */
  readonly reasons: readonly string[];
}

/** A backend's loss of its files ({@linkcode PersistenceBackend.onStorageLost}). */
export interface StorageLoss {
  /** Always `storage_lost`. */
  readonly code: "storage_lost";
  /** `Cannot write: …`, naming the file that vanished or was replaced. */
  readonly message: string;
  /** The database path the backend was opened on. */
  readonly path: string;
  /**
   * Where the still-open connection copied everything it held (`VACUUM INTO`), every
   * acknowledged write included; `undefined` when the copy failed (see `rescueError`).
   */
  readonly rescuedTo: string | undefined;
  /** Why the rescue copy failed, when it did. */
  readonly rescueError?: string;
}

/** A page of {@linkcode PersistenceBackend.readTypeAcross}. */
export interface TypeAcrossPage {
  /** The last row of the previous page (exclusive); absent: from the first session. */
  readonly after?: { readonly sessionId: string; readonly type: string; readonly seq: number };
  /** Rows per page (≥ 1). */
  readonly limit: number;
}

/** One stored event with its session's id. */
export interface TypedEvent {
  /** The session. */
  readonly sessionId: string;
  /** The event. */
  readonly event: SessionEvent;
}

/** A lease this host holds (docs/long-sessions.md "Fenced appends"). */
export interface Lease {
  /** The session. */
  readonly sessionId: string;
  /** The fencing token; a later holder always gets a larger one. */
  readonly token: number;
  /** When the lease runs out unless renewed, epoch ms (UTC). */
  readonly expiresAt: number;
}

/** The row of a session's lease, as any host reads it. */
export interface LeaseOwner {
  /** The holder's host id. */
  readonly holder: string;
  /** The holder's advertised base URL (where its session is live). */
  readonly url: string;
  /** The current fencing token. */
  readonly token: number;
  /** Expiry, epoch ms (UTC); `0` after a release. */
  readonly expiresAt: number;
  /** Whether the lease is still in force at the reading host's `now` (`expiresAt ≥ now`). */
  readonly live: boolean;
}

/** The result of {@linkcode LeaseTable.acquire}. */
export type AcquireResult =
  | { readonly ok: true; readonly lease: Lease }
  | { readonly ok: false; readonly owner: LeaseOwner };

/**
 * One host's view of the lease table of shared storage: one live owner per session among many
 * hosts (docs/long-sessions.md "Schema v15"). The table is the only authority; every transition
 * is atomic in storage, so of several hosts racing only one wins. The token of a session only
 * ever grows, and the storage fence refuses an append under a stale one
 * (docs/long-sessions.md "Fenced appends"). `SessionLeases` (`session/libsql/lease.ts`)
 * implements it over libSQL.
 */
export interface LeaseTable {
  /** This host's id, stored as the holder. */
  readonly holder: string;
  /** This host's advertised base URL, written with each acquisition (set once it listens). */
  url: string;
  /**
   * Takes the lease of a free session (never leased, released, or expired).
   *
   * @param sessionId the session
   * @param ttlMs lease length, ms
   * @returns the lease (token one larger than the last), or the live owner while held (this
   *   host included: a holder renews, it does not acquire twice)
   * @throws {RangeError} for a ttl that is not a positive integer
   */
  acquire(sessionId: string, ttlMs: number): Promise<AcquireResult>;
  /**
   * Extends a held lease while its token is still the session's current one.
   *
   * @param lease the lease held
   * @param ttlMs new length from now, ms
   * @returns the renewed lease, or `undefined` once another acquisition took it
   * @throws {RangeError} for a ttl that is not a positive integer
   */
  renew(lease: Lease, ttlMs: number): Promise<Lease | undefined>;
  /**
   * Gives a lease up: it expires at once and keeps its token.
   *
   * @param lease the lease held
   * @returns `true` when it was still held and is now released
   */
  release(lease: Lease): Promise<boolean>;
  /**
   * Reads a session's lease.
   *
   * @param sessionId the session
   * @returns holder, URL, token and expiry, or `undefined` when it was never leased
   */
  owner(sessionId: string): Promise<LeaseOwner | undefined>;
  /**
   * Optional: listens for releases by any host (PostgreSQL: `LISTEN chime_lease_released`). A
   * hint that a session just became free; correctness never depends on it (a missed one only
   * means the session is taken on its next request).
   *
   * @param listener told the id of each released session
   * @returns stops listening
   */
  onReleased?(listener: (sessionId: string) => void): Promise<() => Promise<void>>;
}

/** Who a {@linkcode LeaseTable} acts for. */
export interface LeaseTableOptions {
  /** This host's id, stored as the holder. */
  readonly holder: string;
  /** This host's advertised base URL; may be set later. @default "" */
  readonly url?: string;
  /** Wall clock for expiries. @default systemClock */
  readonly clock?: Clock;
}

/**
 * A storage configuration: the driver's `kind` and whatever that driver parsed, opaque to
 * everyone but that driver.
 */
export interface StorageDriverSettings {
  /** The driver that parsed it (a key of the host's driver table). */
  readonly kind: string;
  /** The driver's own options. */
  readonly [option: string]: unknown;
}

/** What a driver's `parse` is told besides the raw settings. */
export interface StorageParseContext {
  /** The configuration file that declares the settings (for messages). */
  readonly file: string;
  /** Absolute directory relative paths resolve against (`dataDir`, else the declaring file's). */
  readonly baseDir: string;
}

/**
 * Bad storage settings, thrown by {@linkcode StorageDriver.parse}: the message names the key
 * (`storage.url must be a non-empty string`); the host reports it as `config_invalid`
 * (`Cannot load config: FILE: MESSAGE`, docs/errors.md).
 *
 * @example Thrown for a missing key
 * ```ts
 * import { StorageSettingsError } from "@chime/session";
 * const error = new StorageSettingsError("storage.dir must be a non-empty string");
 * console.assert(error.code === "storage_settings_invalid");
 * ```
 */
export class StorageSettingsError extends Error {
  /** Always `storage_settings_invalid`. */
  readonly code = "storage_settings_invalid" as const;

  /**
   * Creates the error.
   *
   * @param message what is wrong, naming the key
   */
  constructor(message: string) {
    super(message);
    this.name = "StorageSettingsError";
  }
}

/**
 * A storage driver: everything a host needs to configure, open, share and check one kind of
 * storage, so that the host names no backend (docs/architecture.md "Storage drivers"). Methods
 * take the settings their own `parse` returned.
 */
export interface StorageDriver<S extends StorageDriverSettings = StorageDriverSettings> {
  /** The `storage.kind` it answers to. */
  readonly kind: string;
  /**
   * Validates the raw `storage` object of a configuration; keys starting with `#` are the
   * loader's anchors and are ignored.
   *
   * @param raw the `storage` object as configured
   * @param context the declaring file and the base of relative paths
   * @returns the settings, paths absolute
   * @throws {StorageSettingsError} naming the bad key
   */
  parse(raw: Readonly<Record<string, unknown>>, context: StorageParseContext): S;
  /**
   * Optional: the settings a location override names (`CHIME_DB`, README "Configuration").
   *
   * @param location a URL or path
   * @param baseDir base of a relative path
   * @param configured the configured settings (of any kind), whose options may carry over
   * @returns the settings for `location`
   */
  fromLocation?(location: string, baseDir: string, configured: StorageDriverSettings): S;
  /**
   * Whether many hosts share this storage: no per-file writer lock, and sessions need leases
   * (docs/long-sessions.md "Fenced appends").
   */
  shared(settings: S): boolean;
  /** The local directory to create before opening, or `undefined` (remote, in memory). */
  directory(settings: S): string | undefined;
  /** Where the storage is, for the startup banner (a URL or a folder; never a secret). */
  describe(settings: S): string;
  /**
   * Opens the backend.
   *
   * @param settings parsed settings
   * @param options in shared mode `fence`: the token this host holds for a session, checked
   *   at each append (docs/long-sessions.md "Fenced appends")
   * @returns the open backend
   * @throws {SessionError} `schema_rejected`, `storage_in_use` and the like
   */
  open(
    settings: S,
    options: { readonly fence?: (sessionId: string) => number | undefined },
  ): Promise<PersistenceBackend>;
  /**
   * Optional, required when {@linkcode StorageDriver.shared} can be true: opens this host's
   * lease table over its own connection; disposing it closes that connection.
   *
   * @param settings parsed settings
   * @param options holder, advertised URL, clock
   * @returns the table
   */
  leases?(settings: S, options: LeaseTableOptions): Promise<LeaseTable & AsyncDisposable>;
  /**
   * Optional: scans the store read-only and reports its damage (`--check-storage`).
   *
   * @param settings parsed settings
   * @param options the plugins' log checks, run over each session's events of their types
   * @returns the report
   */
  check?(settings: S, options?: CheckOptions): Promise<StorageReport>;
}
