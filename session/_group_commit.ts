/**
 * Private: the group commit of the SQL backends (libSQL, PostgreSQL). `initialize`, `fork` and
 * `append` calls arriving in the same tick, or while a commit is in flight, share one write
 * transaction; each call is validated on its own against the stored lengths (cached after each
 * commit), and a failed shared transaction is retried call by call so only the faulty call
 * fails. What a transaction runs is the backend's {@linkcode CommitTarget}.
 *
 * @module
 */
import { eventChecksum } from "./_checksum.ts";
import { setImmediate } from "node:timers";
import type { StoredCursor } from "./backend.ts";
import { SessionError } from "./errors.ts";
import type { SessionEvent } from "./event.ts";
import type { SessionHeader } from "./header.ts";

/** One queued `initialize`, `fork` or `append` call. */
export interface Pending {
  readonly id: string;
  /** Set for `initialize` and `fork`, `undefined` for `append`. */
  readonly header: SessionHeader | undefined;
  /** Set for `fork`: copy the parent's stored events `[0, throughSeq]` first. */
  readonly copy: { readonly parentId: string; readonly throughSeq: number } | undefined;
  readonly events: readonly SessionEvent[];
  /** `JSON.stringify(event.data)` per event where the caller had it. */
  readonly texts: readonly (string | undefined)[] | undefined;
  readonly resolve: () => void;
  readonly reject: (error: unknown) => void;
  /** The flat row arguments (6 per event), encoded once when the call is accepted. */
  rows: (string | number)[] | undefined;
}

/**
 * The flat row arguments of one call's events: `session_id, seq, type, at, data, crc` per event
 * (`crc` from `session/_checksum.ts`).
 *
 * @param texts `JSON.stringify(event.data)` per event where known, used as is
 * @throws {TypeError} from `JSON.stringify` (e.g. BigInt data): only this call fails
 */
export function encodeRows(
  id: string,
  events: readonly SessionEvent[],
  texts?: readonly (string | undefined)[],
): (string | number)[] {
  const args: (string | number)[] = [];
  for (let i = 0; i < events.length; i++) {
    const e = events[i]!;
    const data = texts?.[i] ?? JSON.stringify(e.data) ?? "null";
    args.push(id, e.seq, e.type, e.at, data, eventChecksum(id, e.seq, e.type, e.at, data));
  }
  return args;
}

/** Validates one call against the stored length of its session. */
export function validate(p: Pending, stored: number | undefined): SessionError | undefined {
  if (p.header !== undefined && stored !== undefined) {
    return new SessionError("session_exists", `Cannot initialize: ${p.id} is stored`);
  }
  if (p.header === undefined && stored === undefined) {
    return new SessionError("session_not_found", `Cannot append: no session ${p.id}`);
  }
  const from = p.copy === undefined ? stored ?? 0 : p.copy.throughSeq + 1;
  for (let i = 0; i < p.events.length; i++) {
    if (p.events[i]!.seq !== from + i) {
      return new SessionError(
        "invalid_seq",
        `Cannot write ${p.id}: events must start at seq ${from}`,
        { details: { expected: from } },
      );
    }
  }
  return undefined;
}

/** The `lease_lost` refusal of a fenced session's call. */
export function leaseLost(id: string): SessionError {
  return new SessionError("lease_lost", `Cannot write ${id}: this host's lease was taken`, {
    details: { sessionId: id },
  });
}

/** What one backend's transactions run (docs/long-sessions.md "Fenced appends"). */
export interface CommitTarget {
  /**
   * Writes the accepted calls in one transaction, each fenced session's rows only while its
   * token is still the stored one (checked inside that transaction).
   *
   * @param accepted validated calls in queue order, rows encoded
   * @param fence the token per session, `undefined` when nothing is fenced
   * @returns the sessions whose fence failed (none of their rows were written)
   * @throws anything when the transaction did not commit (nothing of it was written)
   */
  write(accepted: readonly Pending[], fence: Fence | undefined): Promise<ReadonlySet<string>>;
  /**
   * Whether the stored lease of a session still holds exactly `token` (an unreadable lease: no).
   */
  leaseHeld(id: string, token: number): Promise<boolean>;
}

/**
 * A check a backend runs around each write transaction: the files it writes are still the ones
 * that survive a restart (libSQL's `FileIdentity`, README.md "How it behaves on failure"). A write is never
 * acknowledged after a failed check.
 */
