/**
 * Private SQL text and row mapping of the libSQL backend.
 *
 * @module
 */
import type { InStatement } from "@libsql/client";
import type { EventPage } from "../backend.ts";
import { TYPED_INDEX_TYPES, TYPED_INDEX_WHERE } from "@chime/migrations";

export { HEADER_COLUMNS, headerArgs, pageEvents, rowToEvent, rowToHeader } from "../_rows.ts";

/**
 * The same columns as read: every TEXT column as its raw bytes. libsql panics (and the process
 * aborts) when it converts a TEXT value holding an invalid UTF-8 byte, so stored text is never
 * read as TEXT; `rowToHeader` decodes it strictly instead, then verifies `crc`, the header's
 * checksum (schema v18).
 */
const HEADER_READ = "CAST(id AS BLOB) AS id, CAST(cwd AS BLOB) AS cwd, " +
  "CAST(created_at AS BLOB) AS created_at, CAST(origin AS BLOB) AS origin, " +
  "CAST(parent_id AS BLOB) AS parent_id, forked_through_seq, delegation_depth, seed_length, " +
  "CAST(time_zone AS BLOB) AS time_zone, crc";

/**
 * The columns of an event as read (TEXT as bytes, see {@linkcode HEADER_READ}) with its checksum
 * (`crc`, verified by `rowToEvent`).
 */
export const EVENT_READ = "seq, CAST(type AS BLOB) AS type, CAST(at AS BLOB) AS at, " +
  "CAST(data AS BLOB) AS data, crc";

const LOSSY = new TextDecoder();

/**
 * A stored text read as bytes (`CAST(… AS BLOB)`), decoded with U+FFFD for bytes that are not
 * UTF-8: for values that are compared or checksummed, never served (the strict decoder of
 * `session/_decode.ts` refuses such bytes on a served read).
 *
 * @param value an `ArrayBuffer` from a BLOB column, or any other value (then `String(value)`)
 */
export function lossyText(value: unknown): string {
  return value instanceof ArrayBuffer ? LOSSY.decode(value) : String(value);
}

/** The columns of an event of a database without checksums (v13–v15), for the doctor. */
export const EVENT_READ_LEGACY: string = EVENT_READ.replace(", crc", "");

/**
 * The session's last seq as its `events_by_type` index holds it: a loose index scan (one seek
 * per distinct type, then one for that type's max), independent of the log length. A damaged
 * table page that drops the newest rows leaves no hole to see; this second copy of the keys
 * disagrees with the table's `max(seq)` (README.md "How it behaves on failure").
 *
 * @param id the SQL expression of the session id
 * @returns a scalar `SELECT` (NULL for a session without events)
 */
export function indexedLast(id: string): string {
  const at = `FROM events INDEXED BY events_by_type WHERE session_id = ${id}`;
  return `WITH RECURSIVE t(type) AS (SELECT (SELECT min(type) ${at})
    UNION ALL SELECT (SELECT min(type) ${at} AND type > t.type) FROM t WHERE t.type IS NOT NULL)
    SELECT max((SELECT max(seq) ${at} AND type = t.type)) FROM t WHERE t.type IS NOT NULL`;
}

/** `max(seq)` is a seek on the (session_id, seq) primary key; `count(*)` would scan. */
export const SELECT_CURSOR = `SELECT ${HEADER_READ},
  (SELECT max(seq) FROM events WHERE session_id = sessions.id) AS last_seq,
  (${indexedLast("sessions.id")}) AS indexed_last
  FROM sessions WHERE id = ?`;

/**
 * Every stored session's header and last seq, for `lengths()`: one `json_array` line per
 * session (the header columns in {@linkcode HEADER_COLUMNS} order, then the table's last seq, a
 * primary-key seek, and the type index's, {@linkcode indexedLast}, a loose index scan; NULL
 * without events) in one value, so the client decodes one value instead of a row per session,
 * and `lengths()` names only sessions whose header verifies and whose two last seqs agree, as
 * `list()` and `cursor()` check them. (Comparing only the last row's type, one seek, missed a
 * damaged page in the damage lane, seed 31.) JSON quoting
 * escapes every control character, so a newline only ever separates sessions; the value is read
 * as bytes (see {@linkcode HEADER_READ}), every text column cast to TEXT so a damaged value of
 * another class cannot fail the whole read.
 */
