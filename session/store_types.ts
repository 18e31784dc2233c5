/**
 * The option and observer types of {@linkcode SessionStore} (re-exported by `store.ts`).
 *
 * @module
 */
import type { PersistenceBackend } from "./backend.ts";
import type { Clock } from "./clock.ts";
import type { Session } from "./session.ts";
// deno-lint-ignore no-unused-vars
import type { SessionStore } from "./store.ts";

/**
 * A scoped flush listener. Return the literal `true` only as an explicit durability
 * acknowledgement; observe-only listeners return `void`. A rejection fails the checkpoint.
 *
 * @param session the session being flushed
 * @param throughSeq exclusive bound captured when `flush()` was called
 */
export type FlushListener = (
  session: Session,
  throughSeq: number,
) => true | void | Promise<true | void>;

/**
 * Observer of the `session/flushed(session, throughSeq)` observation: everything with
 * `seq < throughSeq` is durable. Published by acknowledged checkpoints (with the bound captured
 * at `flush()` entry) and by every commit of the persistence coordinator (with the length
 * captured when that write was issued), so a chat message is reported saved without a
 * checkpoint. Bounds may repeat or arrive below an earlier one: observers keep the maximum.
 */
export type FlushedObserver = (session: Session, throughSeq: number) => void;

/**
 * Observer of a session going live (create, resume, fork), called synchronously before any other
 * code can append to it. `durableLength` counts the events storage is known to hold: a resumed
 * session's stored length, a fork's `seedLength` (a fork is stored before it goes live); it is
 * `0` for new sessions, whose header becomes durable only with their first acknowledged flush.
 * `cause` says which operation made it live.
 */
export type LiveObserver = (session: Session, durableLength: number, cause: LiveCause) => void;

/** Why a session went live: `create` (new), `resume` (read back from storage) or `fork`. */
export type LiveCause = "create" | "resume" | "fork";

/** Options of {@linkcode SessionStore}. */
export interface SessionStoreOptions {
  /** Where sessions are persisted. */
  readonly backend: PersistenceBackend;
  /** Wall clock for `createdAt` and event `at`. @default systemClock */
  readonly clock?: Clock;
  /** Session id generator. @default a random 22-char url-safe id */
  readonly generateId?: () => string;
  /** Where observer exceptions go. @default globalThis.reportError */
  readonly reportError?: (error: unknown) => void;
  /**
   * Attach a persistence controller (the acknowledging flush listener) to each live session.
   * `false` keeps sessions in memory only: their checkpoints are empty or observer-only and
   * `flush()` returns `false` unless another listener acknowledges
   * (docs/design.md#persistence-checkpoint). @default true
   */
  readonly persist?: boolean;
  /**
   * A failed write is withdrawn (README.md "How it behaves on failure"): the first write of a live session that
   * storage refuses halts its persistence controller, so neither that write's events nor any
   * appended after them are ever stored by a later flush, and the session is reported to
   * {@linkcode SessionStore.onWithdrawn} observers, which make it cold ({@linkcode
   * SessionStore.close} then skips its flush). Resuming it reads the durable log back: the
   * live session returns to its durable length. A `503 persistence_failed` then means "not
   * stored, retry" (the host turns this on). @default false (the next flush retries the write)
   */
  readonly withdrawFailedWrites?: boolean;
  /**
   * At least this many of the newest committed events stay in each live session's memory;
   * older ones are read with {@linkcode SessionStore.read} (`docs/long-sessions.md`
   * §"Bounded live session"). @default 1,000
   */
  readonly liveTailEvents?: number;
}

/** Range options of {@linkcode SessionStore.readByType}. */
export interface ReadByTypeOptions {
  /** First seq, inclusive. @default 0 */
  readonly from?: number;
  /** End seq, exclusive. @default no bound */
  readonly to?: number;
}

/** Arguments of {@linkcode SessionStore.create}. */
export interface CreateSessionOptions {
  /** The working directory. */
  readonly cwd: string;
  /** A chosen id; a second create with the same id and cwd returns the same session. */
  readonly id?: string;
  /** IANA zone, validated and case-normalized; absent means "unavailable" forever. */
  readonly timeZone?: string;
  /** Who creates it. @default "web" */
  readonly origin?: string;
  /** `0` for root agents. @default 0 */
  readonly delegationDepth?: number;
}

/** Arguments of {@linkcode SessionStore.fork}. */
export interface ForkOptions {
  /** Last parent seq to copy, inclusive. @default the parent's last event */
  readonly throughSeq?: number;
  /** A chosen child id. @default generated */
  readonly id?: string;
}

/**
 * Told that a live session's failed write was withdrawn
 * ({@linkcode SessionStoreOptions.withdrawFailedWrites}): nothing of it, nor anything appended
 * after it, will be stored; make the session cold ({@linkcode SessionStore.close}).
 */
export type WithdrawnObserver = (session: Session, error: unknown) => void;
