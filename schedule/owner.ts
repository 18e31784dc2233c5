/**
 * The live owner: one disposable delivery object per live root agent
 * (docs/design.md#live-delivery-lifecycle; docs/flows.md#due and docs/flows.md#restart). It keeps
 * no durable state of its own: its only facts are the earliest active target of the durable fold,
 * one bounded timer, an optional idle wait and at most one in-flight transaction.
 *
 * @module
 */
import { AgentError, type AgentHandle } from "@chime/contract";
import { type Clock, MAX_TIMER_MS, type TimerHandle } from "@chime/session";
import { watchClock } from "./_clock_watch.ts";
import { deliverDue, type Delivery } from "./_deliver.ts";
import { barrier, loadedSchedule } from "./_tx.ts";
import { ScheduleFifo } from "./fifo.ts";
import type { Quarantined } from "./fold.ts";
import { LiveSchedule } from "./live.ts";
import { isPaused, scheduledAtMs, type ScheduleRecord } from "./protocol.ts";
import { recordDeliveries, trackOwner, untrackOwner } from "./_telemetry.ts";

/** Where the owner reports what it cannot hand to a caller (injected; never `console.log`). */
export interface ScheduleLogger {
  /** A contained failure: the record stays active and a later trigger retries. */
  warn(message: string, details?: unknown): void;
  /** The owner faulted and stopped. */
  error(message: string, details?: unknown): void;
}

/** Options of {@linkcode ScheduleOwner}. */
export interface ScheduleOwnerOptions {
  /** The agent's FIFO, shared with its tools. @default a private FIFO */
  readonly fifo?: ScheduleFifo;
  /** Wall clock and timers. @default the agent's clock */
  readonly clock?: Clock;
  /** Failure sink. @default `console` */
  readonly logger?: ScheduleLogger;
  /**
   * Longest single timer, ms, `1..MAX_TIMER_MS`. Every wake re-reads the wall clock, so a
   * reminder due while the machine slept (or the clock jumped forward) fires within one segment.
   * @default 60_000
   */
  readonly maxSegmentMs?: number;
  /**
   * Clock check cadence, ms, `1..MAX_TIMER_MS`. While a timer waits longer than this (and only
   * then) the wall clock is re-read this often; a move that differs from the elapsed timer time by
   * more than 250 ms either way is a step, and the owner re-reads its target from wall time, so a
   * step forward onto or past the target fires within one check, and a step backward never fires
   * early. Owners on one clock with one cadence share a single check timer
   * (docs/recurring.md "Delivery (owner)").
   * @default 1000
   */
  readonly clockCheckMs?: number;
  /**
   * At most this many dispatches (reminder turns) per session in any trailing hour; beyond it
   * due reminders wait, and a recurring one then coalesces (docs/recurring.md "Delivery").
   * @default 60
   */
  readonly maxRemindersPerHour?: number;
}

/** Default {@linkcode ScheduleOwnerOptions.maxSegmentMs}: one minute. */
export const DEFAULT_SEGMENT_MS = 60_000;
/** Default {@linkcode ScheduleOwnerOptions.clockCheckMs}: one second. */
export const DEFAULT_CLOCK_CHECK_MS = 1000;
/** Default {@linkcode ScheduleOwnerOptions.maxRemindersPerHour}. */
export const DEFAULT_REMINDERS_PER_HOUR = 60;

/**
 * What the owner is doing: `idle` (nothing active), `armed` (a timer runs), `running` (a due
 * transaction is queued or in flight), `waiting` (busy agent: one `whenIdle()` wait),
 * `stalled` (a contained failure: waiting for the next idle or a management preflight),
 * `faulted` (a dispatch append failed: stopped) or `disposed`.
 */
export type OwnerState =
  | "idle"
  | "armed"
  | "running"
  | "waiting"
  | "stalled"
  | "faulted"
  | "disposed";

type Outcome = "done" | "busy" | "stalled" | "stopped";

function timerOption(name: string, value: number): number {
  if (!Number.isSafeInteger(value) || value < 1 || value > MAX_TIMER_MS) {
    throw new RangeError(`Cannot create owner: ${name} ${value} is out of range`);
  }
  return value;
}

