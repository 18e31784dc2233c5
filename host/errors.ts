/**
 * The host's own failures: {@linkcode HostError} for requests, {@linkcode ConfigError} for
 * configuration.
 *
 * @module
 */

/** Codes of {@linkcode HostError}; each maps to one HTTP status in `app.onError`. */
export type HostErrorCode =
  | "invalid_json"
  | "invalid_arguments"
  | "invalid_seq"
  | "invalid_request"
  | "invalid_query"
  | "invalid_time_zone"
  | "invalid_session_id"
  | "payload_too_large"
  | "not_found"
  | "tag_not_found"
  | "unknown_field"
  | "session_not_found"
  | "message_not_found"
  | "no_running_turn"
  | "idempotency_key_reused"
  | "session_cold"
  | "session_owned_elsewhere"
  | "shutting_down"
  | "unsupported_media_type"
  | "forbidden_origin"
  | "forbidden_host"
  | "unauthorized"
  | "too_many_attempts"
  | "not_signed_in"
  | "sign_ins_unwritable"
  | "body_incomplete"
  | "body_timeout";

/**
 * A request the host refuses. Messages read `Cannot <action>: <reason>`; clients branch on
 * `code`.
 *
 * @example Branch on the code
 * ```ts
 * import { HostError } from "@chime/host";
 * const error = new HostError("invalid_json", "Cannot read body: not JSON");
 * console.assert(error.code === "invalid_json");
 * ```
 */
export class HostError extends Error {
  /** The failure code. */
  readonly code: HostErrorCode;
  /** Extra structured facts sent beside `code` and `message`. */
  readonly details: Readonly<Record<string, unknown>>;
  /**
   * Creates a host error.
   *
   * @param code failure code
   * @param message `Cannot <action>: <reason>`
   * @param details extra JSON facts
   */
  constructor(code: HostErrorCode, message: string, details: Record<string, unknown> = {}) {
    super(message);
    this.name = "HostError";
    this.code = code;
    this.details = details;
  }
}

/**
 * Codes of {@linkcode ConfigError}: the file (`config_unreadable`, `config_syntax`), its values
 * (`config_invalid`), or the configured address taken by another process (`port_in_use`).
 */
export type ConfigErrorCode =
  | "config_unreadable"
  | "config_syntax"
  | "config_invalid"
  | "port_in_use";

/**
 * A configuration that cannot be used: the message names the file and, for syntax errors, the
 * line and column (1-based); for `port_in_use`, the address (`host:port`).
 *
 * @example Branch on the code
 * ```ts
 * import { ConfigError } from "@chime/host";
 * const error = new ConfigError("config_invalid", "Cannot load config: port must be a number");
 * console.assert(error.code === "config_invalid");
 * ```
 */
export class ConfigError extends Error {
  /** The failure code. */
  readonly code: ConfigErrorCode;
  /**
   * Creates a configuration error.
   *
   * @param code failure code
   * @param message `Cannot load config: <reason>`
   * @param options optional cause
   */
  constructor(code: ConfigErrorCode, message: string, options: { cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = "ConfigError";
    this.code = code;
  }
}
