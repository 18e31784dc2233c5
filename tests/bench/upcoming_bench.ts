/**
 * Upcoming across sessions and the calendar feed (docs/upcoming.md; a plain script, not
 * `Deno.bench`). For 1,000 and 10,000 stored sessions of 10 reminders each (live-able one-shots,
 * overdue ones, daily series in five zones, paused series, finished ones) in a real libSQL file
 * and real JSONL files, it times `GET /api/reminders?limit=50` through the host app: the first
 * answer right after the host started (it waits for the start-up warm: every session folded from
 * a few keyset-paged type-index queries) and then p50 / p99 of warm answers
 * (no storage read on the request path: the cached projection plus live sessions). It also times `GET /api/reminders.ics` for
 * 1,000 reminders. Target: the first page of 50 at 10,000 sessions within 50 ms (warm).
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

async function host(kind: "libsql" | "jsonl", sessions: number, perSession: number) {
  const dir = await Deno.makeTempDir({ prefix: "chime-upcoming-bench-" });
  const storage = kind === "libsql"
    ? { kind: "libsql" as const, url: `file:${join(dir, "chime.db")}` }
    : { kind: "jsonl" as const, dir: join(dir, "sessions") };
  {
    await using backend = kind === "libsql"
      ? await LibsqlBackend.open({ url: storage.url! })
      : await JsonlBackend.open({ dir: storage.dir! });
    await writeFixture(backend, { sessions, perSession, now: NOW });
  }
  const runtime = await HostRuntime.open({
    config: {
      storage,
      dataDir: dir,
      model: { kind: "none", reason: "bench" },
      plugins: [],
      renderers: [],
      cwd: "/",
    },
    plugins: [schedulePlugin()],
    views: [scheduleViews],
  });
  return {
    runtime,
    app: createApp(runtime),
    async [Symbol.asyncDispose]() {
      await runtime[Symbol.asyncDispose]();
      await Deno.remove(dir, { recursive: true });
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

console.log("| storage | sessions | reminders | first answer | warm p50 / p99 (limit=50) |");
console.log("| ------- | -------- | --------- | ------------ | ------------------------- |");
for (const kind of ["libsql", "jsonl"] as const) {
  for (const sessions of sizes) {
    await using h = await host(kind, sessions, 10);
    const get = () => h.app.request("/api/reminders?limit=50");
    const first = await timed(get);
    const warm: number[] = [];
    for (let i = 0; i < 30; i++) warm.push(await timed(get));
    warm.sort((a, b) => a - b);
    console.log(
      `| ${kind} | ${sessions} | ${sessions * 10} | ${ms(first)} | ${ms(pct(warm, 0.5))} / ${
        ms(pct(warm, 0.99))
      } |`,
    );
  }
}

{
  await using h = await host("libsql", 100, 10);
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