/**
 * The Agent-scoped live owner. It derives the earliest active target from the session's live
 * schedule state ({@linkcode LiveSchedule}, the fold kept current at each append) and
 * waits for it in timer segments of at most `maxSegmentMs` (60 s by default), re-reading the
 * wall clock at every wake (a backward jump never fires early; a forward jump or a sleeping
 * machine makes the target overdue within one segment), and while armed a clock check every
 * `clockCheckMs` (1 s by default) re-reads the target after a wall-clock step, so a step onto or
 * past the target fires within one check. When due it runs one FIFO transaction:
 * `flush` preflight, claim of the idle phase through `runMaintenance()`, a read of that state
 * (O(active records)), one decision-clock sample, then for each due record in due order the fixed
 * frame, one synchronous `followup()` and the `dispatch`; after the phase is released it awaits
 * the dispatch barrier. A recurring record delivers only its latest missed occurrence (the
 * others are counted as `missed`), or a `skip` outside its catch-up window; beyond
 * `maxRemindersPerHour` dispatches in the trailing hour (counted in O(dispatches in that hour))
 * due records wait for the budget (docs/recurring.md "Delivery"). Busy ⇒ one `whenIdle()` wait
 * retries. Disposal never deletes a record.
 *
 * @example Own one per live root agent
 * ```ts ignore
 * import { ScheduleOwner } from "@chime/schedule";
 * const owner = new ScheduleOwner(scope.agent, { fifo });
 * scope.own(owner);
 * owner.start();
 * ```
 */
export class ScheduleOwner implements AsyncDisposable {
  readonly #agent: AgentHandle;
  readonly #fifo: ScheduleFifo;
  readonly #clock: Clock;
  readonly #logger: ScheduleLogger;
  readonly #segment: number;
  readonly #check: number;
  readonly #perHour: number;
  /** The hourly budget is full until this instant (epoch ms): due dispatches wait for it. */
  #budgetUntil: number | undefined;
  readonly #stop = Promise.withResolvers<void>();
  #stopped: "disposed" | "faulted" | undefined;
  /** How many quarantined changes of the live state were logged. */
  #reported = 0;
  #target: number | undefined;
  #timer: TimerHandle | undefined;
  /** The clock check subscription: held only while `#timer` waits longer than one check. */
  #watch: Disposable | undefined;
  #inflight: Promise<void> | undefined;
  #idleWait: Promise<void> | undefined;
  /** Targets at or before this instant wait for a retry trigger (a contained failure). */
  #hold: number | undefined;
  #activity: Disposable | undefined;
  #again = false; // a kick arrived while a transaction was in flight
  // Telemetry only (docs/operations.md): why the next delivery comes when it does.
  #startedAt: number | undefined;
  #wokeAt: number | undefined;
  #wasBusy = false;
  #wasStepped = false;

