/**
 * Host benchmark (figures, not a timed test):
 *
 * 1. SSE fan-out: a real server process (default config, offline model) with N concurrent
 *    (100, 500 and 2,000 by default)
 *    stream clients on one session; each prompt's `user-rpc` event is timed from the start of
 *    its `POST` to its arrival at every client (p50/p99), and the server's RSS is read from
 *    `/proc` before and after the clients connect. The clients are plain HTTP/1.1 over TCP,
 *    each read scanned as text (`--client tcp`, the default): 500 `fetch` stream readers in
 *    the bench's one process cost it more CPU than the server (1.2–1.8 s against 0.5 s over
 *    20 prompts here), so they measured the bench; `--client fetch` keeps that form.
 * 0. `GET /api/sessions/:id/history?limit=200` latency on a cold and on a live 200,000-event
 *    libSQL session (`--history-events`).
 * 2. `POST /api/sessions/:id/messages` throughput against an in-process server with the scripted
 *    model and a libSQL file.
 *
 * Run: `deno run -A tests/bench/host_bench.ts [--clients 100,500,2000] [--client tcp|fetch] [--pings 20] [--posts 2000] [--history-events 200000] [--only history|sse|posts]`
 *
 * @module
 */
import { parseArgs } from "node:util";
import { ScriptedModel } from "@chime/agent";
import { createApp, HostRuntime, loadConfig, startServer } from "@chime/host";
import { scheduleViews } from "@chime/schedule";
import { LibsqlBackend, type SessionEvent } from "@chime/session";
import { ROOT, spawnServer } from "../host/_server.ts";

const { values } = parseArgs({
  args: Deno.args,
  options: {
    clients: { type: "string", default: "100,500,2000" },
    client: { type: "string", default: "tcp" },
    only: { type: "string", default: "" },
    pings: { type: "string", default: "20" },
    posts: { type: "string", default: "2000" },
    concurrency: { type: "string", default: "32" },
    "history-events": { type: "string", default: "200000" },
  },
});
const CLIENT_COUNTS = values.clients.split(",").map(Number);
if (values.client !== "tcp" && values.client !== "fetch") throw new Error("--client tcp|fetch");
const CLIENT_KIND = values.client;
const ONLY = values.only;
const PINGS = Number(values.pings);
const POSTS = Number(values.posts);
const CONCURRENCY = Number(values.concurrency);
const HISTORY_EVENTS = Number(values["history-events"]);

function quantile(sorted: readonly number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? Number.NaN;
}

async function rssMiB(pid: number): Promise<number> {
  const status = await Deno.readTextFile(`/proc/${pid}/status`);
  const kb = Number(status.match(/VmRSS:\s+(\d+)/)?.[1] ?? Number.NaN);
  return kb / 1024;
}

/** CPU time (user + system, every thread) a process used so far, ms. */
async function cpuMs(pid: number): Promise<number> {
  const fields = (await Deno.readTextFile(`/proc/${pid}/stat`)).split(") ")[1]!.split(" ");
  const ticks = Number(fields[11]) + Number(fields[12]); // utime, stime (clock ticks of 10 ms)
  return ticks * 10;
}

async function post(url: string, body: unknown): Promise<Record<string, unknown>> {
  const response = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`${url}: ${response.status} ${await response.text()}`);
  return await response.json();
}

/** Records the arrival of each `user-rpc` frame in `buffer`; returns what is left unparsed. */
function scan(buffer: string, arrivals: Map<number, number[]>): string {
  let end: number;
  while ((end = buffer.indexOf("\n\n")) >= 0) {
    const block = buffer.slice(0, end);
    buffer = buffer.slice(end + 2);
    if (!block.includes('"type":"user-rpc"')) continue;
    const now = performance.now();
    const seq = Number(block.match(/^id: (\d+)/m)?.[1]);
    const times = arrivals.get(seq) ?? [];
    times.push(now);
    arrivals.set(seq, times);
  }
  return buffer;
}

/**
 * One light stream client: a plain HTTP/1.1 request over TCP, each read decoded and scanned
 * (chunk-size lines of the chunked encoding sit between frames and are skipped by `scan`).
 */
