/**
 * The one {@linkcode Agent} per live root session of a `HostRuntime`: created and
 * published through the plugin loader on first use, taken back on release, disposed on shutdown.
 *
 * @module
 */
import { Agent, type Loader, type ModelAdapter } from "@chime/agent";
import type { Clock, Session, SessionStore } from "@chime/session";

/** What {@linkcode RuntimeAgents} builds agents from. */
export interface RuntimeAgentsOptions {
  /** The runtime's store. */
  readonly store: SessionStore;
  /** The loader whose plugins are published into every new agent. */
  readonly loader: Loader;
  /** The model, or `undefined` when none is configured. */
  readonly model: ModelAdapter | undefined;
  /** Wall clock and timers. */
  readonly clock: Clock;
  /** Where failures with no caller go. */
  readonly reportError: (error: unknown) => void;
  /**
   * Shared mode: proves the session's lease before each step (its model call), rejecting
   * (`lease_lost`) once another host took it (docs/deploy.md "Fencing"). @default none
   */
  readonly beforeStep?: (sessionId: string) => Promise<void>;
  /** Wraps the model for one session's agent (the host's telemetry, host/telemetry.ts). @default none */
  readonly modelFor?: (model: ModelAdapter, session: Session) => ModelAdapter;
}

/** The agents of a runtime's live sessions, keyed by session object. */
export class RuntimeAgents {
  readonly #options: RuntimeAgentsOptions;
  readonly #agents = new Map<Session, Promise<Agent>>();

  /** @param options the store, loader, model, clock and error sink */
  constructor(options: RuntimeAgentsOptions) {
    this.#options = options;
  }

  /**
   * The agent of a live session, created and published on first use; a failed start is
   * forgotten so the next call tries again.
   *
   * @param session a live root session
   * @returns its one agent
   */
  obtain(session: Session): Promise<Agent> {
    let agent = this.#agents.get(session);
    if (agent === undefined) {
      agent = this.#start(session);
      this.#agents.set(session, agent);
      agent.catch(() => this.#agents.delete(session));
    }
    return agent;
  }

  async #start(session: Session): Promise<Agent> {
    const { store, clock, reportError, loader, modelFor } = this.#options;
    const model = modelFor === undefined || this.#options.model === undefined
      ? this.#options.model
      : modelFor(this.#options.model, session);
    const agent = new Agent({ session, store, model, clock, reportError });
    const { beforeStep } = this.#options;
    // First of the pre-step hooks: a stale owner never calls the model, nor runs a plugin's hook.
    if (beforeStep !== undefined) agent.addPreStep(() => beforeStep(session.id));
    try {
      await loader.publish(agent);
    } catch (error) {
      await agent[Symbol.asyncDispose]().catch(reportError);
      throw error;
    }
    return agent;
  }

  /**
   * The agent of a session if it has one; never creates one.
   *
   * @param session a live session
   * @returns the agent promise, or `undefined`
   */
  get(session: Session): Promise<Agent> | undefined {
    return this.#agents.get(session);
  }

  /**
   * Forgets a session's agent (it is being released) and hands it to the caller to dispose.
   *
   * @param session the session turning cold
   * @returns the agent promise, or `undefined`
   */
  take(session: Session): Promise<Agent> | undefined {
    const agent = this.#agents.get(session);
    this.#agents.delete(session);
    return agent;
  }

  /**
   * Disposes every agent (their plugins' owners first) and forgets them all.
   *
   * @returns the disposal failures, in no particular order
   */
  async disposeAll(): Promise<unknown[]> {
    const errors: unknown[] = [];
    const agents = await Promise.allSettled([...this.#agents.values()]);
    const disposed = await Promise.allSettled(
      agents.flatMap((r) => r.status === "fulfilled" ? [r.value[Symbol.asyncDispose]()] : []),
    );
    for (const r of disposed) if (r.status === "rejected") errors.push(r.reason);
    this.#agents.clear();
    return errors;
  }
}
