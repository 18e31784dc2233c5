/**
 * Upcoming across sessions and the calendar feed (docs/upcoming.md; a plain script, not
 * `Deno.bench`). For 1,000 and 10,000 stored sessions of 10 reminders each (live-able one-shots,
 * overdue ones, daily series in five zones, paused series, finished ones) in a real libSQL file
 * and real JSONL files, it times `GET /api/reminders?limit=50` through the host app: the first
 * answer right after the very first start (no start-up cache yet: it waits for every session
 * folded from a few keyset-paged type-index queries, then the cache is written), the first answer
 * after a restart (the start-up cache checked against one `storedLengths()` read, its rows read
 * as far as the page needs; docs/upcoming.md "The start-up cache"), and p50 / p99 of warm answers
 * after that restart. It also times `GET /api/reminders.ics` for 1,000 reminders. Target: the
 * first page of 50 at 10,000 sessions within 50 ms.
 *
 * Run: `deno run -A tests/bench/upcoming_bench.ts [sessions…]` (default `1000 10000`).
 *
 * @module
 */
import { join } from "node:path";
import { createApp, HostRuntime } from "@chime/host";
import { schedulePlugin, scheduleViews } from "@chime/schedule";
import { JsonlBackend } from "@chime/session/jsonl";
import { LibsqlBackend } from "@chime/session/libsql";
import { writeFixture } from "../fixtures/upcoming_fixture.ts";

const NOW = Date.now();
const sizes = Deno.args.length > 0 ? Deno.args.map(Number) : [1000, 10000];
const ms = (v: number) => `${v.toFixed(1)} ms`;
const pct = (s: number[], p: number) => s[Math.min(s.length - 1, Math.floor(p * s.length))]!;

type Kind = "libsql" | "jsonl";

function storageOf(kind: Kind, dir: string) {
  return kind === "libsql"
    ? { kind: "libsql" as const, url: `file:${join(dir, "chime.db")}` }
    : { kind: "jsonl" as const, dir: join(dir, "sessions") };
}

async function fixture(kind: Kind, sessions: number, perSession: number): Promise<string> {
  const dir = await Deno.makeTempDir({ prefix: "chime-upcoming-bench-" });
  const storage = storageOf(kind, dir);
  await using backend = kind === "libsql"
    ? await LibsqlBackend.open({ url: storage.url! })
    : await JsonlBackend.open({ dir: storage.dir! });
  await writeFixture(backend, { sessions, perSession, now: NOW });
  return dir;
}

async function host(kind: Kind, dir: string, remove = false) {
  const storage = storageOf(kind, dir);
  const runtime = await HostRuntime.open({
    config: {
      storage,
      dataDir: dir,
      model: { kind: "none", reason: "bench" },
      plugins: [],
      renderers: [],
      cwd: "/",
    },
    plugins: [schedulePlugin({ upcomingCacheDir: join(dir, "schedule") })],
    views: [scheduleViews],
  });
  return {
    runtime,
    app: createApp(runtime),
    async [Symbol.asyncDispose]() {
      await runtime[Symbol.asyncDispose]();
      if (remove) await Deno.remove(dir, { recursive: true });
    },
  };
}

async function timed(run: () => Response | Promise<Response>): Promise<number> {
  const start = performance.now();
  const response = await run();
  await response.arrayBuffer();
  if (!response.ok) throw new Error(`status ${response.status}`);
  return performance.now() - start;
}

console.log(
  "| storage | sessions | reminders | first answer, first start | first answer, restart | warm p50 / p99 (limit=50) |",
);
console.log(
  "| ------- | -------- | --------- | ------------------------- | --------------------- | ------------------------- |",
);
for (const kind of ["libsql", "jsonl"] as const) {
  for (const sessions of sizes) {
    const dir = await fixture(kind, sessions, 10);
    let cold: number;
    {
      await using h = await host(kind, dir);
      cold = await timed(() => h.app.request("/api/reminders?limit=50"));
    }
    await using h = await host(kind, dir, true);
    const get = () => h.app.request("/api/reminders?limit=50");
    const first = await timed(get);
    const warm: number[] = [];
    for (let i = 0; i < 30; i++) warm.push(await timed(get));
    warm.sort((a, b) => a - b);
    console.log(
      `| ${kind} | ${sessions} | ${sessions * 10} | ${ms(cold)} | ${ms(first)} | ${
        ms(pct(warm, 0.5))
      } / ${ms(pct(warm, 0.99))} |`,
    );
  }
}

{
  await using h = await host("libsql", await fixture("libsql", 100, 10), true);
  const { url } = await (await h.app.request("/api/reminders/feed", {
    method: "POST",
    body: "{}",
    headers: { "content-type": "application/json" },
  })).json();
  const times: number[] = [];
  for (let i = 0; i < 10; i++) times.push(await timed(() => h.app.request(url)));
  times.sort((a, b) => a - b);
  console.log(
    `\n.ics of 1,000 reminders (100 sessions, paused ones left out): p50 ${
      ms(pct(times, 0.5))
    }, max ${ms(times.at(-1)!)}`,
  );
}
