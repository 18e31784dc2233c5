// Private: the storage doctor's log checks (docs/errors.md "Schedule log"; README "Failure
// behaviour"): beyond the envelope checks of the raw scan, each plugin that owns event types may
// decode and fold a session's events of those types and name each one it refuses. The session
// package knows no plugin: checks arrive as values (`LogCheck`), from the host's registry.
import type { SessionEvent } from "./event.ts";
import type { SessionHeader } from "./header.ts";
import type { PersistenceBackend } from "./backend.ts";
import type { StorageDamage } from "./_decode.ts";
import { SessionError } from "./errors.ts";

/** One stored event a {@linkcode LogCheck} refuses. */
export interface LogFinding {
  /** The event's seq. */
  readonly seq: number;
  /** What is wrong, e.g. `schedule/change refused: …`. */
  readonly what: string;
}

/**
 * A plugin's check of one stored session for the storage doctor: pure, it reads only what it is
 * given and writes nothing.
 */
export interface LogCheck {
  /** The event types it reads (e.g. `["schedule/change"]`). */
  readonly types: readonly string[];
  /**
   * Decodes and folds a session's events of {@linkcode LogCheck.types}.
   *
   * @param header the session header (a fork's `seedLength` included)
   * @param events the session's events of those types, ascending by seq
   * @returns one finding per refused event, in log order
   */
  check(header: SessionHeader, events: readonly SessionEvent[]): readonly LogFinding[];
}

/** The findings of every check over one session's events, as damage. */
export function runChecks(
  checks: readonly LogCheck[],
  header: SessionHeader,
  events: readonly SessionEvent[],
): StorageDamage[] {
  const damage: StorageDamage[] = [];
  for (const check of checks) {
    const own = events.filter((event) => check.types.includes(event.type));
    for (const { seq, what } of check.check(header, own)) {
      damage.push({ sessionId: header.id, seq, what });
    }
  }
  return damage;
}

/**
 * Runs the checks over every session a backend lists, reading only the checked types through
 * its type index. A session the raw scan already found damaged is skipped (it cannot be read
 * whole; that damage is reported already).
 */
export async function checkLogs(
  backend: PersistenceBackend,
  checks: readonly LogCheck[],
): Promise<StorageDamage[]> {
  if (checks.length === 0) return [];
  const types = [...new Set(checks.flatMap((check) => check.types))];
  const damage: StorageDamage[] = [];
  for (const header of await backend.list()) {
    try {
      const length = (await backend.cursor(header.id))?.length ?? 0;
      const events = await backend.readByType(header.id, types, 0, length);
      damage.push(...runChecks(checks, header, events));
    } catch (error) {
      // Unreadable: the raw scan reports that damage, by seq.
      if (!(error instanceof SessionError) || error.code !== "storage_corrupt") throw error;
    }
  }
  return damage;
}
