/**
 * Private: what one group commit of the PostgreSQL backend runs, in one transaction: the fence
 * first (`SELECT … FOR SHARE` of the lease rows of the fenced sessions, matched against the
 * tokens this host holds: a take-over's `UPDATE` of such a row waits for this commit, and this
 * commit never writes for a token that is no longer stored), then the headers, the fork copies
 * and every event row of the group in one `INSERT … SELECT FROM unnest(…)` each
 * (docs/long-sessions.md "Fenced appends").
 *
 * @module
 */
import type { CommitTarget, Pending } from "../_group_commit.ts";
import { headerArgs } from "../_rows.ts";
import type { Sql } from "./_pg_open.ts";

/** Splits the flat rows (5 values per event) into the five column arrays of `unnest`. */
function columns(accepted: readonly Pending[]): [string[], number[], string[], string[], string[]] {
  const out: [string[], number[], string[], string[], string[]] = [[], [], [], [], []];
  for (const p of accepted) {
    const rows = p.rows!;
    for (let i = 0; i < rows.length; i += 5) {
      out[0].push(rows[i] as string);
      out[1].push(rows[i + 1] as number);
      out[2].push(rows[i + 2] as string);
      out[3].push(rows[i + 3] as string);
      out[4].push(rows[i + 4] as string);
    }
  }
  return out;
}

/**
 * The PostgreSQL {@linkcode CommitTarget} over a pool.
 *
 * @param sql the pool
 * @returns the target
 */
export function postgresCommitTarget(sql: Sql): CommitTarget {
  return {
    async write(accepted, fence) {
      const lost = new Set<string>();
      await sql.begin(async (tx) => {
        if (fence !== undefined) {
          const ids: string[] = [];
          const tokens: number[] = [];
          for (const p of accepted) {
            const token = fence(p.id);
            if (token !== undefined && !ids.includes(p.id)) {
              ids.push(p.id);
              tokens.push(token);
            }
          }
          if (ids.length > 0) {
            const held = await tx`SELECT l.session_id FROM
              unnest(${ids}::text[], ${tokens}::bigint[]) AS f(id, token)
              JOIN chime.session_leases l ON l.session_id = f.id AND l.token = f.token
              FOR SHARE OF l`;
            const ok = new Set(held.map((r) => String(r.session_id)));
            for (const id of ids) if (!ok.has(id)) lost.add(id);
          }
        }
        const live = lost.size === 0 ? accepted : accepted.filter((p) => !lost.has(p.id));
        const headers = live.filter((p) => p.header !== undefined).map((p) =>
          headerArgs(p.header!)
        );
        if (headers.length > 0) {
          const col = (i: number) => headers.map((h) => h[i] ?? null);
          await tx`INSERT INTO chime.sessions (id, cwd, created_at, origin, parent_id,
              forked_through_seq, delegation_depth, seed_length, time_zone)
            SELECT * FROM unnest(${col(0)}::text[], ${col(1)}::text[], ${col(2)}::text[],
              ${col(3)}::text[], ${col(4)}::text[], ${col(5)}::integer[], ${col(6)}::integer[],
              ${col(7)}::integer[], ${col(8)}::text[])`;
        }
        for (const p of live) {
          if (p.copy === undefined) continue;
          await tx`INSERT INTO chime.events (session_id, seq, type, at, data)
            SELECT ${p.id}, seq, type, at, data FROM chime.events
            WHERE session_id = ${p.copy.parentId} AND seq <= ${p.copy.throughSeq} ORDER BY seq`;
        }
        const [ids, seqs, types, ats, datas] = columns(live);
        if (ids.length > 0) {
          await tx`INSERT INTO chime.events (session_id, seq, type, at, data)
            SELECT * FROM unnest(${ids}::text[], ${seqs}::integer[], ${types}::text[],
              ${ats}::text[], ${datas}::text[])`;
        }
      });
      return lost;
    },
    async leaseHeld(id, token) {
      const rows = await sql`SELECT token FROM chime.session_leases WHERE session_id = ${id}`
        .catch(() => []);
      return rows[0] !== undefined && Number(rows[0].token) === token;
    },
  };
}
