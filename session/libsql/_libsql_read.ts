/**
 * Private: the read queries of the libSQL backend (documented on `LibsqlBackend`).
 *
 * @module
 */
import type { Client } from "@libsql/client";
import type {
  EventPage,
  StoredCursor,
  StoredSession,
  StoredTail,
  TypeAcrossPage,
  TypedEvent,
} from "../backend.ts";
import type { SessionEvent } from "../event.ts";
import type { SessionHeader } from "../header.ts";
import { corrupt, decodeText } from "../_decode.ts";
import { headersOf, typedRowToEvent } from "../_rows.ts";
import type { SessionError } from "../errors.ts";
import {
  EVENT_READ,
  HEADER_COLUMNS,
  indexedLast,
  pageEvents,
  rowToEvent,
  rowToHeader,
  SELECT_CURSOR,
  SELECT_EVENTS,
  SELECT_HEADERS,
  SELECT_LENGTHS,
  SELECT_TAIL,
  selectByType,
  selectPage,
  selectTypeAcross,
  typedCopy,
} from "./_libsql_sql.ts";

/**
 * Reads a whole session (`LibsqlBackend.load`). The rows are counted through `events_by_type`
 * too: a damaged table page that drops rows (the newest ones leave no hole to see) or a damaged
 * index disagrees with the table, and the read is `storage_corrupt`, not a shorter log.
 */
export async function loadAll(client: Client, id: string): Promise<StoredSession | undefined> {
  const [head, rows, indexed] = await client.batch([
    { sql: SELECT_CURSOR, args: [id] },
    { sql: SELECT_EVENTS, args: [id] },
    { sql: COUNT_INDEXED, args: [id] },
  ], "read");
  const row = head!.rows[0];
  const counted = Number(indexed!.rows[0]!.n);
  if (row === undefined) {
    // Events without a header: the header row (or its page) is damaged, not a missing session.
    if (counted > 0 || rows!.rows.length > 0) {
      throw corrupt({ sessionId: id }, "the header row is missing");
    }
    return undefined;
  }
  const events = rows!.rows.map((r, i) => rowToEvent(r, id, i));
  checkedLength(row, id);
  if (counted !== events.length) {
    throw corrupt(
      { sessionId: id, seq: Math.min(counted, events.length) },
      `the table holds ${events.length} events, its type index ${counted}`,
    );
  }
  return { header: rowToHeader(row, id), events };
}

/**
 * The stored length from a cursor row, checked against the type index's copy of the keys
 * (`indexed_last`): a table that lost its newest rows, or an index that lost or gained keys, is
 * `storage_corrupt`, never a shorter or longer log.
 */
function checkedLength(row: Record<string, unknown>, id: string): number {
  const last = lastSeq(row.last_seq, id);
  const indexed = lastSeq(row.indexed_last, id);
  if (last !== indexed) {
    throw corrupt(
      { sessionId: id, seq: Math.min(last, indexed) + 1 },
      `the table's last seq is ${last}, its type index's ${indexed}`,
    );
  }
  return last + 1;
}

/**
 * A `max(seq)` value as a number, -1 for a session without events (SQL NULL).
 *
 * @throws {SessionError} `storage_corrupt` when it is not a seq (a damaged interior page can
 *   make the seek yield another value)
 */
function lastSeq(value: unknown, id: string): number {
  if (value === null || value === undefined) return -1;
  const seq = Number(value);
  if (!Number.isSafeInteger(seq) || seq < 0) {
    throw corrupt({ sessionId: id }, `the stored last seq reads as ${String(value)}`);
  }
  return seq;
}

/**
 * The first key of a covering walk of the type index that the joined read did not return as its
 * row (the join skips a key whose table row is gone without a word), or `undefined` when every
 * key came back, in order, and nothing else did.
 *
 * @param keys the index walk's keys, in index order
 * @param rows the joined read's rows, in the same order
 */
function unreturnedKey(
  keys: readonly Key[],
  rows: readonly Key[],
): Key | undefined {
  const at = keys.findIndex((k, i) => rows[i]?.seq !== k.seq || rows[i]?.sessionId !== k.sessionId);
  if (at >= 0) return keys[at];
  return rows.length > keys.length ? rows[keys.length] : undefined;
}

/**
 * A header row that reads as missing while events of its id are stored: the header (or its
 * page) is damaged, not an unknown session.
 */
async function missingHeader(client: Client, id: string): Promise<undefined> {
  const { rows } = await client.execute({
    sql: "SELECT 1 FROM events WHERE session_id = ? LIMIT 1",
    args: [id],
  });
  if (rows.length > 0) throw corrupt({ sessionId: id }, "the header row is missing");
  return undefined;
}

const COUNT_INDEXED =
  "SELECT count(*) AS n FROM events INDEXED BY events_by_type WHERE session_id = ?";

