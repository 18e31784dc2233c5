/**
 * The event envelope and the data shapes of the event catalog (docs/events.md#catalog).
 *
 * @module
 */

/**
 * One entry of a session's append-only log.
 *
 * @typeParam T the event type, e.g. `schedule/change`
 * @typeParam D the data shape for that type
 */
export interface SessionEvent<T extends string = string, D = unknown> {
  /** 0-based, dense position in the session log. */
  readonly seq: number;
  /** The event type (catalog in docs/events.md#catalog). */
  readonly type: T;
  /** Append instant, UTC RFC 3339 with milliseconds. */
  readonly at: string;
  /** Type-specific JSON data. */
  readonly data: D;
}

/** Where a prompt came from; bound immutably to the message by the host. */
export interface MessageSource {
  /** Always `web` for the official web path. */
  readonly kind: "web";
  /** The browser's IANA zone sampled for this one prompt (request provenance). */
  readonly clientTimeZone?: string;
}

/** Data of a `user-rpc` event. */
export interface UserRpcData {
  /** Stable id of this message. */
  readonly messageId: string;
  /** The prompt text (plain text, never HTML). */
  readonly text: string;
  /** Immutable provenance. */
  readonly source: MessageSource;
  /** The message id this one edits, if it is an edit. */
  readonly edits?: string;
  /**
   * The client's `Idempotency-Key` of the request that sent it (README "HTTP API"): a retry
   * with the same key is answered with this message, never stored twice.
   */
  readonly idempotencyKey?: string;
}

/** Data of `turn/start`. */
export interface TurnStartData {
  /** The turn id. */
  readonly turnId: string;
}

/** Data of `turn/end`. */
export interface TurnEndData {
  /** The turn id. */
  readonly turnId: string;
  /** How the turn ended. */
  readonly outcome: "completed" | "error" | "cancelled";
  /** A human-readable error for `outcome: 'error'`. */
  readonly error?: string;
  /**
   * For `outcome: 'cancelled'`: the `user-rpc` message ids the Stop ended, the turn's own first,
   * then those queued behind it at that moment (docs/events.md). The model sees them as stopped.
   */
  readonly stoppedMessageIds?: readonly string[];
}

/**
 * Data of `step/start`. `messageIds` names the `user-rpc` messages claimed into this step's
 * batch (possibly empty for a follow-up-only step): the durable link from a turn to its
 * messages' provenance (docs/design.md#request-provenance).
 */
export interface StepStartData {
  /** The turn id. */
  readonly turnId: string;
  /** 0-based step number within the turn. */
  readonly step: number;
  /** The `user-rpc` message ids claimed into this step. */
  readonly messageIds: readonly string[];
}

/** Data of `session/end-seed`: closes the inherited prefix of a fork. */
export interface EndSeedData {
  /** Length of the prefix including this event. */
  readonly seedLength: number;
}

/** Builds the UTC RFC 3339 millisecond timestamp used in `at` fields. */
export function isoMillis(epochMs: number): string {
  return new Date(epochMs).toISOString();
}
