/**
 * The commit watermark of docs/design.md#receipt-watermark: one monotonic cursor per exact live
 * {@linkcode Session} object.
 *
 * @module
 */
import type { Session } from "@chime/session";

/** A newly covered half-open range of seqs, `[from, to)`. */
export interface CoveredRange {
  /** First newly durable seq, inclusive. */
  readonly from: number;
  /** The new watermark, exclusive. */
  readonly to: number;
}

/**
 * Per-session durable cursors. Keyed by object identity in a `WeakMap`, so a session id reused
 * by another lifetime (a new `Session` object) starts at zero and inherits no cursor; taking
 * the maximum absorbs concurrent flushes that complete in reverse order.
 *
 * @example Out-of-order flushes never move the watermark back
 * ```ts
 * import { Watermark } from "@chime/host";
 * import { Session } from "@chime/session";
 * const session = new Session({
 *   header: { version: 1, id: "s", cwd: "/", createdAt: "2030-01-01T00:00:00.000Z",
 *     origin: "doc", lineage: null, delegationDepth: 0 },
 *   now: () => 0,
 * });
 * const marks = new Watermark();
 * console.assert(marks.advance(session, 5)?.to === 5);
 * console.assert(marks.advance(session, 3) === undefined);
 * console.assert(marks.get(session) === 5);
 * ```
 */
export class Watermark {
  readonly #marks = new WeakMap<Session, number>();

  /**
   * The watermark of one live session object.
   *
   * @param session the exact live object
   * @returns the exclusive durable bound; `0` for an object never seen
   */
  get(session: Session): number {
    return this.#marks.get(session) ?? 0;
  }

  /**
   * Starts an object's watermark at a proven durable length (a session just loaded from
   * storage). Ignored when the object already has a watermark.
   *
   * @param session the exact live object
   * @param length number of events read back from storage
   */
  seed(session: Session, length: number): void {
    if (!this.#marks.has(session)) this.#marks.set(session, length);
  }

  /**
   * Applies one `session/flushed(session, throughSeq)` observation.
   *
   * @param session the exact live object the flush acknowledged
   * @param throughSeq the flush's exclusive bound
   * @returns the newly covered range, or `undefined` when the watermark did not advance
   */
  advance(session: Session, throughSeq: number): CoveredRange | undefined {
    const from = this.get(session);
    if (!(throughSeq > from)) return undefined;
    this.#marks.set(session, throughSeq);
    return { from, to: throughSeq };
  }
}
