/**
 * Private: the storage reads behind `SessionStore.read` and `SessionStore.readByType`
 * (`docs/long-sessions.md` §"Bounded live session").
 *
 * @module
 */
import type { PersistenceBackend } from "./backend.ts";
import { SessionError } from "./errors.ts";
import type { SessionEvent } from "./event.ts";
import { deepFreeze, type Session } from "./session.ts";

/** Events per storage query of {@linkcode readRange}. */
const READ_PAGE = 4_096;

/**
 * Reads the stored events `[from, to)` in ranged queries on the primary key; every one of them
 * must be stored.
 *
 * @throws {SessionError} `storage_corrupt` for a damaged or missing row
 */
export async function readRange(
  backend: PersistenceBackend,
  id: string,
  from: number,
  to: number,
): Promise<SessionEvent[]> {
  const out: SessionEvent[] = [];
  for (let next = from; next < to;) {
    const limit = Math.min(READ_PAGE, to - next);
    const page = await backend.readEvents(id, { after: next - 1, limit });
    if (page.length !== limit) {
      throw new SessionError(
        "storage_corrupt",
        `Cannot read session ${id}: stored event ${next + page.length} is missing`,
        { details: { sessionId: id, seq: next + page.length, what: "missing" } },
      );
    }
    for (const event of page) out.push(deepFreeze(event));
    next += limit;
  }
  return out;
}

/**
 * Reads the events of some types in `[from, to)`: below a live session's tail from storage (by
 * index), the tail from memory; a session id that is not live from storage only.
 */
export async function readTypes(
  backend: PersistenceBackend,
  session: Session | string,
  types: readonly string[],
  from: number,
  to: number,
): Promise<SessionEvent[]> {
  if (typeof session === "string") {
    return (await backend.readByType(session, types, from, to)).map(deepFreeze);
  }
  const start = session.tailStart;
  const wanted = new Set(types);
  const held = session.events(Math.max(from, start), to).filter((e) => wanted.has(e.type));
  if (from >= start) return held;
  const stored = await backend.readByType(session.id, types, from, Math.min(to, start));
  return [...stored.map(deepFreeze), ...held];
}
