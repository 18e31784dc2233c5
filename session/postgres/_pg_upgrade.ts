/**
 * Private: the checksum half of the PostgreSQL v1→v2 upgrade. Inside the migration's
 * transaction, every stored event row gets its CRC-32C (`session/_checksum.ts`), computed once
 * from its stored text, so no v2 database holds a row without its checksum.
 *
 * @module
 */
import type postgres from "postgres";
import { arrayLiteral } from "./_pg_array.ts";
import { eventChecksum } from "../_checksum.ts";

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
