/**
 * The injected clock: wall time and cancellable timers. Domain code never calls `Date.now()`
 * or `setTimeout` directly (CONTRIBUTING.md#code).
 *
 * @module
 */

/** A cancellable timer handle. */
export interface TimerHandle extends Disposable {
  /** Cancels the timer; idempotent. */
  cancel(): void;
}

/** Wall clock plus timers. */
export interface Clock {
  /** Current wall time, epoch milliseconds (UTC). May jump backward or forward. */
  now(): number;
  /**
   * Runs `callback` once after `delayMs` milliseconds.
   *
   * @param callback what to run
   * @param delayMs delay in ms, `0 ≤ delayMs ≤ 2^31−1`
   * @throws {RangeError} when `delayMs` is negative, not finite or past `2^31−1`
   */
  setTimer(callback: () => void, delayMs: number): TimerHandle;
}

/** Largest delay a single JavaScript timer honours (ms). */
export const MAX_TIMER_MS = 2 ** 31 - 1;

function checkDelay(delayMs: number): void {
  if (!Number.isFinite(delayMs) || delayMs < 0 || delayMs > MAX_TIMER_MS) {
    throw new RangeError(`Cannot set timer: delay ${delayMs} ms is outside 0..${MAX_TIMER_MS}`);
  }
}

/** The real clock: `Date.now()` and `setTimeout`. */
export const systemClock: Clock = {
  now: () => Date.now(),
  setTimer(callback, delayMs) {
    checkDelay(delayMs);
    const id = setTimeout(callback, delayMs);
    const cancel = () => clearTimeout(id);
    return { cancel, [Symbol.dispose]: cancel };
  },
};

export { checkDelay as _checkDelay };
