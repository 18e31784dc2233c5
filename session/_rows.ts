/**
 * Private: the row mapping the SQL backends share (libSQL, PostgreSQL): header arguments in
 * column order, strict decoding of a header or event row (text as bytes or as a string), and the
 * density check of a page.
 *
 * @module
 */
import type { EventPage } from "./backend.ts";
import { SessionError } from "./errors.ts";
import type { SessionEvent } from "./event.ts";
import type { SessionHeader } from "./header.ts";
import {
  checkEvent,
  checkHeader,
  corrupt,
  damageOf,
  decodeNullableText,
  decodeText,
  parseJson,
  type StorageDamage,
} from "./_decode.ts";
import { headerChecksum, verifyChecksum, verifyHeaderChecksum } from "./_checksum.ts";

/** A row as a SQL client returns it: column name → value. */
export type StoredRow = Readonly<Record<string, unknown>>;

/**
 * Columns of `sessions` in the order {@linkcode headerArgs} lists them; `crc` is the header's
 * checksum (`session/_checksum.ts`, libSQL v18, PostgreSQL v3).
 */
export const HEADER_COLUMNS = "id, cwd, created_at, origin, parent_id, forked_through_seq, " +
  "delegation_depth, seed_length, time_zone, crc";

/**
 * The arguments that store a header, in {@linkcode HEADER_COLUMNS} order: its fields, then its
 * checksum.
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
    headerChecksum(header),
  ];
}

/**
 * Decodes one page of rows (as the backend's page query returned them: newest first below `before`, else ascending) into ascending events and
 * checks that they are dense: every seq from the lowest one the page can hold is present.
 *
 * @param rows the rows in query order
 * @param id the session id
 * @param page the page asked for
 * @returns the ascending events, and the seq whose presence the caller must still prove against
 *   `max(seq)` when the page stops short (below `before - 1`, or, without `before`, with fewer
 *   rows than its limit; `undefined` when nothing is left to check)
 * @throws {SessionError} `storage_corrupt` with the first missing or damaged seq
 */
export function pageEvents(
  rows: readonly StoredRow[],
  id: string,
  page: EventPage,
): { events: SessionEvent[]; missingIfStored: number | undefined } {
  const limit = page.limit ?? 500;
  const lower = page.after === undefined ? 0 : Math.max(page.after + 1, 0);
  const asc = page.before === undefined ? rows : rows.toReversed();
  const full = asc.length === limit;
  const start = page.before !== undefined && full && asc.length > 0 ? Number(asc[0]!.seq) : lower;
  const events = asc.map((row, i) => rowToEvent(row, id, start + i));
  // A page that stops short, below `before - 1` or with fewer rows than its limit, is only whole
  // when nothing is stored above it (a damaged page drops rows without leaving a hole): the
  // caller compares the next seq with the stored `max(seq)`.
  const next = events.length === 0 ? lower : events.at(-1)!.seq + 1;
  const short = page.before === undefined ? events.length < limit : next < page.before;
  const missingIfStored = limit > 0 && short ? next : undefined;
  return { events, missingIfStored };
}

/**
 * Maps an events row to the envelope, decoding its bytes strictly and verifying its checksum
 * (`session/_checksum.ts`) against the session asked for, so a row of another session or a
 * damaged byte in any served field is never served.
 *
 * @param row a row with `seq`, `type`, `at`, `data` and `crc` (a legacy row read by the doctor
 *   has no `crc` key: nothing to verify)
 * @param sessionId the session it belongs to
 * @param expected the seq this row must hold (dense from the page start)
 * @throws {SessionError} `storage_corrupt` with `{ sessionId, seq }`
 */
