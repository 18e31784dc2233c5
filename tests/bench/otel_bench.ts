/**
 * The cost of tracing (docs/operations.md; a plain script, not `Deno.bench`). Prints one markdown
 * table: reminder delivery lateness p50 / p99 (dispatch append − `scheduledAt`, and dispatch
 * durable − `scheduledAt`) with N live sessions, each with its own agent and owner and one
 * pending reminder, 1,000 of which fall due within one wall-clock second, in a libSQL file.
 * Each run is a child process: once with Deno's exporter on (`OTEL_DENO=true`, `http/protobuf` to
 * a local OTLP/HTTP receiver this script starts, which takes every body), once without. The host's
 * instrumentation (`HostTelemetry`) watches the store in both, so every follow-up turn, model call
 * and delivery is a span when tracing is on. Runs alternate off / on, twice each; the table shows
 * every run, the mean p99s and the process CPU time from arming to the last durable dispatch,
 * off against on (target: tracing costs ≤ 10 %). On a shared machine the lateness of one run
 * swings by seconds with the neighbours' load; the CPU time is the steadier figure.
 *
 * Run: `deno run -A tests/bench/otel_bench.ts [sessions] [pairs]` (default 2,000 sessions and 3
 * off/on pairs: on the shared 2-core build machine 10,000 live sessions take most of a minute to
 * arm per run; `deno run -A tests/bench/otel_bench.ts 10000 1` runs the issue's size once).
 *
 * @module
 */
import { cpuUsage } from "node:process";
import { fileURLToPath } from "node:url";
import { Agent, ScriptedModel } from "@chime/agent";
import { LibsqlBackend, type Session, SessionStore } from "@chime/session";
import { HostTelemetry } from "@chime/host";
import { ScheduleFifo } from "../../schedule/fifo.ts";
import { ScheduleOwner } from "../../schedule/owner.ts";
import { JsonLineChild } from "../_child.ts";
import { childEnv } from "../_env.ts";
import { OtlpReceiver } from "../host/_otlp.ts";

const DUE_TOGETHER = 1_000;
const SELF = fileURLToPath(import.meta.url);
const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const silent = { warn() {}, error() {} };
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function p(sorted: number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((q / 100) * sorted.length))] ?? NaN;
}

function record(i: number, scheduledAt: number) {
  const id = `sch_otel${String(i).padStart(8, "0")}`;
  return {
    version: 1,
    op: "create",
    record: { id, kind: "at", prompt: `r${i}`, scheduledAt: new Date(scheduledAt).toISOString() },
  };
}

const isDispatch = (data: unknown) => (data as { op?: string } | null)?.op === "dispatch";

/** The child: N live sessions, 1,000 reminders due in one second; prints the latenesses. */
async function child(sessionsN: number): Promise<void> {
  const dir = await Deno.makeTempDir();
  const store = new SessionStore({
    backend: await LibsqlBackend.open({ url: `file:${dir}/b.db` }),
  });
  // `CHIME_BENCH_BARE=1`: without the host's instrumentation, to compare its cost when off.
  using _telemetry = Deno.env.get("CHIME_BENCH_BARE") === "1"
    ? undefined
    : new HostTelemetry(store);
  const due: number[] = [];
  const appended: number[] = [];
  const durable: number[] = [];
  const dispatchSeq = new Map<string, { i: number; seq: number }>();
  using _flushed = store.onFlushed((session, through) => {
    const d = dispatchSeq.get(session.id);
    if (d === undefined || through <= d.seq) return;
    durable.push(Date.now() - due[d.i]!);
    dispatchSeq.delete(session.id);
  });
  const sessions: Session[] = [];
  const agents: Agent[] = [];
  const owners: ScheduleOwner[] = [];
  for (let i = 0; i < sessionsN; i++) {
    const session = await store.create({ cwd: "/bench", timeZone: "UTC" });
    if (i >= DUE_TOGETHER) session.append("schedule/change", record(i, Date.now() + 3_600_000));
    session.subscribe((event) => {
      if (!isDispatch(event.data)) return;
      appended.push(Date.now() - due[i]!);
      dispatchSeq.set(session.id, { i, seq: event.seq });
    });
    const agent = new Agent({ session, store, model: new ScriptedModel(() => ({ text: "ok" })) });
    sessions.push(session);
    agents.push(agent);
    owners.push(new ScheduleOwner(agent, { fifo: new ScheduleFifo(), logger: silent }));
  }
  // Arming 10,000 owners takes seconds on a loaded machine: the second starts well after.
  const dueAt = Math.ceil((Date.now() + 5_000 + sessionsN * 3) / 1000) * 1000;
  for (let i = 0; i < DUE_TOGETHER; i++) {
    due[i] = Math.floor(dueAt + i * 0.9);
    sessions[i]!.append("schedule/change", record(i, due[i]!));
  }
  await Promise.all(sessions.map((s) => store.flush(s)));
  const cpuBefore = cpuUsage();
  for (const owner of owners) owner.start();
  while (owners.some((o) => o.state !== "armed")) await sleep(20);
  const armedEarly = Date.now() < dueAt;
  const deadline = dueAt + 60_000;
  while (durable.length < DUE_TOGETHER && Date.now() < deadline) await sleep(50);
  await sleep(200);
  const cpu = cpuUsage(cpuBefore);
  const cpuMs = (cpu.user + cpu.system) / 1000;
  await Promise.all(owners.map((o) => o[Symbol.asyncDispose]()));
  await Promise.all(agents.map((a) => a[Symbol.asyncDispose]()));
  await store[Symbol.asyncDispose]();
  await Deno.remove(dir, { recursive: true });
  console.log(JSON.stringify({ appended, durable, armedEarly, cpuMs }));
}

