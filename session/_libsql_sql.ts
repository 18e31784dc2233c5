/**
 * Private SQL text and row mapping of the libSQL backend.
 *
 * @module
 */
import type { InStatement, Row } from "@libsql/client";
import type { EventPage } from "./backend.ts";
import type { SessionEvent } from "./event.ts";
import { normalizeHeader, type SessionHeader } from "./header.ts";

/** Columns of `sessions` in the order {@linkcode insertHeader} binds them. */
const HEADER_COLUMNS = "id, cwd, created_at, origin, parent_id, forked_through_seq, " +
  "delegation_depth, seed_length, time_zone";

/** `max(seq)` is a seek on the (session_id, seq) primary key; `count(*)` would scan. */
export const SELECT_CURSOR = `SELECT ${HEADER_COLUMNS},
  (SELECT max(seq) FROM events WHERE session_id = sessions.id) AS last_seq
  FROM sessions WHERE id = ?`;

/** All headers, newest first. */
export const SELECT_HEADERS = `SELECT ${HEADER_COLUMNS} FROM sessions
  ORDER BY created_at DESC, id`;

const ROWS_PER_INSERT = 500;

/**
 * The statement that stores a header.
 *
 * @param header the canonical header
 */
export function insertHeader(header: SessionHeader): InStatement {
  return {
    sql: `INSERT INTO sessions (${HEADER_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    args: [
      header.id,
      header.cwd,
      header.createdAt,
      header.origin,
      header.lineage?.parentId ?? null,
      header.lineage?.forkedThroughSeq ?? null,
      header.delegationDepth ?? 0,
      header.seedLength ?? null,
      header.timeZone ?? null,
    ],
  };
}

/** One `events` row: session id, seq, type, at, JSON data. */
export type EventRow = [string, number, string, string, string];

/**
 * The rows of events (`JSON.stringify` may throw, e.g. for BigInt data).
 *
 * @param id the session id
 * @param events events to store
 */
export function eventRows(id: string, events: readonly SessionEvent[]): EventRow[] {
  return events.map((e) => [id, e.seq, e.type, e.at, JSON.stringify(e.data) ?? "null"]);
}

/**
 * Multi-row inserts (chunked below SQLite's bound-variable limit): one prepared statement per
 * 500 rows, whichever sessions they belong to. A duplicate `(session_id, seq)` fails the
 * statement: the primary key backs the in-memory contiguity check.
 *
 * @param rows rows of any sessions
 */
export function insertEvents(rows: readonly EventRow[]): InStatement[] {
  const out: InStatement[] = [];
  for (let i = 0; i < rows.length; i += ROWS_PER_INSERT) {
    const chunk = rows.slice(i, i + ROWS_PER_INSERT);
    out.push({
      sql: "INSERT INTO events (session_id, seq, type, at, data) VALUES " +
        chunk.map(() => "(?, ?, ?, ?, ?)").join(", "),
      args: chunk.flat(),
    });
  }
  return out;
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
  const sql = `SELECT seq, type, at, data FROM events WHERE ${where.join(" AND ")}
    ORDER BY seq ${desc ? "DESC" : "ASC"} LIMIT ?`;
  return { stmt: { sql, args: [...args, limit] }, desc };
}

/** Maps an events row to the envelope. */
export function rowToEvent(row: Row): SessionEvent {
  return {
    seq: Number(row.seq),
    type: String(row.type),
    at: String(row.at),
    data: JSON.parse(String(row.data)),
  };
}

/** Maps a sessions row to the canonical header (NULL `time_zone` ⇒ no `timeZone`). */
export function rowToHeader(row: Row): SessionHeader {
  const tz = row.time_zone;
  const seedLength = row.seed_length;
  return normalizeHeader({
    version: 1,
    id: String(row.id),
    cwd: String(row.cwd),
    createdAt: String(row.created_at),
    origin: String(row.origin),
    lineage: row.parent_id === null
      ? null
      : { parentId: String(row.parent_id), forkedThroughSeq: Number(row.forked_through_seq) },
    delegationDepth: Number(row.delegation_depth),
    ...(tz === null ? {} : { timeZone: String(tz) }),
    ...(seedLength === null ? {} : { seedLength: Number(seedLength) }),
  });
}
