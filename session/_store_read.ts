/**
 * Private: the reads behind `SessionStore.read`, `readByType` and `list`
 * (`docs/long-sessions.md` §"Bounded live session"), and the store's small helpers (ids, the
 * per-id lock).
 *
 * @module
 */
import type { PersistenceBackend } from "./backend.ts";
import { SessionError } from "./errors.ts";
import type { SessionEvent } from "./event.ts";
import type { SessionHeader } from "./header.ts";
import { deepFreeze, type Session } from "./session.ts";

/** A random url-safe session id (22 characters of base64url, 132 bits). */
export function randomId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return btoa(String.fromCharCode(...bytes)).replace(/\+/g, "-").replace(/\//g, "_").slice(0, 22);
}

/** Runs `op` after every earlier op locked on `id` settled (create/resume/fork/close). */
export function withIdLock<T>(
  locks: Map<string, Promise<unknown>>,
  id: string,
  op: () => Promise<T>,
): Promise<T> {
  const prev = locks.get(id) ?? Promise.resolve();
  const run = prev.catch(() => {}).then(op);
  const tail = run.catch(() => {});
  locks.set(id, tail);
  tail.then(() => {
    if (locks.get(id) === tail) locks.delete(id);
  });
  return run;
}

/**
 * Stored headers merged with live ones not yet stored, newest first. Ties on createdAt (same
 * millisecond) order by id, as libSQL and JSONL list them, so a session's place never depends on
 * whether its header is stored yet.
 */
export function mergeHeaders(
  stored: readonly SessionHeader[],
  live: readonly SessionHeader[],
): SessionHeader[] {
  const ids = new Set(stored.map((h) => h.id));
  const extra = live.filter((h) => !ids.has(h.id));
  return [...extra, ...stored].sort((a, b) =>
    b.createdAt.localeCompare(a.createdAt) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)
  );
}

/**
 * `SessionStore.read`: `[from, to)` of a live session, below its tail from storage.
 *
 * @throws {RangeError} when a bound is not a non-negative integer
 * @throws {SessionError} `storage_corrupt`
 */
export async function readSession(
  backend: PersistenceBackend,
  session: Session,
  from: number,
  to: number,
): Promise<SessionEvent[]> {
  if (!Number.isSafeInteger(from) || from < 0 || !Number.isSafeInteger(to) || to < 0) {
    throw new RangeError(`Cannot read events: [${from}, ${to}) is not a seq range`);
  }
  const end = Math.min(to, session.length);
  if (end <= from) return [];
  // Capture the memory part first: the tail may move while storage is read.
  const start = session.tailStart;
  const held = session.events(Math.max(from, start), end);
  if (from >= start) return [...held];
  const stored = await readRange(backend, session.id, from, Math.min(end, start));
  for (const event of held) stored.push(event);
  return stored;
}

/**
 * Checks the arguments of `SessionStore.readByType`.
 *
 * @throws {RangeError} when `types` is not an array of strings or a bound is not a seq
 */
export function checkTypeQuery(types: readonly string[], from: number, to: number): void {
  if (!Array.isArray(types) || types.some((t) => typeof t !== "string")) {
    throw new RangeError("Cannot read events by type: types must be an array of strings");
  }
  if (!Number.isSafeInteger(from) || from < 0 || !Number.isSafeInteger(to) || to < 0) {
    throw new RangeError(`Cannot read events by type: [${from}, ${to}) is not a seq range`);
  }
}

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