export function rowToEvent(row: StoredRow, sessionId: string, expected: number): SessionEvent {
  const seq = Number(row.seq);
  if (seq !== expected) {
    throw corrupt({ sessionId, seq: expected }, `missing (found seq ${seq})`);
  }
  const site = { sessionId, seq };
  const text = decodeText(row.data, site, "data");
  const type = decodeText(row.type, site, "type");
  const at = decodeText(row.at, site, "at");
  if ("crc" in row) {
    const raw = row.data instanceof ArrayBuffer ? new Uint8Array(row.data) : text;
    verifyChecksum(row.crc, sessionId, seq, type, at, raw);
  }
  return checkEvent({ seq, type, at, data: parseJson(text, site, "data") }, sessionId, expected);
}

/**
 * Maps a sessions row to the canonical header (NULL `time_zone` ⇒ no `timeZone`), decoding its
 * bytes strictly.
 *
 * @param row a row selected with the header columns
 * @param sessionId the id asked for, or `undefined` when listing (then the stored id is used)
 * @throws {SessionError} `storage_corrupt` with `{ sessionId }`
 */
export function rowToHeader(row: StoredRow, sessionId?: string): SessionHeader {
  const site = { sessionId: sessionId ?? "(unreadable id)" };
  const id = decodeText(row.id, site, "id");
  const own = { sessionId: id };
  const parentId = decodeNullableText(row.parent_id, own, "parent_id");
  const timeZone = decodeNullableText(row.time_zone, own, "time_zone");
  const seedLength = row.seed_length;
  const header = checkHeader({
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
  // Selected with its checksum (libSQL v18, PostgreSQL v3): verified over what is served.
  return "crc" in row ? verifyHeaderChecksum(row.crc, header) : header;
}

/**
 * The headers of some rows that decode and verify, in row order; each damaged one is left out
 * (`list()`: reading that session answers `storage_corrupt`, the doctor names it), so one
 * damaged row never hides the others.
 *
 * @param rows rows selected with the header columns (`crc` included)
 * @param onDamage called with each damaged row's `storage_corrupt` @default none
 */
export function headersOf(
  rows: Iterable<StoredRow>,
  onDamage?: (error: SessionError) => void,
): SessionHeader[] {
  const out: SessionHeader[] = [];
  for (const row of rows) {
    try {
      out.push(rowToHeader(row));
    } catch (error) {
      if (error instanceof SessionError) onDamage?.(error);
    }
  }
  return out;
}

/**
 * One event row of a scan in primary-key order: records a gap before it and its damage.
 *
 * @param expected the seq the row should hold (the previous one plus 1, or 0)
 * @returns the seq expected next
 */
export function checkRow(
  row: StoredRow,
  id: string,
  expected: number,
  damage: StorageDamage[],
): number {
  const seq = Number(row.seq);
  if (seq !== expected) {
    damage.push({
      sessionId: id,
      seq: expected,
      what: seq - expected === 1 ? "missing" : `missing (seqs ${expected}..${seq - 1})`,
    });
  }
  try {
    rowToEvent(row, id, seq);
  } catch (error) {
    damage.push(damageOf(error));
  }
  return seq + 1;
}

/**
 * Maps a row read through the type index: its checksum is verified against the session asked
 * for and the row must match the key the read asked for (one of `types`, seq in `[from, to)`),
 * so a damaged index entry that points at another row is `storage_corrupt`, never served.
 *
 * @param row an events row (with `crc`)
 * @param sessionId the session asked for (or, across sessions, the one the row names)
 * @param types the types asked for
 * @param from the lowest seq asked for @default 0
 * @param to the seq bound asked for (exclusive) @default Infinity
 * @throws {SessionError} `storage_corrupt` with `{ sessionId, seq }`
 */
export function typedRowToEvent(
  row: StoredRow,
  sessionId: string,
  types: readonly string[],
  from = 0,
  to = Infinity,
): SessionEvent {
  const seq = Number(row.seq);
  const event = rowToEvent(row, sessionId, seq);
  if (!types.includes(event.type) || seq < from || seq >= to) {
    throw corrupt({ sessionId, seq }, "the type index names a row it does not hold");
  }
  return event;
}