/** Reads the header, length and newest `count` events (`LibsqlBackend.tail`). */
export async function readTail(
  client: Client,
  id: string,
  count: number,
): Promise<StoredTail | undefined> {
  const [head, rows] = await client.batch([
    { sql: SELECT_CURSOR, args: [id] },
    { sql: SELECT_TAIL, args: [id, count] },
  ], "read");
  const row = head!.rows[0];
  if (row === undefined) return await missingHeader(client, id);
  const length = checkedLength(row, id);
  const newest = rows!.rows;
  const start = length - Math.min(count, length);
  // max(seq) is present, so any hole shifts the oldest row returned below `start` (or above it
  // when fewer rows exist): the first row then fails its expected seq.
  const events = newest.toReversed().map((r, i) => rowToEvent(r, id, start + i));
  return { header: rowToHeader(row, id), length, events };
}

/**
 * Reads events by type from the index (`LibsqlBackend.readByType`). Three reads in one batch:
 * the rows joined through `events_by_type`, that index's own keys (the join drops a key whose
 * table row is gone without a word) and, for the types `events_typed` holds, its copy of the
 * keys (a key damaged inside `events_by_type` is passed by a seek; the copy still holds it).
 * Any disagreement is `storage_corrupt` naming the first key that differs.
 */
export async function readTypes(
  client: Client,
  id: string,
  types: readonly string[],
  from: number,
  to: number,
): Promise<SessionEvent[]> {
  if (types.length === 0 || to <= from) return [];
  const args = [id, ...types, from, to];
  const keysOf = (sql: string) => ({ sql: sql.replace(EVENT_READ, "seq"), args });
  const [joined, keys, copy] = await client.batch([
    { sql: selectByType(types.length), args },
    keysOf(selectByType(types.length)),
    ...(typedCopy(types) ? [keysOf(selectByType(types.length, "events_typed"))] : []),
  ], "read");
  const events = joined!.rows.map((r) => typedRowToEvent(r, id, types, from, to));
  const key = (r: Record<string, unknown>) => ({ sessionId: id, seq: Number(r.seq) });
  checkKeys(
    keys!.rows.map(key),
    events.map((e) => ({ sessionId: id, seq: e.seq })),
    copy?.rows.map(key),
  );
  return events;
}

/** Reads one page of events by type across sessions (`LibsqlBackend.readTypeAcross`). */
export async function readTypesAcross(
  client: Client,
  types: readonly string[],
  page: TypeAcrossPage,
): Promise<TypedEvent[]> {
  if (types.length === 0) return [];
  const a = page.after;
  const bound = a === undefined ? [] : [a.sessionId, a.type, a.seq];
  const sql = selectTypeAcross(types.length, a !== undefined);
  const args = [...types, ...bound, page.limit];
  const keysOf = (sql: string) => ({ sql: sql.replace(EVENT_READ, "seq"), args });
  const [joined, keys, copy] = await client.batch([
    { sql, args },
    keysOf(sql),
    ...(typedCopy(types)
      ? [keysOf(selectTypeAcross(types.length, a !== undefined, "events_typed"))]
      : []),
  ], "read");
  const out = joined!.rows.map((r) => {
    const sessionId = decodeText(r.session_id, { sessionId: "(unreadable id)" }, "session_id");
    return { sessionId, event: typedRowToEvent(r, sessionId, types) };
  });
  const key = (k: Record<string, unknown>) => ({
    sessionId: decodeText(k.session_id, { sessionId: "(unreadable id)" }, "session_id"),
    seq: Number(k.seq),
  });
  checkKeys(
    keys!.rows.map(key),
    out.map((r) => ({ sessionId: r.sessionId, seq: r.event.seq })),
    copy?.rows.map(key),
  );
  return out;
}

type Key = { readonly sessionId: string; readonly seq: number };

/**
 * Compares a typed read's three views: `events_by_type`'s keys with the joined rows, then (when
 * read) `events_typed`'s copy with those keys.
 *
 * @throws {SessionError} `storage_corrupt` naming the first key that differs
 */
function checkKeys(keys: readonly Key[], rows: readonly Key[], copy: readonly Key[] | undefined) {
  const lost = unreturnedKey(keys, rows);
  if (lost !== undefined) throw corrupt(lost, "the type index names a row the table does not hold");
  // unreturnedKey also names a key the second list holds past the end of the first.
  const differs = copy === undefined ? undefined : unreturnedKey(copy, keys);
  if (differs !== undefined) {
    throw corrupt(differs, "the two type indexes hold different keys");
  }
}

/** Reads one dense page (`LibsqlBackend.readEvents`). */
export async function readPage(
  client: Client,
  id: string,
  page: EventPage,
): Promise<SessionEvent[]> {
  const { stmt } = selectPage(id, page);
  const { events, missingIfStored } = pageEvents(
    (await client.execute(stmt)).rows,
    id,
    page,
  );
  // A short page is whole only when neither the table nor the type index's copy of the keys
  // holds a later seq.
  if (missingIfStored !== undefined) {
    const { rows } = await client.execute({
      sql: `SELECT (SELECT max(seq) FROM events WHERE session_id = ?1) AS last_seq,
        (${indexedLast("?1")}) AS indexed_last`,
      args: [id],
    });
    const last = Math.max(lastSeq(rows[0]!.last_seq, id), lastSeq(rows[0]!.indexed_last, id));
    if (last >= missingIfStored) {
      throw corrupt({ sessionId: id, seq: missingIfStored }, "missing");
    }
  }
  return events;
}

