/**
 * Private: the checks and the new header of `SessionStore.create` (docs/design.md#zone-host-boundary:
 * one zone per session, fixed at creation).
 *
 * @module
 */
import { SessionError } from "./errors.ts";
import { normalizeHeader, type SessionHeader } from "./header.ts";
import type { CreateSessionOptions } from "./store_types.ts";
import { normalizeTimeZone, timeZonesEqual } from "./zone.ts";

/**
 * Checks the options of a create.
 *
 * @returns the normalized zone, if any
 * @throws {SessionError} `invalid_arguments` for a `cwd` that is not a well-formed string (a
 *   lone surrogate would be stored as U+FFFD), `invalid_time_zone`
 */
export function checkCreate(options: CreateSessionOptions): string | undefined {
  if (typeof options.cwd !== "string" || !options.cwd.isWellFormed()) {
    throw new SessionError(
      "invalid_arguments",
      "Cannot create: cwd must be a well-formed string (no lone surrogate)",
      { details: { field: "cwd" } },
    );
  }
  return options.timeZone === undefined ? undefined : normalizeTimeZone(options.timeZone);
}

/**
 * Checks that an existing session `id` is the one a create asks for again.
 *
 * @throws {SessionError} `session_exists` (other cwd), `time_zone_conflict` (non-equal or
 *   missing-vs-present zone, `details.knownTimeZone`)
 */
export function checkExisting(
  existing: SessionHeader,
  cwd: string,
  timeZone: string | undefined,
): void {
  const id = existing.id;
  if (existing.cwd !== cwd) {
    throw new SessionError("session_exists", `Cannot create: ${id} exists for another cwd`);
  }
  const same = existing.timeZone === undefined || timeZone === undefined
    ? existing.timeZone === timeZone
    : timeZonesEqual(existing.timeZone, timeZone);
  if (!same) {
    throw new SessionError(
      "time_zone_conflict",
      `Cannot create: ${id} already has time zone ${existing.timeZone ?? "(none)"}`,
      { details: { knownTimeZone: existing.timeZone ?? null } },
    );
  }
}

/** The canonical header of a new root session created at `nowMs` (epoch ms, UTC). */
export function newHeader(
  id: string,
  options: CreateSessionOptions,
  timeZone: string | undefined,
  nowMs: number,
): SessionHeader {
  return normalizeHeader({
    version: 1,
    id,
    cwd: options.cwd,
    createdAt: new Date(nowMs).toISOString(),
    origin: options.origin ?? "web",
    lineage: null,
    delegationDepth: options.delegationDepth ?? 0,
    ...(timeZone === undefined ? {} : { timeZone }),
  });
}
