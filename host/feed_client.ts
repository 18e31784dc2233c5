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
 * One stream client's bounded queue. A client whose queue overflows is dropped (closed with
 * `dropped: true`); it reconnects with `Last-Event-ID` and loses nothing, while a slow client
 * never stalls the others or grows memory without bound.
 */
export class FeedClient implements Disposable {
  readonly #maxFrames: number;
  readonly #maxBytes: number;
  #frames: string[] = [];
  #bytes = 0;
  /** Backfill frames still queued: a bounded snapshot, exempt from the limits. */
  #exempt = 0;
  #exemptBytes = 0;
  #wake: (() => void) | undefined;
  #closed = false;
  #dropped = false;
  #onClose: (() => void) | undefined;

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

  /** Number of frames waiting. */
  get queued(): number {
    return this.#frames.length;
  }

  /**
   * Queues one encoded frame; overflowing the limits drops the client.
   *
   * @param frame SSE text from `sseFrame`
   * @param backfill `true` for the connect-time snapshot, which the limits do not count
   */
  push(frame: string, backfill = false): void {
    if (this.#closed) return;
    if (backfill) {
      this.#exempt++;
      this.#exemptBytes += frame.length;
    } else if (
      this.#frames.length - this.#exempt + 1 > this.#maxFrames ||
      this.#bytes - this.#exemptBytes + frame.length > this.#maxBytes
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
   * Takes everything queued, waiting up to `timeoutMs` for something to arrive.
   *
   * @param timeoutMs how long to wait for a first frame, ms
   * @returns the frames (empty on time-out or close)
   */
  async take(timeoutMs: number): Promise<string[]> {
    if (this.#frames.length === 0 && !this.#closed) {
      const { promise, resolve } = Promise.withResolvers<void>();
      this.#wake = resolve;
      const timer = setTimeout(resolve, timeoutMs);
      try {
        await promise;
      } finally {
        clearTimeout(timer);
        this.#wake = undefined;
      }
    }
    const frames = this.#frames;
    this.#frames = [];
    this.#bytes = this.#exempt = this.#exemptBytes = 0;
    return frames;
  }

  #signal(): void {
    this.#wake?.();
  }

  /** Closes the client; queued frames are discarded. Idempotent. */
  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#frames = [];
    this.#bytes = this.#exempt = this.#exemptBytes = 0;
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
