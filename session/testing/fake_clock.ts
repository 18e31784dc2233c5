/**
 * A deterministic {@linkcode Clock} for tests: time moves only when told.
 *
 * @module
 */
import { _checkDelay, type Clock, type TimerHandle } from "../clock.ts";

interface Pending {
  readonly id: number;
  readonly due: number;
  readonly callback: () => void;
}

/**
 * A fake clock. `advance(ms)` moves the monotonic timer base and the wall clock together and
 * fires due timers in order; `setWall(ms)` jumps only the wall clock (timers are unaffected), to
 * model wall-clock changes.
 *
 * @example Advance time
 * ```ts
 * import { FakeClock } from "@chime/session/testing";
 * using clock = new FakeClock(0);
 * let fired = false;
 * clock.setTimer(() => fired = true, 10);
 * await clock.advance(10);
 * console.assert(fired);
 * ```
 */
export class FakeClock implements Clock, Disposable {
  #wall: number;
  #mono = 0;
  #nextId = 1;
  #timers: Pending[] = [];
  /** Every delay passed to `setTimer`, in order, for assertions on segmentation. */
  readonly delays: number[] = [];

  /**
   * A fake clock at a given wall time; the monotonic clock starts at 0.
   *
   * @param startMs initial wall time, epoch ms (UTC)
   */
  constructor(startMs: number) {
    this.#wall = startMs;
  }

  /** Current wall time, epoch ms. */
  now(): number {
    return this.#wall;
  }

  /** Number of timers not yet fired or cancelled. */
  get pendingTimers(): number {
    return this.#timers.length;
  }

  /** Schedules a callback on the fake timeline. */
  setTimer(callback: () => void, delayMs: number): TimerHandle {
    _checkDelay(delayMs);
    this.delays.push(delayMs);
    const id = this.#nextId++;
    this.#timers.push({ id, due: this.#mono + delayMs, callback });
    this.#timers.sort((a, b) => a.due - b.due || a.id - b.id);
    const cancel = () => {
      this.#timers = this.#timers.filter((t) => t.id !== id);
    };
    return { cancel, [Symbol.dispose]: cancel };
  }

  /**
   * Moves time forward by `ms`, firing due timers in order and letting microtasks run between
   * them.
   *
   * @param ms milliseconds, `≥ 0`
   */
  async advance(ms: number): Promise<void> {
    const target = this.#mono + ms;
    for (;;) {
      await flushMicrotasks();
      const next = this.#timers[0];
      if (next === undefined || next.due > target) break;
      this.#timers.shift();
      this.#wall += next.due - this.#mono;
      this.#mono = next.due;
      next.callback();
    }
    this.#wall += target - this.#mono;
    this.#mono = target;
    await flushMicrotasks();
  }

  /** Jumps the wall clock only (a user or NTP changing the time); timers keep their base. */
  setWall(ms: number): void {
    this.#wall = ms;
  }

  /** Drops all pending timers. */
  [Symbol.dispose](): void {
    this.#timers = [];
  }
}

/** Lets queued promise reactions run (several macrotask-free turns). */
export async function flushMicrotasks(rounds = 20): Promise<void> {
  for (let i = 0; i < rounds; i++) await Promise.resolve();
}
