/**
 * The browser session window (docs/design.md#browser-session-window): one contiguous
 * run of durable events by `seq`, their sidecar views, a live buffer for events beyond a gap,
 * and a reconnect generation. Pure state on `@preact/signals`; the fetchers are injected.
 *
 * @module
 */
import { batch } from "@preact/signals";
import { type OlderFlight, WindowState } from "./_window_state.ts";
import type {
  BufferEntry,
  LoadExit,
  MergeExit,
  OlderExit,
  Readable,
  RepairExit,
  SessionWindowOptions,
  WindowStatus,
} from "./window_types.ts";
import type { EventView, StreamMessage, WireEvent } from "./wire.ts";

const OLDER_NONE: Promise<OlderExit> = Promise.resolve("none");

/**
 * The browser session window; every merge path returns its exit (which rule applied).
 *
 * @example Drive a window without a network
 * ```ts
 * import { SessionWindow } from "@chime/ui";
 * const win = new SessionWindow({
 *   loadHistory: () => Promise.resolve({ events: [], views: {}, nextBefore: null }),
 *   loadAfter: () => Promise.resolve({ events: [], views: {} }),
 * });
 * await win.start();
 * console.assert(win.receive({ event: { seq: 0, type: "x", at: "", data: {} } }) === "appended");
 * ```
 */
export class SessionWindow {
  readonly #opts: SessionWindowOptions;
  readonly #s: WindowState;
  readonly #pending = new Set<Promise<unknown>>();
  #older: OlderFlight | null = null;
  #repairing = false;

