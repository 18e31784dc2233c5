/**
 * Long-session benchmark (docs/long-sessions.md "Benchmarks"; a plain script, not `Deno.bench`):
 * for sessions of 1,000, 100,000 and 1,000,000 stored events, in a fresh child process each (so
 * RSS is its own):
 *
 * - resume time: `SessionStore.resume` of the cold session on an open libSQL file (reads the
 *   header, the stored length and the last 1,000 events), the first one of the process and the
 *   median of 5 more (close, resume);
 * - RSS growth: `Deno.memoryUsage().rss` after the resume and 20 creates, minus before the resume;
 * - reminder-create latency, store level: append one `schedule/change` event and `flush` it
 *   (acknowledged, WAL + `synchronous=FULL`), p50 of 20. The agent path (the plugin's tool over
 *   the incremental schedule state) is timed by `schedule_state_bench.ts`, not here;
 * - the schedule rebuild read: `store.readByType(session, ["schedule/change"])` (one change per
 *   1,000 events, from the `events_by_type` index).
 *
 * Each database is generated with bulk SQL (one recursive-CTE `INSERT … SELECT`), not the store.
 * Prints a markdown table; never asserts timings.
 *
 * Run: `deno run -A tests/bench/long_session_bench.ts`
 *
 * @module
 */
import { createClient } from "@libsql/client";
import { LibsqlBackend } from "../../session/libsql/libsql_backend.ts";
import { SessionStore } from "../../session/store.ts";
import { upgradeWithChecksums } from "../../session/libsql/_libsql_upgrade.ts";

const SIZES = [1_000, 100_000, 1_000_000];
const ID = "long";

/** The measured figures of one size. */
interface Measured {
  readonly events: number;
  readonly buildS: number;
  readonly resumeMs: number;
  readonly warmResumeMs: number;
  readonly rssMb: number;
  readonly createMs: number;
  readonly byTypeMs: number;
  readonly changes: number;
}

async function build(path: string, events: number): Promise<number> {
  const t0 = performance.now();
  {
    await using backend = await LibsqlBackend.open({ url: `file:${path}` });
    await backend.initialize({
      version: 1,
      id: ID,
      cwd: "/",
      createdAt: new Date(0).toISOString(),
      origin: "bench",
      lineage: null,
      delegationDepth: 0,
      timeZone: "UTC",
    }, []);
  }
  const client = createClient({ url: `file:${path}` });
  try {
    await client.execute({
      sql: `WITH RECURSIVE n(x) AS (SELECT 0 UNION ALL SELECT x + 1 FROM n WHERE x < ? - 1)
        INSERT INTO events (session_id, seq, type, at, data)
        SELECT ?, x, CASE WHEN x % 1000 = 999 THEN 'schedule/change' ELSE 'note' END,
          '2026-01-01T00:00:00.000Z',
          '{"n":' || x || ',"text":"an ordinary event of modest size"}' FROM n`,
      args: [events, ID],
    });
    // Bulk SQL rows have no checksum yet: compute each once, as the v16 upgrade does.
    await upgradeWithChecksums(client, []);
  } finally {
    client.close();
  }
  return (performance.now() - t0) / 1_000;
}

async function child(events: number): Promise<Measured> {
  const dir = await Deno.makeTempDir({ prefix: "chime-long-bench-" });
  try {
    const buildS = await build(`${dir}/long.db`, events);
    await using store = new SessionStore({
      backend: await LibsqlBackend.open({ url: `file:${dir}/long.db` }),
    });
    const rss0 = Deno.memoryUsage().rss;
    const t0 = performance.now();
    const session = await store.resume(ID);
    const resumeMs = performance.now() - t0;
    if (session.length !== events) throw new Error("bad resume");
    const creates: number[] = [];
    for (let i = 0; i < 20; i++) {
      const t = performance.now();
      store.append(session, "schedule/change", { op: "create", id: `r${i}`, at: Date.now() });
      if (!await store.flush(session)) throw new Error("flush not acknowledged");
      creates.push(performance.now() - t);
    }
    const rssMb = (Deno.memoryUsage().rss - rss0) / 2 ** 20;
    const warm: number[] = [];
    for (let i = 0; i < 5; i++) {
      await store.close(store.live(ID)!);
      const t = performance.now();
      await store.resume(ID);
      warm.push(performance.now() - t);
    }
    warm.sort((a, b) => a - b);
    const t1 = performance.now();
    const changes = (await store.readByType(store.live(ID)!, ["schedule/change"])).length;
    const byTypeMs = performance.now() - t1;
    creates.sort((a, b) => a - b);
    return {
      events,
      buildS,
      resumeMs,
      warmResumeMs: warm[2]!,
      rssMb,
      createMs: creates[10]!,
      byTypeMs,
      changes,
    };
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

/** Runs every size in its own child process and prints the table. */
export async function main(): Promise<Measured[]> {
  const rows: Measured[] = [];
  for (const events of SIZES) {
    const out = await new Deno.Command(Deno.execPath(), {
      args: ["run", "-A", new URL(import.meta.url).pathname, "--child", String(events)],
      stdout: "piped",
      stderr: "inherit",
    }).output();
    if (!out.success) throw new Error(`child for ${events} events failed`);
    rows.push(JSON.parse(new TextDecoder().decode(out.stdout)));
  }
  const n = (v: number) => v.toLocaleString("en-US");
  console.log(
    "| stored events | resume (first / p50 of 5 more) | RSS growth | create (append+flush) p50 | readByType schedule/change |" +
      " build (bulk SQL) |\n| ---: | ---: | ---: | ---: | ---: | ---: |",
  );
  for (const r of rows) {
    console.log(
      `| ${n(r.events)} | ${r.resumeMs.toFixed(1)} / ${r.warmResumeMs.toFixed(1)} ms | ${
        r.rssMb.toFixed(1)
      } MB | ` +
        `${r.createMs.toFixed(2)} ms | ${r.byTypeMs.toFixed(1)} ms (${n(r.changes)}) | ` +
        `${r.buildS.toFixed(1)} s |`,
    );
  }
  console.log("\nTargets: resume of 1,000,000 ≤ 200 ms; RSS growth ≤ 50 MB; create at 1,000,000");
  console.log("within 1.5× of 1,000.");
  return rows;
}

if (import.meta.main) {
  const at = Deno.args.indexOf("--child");
  if (at >= 0) {
    // deno-lint-ignore no-console
    console.log(JSON.stringify(await child(Number(Deno.args[at + 1]))));
  } else {
    await main();
  }
}
