// Private: the owners' clock check (docs/recurring.md "Delivery (owner)"). An owner's timer is a
// delay computed from wall time, so a wall-clock step would move its firing by the size of the
// step. While at least one owner is armed, one timer per (clock, cadence), however many owners
// share them, re-reads the wall clock every `cadenceMs` and compares how far it moved with how far
// the timer base moved (`cadenceMs`); a difference beyond `STEP_TOLERANCE_MS` either way is a
// step, and every armed owner re-reads its target from wall time. Nothing runs while none is.
import type { Clock, TimerHandle } from "@chime/session";

/** A wall-clock move this far (ms) from the elapsed timer time, either way, is a step. */
export const STEP_TOLERANCE_MS = 250;

class ClockWatch {
  readonly #clock: Clock;
  readonly #cadence: number;
  readonly #listeners = new Set<() => void>();
  readonly #registry: Map<number, ClockWatch>;
  #timer: TimerHandle | undefined;
  #last = 0;

  constructor(clock: Clock, cadence: number, registry: Map<number, ClockWatch>) {
    this.#clock = clock;
    this.#cadence = cadence;
    this.#registry = registry;
  }

  add(listener: () => void): Disposable {
    this.#listeners.add(listener);
    if (this.#timer === undefined) this.#tick(this.#clock.now());
    return { [Symbol.dispose]: () => this.#remove(listener) };
  }

  #remove(listener: () => void): void {
    if (!this.#listeners.delete(listener) || this.#listeners.size > 0) return;
    this.#timer?.cancel();
    this.#timer = undefined;
    this.#registry.delete(this.#cadence);
  }

  #tick(now: number): void {
    this.#last = now;
    this.#timer = this.#clock.setTimer(() => this.#check(), this.#cadence);
  }

  #check(): void {
    this.#timer = undefined;
    const now = this.#clock.now();
    const stepped = Math.abs(now - this.#last - this.#cadence) > STEP_TOLERANCE_MS;
    // Listeners may leave or join while the others are told: only those there throughout are.
    if (stepped) {
      for (const listener of [...this.#listeners]) if (this.#listeners.has(listener)) listener();
    }
    if (this.#listeners.size > 0 && this.#timer === undefined) this.#tick(now);
  }
}

const watches = new WeakMap<Clock, Map<number, ClockWatch>>();

/**
 * Calls `onStep` after each wall-clock step of `clock` (seen within `cadenceMs` of it) until the
 * returned handle is disposed. Listeners of one clock and cadence share one timer.
 */
export function watchClock(clock: Clock, cadenceMs: number, onStep: () => void): Disposable {
  let byCadence = watches.get(clock);
  if (byCadence === undefined) watches.set(clock, byCadence = new Map());
  let watch = byCadence.get(cadenceMs);
  if (watch === undefined) {
    byCadence.set(cadenceMs, watch = new ClockWatch(clock, cadenceMs, byCadence));
  }
  return watch.add(onStep);
}
