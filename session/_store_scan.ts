/**
 * Private: the reads behind `SessionStore.readTypeAcross` and `SessionStore.scanTypes`, every
 * stored session's events of some types in one pass over the store (docs/upcoming.md, "How it
 * reads"): with a backend that has `readTypeAcross` (libSQL) a few keyset-paged walks of its
 * type index; otherwise each session's own read, a few at a time.
 *
 * @module
 */
import type { PersistenceBackend, TypeAcrossPage } from "./backend.ts";
import { SessionError } from "./errors.ts";
import { damageOf } from "./_decode.ts";
import type { SessionEvent } from "./event.ts";
import type { SessionHeader } from "./header.ts";

/**
 * What a scan does with damage: called with each `storage_corrupt` that names one session, which
 * is then left out while the scan goes on to the others (README.md "How it behaves on failure":
 * damage is refused for that session only). Without it the first such error is raised.
 */
export type OnDamage = (error: Error) => void;

/** The session a `storage_corrupt` error names, if it is one (`damageOf`, the doctor's entry). */
function damagedSession(error: unknown): string | undefined {
  if (!(error instanceof SessionError) || error.code !== "storage_corrupt") return undefined;
  const id: unknown = damageOf(error).sessionId;
  return typeof id === "string" ? id : undefined;
}

/** A keyset bound past every row of a session (a type above any stored one, the largest seq). */
function pastSession(sessionId: string): NonNullable<TypeAcrossPage["after"]> {
  return { sessionId, type: "\u{10FFFF}", seq: Number.MAX_SAFE_INTEGER };
}

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
 * With `onDamage`, a page that fails with one session's damage is read again in smaller pages
 * down to the failing row, whose session is then reported and skipped (a keyset bound past
 * it): the rows before it and every later session are still read. A damaged id the bound cannot
 * pass (the same failure right after skipping it) is raised.
 *
 * @param backend the store's backend
 * @param types event types
 * @param pageSize rows per backend page
 * @param onDamage what to do with one session's damage @default raise it
 * @yields `{ sessionId, events }`, events ascending by seq
 */
export async function* readTypeAcross(
  backend: PersistenceBackend,
  types: readonly string[],
  pageSize: number,
  onDamage?: OnDamage,
): AsyncGenerator<{ sessionId: string; events: SessionEvent[] }> {
  if (backend.readTypeAcross === undefined) {
    const ids = (await backend.list(onDamage)).map((h) => h.id).sort();
    const read = (id: string) =>
      backend.readByType(id, types, 0, Number.MAX_SAFE_INTEGER).then(
        (events) => ({ sessionId: id, events }),
        (error) => {
          if (onDamage === undefined || damagedSession(error) === undefined) throw error;
          onDamage(error);
          return { sessionId: id, events: [] };
        },
      );
    for await (const { sessionId, events } of ahead(ids, read)) {
      if (events.length > 0) yield { sessionId, events };
    }
    return;
  }
  let after: TypeAcrossPage["after"];
  let id: string | undefined;
  let group: SessionEvent[] = [];
  let limit = pageSize;
  let skipped: string | undefined;
  for (;;) {
    let rows;
    try {
      rows = await backend.readTypeAcross(types, { ...(after ? { after } : {}), limit });
    } catch (error) {
      const damaged = damagedSession(error);
      const behind = damaged !== undefined && after !== undefined && damaged < after.sessionId;
      if (onDamage === undefined || damaged === undefined || damaged === skipped || behind) {
        throw error;
      }
      if (limit > 1) {
        limit = Math.max(1, limit >> 1);
        continue;
      }
      // The next row fails: its session is left out, rows of it already read included.
      onDamage(error as SessionError);
      if (id === damaged) {
        id = undefined;
        group = [];
      }
      skipped = damaged;
      after = pastSession(damaged);
      limit = pageSize;
      continue;
    }
    skipped = undefined;
    for (const row of rows) {
      if (row.sessionId !== id) {
        if (id !== undefined) yield { sessionId: id, events: group.sort((a, b) => a.seq - b.seq) };
        id = row.sessionId;
        group = [];
      }
      group.push(row.event);
    }
    if (rows.length < limit) break;
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
 * With `onDamage`, a session whose read fails with its own damage (`storage_corrupt` naming it)
 * is reported and not yielded; the others are.
 *
 * @param backend the store's backend
 * @param types event types
 * @param pageSize rows per backend page
 * @param onDamage what to do with one session's damage @default raise it
 * @yields one {@linkcode StoredTypes} per stored session
 */
export async function* scanTypes(
  backend: PersistenceBackend,
  types: readonly string[],
  pageSize: number,
  onDamage?: OnDamage,
): AsyncGenerator<StoredTypes> {
  const wanted = new Set(types);
  const damaged = new Set<string>();
  const contain = onDamage === undefined ? undefined : (error: Error) => {
    damaged.add(damagedSession(error)!);
    onDamage(error);
  };
  if (backend.readTypeAcross === undefined) {
    const ids = (await backend.list(contain)).map((h) => h.id).sort();
    const load = (id: string) =>
      backend.load(id).catch((error) => {
        if (contain === undefined || damagedSession(error) === undefined) throw error;
        contain(error);
        return undefined;
      });
    for await (const stored of ahead(ids, load)) {
      if (stored === undefined) continue;
      const events = stored.events.filter((e) => wanted.has(e.type));
      yield { header: stored.header, length: stored.events.length, events };
    }
    return;
  }
  const lengths = backend.lengths === undefined ? undefined : await backend.lengths();
  const headers = (await backend.list(contain)).sort((a, b) =>
    a.id < b.id ? -1 : a.id > b.id ? 1 : 0
  );
  let next = 0;
  const part = async (header: SessionHeader, events: readonly SessionEvent[]) => {
    if (damaged.has(header.id)) return undefined;
    const length = lengths === undefined
      ? (await backend.cursor(header.id))?.length
      : lengths.get(header.id);
    return length === undefined ? undefined : { header, length, events };
  };
  for await (const { sessionId, events } of readTypeAcross(backend, types, pageSize, contain)) {
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
