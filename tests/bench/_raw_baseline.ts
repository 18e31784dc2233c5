/**
 * The raw group-commit baseline of `session_bench.ts` (issue 11): `@libsql/client` with the
 * store's file settings (one connection, WAL, `synchronous=FULL`), one multi-row INSERT per write
 * transaction covering one event of each of `sessions` sessions, awaited before the next.
 *
 * @module
 */
import { createClient } from "@libsql/client";
import { CREATE_V15 } from "@chime/migrations";

/**
 * Acknowledged events/s of the ideal group commit.
 *
 * @param path a fresh database file
 * @param sessions sessions per transaction (one event each)
 * @param rounds transactions
 * @returns events per second
 */
export async function rawGroupCommit(
  path: string,
  sessions: number,
  rounds: number,
): Promise<number> {
  const client = createClient({ url: `file:${path}`, concurrency: 1, timeout: 5_000 });
  try {
    await client.batch([...CREATE_V15], "write");
    await client.execute("PRAGMA journal_mode = WAL");
    await client.execute("PRAGMA synchronous = FULL");
    const at = new Date(0).toISOString();
    const sql = "INSERT INTO events (session_id, seq, type, at, data) VALUES " +
      Array.from({ length: sessions }, () => "(?, ?, ?, ?, ?)").join(", ");
    const start = performance.now();
    for (let seq = 0; seq < rounds; seq++) {
      const args = [];
      for (let s = 0; s < sessions; s++) {
        const data = JSON.stringify({ i: seq, text: "an ordinary event of modest size" });
        args.push(`s${s}`, seq, "note", at, data);
      }
      await client.batch([{ sql, args }], "write");
    }
    return (sessions * rounds) / ((performance.now() - start) / 1_000);
  } finally {
    client.close();
  }
}
