/**
 * The Agent-scoped FIFO that serializes every admitted schedule management transaction and the
 * live owner's due transaction, each from its preflight to any post-append barrier
 * (docs/design.md#fifo-preflight-barrier).
 *
 * @module
 */

/**
 * A first-in, first-out transaction queue for one root agent. A task starts only after every
 * task queued before it has settled (fulfilled or rejected); a failing task never blocks the
 * queue. One instance is shared by the three schedule tools and the owner of that agent.
 *
 * @example Two transactions never interleave
 * ```ts
 * import { ScheduleFifo } from "@chime/schedule";
 * const fifo = new ScheduleFifo();
 * const order: string[] = [];
 * await Promise.all([
 *   fifo.run(async () => { order.push("a1"); await null; order.push("a2"); }),
 *   fifo.run(() => { order.push("b"); return Promise.resolve(); }),
 * ]);
 * console.assert(order.join() === "a1,a2,b");
 * ```
 */
export class ScheduleFifo {
  #tail: Promise<void> = Promise.resolve();
  #pending = 0;

  /** Number of transactions queued or running. */
  get pending(): number {
    return this.#pending;
  }

  /**
   * Queues `task` behind every earlier transaction and runs it alone.
   *
   * @param task the transaction (preflight, fold, append, barrier)
   * @returns what `task` returns
   * @throws whatever `task` throws (the queue itself keeps going)
   */
  run<T>(task: () => Promise<T>): Promise<T> {
    this.#pending++;
    const result = this.#tail.then(task);
    this.#tail = result.then(
      () => this.#settle(),
      () => this.#settle(),
    );
    return result;
  }

  #settle(): void {
    this.#pending--;
  }

  /**
   * Resolves once every transaction queued so far has settled.
   *
   * @returns a promise that never rejects
   */
  drained(): Promise<void> {
    return this.#tail;
  }
}