export const SELECT_LENGTHS = `SELECT CAST(group_concat(json_array(CAST(id AS TEXT),
  CAST(cwd AS TEXT), CAST(created_at AS TEXT), CAST(origin AS TEXT), CAST(parent_id AS TEXT),
  forked_through_seq, delegation_depth, seed_length, CAST(time_zone AS TEXT), crc,
  (SELECT max(seq) FROM events WHERE session_id = sessions.id), (${indexedLast("sessions.id")})),
  char(10)) AS BLOB) AS lengths FROM sessions`;

/** All headers, newest first. */
export const SELECT_HEADERS = `SELECT ${HEADER_READ} FROM sessions
  ORDER BY created_at DESC, id`;

/**
 * The headers still without a checksum (`crc = -1`, what the v17→v18 step leaves), as the
 * checksum fill reads them: the header columns as bytes.
 */
export const SELECT_UNSUMMED_HEADERS: string = `SELECT ${
  HEADER_READ.replace(", crc", "")
} FROM sessions WHERE crc = -1`;

/** All headers of a legacy v14–v17 database (no `crc` column), for the doctor. */
export const SELECT_HEADERS_V17: string = SELECT_HEADERS.replace(", crc", "");

/** All headers of a legacy v13 database (no `time_zone` column either), for the doctor. */
export const SELECT_HEADERS_V13: string = SELECT_HEADERS_V17.replace(
  "CAST(time_zone AS BLOB) AS time_zone",
  "NULL AS time_zone",
);

/** Every event of one session, ascending. */
export const SELECT_EVENTS = `SELECT ${EVENT_READ} FROM events WHERE session_id = ? ORDER BY seq`;

/** The newest `?` events of one session, newest first (a primary-key range from the end). */
export const SELECT_TAIL = `SELECT ${EVENT_READ} FROM events WHERE session_id = ?
  ORDER BY seq DESC LIMIT ?`;

/**
 * The index a typed read walks: `events_by_type` (every event), or `events_typed`, the partial
 * second copy of the keys of {@linkcode TYPED_INDEX_TYPES} (schema v17).
 */
export type TypeIndex = "events_by_type" | "events_typed";

/**
 * Whether `events_typed` holds every key of these types, so its walk can be compared with the
 * `events_by_type` walk.
 *
 * @param types the types of a typed read
 */
export function typedCopy(types: readonly string[]): boolean {
  return types.every((t) => TYPED_INDEX_TYPES.includes(t));
}

// The partial index is used only when the query holds its WHERE term verbatim.
function indexed(index: TypeIndex): string {
  return index === "events_typed"
    ? `INDEXED BY events_typed WHERE ${TYPED_INDEX_WHERE} AND`
    : `INDEXED BY events_by_type WHERE`;
}

/**
 * The events of some types in a seq range, ascending, from a type index.
 *
 * @param types how many types the `IN` list binds
 * @param index the index walked (`events_typed` only for types {@linkcode typedCopy} accepts)
 * @returns SQL taking the session id, the types, then `from` and `to` (seq, `to` exclusive)
 */
export function selectByType(types: number, index: TypeIndex = "events_by_type"): string {
  const marks = Array.from({ length: types }, () => "?").join(", ");
  return `SELECT ${EVENT_READ} FROM events ${indexed(index)}
    session_id = ? AND type IN (${marks}) AND seq >= ? AND seq < ? ORDER BY seq`;
}

/**
 * One page of events of some types across sessions, in `(session_id, type, seq)` order: a walk
 * of the `events_by_type` index from a keyset bound (`LibsqlBackend.readTypeAcross`).
 *
 * @param types how many types
 * @param after whether a keyset bound follows the types
 * @param index the index walked (`events_typed` only for types {@linkcode typedCopy} accepts)
 * @returns SQL taking the types, then (with `after`) session id, type, seq, then the limit
 */
export function selectTypeAcross(
  types: number,
  after: boolean,
  index: TypeIndex = "events_by_type",
): string {
  const marks = Array.from({ length: types }, () => "?").join(", ");
  // A row-value bound is a range seek on the index (an OR of terms would rescan it per page).
  const bound = after ? " AND (session_id, type, seq) > (?, ?, ?)" : "";
  return `SELECT CAST(session_id AS BLOB) AS session_id, ${EVENT_READ} FROM events
    ${indexed(index)} type IN (${marks})${bound} ORDER BY session_id, type, seq LIMIT ?`;
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
