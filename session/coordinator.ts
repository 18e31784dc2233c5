/**
 * The persistence coordinator: one live controller per live session that writes the session's
 * log to a {@linkcode PersistenceBackend} and acknowledges a flush only once its write path has
 * fully settled (docs/design.md#persistence-checkpoint).
 *
 * The controller keeps only the initial `seedEnd` scalar, never a copy of the seed. When the
 * backend cursor is unknown (first use, or after any failure) it re-reads the backend's real
 * cursor, rebuilds the immutable prefix `[0, seedEnd)` from the append-only session if the
 * header is missing (a new session's; a resumed or forked one is stored before it goes live),
 * and appends only the missing suffix. After each commit it tells the session how far storage
 * holds the log, so the bounded tail drops only committed events. So a transient failure, before storage
 * changed or after commit, neither poisons the session nor duplicates its prefix.
 *
 * @module
 */
import type { PersistenceBackend } from "./backend.ts";
import { SessionError } from "./errors.ts";
import { headersIdentical } from "./header.ts";
import type { Session } from "./session.ts";

/**
 * Called after each commit of the controller's own write path (eager, group or flush-driven)
 * with the exclusive bound it made durable: every event with `seq < throughSeq` is stored. The
 * bound is the session length captured when the write was issued, so events appended while it
 * was in flight are never claimed.
 */
export type CommitObserver = (throughSeq: number) => void;

/** `#start` handed the write to the backend's callback form: `#written` / `#failed` follow. */
const CALLBACK = Symbol("callback");

/** A flush waiting for its write op. */
interface Waiter {
  readonly throughSeq: number;
  readonly onAck: CommitObserver | undefined;
  readonly resolve: (value: true) => void;
  readonly reject: (error: unknown) => void;
}

/**
 * Writes one live session to a backend. Writes are serialized on one queue; appends schedule an
 * eager write (coalesced per microtask), and {@linkcode PersistenceController.flush} waits for a
 * write that covers everything appended so far. Every commit is reported to the
 * {@linkcode CommitObserver}, so a client learns an event is saved without anyone calling
 * `flush` (chat included).
 */
