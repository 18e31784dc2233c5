/**
 * The raw group-commit baseline of `session_bench.ts` (docs/long-sessions.md "Group commit"):
 * `@libsql/client` with the store's file settings (one connection, WAL, `synchronous=FULL`), one
 * multi-row INSERT per write transaction covering one event of each of `sessions` sessions,
 * awaited before the next.
 *
 * Two forms: `"execute"` runs the INSERT alone, as its own (autocommit) transaction, the cheapest
 * form and the one the store uses for a one-statement group; `"batch"` wraps it in
 * `client.batch([insert], "write")` (`BEGIN IMMEDIATE`, INSERT, `COMMIT`), the first baseline
 * the store was measured against.
 *
 * @module
 */
import { createClient } from "@libsql/client";
import { CREATE_V18 } from "@chime/migrations";
import { eventChecksum } from "../../session/_checksum.ts";
import { setImmediate } from "node:timers";

/**
 * Lets two whole event-loop turns pass: V8 runs the garbage-collection work a round left
 * behind (incremental marking, finalizers) only on a turn, so a loop of awaits that never
 * yields a turn defers its cost to whoever turns next. Each round of the store-vs-raw bench
 * starts after a settle and ends with one inside its timing, so each pays for its own.
 */
export async function settle(): Promise<void> {
  for (let i = 0; i < 2; i++) await new Promise<void>((go) => setImmediate(go));
}

/**
 * One side of the store-vs-raw bench, opened once and run in chunks, so the sides can take
 * turns every few transactions: the disk's speed drifts by ±25 % over seconds here, and sides
 * that run back to back for a whole round each see a different disk.
 */
export interface BenchSide extends AsyncDisposable {
  /**
   * Runs `count` transactions of one event per session, timed from a settled event loop until
   * the work they left to it is done ({@linkcode settle}).
   *
   * @returns the elapsed time (ms)
   */
  run(count: number): Promise<number>;
}

/**
 * The ideal group commit: one multi-row INSERT per write transaction, one event of each of
 * `sessions` sessions, awaited before the next.
 *
 * @param path a fresh database file
 * @param sessions sessions per transaction (one event each)
 * @param form `"execute"` (autocommit) or `"batch"` (explicit write transaction)
 * @param prefill events already stored in each session before the timed rounds (bulk SQL)
 * @param checksums also compute and insert each event's CRC-32C (`session/_checksum.ts`), the
 *   work a v16 store must do @default false
 * @returns the side; its seqs continue across {@linkcode BenchSide.run} calls
 */
export async function openRawSide(
  path: string,
  sessions: number,
  form: "execute" | "batch" = "execute",
  prefill = 0,
  checksums = false,
): Promise<BenchSide> {
  const client = createClient({ url: `file:${path}`, concurrency: 1, timeout: 5_000 });
  try {
    await client.batch([...CREATE_V18], "write");
    await client.execute("PRAGMA journal_mode = WAL");
    await client.execute("PRAGMA synchronous = FULL");
  } catch (error) {
    client.close();
    throw error;
  }
  const at = new Date(0).toISOString();
  if (prefill > 0) await client.execute(prefillSql(sessions, prefill, at));
  const sql = checksums
    ? "INSERT INTO events (session_id, seq, type, at, data, crc) VALUES " +
      Array.from({ length: sessions }, () => "(?, ?, ?, ?, ?, ?)").join(", ")
    : "INSERT INTO events (session_id, seq, type, at, data) VALUES " +
      Array.from({ length: sessions }, () => "(?, ?, ?, ?, ?)").join(", ");
  let seq = prefill;
  return {
    async run(count) {
      await settle();
      const start = performance.now();
      for (const end = seq + count; seq < end; seq++) {
        const args = [];
        for (let s = 0; s < sessions; s++) {
          const data = JSON.stringify({ i: seq, text: "an ordinary event of modest size" });
          args.push(`s${s}`, seq, "note", at, data);
          if (checksums) args.push(eventChecksum(`s${s}`, seq, "note", at, data));
        }
        if (form === "execute") await client.execute({ sql, args });
        else await client.batch([{ sql, args }], "write");
      }
      await settle();
      return performance.now() - start;
    },
    [Symbol.asyncDispose]() {
      client.close();
      return Promise.resolve();
    },
  };
}

/**
 * One bulk `INSERT … SELECT` of `count` events into each of the sessions `s0 … s{sessions-1}`
 * (seqs `0 … count - 1`, the rows the timed rounds append), so both sides of the bench start on
 * the same stored log.
 *
 * @param sessions how many sessions
 * @param count events per session
 * @param at the `at` of every row
 * @returns the statement
 */
export function prefillSql(
  sessions: number,
  count: number,
  at: string,
): { sql: string; args: (string | number)[] } {
  return {
    sql: `WITH RECURSIVE n(x) AS (SELECT 0 UNION ALL SELECT x + 1 FROM n WHERE x < ? - 1),
      s(y) AS (SELECT 0 UNION ALL SELECT y + 1 FROM s WHERE y < ? - 1)
      INSERT INTO events (session_id, seq, type, at, data)
      SELECT 's' || y, x, 'note', ?,
        '{"i":' || x || ',"text":"an ordinary event of modest size"}' FROM s, n ORDER BY y, x`,
    args: [count, sessions, at],
  };
}
