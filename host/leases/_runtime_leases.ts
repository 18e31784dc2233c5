/**
 * How a `HostRuntime` makes sessions live and cold: in shared mode each live session holds its
 * lease (docs/deploy.md), a lease lost to another host turns the session cold here, and a release
 * disposes the agent (the plugins' owners first), closes the session and gives the lease back.
 *
 * @module
 */
import type { Session, SessionStore } from "@chime/session";
import type { Feeds } from "../feed/feed.ts";
import { type HostLeases, isLeaseLost } from "./leases.ts";
import type { RuntimeAgents } from "../sessions/_runtime_agents.ts";

/** What {@linkcode SessionLiveness} drives. */
export interface SessionLivenessOptions {
  /** The runtime's store. */
  readonly store: SessionStore;
  /** Session leases in shared mode; `undefined` for a single host. */
  readonly leases: HostLeases | undefined;
  /** The stream clients (told when a lease is lost). */
  readonly feeds: Feeds;
  /** The agents of the live sessions. */
  readonly agents: RuntimeAgents;
  /** Where failures with no caller go. */
  readonly reportError: (error: unknown) => void;
  /** Called once a release settled, with the session id. */
  readonly onReleased: (id: string) => void;
}

/** The live ↔ cold transitions of a runtime's sessions, with their leases. */
export class SessionLiveness {
  readonly #o: SessionLivenessOptions;
  readonly #releasing = new Map<string, Promise<void>>();

  /** @param options the store, leases, feeds and agents it drives */
  constructor(options: SessionLivenessOptions) {
    this.#o = options;
  }

  /**
   * Whether a release of the session is under way.
   *
   * @param id the session id
   * @returns `true` until the release settled
   */
  releasing(id: string): boolean {
    return this.#releasing.has(id);
  }

  /**
   * The release under way for a session, to wait on before making it live again.
   *
   * @param id the session id
   * @returns the release (never rejects), or `undefined`
   */
  pending(id: string): Promise<void> | undefined {
    return this.#releasing.get(id);
  }

  /**
   * Shared mode: takes the lease of a session not live here (docs/deploy.md).
   *
   * @param id the session id
   * @throws whatever `HostLeases.claim` throws (the session is held elsewhere)
   */
  async claim(id: string): Promise<void> {
    const { leases, store } = this.#o;
    if (leases !== undefined && store.live(id) === undefined) {
      await leases.claim(id);
    }
  }

  /**
   * Runs a store operation that makes a session live, in shared mode with its lease: a lease
   * claimed for `id` is given back when the operation fails; a new session (generated id) takes
   * its lease as it goes live.
   *
   * @param id the id claimed beforehand, or `undefined` for a generated id
   * @param live the store operation
   * @returns the live session
   * @throws what `live` or the lease claim throws (the session is then released)
   */
  async leased(id: string | undefined, live: () => Promise<Session>): Promise<Session> {
    const { leases, store } = this.#o;
    let session: Session;
    try {
      session = await live();
    } catch (error) {
      if (id !== undefined && store.live(id) === undefined) await leases?.release(id);
      throw error;
    }
    try {
      if (leases !== undefined && !leases.holds(session.id)) {
        await leases.claim(session.id);
      }
    } catch (error) {
      await this.release(session);
      throw error;
    }
    return session;
  }

  /**
   * A lease lost to another host: the session's streams are told, then it turns cold here.
   *
   * @param id the session id
   * @param url the new owner's advertised URL, or `""`
   */
  lost(id: string, url: string): void {
    const session = this.#o.store.live(id);
    if (session === undefined || this.#releasing.has(id)) return;
    this.#o.feeds.endLost(session, url);
    void this.release(session);
  }

  /**
   * Makes a live session cold: its agent (and the plugins' owners) first, then the store.
   *
   * @param session the live session
   * @returns settles (never rejects) once the session is cold and its lease given back
   */
  release(session: Session): Promise<void> {
    const { agents, store, leases, reportError } = this.#o;
    const id = session.id;
    const done = (async () => {
      const agent = agents.take(session);
      try {
        await (await agent)?.[Symbol.asyncDispose]();
      } catch (error) {
        reportError(error);
      }
      try {
        await store.close(session);
      } finally {
        await leases?.release(id);
      }
    })().catch((error) => {
      // A lost session's last flush is refused by the fence: expected, nothing to report.
      if (!isLeaseLost(error)) reportError(error);
    }).finally(() => {
      this.#releasing.delete(id);
      this.#o.onReleased(id);
    });
    this.#releasing.set(id, done);
    return done;
  }
}
