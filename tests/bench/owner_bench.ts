/**
 * Live owner benchmark (a plain script, not `Deno.bench`; issue 5 "Benchmark"). 10,000 live
 * sessions, each with one pending reminder and its own agent, FIFO and owner:
 *
 * - heap per idle owner: `Deno.memoryUsage().heapUsed` after a forced GC, before and after the
 *   10,000 owners are started and armed, divided by 10,000 (target ≤ 10 KB);
 * - delivery lateness p50/p99 when 1,000 of those reminders fall due within the same second
 *   (dispatch append instant − `scheduledAt`; target p99 ≤ 250 ms);
 * - the same 1,000 delays through a Deno KV queue (`kv.enqueue(msg, { delay })` +
 *   `kv.listenQueue`) on a temp file, and whether one queued message survives a close/re-open.
 *
 * Run: `deno run -A tests/bench/owner_bench.ts [--libsql]` (it re-runs itself with
 * `--expose-gc`).
 *
 * @module
 */
import { Agent, ScriptedModel } from "@chime/agent";
import { LibsqlBackend, type PersistenceBackend, type Session, SessionStore } from "@chime/session";
import { MemoryBackend } from "@chime/session/testing";
import { ScheduleFifo } from "../../schedule/fifo.ts";
import { ScheduleOwner } from "../../schedule/owner.ts";

const SESSIONS = 10_000;
const DUE_TOGETHER = 1_000;
/** `--libsql` stores the sessions in a temp libSQL file instead of memory. */
const LIBSQL = Deno.args.includes("--libsql");
/** Time from setup start to the shared due second (libSQL setup initializes 10,000 rows). */
const LEAD_MS = LIBSQL ? 30_000 : 4_000;

const gc = (globalThis as { gc?: () => void }).gc;
if (gc === undefined) {
  const { code } = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "--v8-flags=--expose-gc", new URL(import.meta.url).pathname, ...Deno.args],
    stdout: "inherit",
    stderr: "inherit",
  }).output();
  Deno.exit(code);
}

