/**
 * Private: the checkpoint half of `SessionStore` (docs/design.md#persistence-checkpoint):
 * the scoped flush listeners and persistence controller of each live session, `flush()` and the
 * `session/flushed` observations.
 *
 * @module
 */
import type { PersistenceBackend } from "./backend.ts";
import { PersistenceController } from "./coordinator.ts";
import { SessionError } from "./errors.ts";
import type { Session } from "./session.ts";
import type { FlushedObserver, FlushListener } from "./store_types.ts";

function flushFailure(session: Session, failures: readonly unknown[]): unknown {
  if (failures.length === 1 && failures[0] instanceof SessionError) return failures[0];
  const cause = failures.length === 1 ? failures[0] : new AggregateError(failures);
  return new SessionError(
    "persistence_failed",
    `Cannot flush: ${failures.length} listener(s) of ${session.id} failed`,
    { cause },
  );
}

/** What the checkpoint keeps per live session. */
interface Live {
  readonly listeners: Set<FlushListener>;
  readonly controller: PersistenceController | undefined;
  /** Publishes this session's `session/flushed` (the controller's commit observer too). */
  readonly publish: (throughSeq: number) => void;
}

/** The flush listeners, controllers and `session/flushed` observers of one store. */
export class Checkpoints {
  readonly #live = new WeakMap<Session, Live>();
  readonly #observers = new Set<FlushedObserver>();
  /** `#observers` as an array, replaced (never changed) when the set changes. */
  #observerList: readonly FlushedObserver[] = [];
  readonly #reportError: (error: unknown) => void;

  /** @param reportError where observer exceptions go */
  constructor(reportError: (error: unknown) => void) {
    this.#reportError = reportError;
  }

  /**
   * Registers a session going live. With a backend, its persistence controller is created,
   * registered as its scoped flush listener and started.
   *
   * @param backend where the controller writes; `undefined` for a store that does not persist
   * @param seedEnd the prefix the controller rebuilds on initialization
   * @param durableLength the prefix storage already holds
   * @param onWriteFailed when given, the controller halts at its first failed write and tells it
   */
  attach(
    session: Session,
    backend: PersistenceBackend | undefined,
    seedEnd: number,
    durableLength: number,
    onWriteFailed?: (error: SessionError) => void,
  ): void {
    const publish = (throughSeq: number): void => this.publish(session, throughSeq);
    if (backend === undefined) {
      this.#live.set(session, { listeners: new Set(), controller: undefined, publish });
      return;
    }
    const controller = new PersistenceController(session, backend, seedEnd, {
      durableLength,
      // Every commit of the coordinator is observed, not only checkpoints: plain chat is
      // acknowledged as saved too (eager and group commits).
      onCommit: publish,
      ...(onWriteFailed === undefined ? {} : { onWriteFailed }),
    });
    const listeners = new Set<FlushListener>([(_s, through) => controller.flush(through)]);
    this.#live.set(session, { listeners, controller, publish });
    controller.start();
  }

  /** The persistence controller of a live session, if it has one. */
  controller(session: Session): PersistenceController | undefined {
    return this.#live.get(session)?.controller;
  }

  /**
   * Forgets a session going cold: its listeners go; the caller disposes the returned controller.
   *
   * @returns the session's controller, if it had one
   */
  detach(session: Session): PersistenceController | undefined {
    const controller = this.#live.get(session)?.controller;
    this.#live.delete(session);
    return controller;
  }

  /**
   * Registers a scoped flush listener for one live session.
   *
   * @throws {SessionError} `session_closed` when the session is not live
   */
  addListener(session: Session, listener: FlushListener): Disposable {
    const set = this.#live.get(session)?.listeners;
    if (set === undefined) {
      throw new SessionError("session_closed", `Cannot listen: session ${session.id} is not live`);
    }
    set.add(listener);
    return { [Symbol.dispose]: () => set.delete(listener) };
  }

  /** Subscribes to `session/flushed(session, throughSeq)`. */
  onFlushed(observer: FlushedObserver): Disposable {
    this.#observers.add(observer);
    this.#observerList = [...this.#observers];
    return {
      [Symbol.dispose]: () => {
        this.#observers.delete(observer);
        this.#observerList = [...this.#observers];
      },
    };
  }

  /** `SessionStore.flush` (see there). */
  flush(session: Session): Promise<boolean> {
    const throughSeq = session.length;
    const live = this.#live.get(session);
    if (live?.controller !== undefined && live.listeners.size === 1) {
      // The common case: the controller's own listener alone (it is never removed while live).
      // Its write op acknowledges and publishes; no settle-all bookkeeping, no promise of ours.
      return live.controller.flush(throughSeq, live.publish);
    }
    return this.#flushAll(session, throughSeq, [...(live?.listeners ?? [])]);
  }

  async #flushAll(
    session: Session,
    throughSeq: number,
    listeners: readonly FlushListener[],
  ): Promise<boolean> {
    const results = await Promise.allSettled(
      listeners.map(async (listener) => await listener(session, throughSeq)),
    );
    const failures = results.flatMap((r) => r.status === "rejected" ? [r.reason] : []);
    if (failures.length > 0) throw flushFailure(session, failures);
    if (!results.some((r) => r.status === "fulfilled" && r.value === true)) return false;
    this.publish(session, throughSeq);
    return true;
  }

  /** Publishes `session/flushed(session, throughSeq)` to every observer. */
  publish(session: Session, throughSeq: number): void {
    for (const observer of this.#observerList) {
      try {
        observer(session, throughSeq);
      } catch (error) {
        this.#reportError(error);
      }
    }
  }
}