export class PersistenceController implements AsyncDisposable {
  readonly #session: Session;
  readonly #backend: PersistenceBackend;
  readonly #seedEnd: number;
  /** Durable length as last confirmed by the backend; `undefined` means "re-read it". */
  #cursor: number | undefined = undefined;
  /**
   * The write ops not finished yet, in order (the head one may be in flight): a flush's waiter,
   * or `undefined` for an eager write. One op is one write attempt, as on a promise chain, but
   * an op allocates no promise of its own: only a flush's promise and the backend's write.
   */
  readonly #ops: (Waiter | undefined)[] = [];
  /** Index of the head op in `#ops` (the array is emptied when all are done, not shifted). */
  #head = 0;
  /** Ops are queued or running. */
  #busy = false;
  /** The exclusive bound the write in flight makes durable. */
  #end = 0;
  /** Resolved when the queue runs empty, for a dispose waiting on it. */
  #idle: PromiseWithResolvers<void> | undefined = undefined;
  readonly #step = (): void => this.#run();
  readonly #written = (): void => {
    this.#cursor = this.#end;
    this.#succeed();
    this.#run();
  };
  readonly #failed = (error: unknown): void => {
    this.#fail(error);
    this.#run();
  };
  #eagerQueued = false;
  /** The queue waits for the pending eager microtask to start running. */
  #startOnEager = false;
  /**
   * The JSON text of each event's data from seq `#textsFrom` on, as the session handed it to
   * its append listeners, kept until storage holds the event: the backend stores it as is
   * instead of serializing the data a second time.
   */
  readonly #texts: (string | undefined)[] = [];
  #textsFrom: number;
  #subscription: Disposable;
  #disposed = false;
  readonly #onCommit: CommitObserver;
  /** The highest bound reported to `#onCommit`. */
  #reported = 0;
  /** Told the first failed write when the controller withdraws on failure (then it halts). */
  readonly #onWriteFailed: ((error: SessionError) => void) | undefined;
  /** The failure that halted this controller: every later op is refused with it. */
  #halted: SessionError | undefined;

  /**
   * Creates the controller for one live session and subscribes to its appends.
   *
   * @param session the live session
   * @param backend where to write
   * @param seedEnd length of the immutable prefix to (re)build on initialization: the fork
   *   seed, the loaded events of a resumed session, or `0` for a new one
   * @param options `onCommit`, told each bound that became durable (once per advance, default
   *   none), `durableLength`, the prefix already known durable (a resumed session's loaded
   *   log, default `0`), and `onWriteFailed`: when given, the first failed write halts the
   *   controller (nothing more is written, every later flush rejects with that failure: what it
   *   carried is withdrawn, never stored later) and is told the failure (default: none, the
   *   next flush recovers)
   */
  constructor(
    session: Session,
    backend: PersistenceBackend,
    seedEnd: number,
    options: {
      readonly onCommit?: CommitObserver;
      readonly durableLength?: number;
      readonly onWriteFailed?: (error: SessionError) => void;
    } = {},
  ) {
    this.#onWriteFailed = options.onWriteFailed;
    this.#session = session;
    this.#backend = backend;
    this.#seedEnd = seedEnd;
    this.#onCommit = options.onCommit ?? (() => {});
    this.#reported = options.durableLength ?? 0;
    this.#textsFrom = session.length;
    this.#subscription = session.subscribe((event, _session, dataText) => {
      if (event.seq === this.#textsFrom + this.#texts.length) this.#texts.push(dataText);
      this.#scheduleEager();
    });
  }

  /** The initial prefix length this controller rebuilds from the session (a scalar). */
  get seedEnd(): number {
    return this.#seedEnd;
  }

  /**
   * Starts initialization (header and prefix) without waiting for it. A failure is kept out of
   * the way: the next flush re-reads the cursor and retries.
   */
  start(): void {
    this.#scheduleEager();
  }

  /**
   * Makes every event appended before the call durable.
   *
   * @param throughSeq exclusive bound captured by `SessionStore.flush()` at its entry
   * @param onAck called with `throughSeq` once the write op settled with the acknowledgement,
   *   right before the promise resolves (the store publishes `session/flushed` from it)
   *   @default none
   * @returns literal `true`: the durability acknowledgement
   * @throws {SessionError} `persistence_failed` (with `cause`) when the write or the recovery
   *   read fails; the controller stays usable and the next flush recovers
   */
  flush(throughSeq: number, onAck?: (throughSeq: number) => void): Promise<true> {
    return new Promise<true>((resolve, reject) =>
      this.#push({ throughSeq, onAck, resolve, reject })
    );
  }

  #scheduleEager(): void {
    if (this.#eagerQueued || this.#disposed || this.#halted !== undefined) return;
    this.#eagerQueued = true;
    queueMicrotask(this.#eager);
  }

  readonly #eager = (): void => {
    this.#eagerQueued = false;
    // Disposal may happen between scheduling and this microtask: a write enqueued now would
    // outlive the dispose that already awaited the queue.
    // An eager write failure is not lost: the cursor becomes unknown and the next flush, which
    // is the only durability promise we make, re-reads it and retries or reports.
    if (!this.#disposed) this.#push(undefined);
    if (this.#startOnEager) {
      this.#startOnEager = false;
      this.#run();
    }
  };

  #push(op: Waiter | undefined): void {
    this.#ops.push(op);
    if (this.#busy) return;
    this.#busy = true;
    // The first op starts a microtask later, as on a settled chain: events appended right after
    // the call still join its write. A flush right after an append (the common case) rides the
    // append's eager microtask instead of a second one; the ops keep their order.
    if (this.#eagerQueued) this.#startOnEager = true;
    else queueMicrotask(this.#step);
  }

  /** Runs the ops in order until one waits for storage or none is left. */
  #run(): void {
    while (this.#head < this.#ops.length) {
      if (this.#halted !== undefined) {
        this.#fail(this.#halted);
        continue;
      }
      let pending: Promise<void> | typeof CALLBACK | undefined;
      try {
        pending = this.#start();
      } catch (error) {
        // Thrown before storage was asked (no write refused): the next flush retries.
        this.#fail(error, false);
        continue;
      }
      if (pending === CALLBACK) return;
      if (pending !== undefined) {
        pending.then(this.#written, this.#failed);
        return;
      }
      this.#succeed();
    }
    this.#busy = false;
    this.#idle?.resolve();
  }

  /**
   * Starts the head op: a write up to the length at its start, or nothing when storage holds
   * all of it already (settled at once). A backend with `appendCallback` is called without a
   * promise (one less allocation and microtask per write on the hot path).
   */
  #start(): Promise<void> | typeof CALLBACK | undefined {
    const end = this.#session.length;
    this.#end = end;
    const cursor = this.#cursor;
    if (cursor === undefined) return this.#recoverAndWrite(end);
    if (cursor >= end) return undefined;
    const backend = this.#backend;
    if (backend.appendCallback === undefined) {
      return backend.append(
        this.#session.id,
        this.#session.events(cursor, end),
        this.#textsOf(cursor, end),
      );
    }
    backend.appendCallback(
      this.#session.id,
      this.#session.events(cursor, end),
      this.#textsOf(cursor, end),
      this.#written,
      this.#failed,
    );
    return CALLBACK;
  }

  /** The data texts the session gave for `[from, end)`, when all of them are known. */
  #textsOf(from: number, end: number): (string | undefined)[] | undefined {
    const i = from - this.#textsFrom;
    return i >= 0 && end - this.#textsFrom <= this.#texts.length
      ? this.#texts.slice(i, end - this.#textsFrom)
      : undefined;
  }

  async #recoverAndWrite(end: number): Promise<void> {
    const cursor = await this.#recoverCursor();
    this.#cursor = cursor;
    if (cursor < end) {
      const events = this.#session.events(cursor, end);
      await this.#backend.append(this.#session.id, events, this.#textsOf(cursor, end));
    } else {
      this.#end = cursor;
    }
  }

  /** The head op's write committed: `#cursor` is what storage holds. */
  #succeed(): void {
    const cursor = this.#cursor!;
    const stored = Math.min(cursor - this.#textsFrom, this.#texts.length);
    if (stored > 0) {
      // Usually every text is stored: emptying the array costs far less than a splice.
      if (stored === this.#texts.length) this.#texts.length = 0;
      else this.#texts.splice(0, stored);
      this.#textsFrom += stored;
    }
    // Only committed events may leave the bounded tail (docs/long-sessions.md).
    this.#session.markDurable(cursor);
    this.#report(cursor);
    const op = this.#ops[this.#head];
    if (op !== undefined && cursor < op.throughSeq) {
      this.#fail(new SessionError("persistence_failed", "Cannot flush: cursor behind the barrier"));
      return;
    }
    this.#next();
    op?.onAck?.(op.throughSeq);
    op?.resolve(true);
  }

  /** Drops the head op. */
  #next(): void {
    this.#ops[this.#head++] = undefined;
    if (this.#head === this.#ops.length) {
      this.#ops.length = 0;
      this.#head = 0;
    }
  }

  /**
   * The head op failed: the cursor becomes unknown and its flush (if any) rejects. A write
   * storage refused (`refused`) halts a controller that withdraws on failure.
   */
  #fail(error: unknown, refused = true): void {
    const op = this.#ops[this.#head];
    this.#next();
    this.#cursor = undefined;
    const failure = error instanceof SessionError ? error : new SessionError(
      "persistence_failed",
      `Cannot flush: ${this.#backend.kind} write for ${this.#session.id} failed`,
      { cause: error },
    );
    op?.reject(failure);
    if (refused && this.#onWriteFailed !== undefined && this.#halted === undefined) {
      this.#halted = failure;
      this.#onWriteFailed(failure);
    }
  }

  async #recoverCursor(): Promise<number> {
    const header = this.#session.header;
    const stored = await this.#backend.cursor(header.id);
    if (stored === undefined) {
      // Rebuild the immutable prefix from the append-only session: never from a copy.
      await this.#backend.initialize(header, this.#session.events(0, this.#seedEnd));
      return this.#seedEnd;
    }
    if (!headersIdentical(stored.header, header)) {
      throw new SessionError(
        "persistence_failed",
        `Cannot flush: stored header of ${header.id} belongs to another session lifetime`,
      );
    }
    if (stored.length > this.#session.length) {
      throw new SessionError(
        "persistence_failed",
        `Cannot flush: storage of ${header.id} holds ${stored.length} events, live has ${this.#session.length}`,
      );
    }
    return stored.length;
  }

  #report(durable: number): void {
    if (durable <= this.#reported) return;
    this.#reported = durable;
    this.#onCommit(durable);
  }

  /** Stops eager writes and waits for the queued writes to settle. */
  async [Symbol.asyncDispose](): Promise<void> {
    this.#disposed = true;
    this.#subscription[Symbol.dispose]();
    while (this.#busy) {
      this.#idle = Promise.withResolvers();
      await this.#idle.promise;
    }
    this.#idle = undefined;
  }
}