interface Run {
  readonly tracing: boolean;
  readonly appended: number[];
  readonly durable: number[];
  readonly armedEarly: boolean;
  readonly received: number;
  /** Process CPU time (user + system) from arming to the last durable dispatch, ms. */
  readonly cpuMs: number;
}

async function run(sessionsN: number, tracing: boolean, receiver: OtlpReceiver): Promise<Run> {
  const before = receiver.bodies.length;
  const env = childEnv(
    tracing
      ? {
        OTEL_DENO: "true",
        OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
        OTEL_EXPORTER_OTLP_PROTOCOL: "http/protobuf",
      }
      : {},
  );
  if (!tracing) delete env.OTEL_DENO;
  type Line = { appended?: number[]; durable?: number[]; armedEarly?: boolean; cpuMs?: number };
  await using c = new JsonLineChild<Line>(SELF, ["--child", String(sessionsN)], {
    cwd: ROOT,
    env,
  });
  await c.waitFor((lines) => lines.some((l) => l.appended !== undefined), "result", 300_000);
  const line = c.lines.find((l) => l.appended !== undefined)!;
  await c.exited;
  return {
    tracing,
    appended: [...line.appended!].sort((a, b) => a - b),
    durable: [...line.durable!].sort((a, b) => a - b),
    armedEarly: line.armedEarly === true,
    received: receiver.bodies.length - before,
    cpuMs: line.cpuMs ?? NaN,
  };
}

async function main(): Promise<void> {
  const sessionsN = Number(Deno.args[0] ?? 2_000);
  await using receiver = new OtlpReceiver();
  const runs: Run[] = [];
  const pairs = Number(Deno.args[1] ?? 3);
  for (let i = 0; i < pairs; i++) {
    for (const tracing of [false, true]) runs.push(await run(sessionsN, tracing, receiver));
  }
  console.log(
    `| ${sessionsN.toLocaleString("en")} live sessions, ${DUE_TOGETHER} due in 1 s | ` +
      "append p50 / p99 ms | durable p50 / p99 ms | delivered | CPU ms | OTLP bodies |",
  );
  console.log("| --- | --- | --- | --- | --- | --- |");
  for (const r of runs) {
    console.log(
      `| tracing ${r.tracing ? "on " : "off"}${r.armedEarly ? "" : " (armed late)"} | ` +
        `${p(r.appended, 50)} / ${p(r.appended, 99)} | ${p(r.durable, 50)} / ${
          p(r.durable, 99)
        } | ` +
        `${r.durable.length} | ${r.cpuMs.toFixed(0)} | ${r.received} |`,
    );
  }
  const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
  const p99 = (on: boolean) =>
    mean(runs.filter((r) => r.tracing === on).map((r) => p(r.durable, 99)));
  const cpu = (on: boolean) => mean(runs.filter((r) => r.tracing === on).map((r) => r.cpuMs));
  const pct = (off: number, on: number) => `${((on / off - 1) * 100).toFixed(1)} %`;
  const [off, on] = [p99(false), p99(true)];
  console.log(
    `\ntracing cost, durable p99 (mean of the runs): ${off.toFixed(0)} → ${on.toFixed(0)} ms ` +
      `(${pct(off, on)}); CPU: ${cpu(false).toFixed(0)} → ${cpu(true).toFixed(0)} ms ` +
      `(${pct(cpu(false), cpu(true))}); target ≤ 10 %`,
  );
}

if (Deno.args[0] === "--child") await child(Number(Deno.args[1]));
else if (import.meta.main) await main();