export interface StorageGuard {
  /**
   * @throws {SessionError} `storage_lost` when storage can no longer keep what is written
   */
  check(): void;
}

/** Options of {@linkcode GroupCommit}. */
export interface GroupCommitOptions {
  /** Checked before each write transaction and again before its calls resolve. @default none */
  readonly guard?: StorageGuard;
}

/** Microtask hops the drain waits at most for the callers of the last commit to come back. */
const GATHER_HOPS = 16;

/** The drain lets a whole event-loop turn pass at least this often while busy (ms). */
const FAIR_TURN_MS = 100;

/** The token held per session, `undefined` when unfenced. */
export type Fence = (sessionId: string) => number | undefined;

/** The write queue of one backend: one group per transaction, one transaction at a time. */
export class GroupCommit {
  readonly #target: CommitTarget;
  /** `undefined` when no session of this process is fenced (the single-host default). */
  readonly #fence: Fence | undefined;
  readonly #cursor: (id: string) => Promise<StoredCursor | undefined>;
  /** Stored event counts of sessions known to exist (authoritative after each commit). */
  readonly #lengths = new Map<string, number>();
  #queue: Pending[] = [];
  #draining: Promise<void> | undefined;
  #closed = false;
  /** When the drain last let a whole event-loop turn pass (`performance.now()`, ms). */
  #turnAt = 0;
  readonly #guard: StorageGuard | undefined;
  /** Number of write transactions committed so far. */
  commits = 0;

  /**
   * @param target what a transaction runs
   * @param fence the token per session, or `undefined` when nothing is fenced
   * @param cursor reads a session's stored header and length (first use of a session)
   * @param options the `guard` checked around each transaction
   */
  constructor(
    target: CommitTarget,
    fence: Fence | undefined,
    cursor: (id: string) => Promise<StoredCursor | undefined>,
    options: GroupCommitOptions = {},
  ) {
    this.#guard = options.guard;
    this.#target = target;
    this.#fence = fence;
    this.#cursor = cursor;
  }

  /**
   * Queues one call; resolves once its group committed.
   *
   * @param texts `JSON.stringify(event.data)` per event where known (stored as is)
   *
   * @throws {SessionError} `persistence_failed` once closed; the refusals of `validate`,
   *   `lease_lost`, `storage_lost` from the guard, or the driver's error
   */
  submit(
    id: string,
    events: readonly SessionEvent[],
    header?: SessionHeader,
    copy?: Pending["copy"],
    texts?: readonly (string | undefined)[],
  ): Promise<void> {
    return new Promise<void>((resolve, reject) =>
      this.enqueue(id, events, texts, resolve, reject, header, copy)
    );
  }

  /**
   * {@linkcode GroupCommit.submit} without a promise: `resolve` or `reject` is called once the
   * group settled, never before this call returns. The callbacks must not throw (they run
   * inside the commit's loop over its calls).
   */
  enqueue(
    id: string,
    events: readonly SessionEvent[],
    texts: readonly (string | undefined)[] | undefined,
    resolve: () => void,
    reject: (error: unknown) => void,
    header?: SessionHeader,
    copy?: Pending["copy"],
  ): void {
    if (this.#closed) {
      // Never before the caller's call returns (PersistenceBackend.appendCallback).
      queueMicrotask(() =>
        reject(new SessionError("persistence_failed", "Cannot write: backend closed"))
      );
      return;
    }
    this.#queue.push({ id, events, texts, header, copy, resolve, reject, rows: undefined });
    // setImmediate runs after every microtask of this tick, so calls from many sessions made
    // in the same tick join one group (setTimeout(0) would add ~1–4 ms of clamping).
    this.#draining ??= new Promise<void>((go) => setImmediate(go)).then(() => this.#drain());
  }

  /** Refuses later calls and waits for the queued ones. */
  async close(): Promise<void> {
    this.#closed = true;
    await this.#draining;
  }

