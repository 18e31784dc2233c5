/**
 * Private: what one group commit of the PostgreSQL backend runs, in one statement: the fence
 * first (`SELECT … FOR SHARE` of the lease rows of the fenced sessions, matched against the
 * tokens this host holds: a take-over's `UPDATE` of such a row waits for this commit, and this
 * commit never writes for a token that is no longer stored), then the headers and every event
 * row of the group (a fork's copied rows, read and re-checksummed beforehand, among them), each one `INSERT … SELECT FROM unnest(…)`
 * (docs/long-sessions.md "Fenced appends").
 *
 * @module
 */
import type { CommitTarget, Pending } from "../_group_commit.ts";
import { headerArgs } from "../_rows.ts";
import { copyRows } from "../_copy_rows.ts";
import { arrayLiteral } from "./_pg_array.ts";
import { PREPARED, type Sql } from "./_pg_open.ts";

type Columns = [string[], number[], string[], string[], string[], number[]];

/**
 * Splits the flat rows (6 values per event: `session_id, seq, type, at, data, crc`) into the
 * six column arrays of `unnest`; each fork's copied rows (`copies`) come before its own.
 */
function columns(
  accepted: readonly Pending[],
  copies: ReadonlyMap<Pending, readonly (string | number)[]>,
): Columns {
  const out: Columns = [[], [], [], [], [], []];
  for (const p of accepted) {
    for (const rows of [copies.get(p) ?? [], p.rows!]) {
      for (let i = 0; i < rows.length; i += 6) {
        out[0].push(rows[i] as string);
        out[1].push(rows[i + 1] as number);
        out[2].push(rows[i + 2] as string);
        out[3].push(rows[i + 3] as string);
        out[4].push(rows[i + 4] as string);
        out[5].push(rows[i + 5] as number);
      }
    }
  }
  return out;
}

/** Reads each fork's parent rows and re-encodes them under the child (`_copy_rows.ts`). */
async function readCopies(
  sql: Sql,
  accepted: readonly Pending[],
): Promise<Map<Pending, (string | number)[]>> {
  const out = new Map<Pending, (string | number)[]>();
  for (const p of accepted) {
    if (p.copy === undefined) continue;
    const rows = await sql`SELECT seq, type, at, data, crc FROM chime.events
      WHERE session_id = ${p.copy.parentId} AND seq <= ${p.copy.throughSeq} ORDER BY seq`;
    out.set(p, copyRows(rows, p.copy.parentId, p.id, p.copy.throughSeq));
  }
  return out;
}

/**
 * The whole group commit as ONE statement (one implicit transaction, atomic): the fence CTE locks
 * the fenced sessions' lease rows `FOR SHARE` where the token still matches (a concurrent
 * take-over's `UPDATE` waits for this commit, or, committed first, leaves the row unmatched);
 * the sessions it did not match are `lost`, and the headers (each with its checksum, `crc`,
 * schema v3), fork copies and events of every other session are inserted. One statement also
 * means the pool never pins a connection for a transaction (README "Many hosts on PostgreSQL",
 * the client).
 */
const COMMIT = `WITH held AS (
    SELECT l.session_id FROM unnest($1::text[], $2::bigint[]) AS f(id, token)
    JOIN chime.session_leases l ON l.session_id = f.id AND l.token = f.token
    FOR SHARE OF l
  ),
  lost AS (SELECT x.id FROM unnest($1::text[]) AS x(id)
    WHERE x.id NOT IN (SELECT session_id FROM held)),
  headers AS (
    INSERT INTO chime.sessions (id, cwd, created_at, origin, parent_id, forked_through_seq,
      delegation_depth, seed_length, time_zone, crc)
    SELECT * FROM unnest($3::text[], $4::text[], $5::text[], $6::text[], $7::text[],
      $8::integer[], $9::integer[], $10::integer[], $11::text[], $12::bigint[])
      AS h(id, cwd, created_at, origin, parent_id, forked_through_seq, delegation_depth,
        seed_length, time_zone, crc)
    WHERE h.id NOT IN (SELECT id FROM lost)
  ),
  rows AS (
    INSERT INTO chime.events (session_id, seq, type, at, data, crc)
    SELECT * FROM unnest($13::text[], $14::integer[], $15::text[], $16::text[], $17::text[],
      $18::bigint[]) AS v(session_id, seq, type, at, data, crc)
    WHERE v.session_id NOT IN (SELECT id FROM lost)
  )
  SELECT id FROM lost`;

/** The common group: only appends of unfenced sessions, one plain insert. */
const APPEND = `INSERT INTO chime.events (session_id, seq, type, at, data, crc)
  SELECT * FROM unnest($1::text[], $2::integer[], $3::text[], $4::text[], $5::text[],
    $6::bigint[])`;

/**
 * The PostgreSQL {@linkcode CommitTarget} over a pool.
 *
 * @param sql the pool
 * @returns the target
 */
export function postgresCommitTarget(sql: Sql): CommitTarget {
  return {
    async write(accepted, fence) {
      const ids: string[] = [];
      const tokens: number[] = [];
      if (fence !== undefined) {
        for (const p of accepted) {
          const token = fence(p.id);
          if (token !== undefined && !ids.includes(p.id)) {
            ids.push(p.id);
            tokens.push(token);
          }
        }
      }
      const headers = accepted.filter((p) => p.header !== undefined).map((p) =>
        headerArgs(p.header!)
      );
      const col = (i: number) => headers.map((h) => h[i] ?? null);
      const copies = await readCopies(sql, accepted);
      const [rowIds, seqs, types, ats, datas, crcs] = columns(accepted, copies);
      if (ids.length === 0 && headers.length === 0) {
        // Nothing to fence, no header: the insert alone (the same statement).
        await sql.unsafe(
          APPEND,
          [rowIds, seqs, types, ats, datas, crcs].map(arrayLiteral),
          PREPARED,
        );
        return new Set();
      }
      const lost = await sql.unsafe(
        COMMIT,
        [
          ids,
          tokens,
          // `$3` … `$12`: the ten values of `headerArgs`, the checksum last.
          ...Array.from({ length: 10 }, (_, i) => col(i)),
          rowIds,
          seqs,
          types,
          ats,
          datas,
          crcs,
        ].map(arrayLiteral),
        PREPARED,
      );
      return new Set(lost.map((r) => String(r.id)));
    },
    async leaseHeld(id, token) {
      const rows = await sql`SELECT token FROM chime.session_leases WHERE session_id = ${id}`
        .catch(() => []);
      return rows[0] !== undefined && Number(rows[0].token) === token;
    },
  };
}
