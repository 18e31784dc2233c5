/**
 * The one domain error of `@chime/schedule` and the tool-result failure shape
 * (docs/errors.md#tool-codes).
 *
 * @module
 */

/**
 * Failure codes a model sees in a tool result (docs/errors.md#tool-codes); closed.
 */
export type ToolErrorCode =
  | "invalid_arguments"
  | "unsupported_rule"
  | "rule_never_occurs"
  | "not_in_future"
  | "invalid_time_zone"
  | "nonexistent_local_time"
  | "timezone_confirmation_required"
  | "persistence_uncertain"
  | "schedule_not_found"
  | "schedule_not_active"
  | "not_an_occurrence"
  | "storage_corrupt";

/**
 * Every schedule failure code: the tool codes plus `invalid_event` (the strict decoder refused
 * a `schedule/change` payload) and `invalid_log` (the fold refused a sequence of changes).
 */
export type ScheduleErrorCode = ToolErrorCode | "invalid_event" | "invalid_log";

/** Structured facts attached to a failure, e.g. the zones a caller may confirm. */
export interface ScheduleErrorDetails {
  /** Zones the caller may pick from (only for `timezone_confirmation_required`). */
  readonly knownTimeZones?: readonly string[];
  /** The offending log position (for `invalid_log`). */
  readonly seq?: number;
  /** The schedule id concerned, when there is one. */
  readonly id?: string;
}

/**
 * A schedule failure with a machine-readable {@linkcode ScheduleErrorCode}.
 * Messages read `Cannot <action>: <reason>`; callers branch on `code`, never on text.
 *
 * @example Branch on the code
 * ```ts
 * import assert from "node:assert/strict";
 * import { ScheduleError } from "@chime/schedule";
 * const error = new ScheduleError("not_in_future", "Cannot schedule: the time has passed");
 * assert(error.code === "not_in_future");
 * ```
 */
export class ScheduleError extends Error {
  /** The machine-readable failure code. */
  readonly code: ScheduleErrorCode;
  /** Structured facts for the caller. */
  readonly details: ScheduleErrorDetails;

  /**
   * Creates a schedule failure.
   *
   * @param code the failure code
   * @param message `Cannot <action>: <reason>`
   * @param options the underlying `cause` and structured `details`
   */
  constructor(
    code: ScheduleErrorCode,
    message: string,
    options: { readonly cause?: unknown; readonly details?: ScheduleErrorDetails } = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = "ScheduleError";
    this.code = code;
    this.details = options.details ?? {};
  }
}

/** The `error` member of a failed tool result. */
export interface ToolError {
  /** The machine-readable code. */
  readonly code: ToolErrorCode;
  /** `Cannot <action>: <reason>`, for the model and logs. */
  readonly message: string;
  /** Zones the user may confirm (only for `timezone_confirmation_required`). */
  readonly knownTimeZones?: readonly string[];
  /** The schedule id concerned (e.g. `schedule_not_found`). */
  readonly id?: string;
  /** The log position of the damaged change that holds the reminder (`storage_corrupt`). */
  readonly seq?: number;
}

/** A failed tool result: `{ ok: false, error: { code, message, ...extra } }`. */
export interface ToolFailure {
  /** Always `false`. */
  readonly ok: false;
  /** What went wrong. */
  readonly error: ToolError;
}

/** Optional members of a {@linkcode ToolError} beyond `code` and `message`. */
export type ToolErrorExtra = Pick<ToolError, "knownTimeZones" | "id" | "seq">;

/**
 * Builds a failed tool result (docs/errors.md#tool-codes).
 *
 * @param code the tool error code
 * @param message `Cannot <action>: <reason>`
 * @param extra optional members copied into `error`
 * @returns `{ ok: false, error: { code, message, ...extra } }`
 *
 * @example A confirmation request
 * ```ts
 * import assert from "node:assert/strict";
 * import { toolError } from "@chime/schedule";
 * const failure = toolError("timezone_confirmation_required", "Cannot schedule: which zone?", {
 *   knownTimeZones: ["Europe/Paris"],
 * });
 * assert(failure.error.knownTimeZones?.[0] === "Europe/Paris");
 * ```
 */
export function toolError(
  code: ToolErrorCode,
  message: string,
  extra: ToolErrorExtra = {},
): ToolFailure {
  return { ok: false, error: { code, message, ...extra } };
}

/**
 * Converts a caught {@linkcode ScheduleError} with a tool code into a failed tool result,
 * keeping `knownTimeZones` and `id`. Anything else (other errors; decoder and fold failures
 * `invalid_event`/`invalid_log`, which are not the caller's fault) is rethrown, never swallowed.
 *
 * @param error a caught value
 * @returns the tool failure
 * @throws {unknown} `error` itself when it is not a schedule error with a tool code
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { ScheduleError, toolFailureFrom } from "@chime/schedule";
 * const failure = toolFailureFrom(new ScheduleError("invalid_time_zone", "Cannot use zone: x"));
 * assert(failure.error.code === "invalid_time_zone");
 * ```
 */
export function toolFailureFrom(error: unknown): ToolFailure {
  if (!(error instanceof ScheduleError)) throw error;
  const { code } = error;
  if (code === "invalid_event" || code === "invalid_log") throw error;
  const extra: { -readonly [K in keyof ToolErrorExtra]: ToolErrorExtra[K] } = {};
  if (error.details.knownTimeZones !== undefined) {
    extra.knownTimeZones = error.details.knownTimeZones;
  }
  if (error.details.id !== undefined) extra.id = error.details.id;
  return toolError(code, error.message, extra);
}
