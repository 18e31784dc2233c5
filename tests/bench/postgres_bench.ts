/**
 * PostgreSQL persistence benchmark (figures, not a timed test): acknowledged events/s of
 * `SessionStore` on `PostgresBackend` for 100 sessions flushing after every append (group
 * commit), side by side in one process with a raw `postgres` client loop doing the same inserts
 * in the same transaction shape: one `INSERT … SELECT FROM unnest(…)` statement (its own
 * transaction) holding one event of each of the 100 sessions, awaited before the next. Rounds
 * alternate (raw, store) on fresh databases of one throw-away cluster (tests/_postgres.ts,
 * `fsync=on`, default `synchronous_commit`); medians and the ratio of the medians are printed.
 *
 * Run: `deno run -A tests/bench/postgres_bench.ts [rounds] [appends]`
 *
 * @module
 */
import postgres from "postgres";
import { PostgresBackend } from "../../session/postgres/postgres_backend.ts";
import { SessionStore } from "../../session/store.ts";
import { postgresLanes, startPostgres } from "../_postgres.ts";
import { settle } from "./_raw_baseline.ts";

const ROUNDS = Number(Deno.args[0] ?? 5);
const APPENDS = Number(Deno.args[1] ?? 100);
const SESSIONS = 100;
const TEXT = "an ordinary event of modest size";

async function storeRound(url: string): Promise<number> {
  await using store = new SessionStore({ backend: await PostgresBackend.open({ url }) });
  const live = await Promise.all(
    Array.from(
      { length: SESSIONS },
      (_, i) => store.create({ cwd: "/", id: `s${i}`, timeZone: "UTC" }),
    ),
  );
  await Promise.all(live.map((s) => store.flush(s)));
  await settle();
  const start = performance.now();
  await Promise.all(live.map(async (session) => {
    for (let i = 0; i < APPENDS; i++) {
      store.append(session, "note", { i, text: TEXT });
      if (!await store.flush(session)) throw new Error("flush not acknowledged");
    }
  }));
  await settle();
  return (SESSIONS * APPENDS) / ((performance.now() - start) / 1_000);
}

async function rawRound(url: string): Promise<number> {
  // The backend creates the schema; the raw loop then writes with a client of its own.
  await (await PostgresBackend.open({ url }))[Symbol.asyncDispose]();
  const sql = postgres(url, { onnotice: () => {}, max: 10 });
  try {
    const at = new Date(0).toISOString();
    const ids = Array.from({ length: SESSIONS }, (_, s) => `s${s}`);
    const types = ids.map(() => "note");
    const ats = ids.map(() => at);
    await settle();
    const start = performance.now();
    for (let seq = 0; seq < APPENDS; seq++) {
      const seqs = ids.map(() => seq);
      const datas = ids.map(() => JSON.stringify({ i: seq, text: TEXT }));
      await sql`INSERT INTO chime.events (session_id, seq, type, at, data)
        SELECT * FROM unnest(${ids}::text[], ${seqs}::integer[], ${types}::text[],
          ${ats}::text[], ${datas}::text[])`;
    }
    await settle();
    return (SESSIONS * APPENDS) / ((performance.now() - start) / 1_000);
  } finally {
    await sql.end();
  }
}

const median = (v: readonly number[]): number =>
  v.toSorted((a, b) => a - b)[Math.floor(v.length / 2)]!;

if (!postgresLanes()) Deno.exit(0);
await using cluster = await startPostgres();
const raws: number[] = [];
const stores: number[] = [];
for (let round = 0; round < ROUNDS; round++) {
  raws.push(await rawRound(await cluster.database("raw")));
  stores.push(await storeRound(await cluster.database("store")));
}
const ratio = median(stores) / median(raws);
console.log("| PostgreSQL, 100 sessions, every append flushed | value | target |");
console.log("| --- | --- | --- |");
console.log(
  `| raw \`postgres\` loop (one unnest INSERT per commit) | ${
    median(raws).toFixed(0)
  } events/s | |`,
);
console.log(
  `| \`SessionStore\` on \`PostgresBackend\` | ${median(stores).toFixed(0)} events/s | |`,
);
console.log(
  `| store / raw (median of ${ROUNDS} alternating rounds) | ${ratio.toFixed(2)}× | ≥ 0.8× |`,
);
console.log(
  `rounds: raw ${raws.map((r) => r.toFixed(0)).join(", ")}; store ${
    stores.map((r) => r.toFixed(0)).join(", ")
  }`,
);
