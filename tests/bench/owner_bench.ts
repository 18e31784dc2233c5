/**
 * Live owner benchmark (a plain script, not `Deno.bench`; figures in README "Performance").
 * Prints one markdown table:
 *
 * - heap per idle owner: `Deno.memoryUsage().heapUsed` after a forced GC, before and after 10,000
 *   live sessions (one pending reminder, own agent, FIFO and owner each, and the session's
 *   incremental schedule state the owner builds on start) are started and armed,
 *   divided by 10,000 (target ≤ 10 KB);
 * - delivery lateness p50/p99 when 1,000 of those reminders fall due within the same second
 *   (dispatch append instant − `scheduledAt`; target p99 ≤ 250 ms). The chime rows store the
 *   sessions in a real libSQL file (WAL, `synchronous=FULL`, as `LibsqlBackend.open` sets it);
 *   an in-memory row is kept for comparison. The same 1,000 delays go through a Deno KV queue
 *   (`kv.enqueue(msg, { delay })` + `kv.listenQueue`) on a temp file;
 * - restart survival, for chime (libSQL) and the Deno KV queue alike: a child process creates
 *   100 reminders due ≈ 2 s later and is SIGKILLed before they are due; a fresh child starts 1 s
 *   after the due time and delivers; after it is SIGKILLed in turn, a third child watches for
 *   redeliveries. Every delivery of every process counts: delivered once / lost / duplicated,
 *   lateness after the restart (delivery − due) and delivery − restart spawn.
 *
 * Run: `deno run -A tests/bench/owner_bench.ts` (it re-runs itself with `--expose-gc`; children
 * are this same script with `--child <mode>`). Whole run ≈ 1 minute.
 *
 * @module
 */
import { fileURLToPath } from "node:url";
import { Agent, ScriptedModel } from "@chime/agent";
import { LibsqlBackend, type PersistenceBackend, type Session, SessionStore } from "@chime/session";
import { MemoryBackend } from "@chime/session/testing";
import { ScheduleFifo } from "../../schedule/fifo.ts";
import { ScheduleOwner } from "../../schedule/owner.ts";
import { JsonLineChild } from "../_child.ts";

const SESSIONS = 10_000;
const DUE_TOGETHER = 1_000;
/** Reminders per restart-survival run. */
const RESTART_N = 100;
/** Creation → due in the restart runs. */
const RESTART_DUE_MS = 2_000;
/** Due → start of the fresh process in the restart runs. */
const RESTART_GAP_MS = 1_000;
/** How long the third process watches for redeliveries. */
const AUDIT_MS = 1_500;

const SELF = fileURLToPath(import.meta.url);
const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const silent = { warn() {}, error() {} };
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const print = (line: Record<string, unknown>) =>
  console.log(JSON.stringify({ t: Date.now(), ...line }));

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
}

function stats(samples: number[]): { p50: number; p99: number; max: number } {
  const sorted = [...samples].sort((a, b) => a - b);
  return { p50: percentile(sorted, 50), p99: percentile(sorted, 99), max: sorted.at(-1) ?? NaN };
}

function record(i: number, scheduledAt: number) {
  const id = `sch_bench${String(i).padStart(8, "0")}`;
  return {
    version: 1,
    op: "create",
    record: { id, kind: "at", prompt: `r${i}`, scheduledAt: new Date(scheduledAt).toISOString() },
  };
}

const isDispatch = (data: unknown) => (data as { op?: string } | null)?.op === "dispatch";

/** A live agent with its own FIFO and owner (not started). */
function ownerFor(session: Session, store: SessionStore): { agent: Agent; owner: ScheduleOwner } {
  const agent = new Agent({ session, store, model: new ScriptedModel(() => ({ text: "ok" })) });
  return { agent, owner: new ScheduleOwner(agent, { fifo: new ScheduleFifo(), logger: silent }) };
}

// ---------------------------------------------------------------------------------------------
// Children of the restart runs: `--child <mode> <path> [n]`. Each prints JSON lines.

const restartId = (i: number) => `restart${String(i).padStart(4, "0")}`;

/** Creates `n` sessions with one reminder each, due together, and arms their owners. */
async function chimeArm(url: string, n: number): Promise<void> {
  const store = new SessionStore({ backend: await LibsqlBackend.open({ url }) });
  const dueAt = Date.now() + RESTART_DUE_MS;
  const live = [];
  for (let i = 0; i < n; i++) {
    const session = await store.create({ id: restartId(i), cwd: "/bench", timeZone: "UTC" });
    session.append("schedule/change", record(i, dueAt));
    session.subscribe((e) => {
      if (isDispatch(e.data)) print({ delivered: i });
    });
    live.push(ownerFor(session, store).owner);
  }
  await Promise.all(store.liveSessions().map((s) => store.flush(s)));
  for (const owner of live) owner.start();
  while (live.some((o) => o.state !== "armed")) await sleep(10);
  print({ armed: n, dueAt });
  setInterval(() => {}, 1 << 30); // until SIGKILL
}

