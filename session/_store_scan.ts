/**
 * Private: the reads behind `SessionStore.readTypeAcross` and `SessionStore.scanTypes`, every
 * stored session's events of some types in one pass over the store (docs/upcoming.md, "How it
 * reads"): with a backend that has `readTypeAcross` (libSQL) a few keyset-paged walks of its
 * type index; otherwise each session's own read, a few at a time.
 *
 * @module
 */
import type { PersistenceBackend, TypeAcrossPage } from "./backend.ts";
import type { SessionEvent } from "./event.ts";
import type { SessionHeader } from "./header.ts";

/** One stored session's part of {@linkcode scanTypes}. */
export interface StoredTypes {
  /** The stored header. */
  readonly header: SessionHeader;
  /**
   * The stored length, read before the events: the events may reach past it (another host
   * appended meanwhile) but never stop short of it; a reader keeps those below it.
   */
  readonly length: number;
  /** The session's stored events of the types asked for, ascending by seq (maybe none). */
  readonly events: readonly SessionEvent[];
}

/** Sessions read at once by a backend without `readTypeAcross` (JSONL: one file each). */
const READ_AHEAD = 16;

/**
 * The stored events of some types of every stored session that has any, one session at a time
 * in id order (see `SessionStore.readTypeAcross`).
 *
 * @param backend the store's backend
 * @param types event types
 * @param pageSize rows per backend page
 * @yields `{ sessionId, events }`, events ascending by seq
 */
export async function* readTypeAcross(
  backend: PersistenceBackend,
  types: readonly string[],
  pageSize: number,
): AsyncGenerator<{ sessionId: string; events: SessionEvent[] }> {
  if (backend.readTypeAcross === undefined) {
    const ids = (await backend.list()).map((h) => h.id).sort();
    for await (
      const { sessionId, events } of ahead(
        ids,
        (id) =>
          backend.readByType(id, types, 0, Number.MAX_SAFE_INTEGER).then((events) => ({
            sessionId: id,
            events,
          })),
      )
    ) {
      if (events.length > 0) yield { sessionId, events };
    }
    return;
  }
  let after: TypeAcrossPage["after"];
  let id: string | undefined;
  let group: SessionEvent[] = [];
  for (;;) {
    const rows = await backend.readTypeAcross(types, {
      ...(after ? { after } : {}),
      limit: pageSize,
    });
    for (const row of rows) {
      if (row.sessionId !== id) {
        if (id !== undefined) yield { sessionId: id, events: group.sort((a, b) => a.seq - b.seq) };
        id = row.sessionId;
        group = [];
      }
      group.push(row.event);
    }
    if (rows.length < pageSize) break;
    const last = rows[rows.length - 1]!;
    after = { sessionId: last.sessionId, type: last.event.type, seq: last.event.seq };
  }
  if (id !== undefined) yield { sessionId: id, events: group.sort((a, b) => a.seq - b.seq) };
}

/**
 * Every stored session with its header, stored length and stored events of some types, in id
 * order (see `SessionStore.scanTypes`). With `readTypeAcross`: the lengths, then the headers
 * (one read each), then the type index's pages. Without it: each listed session read once
 * (header, length and events from one read), {@linkcode READ_AHEAD} at a time.
 *
 * @param backend the store's backend
 * @param types event types
 * @param pageSize rows per backend page
 * @yields one {@linkcode StoredTypes} per stored session
 */
export async function* scanTypes(
  backend: PersistenceBackend,
  types: readonly string[],
  pageSize: number,
): AsyncGenerator<StoredTypes> {
  const wanted = new Set(types);
  if (backend.readTypeAcross === undefined) {
    const ids = (await backend.list()).map((h) => h.id).sort();
    for await (const stored of ahead(ids, (id) => backend.load(id))) {
      if (stored === undefined) continue;
      const events = stored.events.filter((e) => wanted.has(e.type));
      yield { header: stored.header, length: stored.events.length, events };
    }
    return;
  }
  const lengths = backend.lengths === undefined ? undefined : await backend.lengths();
  const headers = (await backend.list()).sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  let next = 0;
  const part = async (header: SessionHeader, events: readonly SessionEvent[]) => {
    const length = lengths === undefined
      ? (await backend.cursor(header.id))?.length
      : lengths.get(header.id);
    return length === undefined ? undefined : { header, length, events };
  };
  for await (const { sessionId, events } of readTypeAcross(backend, types, pageSize)) {
    // Headers and index rows share the id order (ids are ASCII, compared bytewise by both).
    for (; next < headers.length && headers[next]!.id < sessionId; next++) {
      const found = await part(headers[next]!, []);
      if (found !== undefined) yield found;
    }
    if (headers[next]?.id !== sessionId) continue;
    const found = await part(headers[next++]!, events);
    if (found !== undefined) yield found;
  }
  for (; next < headers.length; next++) {
    const found = await part(headers[next]!, []);
    if (found !== undefined) yield found;
  }
}

/**
 * Runs `read` over `ids` with up to {@linkcode READ_AHEAD} in flight, yielding in `ids` order.
 * A failure is raised when its turn comes (later reads still settle, unobserved).
 */
async function* ahead<T>(
  ids: readonly string[],
  read: (id: string) => Promise<T>,
): AsyncGenerator<T> {
  const pending: Promise<T>[] = [];
  let next = 0;
  const fill = () => {
    while (next < ids.length && pending.length < READ_AHEAD) {
      const p = read(ids[next++]!);
      p.catch(() => {});
      pending.push(p);
    }
  };
  fill();
  while (pending.length > 0) {
    const value = await pending.shift()!;
    fill();
    yield value;
  }
}