  async #drain(): Promise<void> {
    this.#turnAt = performance.now(); // the drain starts on a turn of its own (enqueue)
    try {
      while (this.#queue.length > 0) {
        const group = this.#queue;
        this.#queue = [];
        await this.#commit(group, true);
        await this.#gather(group.length);
      }
    } finally {
      this.#draining = undefined;
    }
  }

  /**
   * Waits before the next group closes, so every caller woken by the last commit can write
   * again (it needs a few promise hops) and join one group instead of straggling into a second.
   * In the steady state they are all back within a few microtasks: waiting for the end of the
   * event-loop turn as well would cost more than the JavaScript of a whole round
   * (`docs/long-sessions.md` §"Group commit"). When they are not all back by then, or when the
   * queue has kept the drain busy for {@linkcode FAIR_TURN_MS}, it waits for the end of the
   * turn, so a writer that never waits on I/O delays timers and I/O by at most that long.
   *
   * @param size how many calls the last group had
   */
  async #gather(size: number): Promise<void> {
    for (let hop = 0; hop < GATHER_HOPS && this.#queue.length < size; hop++) await null;
    if (this.#queue.length >= size && performance.now() - this.#turnAt < FAIR_TURN_MS) return;
    await new Promise<void>((go) => setImmediate(go));
    this.#turnAt = performance.now();
  }

  /** The stored lengths of the group's sessions not cached yet (one read each, first use). */
  async #readLengths(
    group: readonly Pending[],
  ): Promise<{ lengths: Map<string, number | undefined>; unreadable: Map<string, unknown> }> {
    const lengths = new Map<string, number | undefined>();
    const unreadable = new Map<string, unknown>();
    for (const p of group) {
      if (this.#lengths.has(p.id) || lengths.has(p.id) || unreadable.has(p.id)) continue;
      // One session's damaged or unreadable header fails only that session's calls.
      try {
        lengths.set(p.id, (await this.#cursor(p.id))?.length);
      } catch (error) {
        unreadable.set(p.id, error);
      }
    }
    return { lengths, unreadable };
  }

  /**
   * Why a fenced call was refused before its transaction: another host that took the lease may
   * have written since the cached length (so it reads as `invalid_seq`); the cause is the lease.
   */
  async #refused(id: string, error: unknown): Promise<unknown> {
    const token = this.#fence?.(id);
    if (token === undefined || !(error instanceof SessionError)) return error;
    this.#lengths.delete(id);
    return await this.#target.leaseHeld(id, token) ? error : leaseLost(id);
  }

  async #commit(group: readonly Pending[], shared: boolean): Promise<void> {
    // The steady state reads nothing: every session of the group has its length cached.
    const { lengths, unreadable } = group.every((p) => this.#lengths.has(p.id))
      ? { lengths: new Map<string, number | undefined>(), unreadable: undefined }
      : await this.#readLengths(group);
    const accepted: Pending[] = [];
    for (const p of group) {
      const stored = lengths.has(p.id) ? lengths.get(p.id) : this.#lengths.get(p.id);
      try {
        if (unreadable?.has(p.id)) throw unreadable.get(p.id);
        const error = validate(p, stored);
        if (error !== undefined) throw error;
        p.rows = encodeRows(p.id, p.events, p.texts);
      } catch (error) {
        p.reject(await this.#refused(p.id, error));
        continue;
      }
      const from = p.copy === undefined ? stored ?? 0 : p.copy.throughSeq + 1;
      lengths.set(p.id, from + p.events.length);
      accepted.push(p);
    }
    if (accepted.length === 0) return;
    let lost: ReadonlySet<string>;
    try {
      this.#guard?.check();
      lost = await this.#target.write(accepted, this.#fence);
      // Rows written to a file that is no longer at its path do not survive a restart: the
      // calls fail, so nothing of this transaction is acknowledged.
      this.#guard?.check();
    } catch (error) {
      if (error instanceof SessionError && error.code === "storage_lost") {
        for (const p of accepted) this.#lengths.delete(p.id);
        for (const p of accepted) p.reject(error);
        return;
      }
      for (const p of accepted) this.#lengths.delete(p.id);
      if (!shared || accepted.length === 1) {
        for (const p of accepted) p.reject(error);
        return;
      }
      for (const p of accepted) await this.#commit([p], false);
      return;
    }
    this.commits++;
    for (const p of accepted) {
      if (lost.has(p.id)) {
        p.reject(leaseLost(p.id));
      } else {
        this.#lengths.set(p.id, lengths.get(p.id)!);
        p.resolve();
      }
    }
  }
}
