/**
 * Private: the fork copies of one libSQL group commit, read before its write transaction
 * (`session/_copy_rows.ts`). The parent's rows through the fork point are immutable once
 * stored, so reading them first copies the same rows the transaction would.
 *
 * @module
 */
import type { Client, InValue } from "@libsql/client";
import type { Pending } from "../_group_commit.ts";
import { copyRows } from "../_copy_rows.ts";
import { EVENT_READ } from "./_libsql_sql.ts";

/** The child rows of each fork of a commit, keyed by its call. */
export type CopyRows = ReadonlyMap<Pending, readonly InValue[]>;

/**
 * Reads and re-encodes the copied rows of every fork among `accepted`.
 *
 * @throws {SessionError} `storage_corrupt` for a damaged parent row (the commit is not run)
 */
export async function readCopies(client: Client, accepted: readonly Pending[]): Promise<CopyRows> {
  const out = new Map<Pending, InValue[]>();
  for (const p of accepted) {
    if (p.copy === undefined) continue;
    const { rows } = await client.execute({
      sql: `SELECT ${EVENT_READ} FROM events WHERE session_id = ? AND seq <= ? ORDER BY seq`,
      args: [p.copy.parentId, p.copy.throughSeq],
    });
    out.set(p, copyRows(rows, p.copy.parentId, p.id, p.copy.throughSeq));
  }
  return out;
}