  /**
   * Creates an empty window; call {@linkcode SessionWindow.start} to load the tail.
   *
   * @param options the injected fetchers, page size and resync callback
   */
  constructor(options: SessionWindowOptions) {
    this.#opts = options;
    this.#s = new WindowState((what, seq) => {
      this.#opts.onResync?.(`identity conflict: ${what} at seq ${seq}`);
      void this.resync();
    });
  }

  /** The contiguous window, ascending by `seq`. */
  get events(): Readable<readonly WireEvent[]> {
    return this.#s.events;
  }
  /** Sidecar views by `seq`. */
  get views(): Readable<ReadonlyMap<number, EventView>> {
    return this.#s.views;
  }
  /** Highest contiguous `seq` held; `-1` before any event. */
  get tail(): Readable<number> {
    return this.#s.tail;
  }
  /** `before` for the next older page; `null` when the window starts at the log start. */
  get nextBefore(): Readable<number | null> {
    return this.#s.nextBefore;
  }
  /** Load state of the window. */
  get status(): Readable<WindowStatus> {
    return this.#s.status;
  }
  /** The last load, page or repair failure message; cleared by a success. */
  get error(): Readable<string | null> {
    return this.#s.error;
  }
  /** What {@linkcode error} came from (the thrown value), for a sentence in the UI language. */
  get failure(): Readable<{ readonly err: unknown } | null> {
    return this.#s.failure;
  }
  /** The reconnect generation; bumped by {@linkcode reconnect}, {@linkcode resync}, dispose. */
  get generation(): Readable<number> {
    return this.#s.generation;
  }
  /**
   * The host's durable bound from SSE `flushed` (exclusive, like `session/flushed`): every
   * `seq` below it is durable. `0` before any `flushed` message.
   */
  get durableBefore(): Readable<number> {
    return this.#s.durableBefore;
  }
  /** Number of live events held beyond a gap. */
  get bufferedCount(): Readable<number> {
    return this.#s.bufferSize;
  }
  /** Whether an older page is in flight. */
  get loadingOlder(): Readable<boolean> {
    return this.#s.olderLoading;
  }
  /** Live events held beyond a gap, ascending (a copy, for inspection). */
  get liveBuffer(): readonly BufferEntry[] {
    return this.#s.sortedBuffer();
  }
  /** Whether a gap repair pull is in flight in the current generation. */
  get repairing(): boolean {
    return this.#repairing;
  }

  /**
   * Loads the latest page (tail load). Live events received meanwhile stay in the buffer.
   *
   * @returns the exit of the tail load
   */
  start(): Promise<LoadExit> {
    return this.#track(this.#loadTail());
  }

  /**
   * Merges one SSE `session-event` message (raw event or same-seq sidecar).
   *
   * @param message the parsed `data` of the message
   * @returns which merge rule applied
   */
  receive(message: StreamMessage): MergeExit {
    const { event, view } = message;
    const s = this.#s;
    const st = s.status.value;
    if (st === "disposed") return "ignored";
    if (st !== "ready") return s.hold(event, view);
    if (event.seq < s.first()) {
      if (this.#older === null || view === undefined) return "ignored";
      this.#older.staged.set(event.seq, { event, view });
      return "staged";
    }
    if (event.seq <= s.tail.value) {
      if (!s.sameAsHeld(event)) return s.conflict("live event", event.seq);
      if (view === undefined) return "duplicate";
      s.setView(event.seq, view);
      return "upgraded";
    }
    if (event.seq === s.tail.value + 1) {
      return s.appendAndDrain({ event, ...(view ? { view } : {}) }) ? "appended" : "conflict";
    }
    const exit = s.hold(event, view);
    if (exit !== "conflict") void this.#track(this.#repair());
    return exit;
  }

  /**
   * Records an SSE `flushed` message. The bound only moves forward: durable stays durable.
   *
   * @param throughSeq the exclusive bound: every `seq < throughSeq` is durable
   * @throws {RangeError} when `throughSeq` is not a non-negative integer
   */
  flushed(throughSeq: number): void {
    if (!Number.isSafeInteger(throughSeq) || throughSeq < 0) {
      throw new RangeError(`Cannot record flushed: ${throughSeq} is not a seq bound`);
    }
    if (throughSeq > this.#s.durableBefore.value) this.#s.durableBefore.value = throughSeq;
  }

  /**
   * Whether the host reported an event durable (its `seq` is below the `flushed` bound).
   *
   * @param seq an event seq
   * @returns `true` once a `flushed` message with `throughSeq > seq` arrived
   */
  isDurable(seq: number): boolean {
    return seq < this.#s.durableBefore.value;
  }

  /**
   * Loads the page before the window. The current array keeps receiving live tail events
   * while it is in flight; the page is prepended to whatever the array is when it returns.
   *
   * @returns the exit; a second call while one is in flight shares its promise
   */
  loadOlder(): Promise<OlderExit> {
    const before = this.#s.nextBefore.value;
    if (this.#s.status.value !== "ready" || before === null) return Promise.resolve("none");
    if (this.#older) return this.#older.promise;
    const flight: OlderFlight = { gen: this.#gen(), staged: new Map(), promise: OLDER_NONE };
    this.#older = flight;
    this.#s.olderLoading.value = true;
    flight.promise = this.#track(this.#fetchOlder(flight, before));
    return flight.promise;
  }

  /**
   * Starts a new generation after the stream reconnected: stale page or repair results (and
   * their `finally` blocks) no longer touch the window, and a repair pulls what was missed.
   * The host may have restarted and lost events it never made durable, so the repair pulls
   * from the durable bound (the first seq no `flushed` covered, or the window start) and
   * re-checks every held event from there: one that differs or that the host no longer has
   * is an identity conflict and starts a full resync (docs/design.md#browser-session-window).
   *
   * @returns the exit of the catch-up (a tail load when nothing was loaded yet)
   */
  reconnect(): Promise<LoadExit | RepairExit> {
    if (this.#s.status.value === "disposed") return Promise.resolve("stale");
    this.#bump();
    if (this.#s.status.value !== "ready") return this.#track(this.#loadTail());
    return this.#track(this.#repair(true));
  }

  /**
   * Full resync: a new generation, an empty window and buffer, then a tail load.
   *
   * @returns the exit of the tail load
   */
  resync(): Promise<LoadExit> {
    if (this.#s.status.value === "disposed") return Promise.resolve("stale");
    this.#bump();
    batch(() => this.#s.clear());
    return this.#track(this.#loadTail());
  }

  /** Resolves once no load, page or repair started by this window is in flight. */
  async settled(): Promise<void> {
    while (this.#pending.size > 0) await Promise.allSettled([...this.#pending]);
  }

  /** Stops all merging: later results and messages are ignored. */
  [Symbol.dispose](): void {
    this.#bump();
    this.#s.status.value = "disposed";
  }

  #gen(): number {
    return this.#s.generation.peek();
  }

  #bump(): void {
    batch(() => {
      this.#s.generation.value = this.#gen() + 1;
      this.#s.olderLoading.value = false;
    });
    this.#older = null;
    this.#repairing = false;
  }

  #track<T>(p: Promise<T>): Promise<T> {
    this.#pending.add(p);
    void p.finally(() => this.#pending.delete(p));
    return p;
  }

  async #loadTail(): Promise<LoadExit> {
    const gen = this.#gen();
    const s = this.#s;
    s.status.value = "loading";
    try {
      const page = await this.#opts.loadHistory({ limit: this.#opts.pageSize ?? 100 });
      if (gen !== this.#gen()) return "stale";
      const ok = s.replace(page);
      if (!ok) return "conflict";
      if (s.buffer.size > 0) void this.#track(this.#repair());
      return "loaded";
    } catch (err) {
      if (gen !== this.#gen()) return "stale";
      batch(() => {
        s.failed(err);
        s.status.value = "error";
      });
      return "failed";
    }
  }

  async #repair(verify = false): Promise<RepairExit> {
    if (this.#repairing || this.#s.status.value !== "ready") return "busy";
    const gen = this.#gen();
    const s = this.#s;
    const from = s.tail.value;
    // Held events from `verifyFrom` on were never confirmed durable: re-fetch and compare them.
    const verifyFrom = verify
      ? Math.min(Math.max(s.durableBefore.value, s.first()), from + 1)
      : from + 1;
    this.#repairing = true;
    let exit: RepairExit;
    try {
      exit = await this.#pull(gen, verifyFrom - 1);
    } finally {
      if (gen === this.#gen()) this.#repairing = false;
    }
    if (exit === "repaired" && this.#s.buffer.size > 0 && this.#s.tail.value > from) {
      void this.#track(this.#repair());
      return "pulling-again";
    }
    return exit;
  }

  async #pull(gen: number, after: number): Promise<RepairExit> {
    const s = this.#s;
    let snap;
    try {
      snap = await this.#opts.loadAfter(after);
    } catch (err) {
      if (gen !== this.#gen()) return "stale";
      s.failed(err);
      return "failed";
    }
    if (gen !== this.#gen()) return "stale";
    return s.mergeSnapshot(snap, after + 1);
  }

  async #fetchOlder(flight: OlderFlight, before: number): Promise<OlderExit> {
    const { gen } = flight;
    const s = this.#s;
    try {
      const page = await this.#opts.loadHistory({ before, limit: this.#opts.pageSize ?? 100 });
      if (gen !== this.#gen()) return "stale";
      return s.prepend(page, flight.staged);
    } catch (err) {
      if (gen !== this.#gen()) return "stale";
      s.failed(err);
      return "failed";
    } finally {
      if (this.#older === flight) {
        this.#older = null;
        s.olderLoading.value = false;
      }
    }
  }
}
