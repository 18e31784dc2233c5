/**
 * Private: the checksum halves of the PostgreSQL upgrades (migrations/postgres). Inside the
 * migration's transaction, every stored event row (v1→v2) and every stored header row (v2→v3)
 * gets its CRC-32C (`session/_checksum.ts`), computed once from its stored text, so no current
 * database holds a row without its checksum. A header that does not decode keeps the `-1` the
 * v3 step's column default gave it: it was refused on read before and stays refused (an upgrade
 * never launders damage into a verified row).
 *
 * @module
 */
import type postgres from "postgres";
import { arrayLiteral } from "./_pg_array.ts";
import { eventChecksum, headerChecksum } from "../_checksum.ts";
import { SessionError } from "../errors.ts";
import { HEADER_COLUMNS, rowToHeader } from "../_rows.ts";

const PAGE = 2_000;

/**
 * Computes and stores `events.crc` for every row (keyset pages on the primary key).
 *
 * @param tx the open migration transaction
 * @returns how many rows got a checksum
 */
export async function fillChecksums(tx: postgres.TransactionSql): Promise<number> {
  let done = 0;
  let after: { id: string; seq: number } | undefined;
  for (;;) {
    const rows = after === undefined
      ? await tx`SELECT session_id, seq, type, at, data FROM chime.events
          ORDER BY session_id, seq LIMIT ${PAGE}`
      : await tx`SELECT session_id, seq, type, at, data FROM chime.events
          WHERE (session_id, seq) > (${after.id}, ${after.seq})
          ORDER BY session_id, seq LIMIT ${PAGE}`;
    if (rows.length === 0) return done;
    const ids = rows.map((r) => String(r.session_id));
    const seqs = rows.map((r) => Number(r.seq));
    const crcs = rows.map((r, i) =>
      eventChecksum(ids[i]!, seqs[i]!, String(r.type), String(r.at), String(r.data))
    );
    await tx`UPDATE chime.events e SET crc = v.crc
      FROM unnest(${arrayLiteral(ids)}::text[], ${arrayLiteral(seqs)}::integer[],
        ${arrayLiteral(crcs)}::bigint[]) AS v(id, seq, crc)
      WHERE e.session_id = v.id AND e.seq = v.seq`;
    done += rows.length;
    after = { id: ids.at(-1)!, seq: seqs.at(-1)! };
  }
}

/** The header columns a v2 row has (all but `crc`): decoded, never verified. */
const V2_HEADER = HEADER_COLUMNS.split(", ").filter((c) => c !== "crc").join(", ");

/**
 * Computes and stores `sessions.crc` for every header row that decodes (keyset pages on `id`),
 * each decoded as the reads decode it (`rowToHeader`, without a checksum to verify).
 *
 * @param tx the open migration transaction, after the v3 step added `sessions.crc` (`-1`)
 * @returns how many headers got a checksum (the others are damaged and keep `-1`)
 * @throws whatever else the queries or the decoding throw (the transaction rolls back)
 */
export async function fillHeaderChecksums(tx: postgres.TransactionSql): Promise<number> {
  let done = 0;
  let after: string | undefined;
  for (;;) {
    const rows = after === undefined
      ? await tx.unsafe(`SELECT ${V2_HEADER} FROM chime.sessions ORDER BY id LIMIT ${PAGE}`)
      : await tx.unsafe(
        `SELECT ${V2_HEADER} FROM chime.sessions WHERE id > $1 ORDER BY id LIMIT ${PAGE}`,
        [after],
      );
    if (rows.length === 0) return done;
    const ids: string[] = [];
    const crcs: number[] = [];
    for (const row of rows) {
      try {
        const header = rowToHeader(row);
        ids.push(header.id);
        crcs.push(headerChecksum(header));
      } catch (error) {
        if (!(error instanceof SessionError) || error.code !== "storage_corrupt") throw error;
      }
    }
    if (ids.length > 0) {
      await tx`UPDATE chime.sessions s SET crc = v.crc
        FROM unnest(${arrayLiteral(ids)}::text[], ${arrayLiteral(crcs)}::bigint[]) AS v(id, crc)
        WHERE s.id = v.id`;
    }
    done += ids.length;
    after = String(rows.at(-1)!.id);
  }
}
