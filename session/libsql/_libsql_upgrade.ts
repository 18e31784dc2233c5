/**
 * Private: the one upgrade transaction of an owned legacy libSQL database without checksums
 * (v13, v14 or v15 to v17): the DDL the migrations package lists, then the checksum of every old event row
 * (`session/_checksum.ts`), computed once each from the stored bytes, all in one write
 * transaction, so a v16 or later database never holds a row without its checksum.
 *
 * @module
 */
import type { Client, InStatement } from "@libsql/client";
import { eventChecksum } from "../_checksum.ts";
import { lossyText } from "./_libsql_sql.ts";

const PAGE = 2_000;

/**
 * Runs `upgrade` and fills `events.crc` for every row in one write transaction.
 *
 * @param client the one connection
 * @param upgrade the DDL of the verdict (ends with `PRAGMA user_version = 17`); none: only the
 *   checksums of every row (the benches' bulk-inserted rows)
 * @returns how many rows got a checksum
 * @throws whatever SQLite raises (then nothing of the upgrade is kept)
 */
export async function upgradeWithChecksums(
  client: Client,
  upgrade: readonly string[],
): Promise<number> {
  const tx = await client.transaction("write");
  try {
    if (upgrade.length > 0) await tx.batch([...upgrade]);
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
      if (rows.length === 0) break;
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
    await tx.commit();
    return done;
  } finally {
    tx.close();
  }
}

// Damaged legacy bytes get a checksum of what is stored (lossy text never becomes the data: the
// strict decoder still refuses invalid UTF-8 on read).

function bytes(value: unknown): Uint8Array {
  return value instanceof ArrayBuffer
    ? new Uint8Array(value)
    : new TextEncoder().encode(String(value));
}
