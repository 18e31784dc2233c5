/**
 * Private SQL text and row mapping of the libSQL backend.
 *
 * @module
 */
import type { InStatement, Row } from "@libsql/client";
import type { EventPage } from "../backend.ts";
import type { SessionEvent } from "../event.ts";
import type { SessionHeader } from "../header.ts";
import {
  checkEvent,
  checkHeader,
  corrupt,
  decodeNullableText,
  decodeText,
  parseJson,
} from "../_decode.ts";

/** Columns of `sessions` in the order {@linkcode headerArgs} lists them. */
export const HEADER_COLUMNS = "id, cwd, created_at, origin, parent_id, forked_through_seq, " +
  "delegation_depth, seed_length, time_zone";

/**
 * The same columns as read: every TEXT column as its raw bytes. libsql panics (and the process
 * aborts) when it converts a TEXT value holding an invalid UTF-8 byte, so stored text is never
 * read as TEXT; {@linkcode rowToHeader} decodes it strictly instead.
 */
const HEADER_READ = "CAST(id AS BLOB) AS id, CAST(cwd AS BLOB) AS cwd, " +
  "CAST(created_at AS BLOB) AS created_at, CAST(origin AS BLOB) AS origin, " +
  "CAST(parent_id AS BLOB) AS parent_id, forked_through_seq, delegation_depth, seed_length, " +
  "CAST(time_zone AS BLOB) AS time_zone";

/** The columns of an event as read (TEXT as bytes, see {@linkcode HEADER_READ}). */
export const EVENT_READ = "seq, CAST(type AS BLOB) AS type, CAST(at AS BLOB) AS at, " +
  "CAST(data AS BLOB) AS data";

/** `max(seq)` is a seek on the (session_id, seq) primary key; `count(*)` would scan. */
export const SELECT_CURSOR = `SELECT ${HEADER_READ},
  (SELECT max(seq) FROM events WHERE session_id = sessions.id) AS last_seq
  FROM sessions WHERE id = ?`;

/** Every stored session's last seq (a primary-key seek each), for `lengths()`. */
export const SELECT_LENGTHS = `SELECT CAST(id AS BLOB) AS id,
  (SELECT max(seq) FROM events WHERE session_id = sessions.id) AS last_seq FROM sessions`;

/** All headers, newest first. */
export const SELECT_HEADERS = `SELECT ${HEADER_READ} FROM sessions
  ORDER BY created_at DESC, id`;

/** All headers of a legacy v13 database (no `time_zone` column), for the doctor. */
export const SELECT_HEADERS_V13: string = SELECT_HEADERS.replace(
  "CAST(time_zone AS BLOB) AS time_zone",
  "NULL AS time_zone",
);

/** Every event of one session, ascending. */
export const SELECT_EVENTS = `SELECT ${EVENT_READ} FROM events WHERE session_id = ? ORDER BY seq`;

/**
 * The arguments that store a header, in {@linkcode HEADER_COLUMNS} order.
 *
 * @param header the canonical header
 */
export function headerArgs(header: SessionHeader): (string | number | null)[] {
  return [
    header.id,
    header.cwd,
    header.createdAt,
    header.origin,
    header.lineage?.parentId ?? null,
    header.lineage?.forkedThroughSeq ?? null,
    header.delegationDepth ?? 0,
    header.seedLength ?? null,
    header.timeZone ?? null,
  ];
}

/** The newest `?` events of one session, newest first (a primary-key range from the end). */
export const SELECT_TAIL = `SELECT ${EVENT_READ} FROM events WHERE session_id = ?
  ORDER BY seq DESC LIMIT ?`;

/**
 * The events of some types in a seq range, ascending, from the `events_by_type` index.
 *
 * @param types how many types the `IN` list binds
 */
export function selectByType(types: number): string {
  const marks = Array.from({ length: types }, () => "?").join(", ");
  return `SELECT ${EVENT_READ} FROM events INDEXED BY events_by_type
    WHERE session_id = ? AND type IN (${marks}) AND seq >= ? AND seq < ? ORDER BY seq`;
}

/**
 * One page of events of some types across sessions, in `(session_id, type, seq)` order: a walk
 * of the `events_by_type` index from a keyset bound (`LibsqlBackend.readTypeAcross`).
 *
 * @param types how many types
 * @param after whether a keyset bound follows the types
 * @returns SQL taking the types, then (with `after`) session id, type, seq, then the limit
 */
export function selectTypeAcross(types: number, after: boolean): string {
  const marks = Array.from({ length: types }, () => "?").join(", ");
  // A row-value bound is a range seek on the index (an OR of terms would rescan it per page).
  const bound = after ? " AND (session_id, type, seq) > (?, ?, ?)" : "";
  return `SELECT session_id, ${EVENT_READ} FROM events INDEXED BY events_by_type
    WHERE type IN (${marks})${bound} ORDER BY session_id, type, seq LIMIT ?`;
}

