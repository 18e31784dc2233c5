/**
 * Private: the read queries of the PostgreSQL backend (documented on `PostgresBackend`). A read
 * that must see one state (the tail, a whole session) is one statement; rows are decoded by the
 * mapping the SQL backends share (`session/_rows.ts`).
 *
 * @module
 */
import type { EventPage, StoredCursor, StoredSession, StoredTail } from "../backend.ts";
import type { SessionEvent } from "../event.ts";
import type { SessionHeader } from "../header.ts";
import { corrupt } from "../_decode.ts";
import type { SessionError } from "../errors.ts";
import {
  HEADER_COLUMNS,
  headersOf,
  pageEvents,
  rowToEvent,
  rowToHeader,
  type StoredRow,
  typedRowToEvent,
} from "../_rows.ts";
import { arrayLiteral } from "./_pg_array.ts";
import { PREPARED, type Sql } from "./_pg_open.ts";

// Every header read selects `HEADER_COLUMNS`, `crc` (v3) among them: `rowToHeader` verifies it.

async function head(sql: Sql, id: string) {
  const [row] = await sql.unsafe(
    `SELECT ${HEADER_COLUMNS}, (SELECT max(seq) FROM chime.events WHERE session_id = s.id) AS last_seq
     FROM chime.sessions s WHERE id = $1`,
    [id],
    PREPARED,
  );
  return row;
}

/** The header and `max(seq) + 1` (`PostgresBackend.cursor`). */
export async function readCursor(sql: Sql, id: string): Promise<StoredCursor | undefined> {
  const row = await head(sql, id);
  if (row === undefined) return undefined;
  return { header: rowToHeader(row, id), length: row.last_seq === null ? 0 : row.last_seq + 1 };
}

/**
 * The header (with `last_seq`) and some of its events in ONE statement, so one snapshot:
 * header columns repeat on each event row; a session without events gives one row with a NULL
 * `seq`. (One statement: the pool never pins a connection for a read transaction.) The header's
 * `crc` is `header_crc` there, the event's is `crc` ({@linkcode headerOf}).
 */
function headAndEvents(limit: boolean): string {
  const events = limit
    ? "SELECT seq, type, at, data, crc FROM chime.events WHERE session_id = $1 ORDER BY seq DESC LIMIT $2::bigint"
    : "SELECT seq, type, at, data, crc FROM chime.events WHERE session_id = $1";
  const header = HEADER_COLUMNS.split(", ").map((c) =>
    c === "crc" ? "s.crc AS header_crc" : `s.${c}`
  );
  return `SELECT ${header.join(", ")},
      (SELECT max(seq) FROM chime.events WHERE session_id = s.id) AS last_seq,
      e.seq, e.type, e.at, e.data, e.crc
    FROM chime.sessions s LEFT JOIN LATERAL (${events}) e ON true
    WHERE s.id = $1 ORDER BY e.seq`;
}

const LOAD = headAndEvents(false);
const TAIL = headAndEvents(true);

/** The header of a {@linkcode headAndEvents} row, its checksum under the name it is stored as. */
function headerOf(row: StoredRow, id: string): SessionHeader {
  return rowToHeader({ ...row, crc: row.header_crc }, id);
}

/** A whole session in one snapshot (`PostgresBackend.load`). */
export async function loadAll(sql: Sql, id: string): Promise<StoredSession | undefined> {
  const rows = await sql.unsafe(LOAD, [id], PREPARED);
  if (rows.length === 0) return undefined;
  const stored = rows[0]!.seq === null ? [] : rows;
  return {
    header: headerOf(rows[0]!, id),
    events: stored.map((r, i) => rowToEvent(r, id, i)),
  };
}

/** The header, length and newest `count` events in one snapshot (`PostgresBackend.tail`). */
export async function readTail(
  sql: Sql,
  id: string,
  count: number,
): Promise<StoredTail | undefined> {
  const rows = await sql.unsafe(TAIL, [id, count], PREPARED);
  if (rows.length === 0) return undefined;
  const row = rows[0]!;
  const length = row.last_seq === null ? 0 : row.last_seq + 1;
  const newest = row.seq === null ? [] : rows;
  const start = length - Math.min(count, length);
  // Ascending already (ORDER BY e.seq): a hole shifts the first row off its expected seq.
  const events = newest.map((r, i) => rowToEvent(r, id, start + i));
  return { header: headerOf(row, id), length, events };
}

/** Events of some types in a seq range, from `events_by_type` (`PostgresBackend.readByType`). */
export async function readTypes(
  sql: Sql,
  id: string,
  types: readonly string[],
  from: number,
  to: number,
): Promise<SessionEvent[]> {
  if (types.length === 0 || to <= from) return [];
  const rows = await sql`SELECT seq, type, at, data, crc FROM chime.events
    WHERE session_id = ${id} AND type = ANY(${
    arrayLiteral(types)
  }::text[]) AND seq >= ${from}::bigint
    AND seq < ${to}::bigint ORDER BY seq`;
  return rows.map((r) => typedRowToEvent(r, id, types, from, to));
}

/** One dense page (`PostgresBackend.readEvents`). */
export async function readPage(sql: Sql, id: string, page: EventPage): Promise<SessionEvent[]> {
  const limit = page.limit ?? 500;
  if (!Number.isSafeInteger(limit) || limit < 0) {
    throw new RangeError(`Cannot read events: limit ${limit} is not a non-negative integer`);
  }
  const before = page.before ?? null;
  const after = page.after ?? null;
  const desc = page.before !== undefined;
  const rows = await sql.unsafe(
    `SELECT seq, type, at, data, crc FROM chime.events WHERE session_id = $1
      AND ($2::bigint IS NULL OR seq < $2::bigint) AND ($3::bigint IS NULL OR seq > $3::bigint)
      ORDER BY seq ${desc ? "DESC" : "ASC"} LIMIT $4::bigint`,
    [id, before, after, limit],
    PREPARED,
  );
  const { events, missingIfStored } = pageEvents(rows, id, page);
  if (missingIfStored !== undefined) {
    const [last] = await sql`SELECT max(seq) AS last FROM chime.events WHERE session_id = ${id}`;
    if (last!.last !== null && Number(last!.last) >= missingIfStored) {
      throw corrupt({ sessionId: id, seq: missingIfStored }, "missing");
    }
  }
  return events;
}

/** Every readable header, newest first (`PostgresBackend.list`). */
export async function readHeaders(
  sql: Sql,
  onDamage?: (error: SessionError) => void,
): Promise<SessionHeader[]> {
  const rows = await sql.unsafe(
    `SELECT ${HEADER_COLUMNS} FROM chime.sessions ORDER BY created_at DESC, id`,
  );
  return headersOf(rows, onDamage);
}