/** Resumes the `n` sessions and starts their owners; reports deliveries (`audit`: only watches). */
async function chimeResume(url: string, n: number, audit: boolean): Promise<void> {
  const store = new SessionStore({ backend: await LibsqlBackend.open({ url }) });
  const live = [];
  let delivered = 0;
  for (let i = 0; i < n; i++) {
    const session = await store.resume(restartId(i));
    const create = session.events().find((e) => (e.data as { op?: string }).op === "create");
    const due = Date.parse(
      (create?.data as { record: { scheduledAt: string } }).record.scheduledAt,
    );
    session.subscribe((e) => {
      if (!isDispatch(e.data)) return;
      delivered++;
      print({ delivered: i, late: Date.now() - due });
    });
    live.push(ownerFor(session, store).owner);
  }
  for (const owner of live) owner.start();
  if (audit) await sleep(AUDIT_MS);
  else while (delivered < n) await sleep(10);
  await Promise.all(store.liveSessions().map((s) => store.flush(s)));
  print({ done: delivered });
  setInterval(() => {}, 1 << 30); // until SIGKILL
}

/** Enqueues `n` KV messages due together, listening as a real process would. */
async function kvEnqueue(path: string, n: number): Promise<void> {
  const kv = await Deno.openKv(path);
  kv.listenQueue((msg: { i: number }) => print({ delivered: msg.i }));
  const dueAt = Date.now() + RESTART_DUE_MS;
  for (let i = 0; i < n; i++) await kv.enqueue({ i, due: dueAt }, { delay: dueAt - Date.now() });
  print({ armed: n, dueAt });
  setInterval(() => {}, 1 << 30); // until SIGKILL
}

/** Re-opens the KV file and listens; reports deliveries (`audit`: only watches). */
async function kvListen(path: string, n: number, audit: boolean): Promise<void> {
  const kv = await Deno.openKv(path);
  let delivered = 0;
  kv.listenQueue((msg: { i: number; due: number }) => {
    delivered++;
    print({ delivered: msg.i, late: Date.now() - msg.due });
  });
  if (audit) await sleep(AUDIT_MS);
  else {
    const deadline = Date.now() + 20_000;
    while (delivered < n && Date.now() < deadline) await sleep(10);
  }
  await sleep(100); // let the queue mark the last handler done
  print({ done: delivered });
  setInterval(() => {}, 1 << 30); // until SIGKILL
}

async function child(mode: string, path: string, n: number): Promise<void> {
  if (mode === "chime-arm") return await chimeArm(path, n);
  if (mode === "chime-resume") return await chimeResume(path, n, false);
  if (mode === "chime-audit") return await chimeResume(path, n, true);
  if (mode === "kv-enqueue") return await kvEnqueue(path, n);
  if (mode === "kv-listen") return await kvListen(path, n, false);
  if (mode === "kv-audit") return await kvListen(path, n, true);
  throw new Error(`unknown child mode ${mode}`);
}

// ---------------------------------------------------------------------------------------------
// Parent.

type Line = Record<string, unknown> & { readonly t: number };

/** A child process of this script; its JSON lines are collected as they arrive. */
class Child extends JsonLineChild<Line> {
  constructor(mode: string, path: string, n: number) {
    super(SELF, ["--child", mode, path, String(n)], { cwd: ROOT });
  }

  /** Waits for the first line that has `key` and returns it. */
  async line(key: string, timeoutMs = 30_000): Promise<Line> {
    const find = (lines: Line[]) => lines.find((l) => key in l);
    await this.waitFor((lines) => find(lines) !== undefined, `"${key}"`, timeoutMs);
    return find(this.lines)!;
  }
}

interface Survival {
  readonly once: number;
  readonly lost: number;
  readonly duplicated: number;
  readonly killedBeforeDue: boolean;
  /** Delivery − due, ms, in the restarted process. */
  readonly late: number[];
  /** Delivery − spawn of the restarted process, ms. */
  readonly sinceSpawn: number[];
}