  /**
   * Creates an idle owner; {@linkcode ScheduleOwner.start} arms it.
   * @param agent the live root agent
   * @param options shared FIFO, clock, logger, segment bound and clock check cadence
   * @throws {RangeError} when `maxSegmentMs` or `clockCheckMs` is not an integer in
   *   `1..MAX_TIMER_MS`, or `maxRemindersPerHour` is not a positive safe integer
   */
  constructor(agent: AgentHandle, options: ScheduleOwnerOptions = {}) {
    this.#agent = agent;
    this.#fifo = options.fifo ?? new ScheduleFifo();
    this.#clock = options.clock ?? agent.clock;
    this.#logger = options.logger ?? console;
    this.#segment = timerOption("maxSegmentMs", options.maxSegmentMs ?? DEFAULT_SEGMENT_MS);
    this.#check = timerOption("clockCheckMs", options.clockCheckMs ?? DEFAULT_CLOCK_CHECK_MS);
    this.#perHour = options.maxRemindersPerHour ?? DEFAULT_REMINDERS_PER_HOUR;
    if (!Number.isSafeInteger(this.#perHour) || this.#perHour < 1) {
      throw new RangeError(`Cannot create owner: maxRemindersPerHour ${this.#perHour} is invalid`);
    }
  }

  /** The current state. */
  get state(): OwnerState {
    if (this.#stopped !== undefined) return this.#stopped;
    if (this.#inflight !== undefined) return "running";
    if (this.#idleWait !== undefined) return "waiting";
    if (this.#activity !== undefined) return "stalled";
    return this.#timer === undefined ? "idle" : "armed";
  }

  /** The armed target, epoch ms (UTC), or `undefined`. */
  get target(): number | undefined {
    return this.#target;
  }

  /**
   * Starts the owner: one FIFO transaction waits for the live state's initial read, preflights
   * the session and arms the timer from that state. A rejected preflight arms nothing; the next idle or management preflight
   * retries. Idempotent in effect; never throws.
   */
  start(): void {
    if (this.#stopped === undefined && this.#startedAt === undefined) {
      this.#startedAt = this.#clock.now();
      trackOwner(this.#agent);
    }
    if (this.#inflight !== undefined) return; // queued work arms the timer when it settles
    this.#track(this.#fifo.run(async () => {
      if (this.#stopped !== undefined) return;
      const loading = loadedSchedule(this.#agent);
      if (loading instanceof Promise) await loading;
      const preflight = await barrier(this.#agent);
      if (this.#stopped !== undefined) return; // disposed while the preflight ran
      if (preflight.ok) this.#arm();
      else this.#stall(Infinity, "Cannot arm reminders: the start preflight failed", preflight);
    }));
  }

  /**
   * Recomputes the target from the live state and clears any hold. The schedule tools call it
   * inside the FIFO after each successful preflight and confirmed append, which also retries a
   * stalled delivery without a private retry timer.
   */
  recompute(): void {
    if (this.#stopped !== undefined) return;
    this.#hold = undefined;
    this.#quiet();
    this.#arm();
  }

  #track(work: Promise<void>): void {
    const tracked = work.catch((error) => this.#fault(error)).finally(() => {
      this.#inflight = undefined;
      if (this.#again) {
        this.#again = false;
        this.#kick();
      }
    });
    this.#inflight = tracked;
  }

  #arm(): void {
    this.#disarm();
    this.#target = undefined;
    if (this.#stopped !== undefined) return;
    let active: Iterable<ScheduleRecord>;
    try {
      const { state } = LiveSchedule.for(this.#agent);
      this.#reportQuarantined(state.quarantined);
      active = state.active.values();
    } catch (error) {
      return this.#fault(error);
    }
    let target: number | undefined;
    for (const record of active) {
      if (isPaused(record)) continue; // a paused series never fires (docs/recurring.md)
      const at = scheduledAtMs(record);
      if ((this.#hold === undefined || at > this.#hold) && (target === undefined || at < target)) {
        target = at;
      }
    }
    // Every delivery pass resets the budget wait, so a stale one only ever yields a past target.
    if (target !== undefined && this.#budgetUntil !== undefined) {
      target = Math.max(target, this.#budgetUntil);
    }
    this.#target = target;
    if (target !== undefined) this.#schedule(target);
  }

  /** Logs each change the live state quarantined, once (docs/recurring.md "Damaged changes"). */
  #reportQuarantined(quarantined: readonly Quarantined[]): void {
    for (; this.#reported < quarantined.length; this.#reported++) {
      const { seq, id, reason } = quarantined[this.#reported]!;
      this.#logger.error("Schedule change is damaged: quarantined, its reminder held", {
        session: this.#agent.session.id,
        code: "storage_corrupt",
        seq,
        ...(id === undefined ? {} : { id }),
        reason,
      });
    }
  }

  #schedule(target: number): void {
    const delay = Math.min(Math.max(0, target - this.#clock.now()), this.#segment);
    this.#timer = this.#clock.setTimer(() => this.#wake(target), delay);
    // A wait no longer than one check re-reads the wall clock at its own wake.
    if (delay <= this.#check) this.#unwatch();
    // Held while this target stays armed: every re-arm for another target disarms first.
    else this.#watch ??= watchClock(this.#clock, this.#check, () => this.#stepped(target));
  }

  /** The wall clock stepped: the armed delay is off by the step; re-read the target now. */
  #stepped(target: number): void {
    this.#wasStepped = true;
    this.#timer?.cancel();
    this.#wake(target);
  }

  #wake(target: number): void {
    this.#timer = undefined;
    if (this.#stopped !== undefined || this.#idleWait !== undefined) return this.#unwatch();
    // Re-read the wall clock: a backward jump waits out the rest, never fires early.
    if (this.#clock.now() < target) return this.#schedule(target);
    this.#unwatch();
    this.#kick();
  }

  #disarm(): void {
    this.#timer?.cancel();
    this.#timer = undefined;
    this.#unwatch();
  }

  #unwatch(): void {
    this.#watch?.[Symbol.dispose]();
    this.#watch = undefined;
  }

  #kick(): void {
    if (this.#stopped !== undefined) return;
    this.#wokeAt ??= this.#clock.now();
    if (this.#inflight !== undefined) {
      this.#again = true;
      return;
    }
    this.#track(this.#fifo.run(() => this.#due()).then((outcome) => this.#after(outcome)));
  }

  #after(outcome: Outcome): void {
    if (outcome === "busy") {
      this.#wasBusy = true;
      this.#waitIdle();
    } else if (outcome === "done") {
      this.#wokeAt = undefined;
      this.#wasBusy = false;
      this.#wasStepped = false;
      this.#hold = undefined;
      this.#arm();
    } else if (outcome === "stalled") this.#arm();
  }

  async #due(): Promise<Outcome> {
    if (this.#stopped !== undefined) return "stopped";
    const preflight = await barrier(this.#agent);
    if (!preflight.ok) {
      return this.#stall(this.#clock.now(), "Cannot deliver: the preflight failed", preflight);
    }
    if (this.#stopped !== undefined) return "stopped";
    let outcome: Delivery;
    try {
      const options = {
        now: () => this.#clock.now(),
        maxPerHour: this.#perHour,
        heldUntil: this.#budgetUntil, // the last pass's budget wait: what it held is coalesced
      };
      outcome = await this.#agent.runMaintenance(() =>
        Promise.resolve(deliverDue(this.#agent, options))
      );
    } catch (error) {
      if (error instanceof AgentError && error.code === "busy") return "busy";
      return this.#stall(this.#clock.now(), "Cannot deliver: maintenance was refused", error);
    }
    this.#budgetUntil = outcome.budgetUntil;
    if (outcome.fault !== undefined) this.#fault(outcome.fault.cause);
    else if (outcome.contained !== undefined) {
      const message = "Cannot deliver: framing or enqueue failed; the record stays active";
      this.#stall(outcome.decisionNow, message, outcome.contained);
    }
    if (outcome.appended > 0) {
      const dispatched = await barrier(this.#agent);
      if (!dispatched.ok) {
        this.#logger.warn("Cannot confirm dispatch: the barrier failed; it stays in the log", {
          session: this.#agent.session.id,
          cause: dispatched.cause,
        });
      }
      this.#traced(outcome, dispatched.ok);
    }
    return this.#stopped ? "stopped" : outcome.contained === undefined ? "done" : "stalled";
  }

  /** One span per delivered occurrence (schedule/_telemetry.ts); resets the pass facts. */
  #traced(outcome: Delivery, durable: boolean): void {
    if (outcome.delivered.length > 0) {
      recordDeliveries(outcome.delivered, {
        sessionId: this.#agent.session.id,
        startedAt: this.#startedAt ?? outcome.decisionNow,
        wokeAt: this.#wokeAt ?? outcome.decisionNow,
        decisionNow: outcome.decisionNow,
        durableAt: this.#clock.now(),
        durable,
        busy: this.#wasBusy,
        stepped: this.#wasStepped,
      });
    }
    this.#wokeAt = undefined;
    this.#wasBusy = false;
    this.#wasStepped = false;
  }

  #stall(hold: number, message: string, details: unknown): "stalled" {
    // A stopped owner waits for nothing: no warning, no subscription that would outlive it.
    if (this.#stopped !== undefined) return "stalled";
    this.#logger.warn(message, { session: this.#agent.session.id, details });
    this.#hold = Math.max(hold, this.#hold ?? -Infinity);
    if (this.#activity === undefined && !this.#agent.session.closed) {
      this.#activity = this.#agent.session.subscribe((event) => {
        if (event.type === "turn/end") {
          this.#quiet();
          this.#waitIdle();
        }
      });
    }
    return "stalled";
  }

  #quiet(): void {
    this.#activity?.[Symbol.dispose]();
    this.#activity = undefined;
  }

  #waitIdle(): void {
    if (this.#idleWait !== undefined || this.#stopped !== undefined) return;
    const wait = Promise.race([this.#agent.whenIdle(), this.#stop.promise]).then(() => {
      this.#idleWait = undefined;
      this.#hold = undefined;
      this.#kick();
    }, (error) => {
      this.#idleWait = undefined;
      this.#fault(error);
    });
    this.#idleWait = wait;
  }

  #fault(error: unknown): void {
    this.#logger.error("Schedule owner faulted and stopped", {
      session: this.#agent.session.id,
      cause: error,
    });
    if (this.#stopped === undefined) this.#halt("faulted");
  }

  #halt(state: "disposed" | "faulted"): void {
    this.#stopped = state;
    untrackOwner(this.#agent);
    this.#disarm();
    this.#target = undefined;
    this.#quiet();
    this.#stop.resolve();
  }

  /**
   * Cancels the timer, stops new work and waits for the in-flight transaction or idle wait to
   * settle. Never deletes or changes a durable record. Idempotent.
   */
  async [Symbol.asyncDispose](): Promise<void> {
    if (this.#stopped !== "disposed") this.#halt("disposed");
    await Promise.allSettled([this.#inflight, this.#idleWait]);
  }
}
