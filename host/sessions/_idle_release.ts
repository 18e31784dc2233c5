/**
 * Idle release of a `HostRuntime`: a live session with no running turn, no open stream, no
 * pending plugin work (`Plugin.keepsLive`) and no activity for `idleReleaseMs` is made cold by a
 * periodic sweep.
 *
 * @module
 */
import type { Agent, Plugin } from "@chime/agent";
import type { Clock, Session, SessionStore, TimerHandle } from "@chime/session";
import type { Feeds } from "../feed/feed.ts";

/** What {@linkcode IdleRelease} watches and how it releases. */
export interface IdleReleaseOptions {
  /** Idle time before release, ms; `0` (or less) never releases. */
  readonly idleMs: number;
  /** Wall clock and the sweep timer. */
  readonly clock: Clock;
  /** Where failures of a sweep go. */
  readonly reportError: (error: unknown) => void;
  /** The runtime's store (its live sessions). */
  readonly store: SessionStore;
  /** The stream clients (a session with one is never idle). */
  readonly feeds: Feeds;
  /** The loaded plugins, asked `keepsLive`; read at each sweep (loading appends to it). */
  readonly plugins: readonly Plugin[];
  /** The agent of a live session, if it has one. */
  readonly agentOf: (session: Session) => Promise<Agent> | undefined;
  /** Whether a release of the session id is under way. */
  readonly releasing: (id: string) => boolean;
  /** Whether the runtime is shutting down (no sweep, no re-arm). */
  readonly closing: () => boolean;
  /** Makes a live session cold. */
  readonly release: (session: Session) => Promise<void>;
}

/** The idle tracker and sweeper of a runtime. */
export class IdleRelease {
  readonly #o: IdleReleaseOptions;
  readonly #touched = new Map<string, number>();
  readonly #keep = new WeakMap<Session, { readonly length: number; readonly keep: boolean }>();
  #sweepTimer: TimerHandle | undefined;
  #sweeping: Promise<void> = Promise.resolve();

  /** @param options what to watch and how to release */
  constructor(options: IdleReleaseOptions) {
    this.#o = options;
  }

  /**
   * Records activity on a session now (no-op when idle release is off).
   *
   * @param id the session id
   */
  touch(id: string): void {
    if (this.#o.idleMs > 0) this.#touched.set(id, this.#o.clock.now());
  }

  /**
   * Forgets a released session's activity.
   *
   * @param id the session id
   */
  forget(id: string): void {
    this.#touched.delete(id);
  }

  /** Schedules the next sweep, every `min(idleMs, 60 s)`; nothing when off or closing. */
  arm(): void {
    const { idleMs, clock, reportError, closing } = this.#o;
    if (idleMs <= 0 || closing()) return;
    this.#sweepTimer = clock.setTimer(() => {
      this.#sweeping = this.#sweep().catch(reportError).finally(() => this.arm());
    }, Math.max(1, Math.min(idleMs, 60_000)));
  }

  /**
   * Cancels the next sweep.
   *
   * @returns settles when a sweep under way has finished
   */
  stop(): Promise<void> {
    this.#sweepTimer?.cancel();
    return this.#sweeping;
  }

  /** Whether a live session has been idle long enough, with no stream and no release under way. */
  #idle(session: Session): boolean {
    if (this.#o.releasing(session.id) || this.#o.feeds.hasClients(session)) return false;
    const last = session.length > 0 ? Date.parse(session.event(session.length - 1)!.at) : 0;
    const since = Math.max(last, this.#touched.get(session.id) ?? 0);
    return this.#o.clock.now() - since >= this.#o.idleMs;
  }

  #keepsLive(session: Session, agent: Agent): boolean {
    const cached = this.#keep.get(session);
    if (cached?.length === session.length) return cached.keep;
    let keep = false;
    for (const plugin of this.#o.plugins) {
      try {
        keep = plugin.keepsLive?.(agent) === true;
      } catch (error) {
        this.#o.reportError(error);
        keep = true;
      }
      if (keep) break;
    }
    this.#keep.set(session, { length: session.length, keep });
    return keep;
  }

  async #sweep(): Promise<void> {
    const { store, closing } = this.#o;
    for (const session of store.liveSessions()) {
      if (closing() || !this.#idle(session)) continue;
      const agent = await this.#o.agentOf(session)?.catch(() => undefined);
      // Re-checked after the await: a request may have touched the session meanwhile.
      if (closing() || !this.#idle(session) || store.live(session.id) !== session) continue;
      if (agent !== undefined && (agent.phase !== "idle" || this.#keepsLive(session, agent))) {
        continue;
      }
      await this.#o.release(session);
    }
  }
}
