/**
 * The one domain error of `@chime/session`.
 *
 * @module
 */

/** Closed set of failure codes a caller of the session layer must handle. */
export type SessionErrorCode =
  | "invalid_time_zone"
  | "time_zone_conflict"
  | "session_not_found"
  | "session_exists"
  | "invalid_session_id"
  | "invalid_seq"
  | "session_closed"
  | "persistence_failed"
  | "schema_rejected"
  | "storage_in_use"
  | "storage_unavailable"
  | "storage_read_only"
  | "storage_corrupt"
  | "storage_lost"
  | "lease_lost"
  | "invalid_arguments";

/**
 * A session-layer failure with a machine-readable {@linkcode SessionErrorCode}.
 * Messages read `Cannot <action>: <reason>`; callers branch on `code`, never on text.
 *
 * @example Branch on the code
 * ```ts
 * import { SessionError } from "@chime/session";
 * const error = new SessionError("session_not_found", "Cannot resume: no session x");
 * console.assert(error.code === "session_not_found");
 * ```
 */
export class SessionError extends Error {
  /** The machine-readable failure code. */
  readonly code: SessionErrorCode;
  /** Extra structured facts for the caller (e.g. `knownTimeZone`). */
  readonly details: Readonly<Record<string, unknown>>;

  /**
   * Creates a session error.
   *
   * @param code the failure code
   * @param message `Cannot <action>: <reason>`
   * @param options `cause` and structured `details`
   */
  constructor(
    code: SessionErrorCode,
    message: string,
    options: { cause?: unknown; details?: Record<string, unknown> } = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = "SessionError";
    this.code = code;
    this.details = options.details ?? {};
  }
}