/** Lists the readable headers (`LibsqlBackend.list`). */
export async function readHeaders(
  client: Client,
  onDamage?: (error: SessionError) => void,
): Promise<SessionHeader[]> {
  return headersOf((await client.execute(SELECT_HEADERS)).rows, onDamage);
}

/**
 * Every stored session's length in one read ({@linkcode SELECT_LENGTHS}). A session whose header
 * does not decode or verify (README.md "How it behaves on failure"), or whose last seq is not a
 * seq (a damaged page), is left out, as `list()` leaves it out: its own reads are
 * `storage_corrupt`.
 *
 * @param client the database
 * @returns id → stored length
 */
export async function readLengths(client: Client): Promise<Map<string, number>> {
  const value = (await client.execute(SELECT_LENGTHS)).rows[0]?.lengths;
  const out = new Map<string, number>();
  if (!(value instanceof ArrayBuffer)) return out;
  const bytes = new Uint8Array(value);
  let whole: string | undefined;
  try {
    whole = STRICT.decode(bytes);
  } catch {
    // Some header holds a byte that is not UTF-8: decode line by line, leaving that one out.
  }
  const lines = whole?.split("\n") ?? splitLines(bytes);
  for (const line of lines) {
    const entry = lengthOf(line);
    if (entry !== undefined) out.set(entry[0], entry[1]);
  }
  return out;
}

const STRICT = new TextDecoder("utf-8", { fatal: true });
const COLUMNS = HEADER_COLUMNS.split(", ");

/** The lines of the bytes that decode as UTF-8. */
function splitLines(bytes: Uint8Array): string[] {
  const out: string[] = [];
  for (let at = 0; at <= bytes.length;) {
    let nl = bytes.indexOf(0x0a, at);
    if (nl === -1) nl = bytes.length;
    try {
      out.push(STRICT.decode(bytes.subarray(at, nl)));
    } catch {
      // left out: that header's own reads are storage_corrupt
    }
    at = nl + 1;
  }
  return out;
}

/**
 * Header texts (the line without its last seq) that verified, by id. Verification is a pure
 * function of the text and a stored header never changes, so a later `lengths()` (the Upcoming
 * poll of shared storage) verifies only headers it has not seen. Bounded: cleared when full.
 */
const VERIFIED = new Map<string, string>();
const VERIFIED_MAX = 100_000;

/** A last seq as `json_array` wrote it: -1 for `null` (no events), `undefined` if no seq. */
function seqText(text: string): number | undefined {
  if (text === "null") return -1;
  const seq = Number(text);
  return Number.isSafeInteger(seq) && seq >= 0 ? seq : undefined;
}

/**
 * One session's `[id, length]`, or `undefined` when its header is damaged, a last seq is not a
 * seq, or the table's and the type index's last seqs differ (a damaged page: its own reads are
 * `storage_corrupt`, `checkedLength`).
 */
function lengthOf(line: string): [string, number] | undefined {
  // `[…header columns…,table last,index last]`: both are numbers or null, so the line's last
  // two commas end the header.
  const second = line.lastIndexOf(",");
  const first = line.lastIndexOf(",", second - 1);
  if (!line.endsWith("]") || first < 0) return undefined;
  const last = seqText(line.slice(first + 1, second));
  if (last === undefined || last !== seqText(line.slice(second + 1, -1))) return undefined;
  const head = line.slice(0, first);
  const known = VERIFIED.get(head);
  if (known !== undefined) return [known, last + 1];
  let values: unknown;
  try {
    values = JSON.parse(`${head}]`);
  } catch {
    return undefined;
  }
  if (!Array.isArray(values) || values.length !== COLUMNS.length) return undefined;
  const row = Object.fromEntries(COLUMNS.map((c, i) => [c, values[i]]));
  let id: string;
  try {
    id = rowToHeader(row).id;
  } catch {
    return undefined;
  }
  if (VERIFIED.size >= VERIFIED_MAX) VERIFIED.clear();
  VERIFIED.set(head, id);
  return [id, last + 1];
}

/** Whether `session_leases` holds exactly `token` for a session (an unreadable lease: no). */
export async function leaseHeld(client: Client, id: string, token: number): Promise<boolean> {
  const sql = "SELECT token FROM session_leases WHERE session_id = ?";
  const rows = await client.execute({ sql, args: [id] }).then((r) => r.rows, () => []);
  return rows[0] !== undefined && Number(rows[0].token) === token;
}

/** The stored header and `max(seq) + 1` (`LibsqlBackend.cursor`; a primary-key seek). */
export async function readCursor(client: Client, id: string): Promise<StoredCursor | undefined> {
  const row = (await client.execute({ sql: SELECT_CURSOR, args: [id] })).rows[0];
  if (row === undefined) return await missingHeader(client, id);
  return { header: rowToHeader(row, id), length: checkedLength(row, id) };
}