async function tcpClient(
  url: string,
  arrivals: Map<number, number[]>,
  ready: () => void,
  signal: AbortSignal,
): Promise<void> {
  const target = new URL(url);
  const conn = await Deno.connect({ hostname: target.hostname, port: Number(target.port) });
  signal.addEventListener("abort", () => {
    try {
      conn.close();
    } catch { /* closed already */ }
  }, { once: true });
  await conn.write(
    new TextEncoder().encode(
      `GET ${target.pathname} HTTP/1.1\r\nHost: ${target.host}\r\nAccept: text/event-stream\r\n\r\n`,
    ),
  );
  const bytes = new Uint8Array(65_536);
  const decoder = new TextDecoder();
  let buffer = "";
  let first = true;
  try {
    for (;;) {
      const n = await conn.read(bytes);
      if (n === null) return;
      if (first) {
        first = false;
        ready();
      }
      buffer = scan(buffer + decoder.decode(bytes.subarray(0, n), { stream: true }), arrivals);
    }
  } catch (error) {
    if (!signal.aborted) throw error;
  }
}

/** One stream client: records when each user-rpc seq arrives. */
async function client(
  url: string,
  arrivals: Map<number, number[]>,
  ready: () => void,
  signal: AbortSignal,
): Promise<void> {
  const response = await fetch(url, { signal });
  const reader = response.body!.getReader();
  // Aborting the fetch does not always end a body that is already streaming.
  signal.addEventListener("abort", () => void reader.cancel().catch(() => {}), { once: true });
  const decoder = new TextDecoder();
  let buffer = "";
  let first = true;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      if (first) {
        first = false;
        ready();
      }
      buffer = scan(buffer + decoder.decode(value, { stream: true }), arrivals);
    }
  } catch (error) {
    if (!signal.aborted) throw error;
  }
}

async function fanOut(CLIENTS: number): Promise<Record<string, string>> {
  const dataDir = await Deno.makeTempDir();
  await using server = await spawnServer(dataDir, "config/default.jsonc");
  const serverPid = server.pid;
  const { header } = await post(`${server.url}/api/sessions`, { timeZone: "UTC" });
  const id = (header as { id: string }).id;
  const rssBefore = await rssMiB(serverPid);
  const arrivals = new Map<number, number[]>();
  const controller = new AbortController();
  let connected = 0;
  const all = Promise.withResolvers<void>();
  const streams = Array.from(
    { length: CLIENTS },
    () =>
      (CLIENT_KIND === "tcp" ? tcpClient : client)(
        `${server.url}/api/sessions/${id}/stream`,
        arrivals,
        () => {
          if (++connected === CLIENTS) all.resolve();
        },
        controller.signal,
      ),
  );
  await all.promise;
  const rssConnected = await rssMiB(serverPid);
  const latencies: number[] = [];
  const cpuBefore = await cpuMs(serverPid);
  for (let i = 0; i < PINGS; i++) {
    const started = performance.now();
    const pending = Promise.withResolvers<void>();
    const sent = await post(`${server.url}/api/sessions/${id}/messages`, {
      text: `ping ${i}`,
      clientTimeZone: "UTC",
    });
    const seq = sent.seq as number;
    const poll = setInterval(
      () => (arrivals.get(seq)?.length ?? 0) >= CLIENTS && pending.resolve(),
      2,
    );
    await pending.promise;
    clearInterval(poll);
    latencies.push(...arrivals.get(seq)!.map((t) => t - started));
    await new Promise((r) => setTimeout(r, 20));
  }
  const rssAfter = await rssMiB(serverPid);
  const cpu = (await cpuMs(serverPid)) - cpuBefore;
  controller.abort();
  await Promise.allSettled(streams);
  latencies.sort((a, b) => a - b);
  await server.stop();
  await Deno.remove(dataDir, { recursive: true });
  return {
    [`SSE fan-out, ${CLIENTS} clients on one session: deliveries`]: String(latencies.length),
    [`SSE fan-out, ${CLIENTS} clients: latency p50 / p99 (POST start → client)`]: `${
      quantile(latencies, 0.5).toFixed(1)
    } / ${quantile(latencies, 0.99).toFixed(1)} ms`,
    [`SSE fan-out, ${CLIENTS} clients: server CPU per prompt (${CLIENT_KIND} clients)`]: `${
      (cpu / PINGS).toFixed(1)
    } ms`,
    [`SSE fan-out, ${CLIENTS} clients: server RSS idle / connected / after pings`]: `${
      rssBefore.toFixed(0)
    } / ${rssConnected.toFixed(0)} / ${rssAfter.toFixed(0)} MiB`,
  };
}

