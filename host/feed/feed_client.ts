/**
 * {@linkcode FeedClient}: one stream client's bounded frame queue.
 *
 * @module
 */

/** Limits of one client's queue. */
export interface FeedLimits {
  /** Frames queued before the client is dropped. @default 2048 */
  readonly maxFrames?: number;
  /** Bytes queued before the client is dropped. @default 4 MiB */
  readonly maxBytes?: number;
}

/**
 * Produces the next bounded chunk of a connect-time backlog, or `undefined` once it is over.
 * It is pulled by {@linkcode FeedClient.take} (so the stream's write backpressure paces it);
 * it calls {@linkcode FeedClient.goLive} at the exact point from which live pushes must be
 * queued. A chunk may be produced asynchronously (older events read from storage).
 */
export type BacklogSource = () => string[] | undefined | Promise<string[] | undefined>;

/**
 * Writes one live frame straight to a stream (`sse.ts`), synchronously.
 *
 * @returns `false` when the stream is over its bound (or gone): the client is then dropped
 */
export type FrameSink = (frame: string) => boolean;

/**
 * One stream client's bounded queue. A client whose queue overflows is dropped (closed with
 * `dropped: true`); it reconnects with `Last-Event-ID` and loses nothing, while a slow client
 * never stalls the others or grows memory without bound. The connect-time backlog is never
 * queued: a {@linkcode BacklogSource} yields it in bounded chunks as the stream drains, and
 * live pushes are ignored until the backlog calls {@linkcode FeedClient.goLive}.
 */
export class FeedClient implements Disposable {
  readonly #maxFrames: number;
  readonly #maxBytes: number;
  #frames: string[] = [];
  #bytes = 0;
  #backlog: BacklogSource | undefined;
  #live = true;
  #wake: (() => void) | undefined;
  #closed = false;
  #ending = false;
  #dropped = false;
  #onClose: (() => void) | undefined;
  #sink: FrameSink | undefined;

  /**
   * Creates an empty queue.
   *
   * @param limits queue bounds
   * @param onClose called once when the client closes
   */
  constructor(limits: FeedLimits = {}, onClose?: () => void) {
    this.#maxFrames = limits.maxFrames ?? 2048;
    this.#maxBytes = limits.maxBytes ?? 4 * 1024 * 1024;
    this.#onClose = onClose;
  }

  /** `true` once closed (by the stream ending, a drop or shutdown). */
  get closed(): boolean {
    return this.#closed;
  }

  /** `true` when the client was closed because its queue overflowed. */
  get dropped(): boolean {
    return this.#dropped;
  }

  /** Number of frames waiting (a backlog not yet pulled is not queued). */
  get queued(): number {
    return this.#frames.length;
  }

  /** Bytes (UTF-16 code units) queued at most before the client is dropped. */
  get maxBytes(): number {
    return this.#maxBytes;
  }

  /** `true` while frames are queued or a backlog is left: `take` returns without waiting. */
  get pending(): boolean {
    return this.#frames.length > 0 || this.#backlog !== undefined;
  }

  /**
   * From now on, live frames pushed while nothing is queued and no backlog is left go straight
   * to `sink` (in push order, no queue, no wake-up of `take`), so a fan-out writes each frame
   * to every stream in one synchronous loop. `undefined` goes back to queuing. A last frame
   * (`end`) is still queued for `take`.
   *
   * @param sink the stream's writer, or `undefined`
   */
  setSink(sink: FrameSink | undefined): void {
    this.#sink = sink;
  }

  /** `true` while live pushes are queued (not during the first phase of a backlog). */
  get live(): boolean {
    return this.#live;
  }

  /**
   * Starts a connect-time backlog: unless `live`, pushes are ignored until the source calls
   * {@linkcode FeedClient.goLive}.
   *
   * @param source the chunk producer
   * @param live `true` when live pushes are already due (only catch-up sidecars remain)
   */
  startBacklog(source: BacklogSource, live = false): void {
    this.#backlog = source;
    this.#live = live;
    this.#signal();
  }

  /** Queues live pushes from now on (called by the backlog source when it caught up). */
  goLive(): void {
    this.#live = true;
  }

  /**
   * Queues one encoded frame; overflowing the limits drops the client. Ignored before the
   * backlog went live (the backlog catches up on its own).
   *
   * @param frame SSE text from `sseFrame`
   */
  push(frame: string): void {
    if (this.#closed || this.#ending || !this.#live) return;
    if (this.#sink !== undefined && this.#frames.length === 0 && this.#backlog === undefined) {
      if (!this.#sink(frame)) {
        this.#dropped = true;
        this.close();
      }
      return;
    }
    if (
      this.#frames.length + 1 > this.#maxFrames ||
      this.#bytes + frame.length > this.#maxBytes
    ) {
      this.#dropped = true;
      this.close();
      return;
    }
    this.#frames.push(frame);
    this.#bytes += frame.length;
    this.#signal();
  }

  /**
   * Takes everything queued, then the next backlog chunk, if any, waiting up to `timeoutMs`
   * for something to arrive.
   *
   * @param timeoutMs how long to wait for a first frame, ms
   * @returns the frames (empty on time-out or close)
   */
  async take(timeoutMs: number): Promise<string[]> {
    const chunk = await this.#pull();
    if (this.#frames.length === 0 && chunk.length === 0 && !this.#closed) {
      const { promise, resolve } = Promise.withResolvers<void>();
      this.#wake = resolve;
      const timer = setTimeout(resolve, timeoutMs);
      try {
        await promise;
      } finally {
        clearTimeout(timer);
        this.#wake = undefined;
      }
      chunk.push(...await this.#pull());
    }
    if (this.#closed) return [];
    const frames = this.#frames;
    this.#frames = [];
    this.#bytes = 0;
    frames.push(...chunk);
    if (this.#ending) this.close();
    return frames;
  }

  /**
   * Queues a last frame (the backlog and later pushes are dropped) and closes the client once
   * it was taken: the stream writes it, then ends.
   *
   * @param frame SSE text from `sseFrame`
   */
  end(frame: string): void {
    if (this.#closed || this.#ending) return;
    this.#ending = true;
    this.#backlog = undefined;
    this.#frames.push(frame);
    this.#bytes += frame.length;
    this.#signal();
  }

  /** The next backlog chunk (after whatever is queued), or nothing. */
  async #pull(): Promise<string[]> {
    while (this.#backlog !== undefined && !this.#closed) {
      const pending = this.#backlog();
      // Synchronous chunks (the live tail) stay in this tick; storage reads are awaited.
      const chunk = pending instanceof Promise ? await pending : pending;
      if (chunk === undefined) this.#backlog = undefined;
      else if (chunk.length > 0) return chunk;
    }
    return [];
  }

  #signal(): void {
    this.#wake?.();
  }

  /** Closes the client; queued frames are discarded. Idempotent. */
  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#sink = undefined;
    this.#frames = [];
    this.#bytes = 0;
    this.#backlog = undefined;
    this.#signal();
    const onClose = this.#onClose;
    this.#onClose = undefined;
    onClose?.();
  }

  /** Same as {@linkcode FeedClient.close}. */
  [Symbol.dispose](): void {
    this.close();
  }
}