/**
 * The page query; both bounds and the order ride the primary key, so a page costs
 * `O(log n + limit)`.
 *
 * @param id the session id
 * @param page bounds and limit
 * @returns the statement and whether rows come newest first
 */
export function selectPage(id: string, page: EventPage): { stmt: InStatement; desc: boolean } {
  const limit = page.limit ?? 500;
  if (!Number.isSafeInteger(limit) || limit < 0) {
    throw new RangeError(`Cannot read events: limit ${limit} is not a non-negative integer`);
  }
  const where = ["session_id = ?"];
  const args: (string | number)[] = [id];
  if (page.before !== undefined) {
    where.push("seq < ?");
    args.push(page.before);
  }
  if (page.after !== undefined) {
    where.push("seq > ?");
    args.push(page.after);
  }
  const desc = page.before !== undefined;
  const sql = `SELECT ${EVENT_READ} FROM events WHERE ${where.join(" AND ")}
    ORDER BY seq ${desc ? "DESC" : "ASC"} LIMIT ?`;
  return { stmt: { sql, args: [...args, limit] }, desc };
}

/**
 * Decodes one page of rows (as {@linkcode selectPage} returned them) into ascending events and
 * checks that they are dense: every seq from the lowest one the page can hold is present.
 *
 * @param rows the rows in query order
 * @param id the session id
 * @param page the page asked for
 * @returns the ascending events, and the seq whose presence the caller must still prove against
 *   `max(seq)` when the page ends below `before` (`undefined` when nothing is left to check)
 * @throws {SessionError} `storage_corrupt` with the first missing or damaged seq
 */
export function pageEvents(
  rows: readonly Row[],
  id: string,
  page: EventPage,
): { events: SessionEvent[]; missingIfStored: number | undefined } {
  const limit = page.limit ?? 500;
  const lower = page.after === undefined ? 0 : Math.max(page.after + 1, 0);
  const asc = page.before === undefined ? rows : rows.toReversed();
  const full = asc.length === limit;
  const start = page.before !== undefined && full && asc.length > 0 ? Number(asc[0]!.seq) : lower;
  const events = asc.map((row, i) => rowToEvent(row, id, start + i));
  // A page below `before` that stops short of `before - 1` is only whole when nothing is stored
  // above it: the caller compares the next seq with the stored `max(seq)`.
  const next = events.length === 0 ? lower : events.at(-1)!.seq + 1;
  const missingIfStored = page.before !== undefined && limit > 0 && next < page.before
    ? next
    : undefined;
  return { events, missingIfStored };
}

/**
 * Maps an events row to the envelope, decoding its bytes strictly.
 *
 * @param row a row selected with {@linkcode EVENT_READ}
 * @param sessionId the session it belongs to
 * @param expected the seq this row must hold (dense from the page start)
 * @throws {SessionError} `storage_corrupt` with `{ sessionId, seq }`
 */
export function rowToEvent(row: Row, sessionId: string, expected: number): SessionEvent {
  const seq = Number(row.seq);
  if (seq !== expected) {
    throw corrupt({ sessionId, seq: expected }, `missing (found seq ${seq})`);
  }
  const site = { sessionId, seq };
  const data = parseJson(decodeText(row.data, site, "data"), site, "data");
  return checkEvent(
    {
      seq,
      type: decodeText(row.type, site, "type"),
      at: decodeText(row.at, site, "at"),
      data,
    },
    sessionId,
    expected,
  );
}

/**
 * Maps a sessions row to the canonical header (NULL `time_zone` ⇒ no `timeZone`), decoding its
 * bytes strictly.
 *
 * @param row a row selected with the header columns
 * @param sessionId the id asked for, or `undefined` when listing (then the stored id is used)
 * @throws {SessionError} `storage_corrupt` with `{ sessionId }`
 */
export function rowToHeader(row: Row, sessionId?: string): SessionHeader {
  const site = { sessionId: sessionId ?? "(unreadable id)" };
  const id = decodeText(row.id, site, "id");
  const own = { sessionId: id };
  const parentId = decodeNullableText(row.parent_id, own, "parent_id");
  const timeZone = decodeNullableText(row.time_zone, own, "time_zone");
  const seedLength = row.seed_length;
  return checkHeader({
    version: 1,
    id,
    cwd: decodeText(row.cwd, own, "cwd"),
    createdAt: decodeText(row.created_at, own, "created_at"),
    origin: decodeText(row.origin, own, "origin"),
    lineage: parentId === undefined
      ? null
      : { parentId, forkedThroughSeq: Number(row.forked_through_seq) },
    delegationDepth: Number(row.delegation_depth),
    ...(timeZone === undefined ? {} : { timeZone }),
    ...(seedLength === null ? {} : { seedLength: Number(seedLength) }),
  }, id);
}
