/**
 * Private: the database half of the storage doctor. Reads every header row and every event row
 * (keyset-paged on the primary key, raw bytes for text) and records each damage instead of
 * stopping at the first.
 *
 * @module
 */
import type { Client } from "@libsql/client";
import { checkRow } from "../_rows.ts";
import {
  EVENT_READ,
  EVENT_READ_LEGACY,
  rowToHeader,
  SELECT_HEADERS,
  SELECT_HEADERS_V13,
  SELECT_HEADERS_V17,
} from "./_libsql_sql.ts";
import { damageOf, type StorageDamage } from "../_decode.ts";

const PAGE = 1_000;
const LOSSY = new TextDecoder();

/** A stored id as a map key (raw bytes, so damaged ids stay distinct) and as readable text. */
function idOf(value: unknown): { key: string; text: string } {
  const bytes = new Uint8Array(value as ArrayBuffer);
  return { key: bytes.join(","), text: LOSSY.decode(bytes) };
}

/**
 * Reads every header row; each damaged one is recorded (from v18 a checksum mismatch too).
 *
 * @param version the database's schema version (v13 has no `time_zone`, v13–v17 no `crc`)
 * @returns the stored ids (raw-byte keys) mapped to their readable text
 */
export async function scanHeaders(
  client: Client,
  version: number,
  damage: StorageDamage[],
): Promise<Map<string, string>> {
  const sql = version === 13
    ? SELECT_HEADERS_V13
    : version < 18
    ? SELECT_HEADERS_V17
    : SELECT_HEADERS;
  const ids = new Map<string, string>();
  for (const row of (await client.execute(sql)).rows) {
    const { key, text } = idOf(row.id);
    ids.set(key, text);
    try {
      rowToHeader(row, text);
    } catch (error) {
      damage.push(damageOf(error));
    }
  }
  return ids;
}

/**
 * Reads every event row in primary-key order; records damaged rows (checksum mismatches
 * included), seqs missing from a session's log, and events of a session with no header row.
 *
 * @param legacy a v13–v15 database (no `crc` column: checksums are not verified)
 * @returns how many event rows were read
 */
export async function scanEvents(
  client: Client,
  headers: ReadonlyMap<string, string>,
  damage: StorageDamage[],
  legacy = false,
): Promise<number> {
  let count = 0;
  let last: { sid: ArrayBuffer; seq: number } | undefined;
  let current: { key: string; text: string; expected: number } | undefined;
  for (;;) {
    const { rows } = await client.execute({
      sql: `SELECT CAST(session_id AS BLOB) AS sid, ${
        legacy ? EVENT_READ_LEGACY : EVENT_READ
      } FROM events
        ${last === undefined ? "" : "WHERE (session_id, seq) > (CAST(? AS TEXT), ?)"}
        ORDER BY session_id, seq LIMIT ${PAGE}`,
      args: last === undefined ? [] : [last.sid, last.seq],
    });
    for (const row of rows) {
      const { key, text } = idOf(row.sid);
      if (current?.key !== key) {
        current = { key, text, expected: 0 };
        if (!headers.has(key)) damage.push({ sessionId: text, what: "events without a header" });
      }
      current.expected = checkRow(row, text, current.expected, damage);
      count++;
    }
    if (rows.length < PAGE) return count;
    const tail = rows.at(-1)!;
    last = { sid: tail.sid as ArrayBuffer, seq: Number(tail.seq) };
  }
}

/**
 * Compares every index with its table: the keys read through it (`INDEXED BY`, with a partial
 * index's own `WHERE`) must be exactly the keys of a walk of the table's primary key (with the
 * same `WHERE`, and a column no index holds, so no index can stand in for the table; SQLite
 * lets a covering index serve even a `NOT INDEXED` read of a `WITHOUT ROWID` table). An index
 * entry that is missing, extra or names another row is reported
 * (`index NAME differs from its table`).
 *
 * @param client the doctor's private copy
 * @param damage where differences are recorded
 */
export async function compareIndexes(client: Client, damage: StorageDamage[]): Promise<void> {
  const { rows } = await client.execute(
    "SELECT CAST(name AS BLOB) AS name, CAST(sql AS BLOB) AS sql FROM sqlite_schema " +
      "WHERE type = 'index' AND tbl_name = 'events' AND sql IS NOT NULL",
  );
  for (const row of rows) {
    // The layout was classified ours before this runs, so the names and text are the DDL's.
    const name = idOf(row.name).text;
    const partial = / WHERE (.+)$/s.exec(idOf(row.sql).text)?.[1];
    const where = partial === undefined ? "" : `WHERE ${partial}`;
    const keys = "CAST(session_id AS BLOB) AS s, CAST(type AS BLOB) AS t, seq";
    const order = "ORDER BY session_id, type, seq";
    const through = await client.execute(
      `SELECT ${keys} FROM events INDEXED BY ${name} ${where} ${order}`,
    );
    const table = await client.execute(
      `SELECT ${keys}, length(data) AS n FROM events ${where} ORDER BY session_id, seq`,
    );
    const text = (r: Record<string, unknown>) =>
      `${idOf(r.s).key}|${idOf(r.t).key}|${String(r.seq).padStart(16, "0")}`;
    // Both sides sorted by one JS order (byte lists as text): the index's order is not the table's.
    const a = through.rows.map(text).sort();
    const b = table.rows.map(text).sort();
    const first = a.findIndex((k, i) => k !== b[i]);
    if (a.length !== b.length || first !== -1) {
      damage.push({
        what: `index ${name} differs from its table (${a.length} entries, ${b.length} rows)`,
      });
    }
  }
}