/** arm (SIGKILL before due) → resume after due (SIGKILL after delivery) → audit. */
async function survival(kind: "chime" | "kv"): Promise<Survival> {
  const dir = await Deno.makeTempDir();
  const path = kind === "chime" ? `file:${dir}/restart.db` : `${dir}/restart.sqlite`;
  const counts = new Array<number>(RESTART_N).fill(0);
  const tally = (lines: Line[]) => {
    for (const l of lines) if (typeof l.delivered === "number") counts[l.delivered]!++;
  };
  const first = new Child(`${kind}-arm`.replace("kv-arm", "kv-enqueue"), path, RESTART_N);
  const armed = await first.line("armed");
  await first.kill();
  const dueAt = armed.dueAt as number;
  const killedBeforeDue = Date.now() < dueAt;
  tally(first.lines);
  await sleep(Math.max(0, dueAt + RESTART_GAP_MS - Date.now()));
  const second = new Child(`${kind}-${kind === "chime" ? "resume" : "listen"}`, path, RESTART_N);
  await second.line("done");
  await second.kill();
  tally(second.lines);
  const third = new Child(`${kind}-audit`, path, RESTART_N);
  await third.line("done");
  await third.kill();
  tally(third.lines);
  await Deno.remove(dir, { recursive: true });
  const delivered = second.lines.filter((l) => typeof l.delivered === "number");
  return {
    once: counts.filter((c) => c === 1).length,
    lost: counts.filter((c) => c === 0).length,
    duplicated: counts.filter((c) => c > 1).length,
    killedBeforeDue,
    late: delivered.map((l) => l.late as number),
    sinceSpawn: delivered.map((l) => l.t - second.spawnedAt),
  };
}

function heap(): number {
  const gc = (globalThis as { gc?: () => void }).gc!;
  gc();
  gc();
  return Deno.memoryUsage().heapUsed;
}

interface OwnerRun {
  readonly perOwner: number;
  readonly lateness: number[];
  /** Dispatch committed (`session/flushed` past its seq) − `scheduledAt`, ms. */
  readonly durable: number[];
  readonly setupMs: number;
  readonly leadMs: number;
}

/**
 * 10,000 live sessions, owners armed; 1,000 due in one wall-clock second. The 9,000 far
 * reminders are written first; the 1,000 due ones just before the owners start, so the due
 * second does not depend on how long the 10,000 sessions take to initialize.
 */
async function owners(storage: "libsql" | "memory"): Promise<OwnerRun> {
  const started = performance.now();
  const dir = storage === "libsql" ? await Deno.makeTempDir() : undefined;
  const backend: PersistenceBackend = dir
    ? await LibsqlBackend.open({ url: `file:${dir}/bench.db` })
    : new MemoryBackend();
  const store = new SessionStore({ backend });
  const lateness: number[] = [];
  const due: number[] = [];
  const agents: Agent[] = [];
  const live: ScheduleOwner[] = [];
  const sessions: Session[] = [];
  // Dispatch appends still waiting for their commit, by session id.
  const dispatchSeq = new Map<string, { i: number; seq: number }>();
  const durable: number[] = [];
  using _flushed = store.onFlushed((session, throughSeq) => {
    const d = dispatchSeq.get(session.id);
    if (d === undefined || throughSeq <= d.seq) return;
    durable.push(Date.now() - due[d.i]!);
    dispatchSeq.delete(session.id);
  });
  for (let i = 0; i < SESSIONS; i++) {
    const session = await store.create({ cwd: "/bench", timeZone: "UTC" });
    if (i >= DUE_TOGETHER) session.append("schedule/change", record(i, Date.now() + 3_600_000));
    session.subscribe((event) => {
      if (!isDispatch(event.data)) return;
      lateness.push(Date.now() - due[i]!);
      dispatchSeq.set(session.id, { i, seq: event.seq });
    });
    const { agent, owner } = ownerFor(session, store);
    sessions.push(session);
    agents.push(agent);
    live.push(owner);
  }
  await Promise.all(sessions.map((s) => store.flush(s)));
  const setupMs = performance.now() - started;
  const leadFrom = Date.now();
  const dueAt = Math.ceil((Date.now() + 3_000) / 1000) * 1000; // one wall-clock second
  for (let i = 0; i < DUE_TOGETHER; i++) {
    due[i] = Math.floor(dueAt + i * 0.9);
    sessions[i]!.append("schedule/change", record(i, due[i]!));
  }
  await Promise.all(sessions.map((s) => store.flush(s)));
  const before = heap();
  for (const owner of live) owner.start();
  while (live.some((o) => o.state !== "armed")) await sleep(20);
  const after = heap();
  const leadMs = dueAt - leadFrom;
  if (Date.now() >= dueAt) throw new Error(`${storage}: arming took too long, reminders fell due`);
  const deadline = dueAt + 30_000;
  while (durable.length < DUE_TOGETHER && Date.now() < deadline) await sleep(50);
  await sleep(200);
  await Promise.all(live.map((o) => o[Symbol.asyncDispose]()));
  await Promise.all(agents.map((a) => a[Symbol.asyncDispose]()));
  await store[Symbol.asyncDispose]();
  if (dir) await Deno.remove(dir, { recursive: true });
  return { perOwner: (after - before) / SESSIONS, lateness, durable, setupMs, leadMs };
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
  const timeout = setTimeout(all.resolve, 30_000);
  await all.promise;
  clearTimeout(timeout);
  kv.close();
  await listening;
  await Deno.remove(dir, { recursive: true });
  return { lateness, enqueueMs };
}