function heap(): number {
  gc!();
  gc!();
  return Deno.memoryUsage().heapUsed;
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

function stats(samples: number[]): { p50: number; p99: number; max: number } {
  const sorted = [...samples].sort((a, b) => a - b);
  return { p50: percentile(sorted, 50), p99: percentile(sorted, 99), max: sorted.at(-1)! };
}

function record(i: number, scheduledAt: number) {
  const id = `sch_bench${String(i).padStart(8, "0")}`;
  return {
    version: 1,
    op: "create",
    record: { id, kind: "at", prompt: `r${i}`, scheduledAt: new Date(scheduledAt).toISOString() },
  };
}

const silent = { warn() {}, error() {} };

async function owners(): Promise<{ perOwner: number; lateness: number[]; setupMs: number }> {
  const started = performance.now();
  const backend: PersistenceBackend = LIBSQL
    ? await LibsqlBackend.open({ url: `file:${await Deno.makeTempDir()}/bench.db` })
    : new MemoryBackend();
  await using store = new SessionStore({ backend });
  const dueAt = Math.ceil((Date.now() + LEAD_MS) / 1000) * 1000; // one wall-clock second
  const lateness: number[] = [];
  const agents: Agent[] = [];
  const sessions: Session[] = [];
  for (let i = 0; i < SESSIONS; i++) {
    const session = await store.create({ cwd: "/bench", timeZone: "UTC" });
    const target = i < DUE_TOGETHER ? dueAt + (i % 1000) * 0.9 : Date.now() + 3_600_000;
    session.append("schedule/change", record(i, Math.floor(target)));
    session.subscribe((event) => {
      if ((event.data as { op?: string }).op === "dispatch") {
        lateness.push(Date.now() - Math.floor(target));
      }
    });
    sessions.push(session);
    agents.push(new Agent({ session, store, model: new ScriptedModel(() => ({ text: "ok" })) }));
  }
  await Promise.all(sessions.map((s) => store.flush(s)));
  const setupMs = performance.now() - started;
  const before = heap();
  const live: ScheduleOwner[] = agents.map((agent) => {
    const owner = new ScheduleOwner(agent, { fifo: new ScheduleFifo(), logger: silent });
    owner.start();
    return owner;
  });
  while (live.some((o) => o.state !== "armed")) await new Promise((r) => setTimeout(r, 20));
  const after = heap();
  if (Date.now() >= dueAt) throw new Error("setup took too long: reminders fell due early");
  while (lateness.length < DUE_TOGETHER) await new Promise((r) => setTimeout(r, 50));
  await new Promise((r) => setTimeout(r, 200));
  await Promise.all(live.map((o) => o[Symbol.asyncDispose]()));
  await Promise.all(agents.map((a) => a[Symbol.asyncDispose]()));
  return { perOwner: (after - before) / SESSIONS, lateness, setupMs };
}

async function kvQueue(): Promise<{ lateness: number[]; enqueueMs: number }> {
  const dir = await Deno.makeTempDir();
  const kv = await Deno.openKv(`${dir}/queue.sqlite`);
  const lateness: number[] = [];
  const all = Promise.withResolvers<void>();
  const listening = kv.listenQueue((msg: { due: number }) => {
    lateness.push(Date.now() - msg.due);
    if (lateness.length === DUE_TOGETHER) all.resolve();
  });
  const started = performance.now();
  const dueAt = Math.ceil((Date.now() + 4_000) / 1000) * 1000;
  for (let i = 0; i < DUE_TOGETHER; i++) {
    const due = Math.floor(dueAt + i * 0.9);
    await kv.enqueue({ due }, { delay: Math.max(0, due - Date.now()) });
  }
  const enqueueMs = performance.now() - started;
  const timeout = setTimeout(all.resolve, 60_000);
  await all.promise;
  clearTimeout(timeout);
  kv.close();
  await listening;
  await Deno.remove(dir, { recursive: true });
  return { lateness, enqueueMs };
}

async function kvRestart(): Promise<string> {
  const dir = await Deno.makeTempDir();
  const path = `${dir}/restart.sqlite`;
  const first = await Deno.openKv(path);
  const due = Date.now() + 1_000;
  await first.enqueue({ due }, { delay: 1_000 });
  first.close(); // the "process" stops before the message is due
  await new Promise((r) => setTimeout(r, 1_500));
  const second = await Deno.openKv(path);
  const got = Promise.withResolvers<number>();
  const listening = second.listenQueue((msg: { due: number }) => got.resolve(Date.now() - msg.due));
  const timeout = setTimeout(() => got.resolve(-1), 15_000);
  const late = await got.promise;
  clearTimeout(timeout);
  second.close();
  await listening;
  await Deno.remove(dir, { recursive: true });
  return late < 0
    ? "not delivered within 15 s after re-open"
    : `delivered after re-open, ${late} ms after its due time`;
}

const ours = await owners();
const o = stats(ours.lateness);
const kv = await kvQueue();
const k = stats(kv.lateness);
const restart = await kvRestart();
const kb = (bytes: number) => `${(bytes / 1024).toFixed(2)} KB`;

console.log(
  `Deno ${Deno.version.deno}, ${Deno.build.os}/${Deno.build.arch}; ` +
    `${SESSIONS} live sessions (${LIBSQL ? "libSQL file" : "memory"} backend), setup ${
      (ours.setupMs / 1000).toFixed(1)
    } s\n`,
);
console.log("| measure | chime owner | Deno KV queue | target |");
console.log("|---|---|---|---|");
console.log(
  `| heap per idle owner (FIFO + owner + timer) | ${
    kb(ours.perOwner)
  } | n/a (no per-session object) | ≤ 10 KB |`,
);
console.log(`| lateness p50, ${DUE_TOGETHER} due in one second | ${o.p50} ms | ${k.p50} ms | |`);
console.log(`| lateness p99 | ${o.p99} ms | ${k.p99} ms | ≤ 250 ms |`);
console.log(`| lateness max | ${o.max} ms | ${k.max} ms | |`);
console.log(
  `| delivered | ${ours.lateness.length}/${DUE_TOGETHER} | ${kv.lateness.length}/${DUE_TOGETHER} | all |`,
);
console.log(`| enqueue ${DUE_TOGETHER} (KV only) | – | ${kv.enqueueMs.toFixed(0)} ms | |`);
console.log(
  `| restart survival | session log: pending create re-armed on resume (restart lanes) | ${restart} | |`,
);
console.log(
  "\nchime lateness = dispatch append − scheduledAt (includes preflight flush and the " +
    "idle-phase claim); KV lateness = listenQueue handler − due.",
);
