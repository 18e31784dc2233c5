/**
 * The agent's phase machine: inbox, idle ⇄ turn ⇄ maintenance, parking and idle waiters
 * (docs/design.md#admission). Private to `@chime/agent`.
 *
 * @module
 */
import type { Input, TurnRun } from "./_turn.ts";
import { AgentError, type AgentPhase } from "./types.ts";

/** What the phase machine needs from its agent. */
export interface PhaseHost {
  /** Whether a turn may start now (not disposed, session live). */
  canStart(): boolean;
  /** Builds the run for the next turn. */
  newRun(): TurnRun;
  /** Where a loop failure with no caller goes. */
  reportError(error: unknown): void;
}

/** Starts a turn whenever it is idle with queued inputs; maintenance parks the inbox. */
export class PhaseMachine {
  readonly #host: PhaseHost;
  readonly #inbox: Input[] = [];
  #waiters: (() => void)[] = [];
  #phase: AgentPhase = "idle";
  #run: TurnRun | undefined;
  #loop: Promise<void> | undefined;
  #maintenance: Promise<void> | undefined;

  constructor(host: PhaseHost) {
    this.#host = host;
  }

  get phase(): AgentPhase {
    return this.#phase;
  }

  /** The running turn, until its loop has unwound. */
  get run(): TurnRun | undefined {
    return this.#run;
  }

  enqueue(input: Input): void {
    this.#inbox.push(input);
    this.#pump();
  }

  /** Removes and returns every queued input (a step's claim). */
  claim(): Input[] {
    return this.#inbox.splice(0);
  }

  pending(): boolean {
    return this.#inbox.length > 0;
  }

  /** Removes the queued messages (follow-ups stay queued); returns their ids in queue order. */
  dropMessages(): string[] {
    const dropped: string[] = [];
    for (let i = 0; i < this.#inbox.length;) {
      const input = this.#inbox[i]!;
      if (input.kind !== "message") {
        i++;
        continue;
      }
      this.#inbox.splice(i, 1);
      if (!dropped.includes(input.event.data.messageId)) dropped.push(input.event.data.messageId);
    }
    return dropped;
  }

  /** @throws {AgentError} `busy` unless idle (synchronously claims the phase) */
  async maintain<T>(task: () => Promise<T>): Promise<T> {
    if (this.#phase !== "idle") {
      throw new AgentError("busy", `Cannot run maintenance: the agent is in a ${this.#phase}`);
    }
    this.#phase = "maintenance";
    const done = Promise.withResolvers<void>();
    this.#maintenance = done.promise;
    try {
      return await task();
    } finally {
      this.#phase = "idle";
      this.#maintenance = undefined;
      done.resolve();
      this.#pump();
    }
  }

  whenIdle(): Promise<void> {
    if (this.#phase === "idle" || !this.#host.canStart()) return Promise.resolve();
    const { promise, resolve } = Promise.withResolvers<void>();
    this.#waiters.push(resolve);
    return promise;
  }

  /** Drops queued inputs and settles once the loop and any maintenance task have. */
  async stop(): Promise<void> {
    this.#inbox.length = 0;
    await Promise.allSettled([this.#loop, this.#maintenance]);
    this.#wake();
  }

  #pump(): void {
    if (this.#phase !== "idle") return;
    if (this.#inbox.length === 0 || !this.#host.canStart()) {
      this.#wake();
      return;
    }
    this.#phase = "turn";
    const run = this.#host.newRun();
    this.#run = run;
    this.#loop = run.run().catch((e) => this.#host.reportError(e)).finally(() => {
      this.#run = undefined;
      this.#loop = undefined;
      this.#phase = "idle";
      this.#pump();
    });
  }

  #wake(): void {
    const waiters = this.#waiters;
    this.#waiters = [];
    for (const resolve of waiters) resolve();
  }
}