async function main(): Promise<void> {
  if ((globalThis as { gc?: unknown }).gc === undefined) {
    const { code } = await new Deno.Command(Deno.execPath(), {
      args: ["run", "-A", "--v8-flags=--expose-gc", SELF, ...Deno.args],
      stdout: "inherit",
      stderr: "inherit",
    }).output();
    Deno.exit(code);
  }
  const wall = performance.now();
  const lib = await owners("libsql");
  const mem = await owners("memory");
  const kv = await kvQueue();
  const chimeRestart = await survival("chime");
  const kvRestart = await survival("kv");

  const kb = (bytes: number) => `${(bytes / 1024).toFixed(2)} KB`;
  const [l, m, k] = [stats(lib.lateness), stats(mem.lateness), stats(kv.lateness)];
  const row = (...cells: string[]) => console.log(`| ${cells.join(" | ")} |`);
  const survived = (s: Survival) =>
    `${s.once} / ${s.lost} / ${s.duplicated}${s.killedBeforeDue ? "" : " (killed late!)"}`;
  const restartStats = (s: Survival, pick: "late" | "sinceSpawn") => {
    const x = stats(s[pick]);
    return `${x.p50} / ${x.p99} ms`;
  };

  console.log(
    `Deno ${Deno.version.deno}, ${Deno.build.os}/${Deno.build.arch}; ${SESSIONS} live sessions; ` +
      `setup libSQL ${(lib.setupMs / 1000).toFixed(1)} s, memory ${
        (mem.setupMs / 1000).toFixed(1)
      } s; KV enqueue of ${DUE_TOGETHER}: ${kv.enqueueMs.toFixed(0)} ms\n`,
  );
  row(
    "measure",
    "chime owner, libSQL file (WAL, sync FULL)",
    "chime owner, memory",
    "Deno KV queue (file)",
    "target",
  );
  row("---", "---", "---", "---", "---");
  row(
    `heap per idle owner (${SESSIONS} sessions)`,
    kb(lib.perOwner),
    kb(mem.perOwner),
    "n/a (no per-session object)",
    "≤ 10 KB",
  );
  row(
    `lateness p50, ${DUE_TOGETHER} due in one second`,
    `${l.p50} ms`,
    `${m.p50} ms`,
    `${k.p50} ms`,
    "",
  );
  row("lateness p99", `${l.p99} ms`, `${m.p99} ms`, `${k.p99} ms`, "≤ 250 ms");
  row("lateness max", `${l.max} ms`, `${m.max} ms`, `${k.max} ms`, "");
  const [ld, md] = [stats(lib.durable), stats(mem.durable)];
  row(
    "lateness to committed dispatch p50 / p99",
    `${ld.p50} / ${ld.p99} ms`,
    `${md.p50} / ${md.p99} ms`,
    "– (handler runs after dequeue)",
    "",
  );
  row(
    "delivered",
    `${lib.lateness.length}/${DUE_TOGETHER}`,
    `${mem.lateness.length}/${DUE_TOGETHER}`,
    `${kv.lateness.length}/${DUE_TOGETHER}`,
    "all",
  );
  row(
    `restart survival, N=${RESTART_N}: delivered once / lost / duplicated`,
    survived(chimeRestart),
    "– (not durable)",
    survived(kvRestart),
    `${RESTART_N} / 0 / 0`,
  );
  row(
    `restart lateness p50 / p99 (delivery − due; restart at due + ${RESTART_GAP_MS / 1000} s)`,
    restartStats(chimeRestart, "late"),
    "–",
    restartStats(kvRestart, "late"),
    "",
  );
  row(
    "restart: delivery − spawn of fresh process, p50 / p99",
    restartStats(chimeRestart, "sinceSpawn"),
    "–",
    restartStats(kvRestart, "sinceSpawn"),
    "",
  );
  console.log(
    "\nchime lateness = dispatch append − scheduledAt (includes preflight flush and the " +
      "idle-phase claim); committed = the dispatch's `session/flushed` observation; KV lateness = listenQueue handler − due. Restart runs: child 1 " +
      `creates ${RESTART_N} reminders due in ${RESTART_DUE_MS / 1000} s and is SIGKILLed once ` +
      "armed; child 2 starts after the due time and is SIGKILLed after delivering; child 3 " +
      `watches ${AUDIT_MS / 1000} s for redeliveries; deliveries of all three are counted. ` +
      `Whole run ${((performance.now() - wall) / 1000).toFixed(0)} s.`,
  );
}

if (Deno.args[0] === "--child") {
  await child(Deno.args[1] ?? "", Deno.args[2] ?? "", Number(Deno.args[3]));
} else {
  await main();
}
