/**
 * Private: the one upgrade transaction of an owned legacy libSQL database (v13–v17 to v18): the
 * DDL the migrations package lists, then the checksums the layout before it lacked, computed
 * once each from the stored bytes (`session/_checksum.ts`), all in one write transaction, so a
 * v18 database never holds a row or header without its checksum (docs/long-sessions.md
 * §"Schema v16" and §"Schema v18").
 *
 * @module
 */
import type { Client, InStatement, Transaction } from "@libsql/client";
import { eventChecksum, headerChecksum } from "../_checksum.ts";
import { SessionError } from "../errors.ts";
import { lossyText, rowToHeader, SELECT_UNSUMMED_HEADERS } from "./_libsql_sql.ts";

const PAGE = 2_000;

/** What one upgrade filled in. */
export interface Filled {
  /** Event rows that got a checksum (0 unless the layout had no `events.crc`). */
  readonly events: number;
  /** Headers that got a checksum. */
  readonly headers: number;
}

/**
 * Runs `upgrade`, fills `events.crc` of every row when asked, and `sessions.crc` of every header
 * still at -1, in one write transaction.
 *
 * @param client the one connection
 * @param upgrade the DDL of the verdict (ends with `PRAGMA user_version = 18`); none: only the
 *   checksums (the benches' bulk-inserted rows)
 * @param events fill every event row's checksum: `true` from a layout without `events.crc`
 *   (v13–v15) and for bulk-inserted rows; `false` from v16–v17, whose rows keep the checksums
 *   they have (a recompute would launder a damaged row into a valid one)
 * @returns how many event rows and headers got a checksum
 * @throws whatever SQLite raises (then nothing of the upgrade is kept)
 */
export async function upgradeWithChecksums(
  client: Client,
  upgrade: readonly string[],
  events = true,
): Promise<Filled> {
  const tx = await client.transaction("write");
  try {
    if (upgrade.length > 0) await tx.batch([...upgrade]);
    const filled = { events: events ? await fillEvents(tx) : 0, headers: await fillHeaders(tx) };
    await tx.commit();
    return filled;
  } finally {
    tx.close();
  }
}

async function fillEvents(tx: Transaction): Promise<number> {
  let done = 0;
  let after: [Uint8Array, number] | undefined;
  for (;;) {
    const { rows } = await tx.execute({
      sql: "SELECT CAST(session_id AS BLOB) AS sid, seq, CAST(type AS BLOB) AS type, " +
        "CAST(at AS BLOB) AS at, CAST(data AS BLOB) AS data FROM events " +
        (after === undefined ? "" : "WHERE (session_id, seq) > (CAST(? AS TEXT), ?) ") +
        "ORDER BY session_id, seq LIMIT ?",
      args: after === undefined ? [PAGE] : [...after, PAGE],
    });
    if (rows.length === 0) return done;
    const updates: InStatement[] = rows.map((r) => {
      const seq = Number(r.seq);
      const crc = eventChecksum(
        lossyText(r.sid),
        seq,
        lossyText(r.type),
        lossyText(r.at),
        bytes(r.data),
      );
      return {
        sql: "UPDATE events SET crc = ? WHERE session_id = CAST(? AS TEXT) AND seq = ?",
        args: [crc, bytes(r.sid), seq],
      };
    });
    await tx.batch(updates);
    done += rows.length;
    const last = rows.at(-1)!;
    after = [bytes(last.sid), Number(last.seq)];
  }
}

// A header is checksummed as it decodes (its canonical JSON); one that does not decode keeps -1,
// so it stays `storage_corrupt` as it was before the upgrade.
async function fillHeaders(tx: Transaction): Promise<number> {
  const updates: InStatement[] = [];
  for (const row of (await tx.execute(SELECT_UNSUMMED_HEADERS)).rows) {
    let crc: number;
    try {
      crc = headerChecksum(rowToHeader(row, lossyText(row.id)));
    } catch (error) {
      if (error instanceof SessionError && error.code === "storage_corrupt") continue;
      throw error;
    }
    updates.push({
      sql: "UPDATE sessions SET crc = ? WHERE id = CAST(? AS TEXT)",
      args: [crc, bytes(row.id)],
    });
  }
  for (let i = 0; i < updates.length; i += PAGE) await tx.batch(updates.slice(i, i + PAGE));
  return updates.length;
}

// Damaged legacy bytes get a checksum of what is stored (lossy text never becomes the data: the
// strict decoder still refuses invalid UTF-8 on read).

function bytes(value: unknown): Uint8Array {
  return value instanceof ArrayBuffer
    ? new Uint8Array(value)
    : new TextEncoder().encode(String(value));
}