async function postThroughput(): Promise<Record<string, string>> {
  const dataDir = await Deno.makeTempDir();
  const config = await loadConfig(`${ROOT}/config/default.jsonc`, { dataDir });
  await using server = await startServer({
    config,
    port: 0,
    model: new ScriptedModel(() => ({ text: "ok" })),
    reportError: () => {},
  });
  const sessions = await Promise.all(Array.from({ length: 8 }, async () => {
    const { header } = await post(`${server.url}api/sessions`, { timeZone: "UTC" });
    return (header as { id: string }).id;
  }));
  let next = 0;
  const latencies: number[] = [];
  const started = performance.now();
  await Promise.all(Array.from({ length: CONCURRENCY }, async () => {
    while (next < POSTS) {
      const n = next++;
      const t = performance.now();
      await post(`${server.url}api/sessions/${sessions[n % sessions.length]}/messages`, {
        text: `message ${n}`,
        clientTimeZone: "UTC",
      });
      latencies.push(performance.now() - t);
    }
  }));
  const seconds = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  await server.shutdown();
  await Deno.remove(dataDir, { recursive: true });
  return {
    "POST messages (scripted model, libSQL file)": `${POSTS} requests, ${CONCURRENCY} concurrent`,
    "requests/s": (POSTS / seconds).toFixed(0),
    "POST latency p50 / p99": `${quantile(latencies, 0.5).toFixed(1)} / ${
      quantile(latencies, 0.99).toFixed(1)
    } ms`,
  };
}

/**
 * `GET /history?limit=200` on a cold and on a live libSQL session of `--history-events` events
 * (written through the backend directly, a reminder every 1000 events so pages carry views).
 */
async function historyPages(): Promise<Record<string, string>> {
  const dir = await Deno.makeTempDir();
  const backend = await LibsqlBackend.open({ url: `file:${dir}/bench.db` });
  const id = "bench-history";
  const at = "2030-01-01T00:00:00.000Z";
  await backend.initialize({
    version: 1,
    id,
    cwd: "/",
    createdAt: at,
    origin: "bench",
    lineage: null,
    delegationDepth: 0,
    timeZone: "UTC",
  }, []);
  const events: SessionEvent[] = [];
  for (let seq = 0; seq < HISTORY_EVENTS; seq++) {
    const sid = `sch_Bench${String(Math.floor(seq / 1000)).padStart(7, "0")}`;
    const data = seq % 1000 === 10
      ? {
        version: 1,
        op: "create",
        record: { id: sid, kind: "after", prompt: "p", afterSeconds: 1, scheduledAt: at },
      }
      : seq % 1000 === 990
      ? { version: 1, op: "dispatch", id: sid }
      : { text: `event ${seq}` };
    events.push({ seq, type: data.version === 1 ? "schedule/change" : "note", at, data });
  }
  for (let i = 0; i < events.length; i += 5000) await backend.append(id, events.slice(i, i + 5000));
  const config = await loadConfig(`${ROOT}/config/default.jsonc`, { dataDir: dir });
  const runtime = await HostRuntime.open({
    config,
    backend,
    views: [scheduleViews],
    model: new ScriptedModel(() => ({ text: "ok" })),
    reportError: () => {},
  });
  const app = createApp(runtime);
  const measure = async (n: number): Promise<string> => {
    const times: number[] = [];
    for (let i = 0; i < n; i++) {
      const t = performance.now();
      const response = await app.request(`/api/sessions/${id}/history?limit=200`);
      const body = await response.json();
      times.push(performance.now() - t);
      if (Object.keys(body.views).length === 0) throw new Error("no views on the tail page");
    }
    const first = times[0]!;
    times.sort((a, b) => a - b);
    return `${quantile(times, 0.5).toFixed(1)} / ${quantile(times, 0.99).toFixed(1)} ms (first ${
      first.toFixed(1)
    } ms)`;
  };
  const cold = await measure(50);
  await runtime.resume(id);
  const live = await measure(50);
  await runtime[Symbol.asyncDispose]();
  await Deno.remove(dir, { recursive: true });
  const n = HISTORY_EVENTS.toLocaleString("en");
  return {
    [`GET history?limit=200, cold ${n}-event libSQL session, p50 / p99`]: cold,
    [`GET history?limit=200, live ${n}-event session, p50 / p99`]: live,
  };
}

const rows: Record<string, string> = {};
if (ONLY === "" || ONLY === "history") Object.assign(rows, await historyPages());
if (ONLY === "" || ONLY === "sse") {
  for (const clients of CLIENT_COUNTS) Object.assign(rows, await fanOut(clients));
}
if (ONLY === "" || ONLY === "posts") Object.assign(rows, await postThroughput());
const width = Math.max(...Object.keys(rows).map((k) => k.length));
console.log(`\n| ${"measure".padEnd(width)} | value |\n|${"-".repeat(width + 2)}|-------|`);
for (const [k, v] of Object.entries(rows)) console.log(`| ${k.padEnd(width)} | ${v} |`);
