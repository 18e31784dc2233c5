/**
 * Private: the rows a fork copies from its parent, shared by the SQL backends. Each event's
 * checksum covers its session id (`session/_checksum.ts`), so a fork cannot copy rows in SQL:
 * the parent's rows through the fork point are read and verified (a damaged parent row fails the
 * fork with `storage_corrupt`), then re-encoded under the child's id with fresh checksums.
 *
 * @module
 */
import { corrupt } from "./_decode.ts";
import { eventChecksum } from "./_checksum.ts";
import { rowToEvent, type StoredRow } from "./_rows.ts";

/**
 * The child's flat rows (`session_id, seq, type, at, data, crc` per event) from the parent's.
 *
 * @param rows the parent's rows with seq `0 … throughSeq`, ascending (`EVENT_READ` columns)
 * @param parentId the parent session
 * @param childId the fork
 * @param throughSeq the last seq copied
 * @throws {SessionError} `storage_corrupt` naming the parent and seq for a damaged or missing row
 */
export function copyRows(
  rows: readonly StoredRow[],
  parentId: string,
  childId: string,
  throughSeq: number,
): (string | number)[] {
  const out: (string | number)[] = [];
  rows.forEach((row, i) => {
    const e = rowToEvent(row, parentId, i);
    const data = JSON.stringify(e.data) ?? "null";
    out.push(childId, e.seq, e.type, e.at, data, eventChecksum(childId, e.seq, e.type, e.at, data));
  });
  if (rows.length !== throughSeq + 1) {
    throw corrupt({ sessionId: parentId, seq: rows.length }, "missing");
  }
  return out;
}
