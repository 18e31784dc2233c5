/**
 * Reminder-create latency in long sessions (docs/long-sessions.md "Benchmarks"; a plain
 * script, not `Deno.bench`). For sessions of 1,000, 100,000 and 1,000,000 stored events in a real
 * libSQL file (WAL, `synchronous=FULL`) it resumes the session, sets the schedule plugin up on a
 * real agent (which builds the session's live schedule state from its `schedule/change` events)
 * and then times `schedule_create` through the plugin's registered tool: FIFO, preflight flush,
 * decision over the live state, append, second barrier. It also prints what one full fold of the
 * log (the cost every tool call and owner wake paid before the live state) takes at that size,
 * and the cold reminders read (`readStoredChanges`: the indexed query once the store has
 * `readByType`, a full load before).
 *
 * The stored log is mostly ordinary events with a `schedule/change` create+delete pair every
 * 500 events and 5 reminders left active; the open turn (a `user-rpc`, `turn/start`,
 * `step/start`) is at the tail, as it is when the model calls the tool.
 *
 * Run: `deno run -A tests/bench/schedule_state_bench.ts [sizes…]` (default `1000 100000
 * 1000000`). With a `Session` that holds every event in memory the 1,000,000 case loads the
 * whole log on resume (the RSS column shows it).
 *
 * @module
 */
import type { AgentScope, ToolContext, ToolDefinition } from "@chime/agent";
import { Agent, ScriptedModel } from "@chime/agent";
import { LibsqlBackend, type SessionEvent, SessionStore } from "@chime/session";
import { foldSession, LiveSchedule, readStoredChanges, schedulePlugin } from "@chime/schedule";

const CREATES = 40;
const PAIR_EVERY = 500;
const ACTIVE = 5;
const silent = { warn() {}, error() {} };

function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? Number.NaN;
}

const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MB`;
const ms = (v: number) => `${v.toFixed(2)} ms`;

/** The stored events of a session of `n` events: filler, change pairs, the open turn last. */
function* history(n: number, at: string): Generator<SessionEvent> {
  const record = (i: number, scheduledAt: string) => ({
    id: `sch_b${String(i).padStart(11, "0")}`,
    kind: "at",
    prompt: `r${i}`,
    scheduledAt,
  });
  const far = "2099-01-01T00:00:00.000Z";
  const tailStart = n - 3;
  for (let seq = 0; seq < n; seq++) {
    let type = "assistant/message";
    let data: unknown = { text: `an ordinary event of modest size #${seq}` };
    if (seq >= tailStart) {
      const turn = ["user-rpc", "turn/start", "step/start"][seq - tailStart]!;
      type = turn;
      data = turn === "user-rpc"
        ? { messageId: "m-bench", text: "remind me", source: { kind: "web" } }
        : turn === "turn/start"
        ? { turnId: "t-bench" }
        : { turnId: "t-bench", step: 0, messageIds: ["m-bench"] };
    } else if (seq < ACTIVE) {
      type = "schedule/change";
      data = { version: 2, op: "create", record: record(seq, far) };
    } else if (seq % PAIR_EVERY === 0) {
      type = "schedule/change";
      data = { version: 2, op: "create", record: record(seq, far) };
    } else if (seq % PAIR_EVERY === 1) {
      type = "schedule/change";
      data = { version: 2, op: "delete", id: record(seq - 1, far).id };
    }
    yield { seq, type, at, data };
  }
}

/** Writes a session of `n` events straight through the backend, in 50,000-event commits. */
async function fill(url: string, id: string, n: number): Promise<void> {
  await using backend = await LibsqlBackend.open({ url });
  const at = new Date().toISOString();
  await backend.initialize({
    version: 1,
    id,
    cwd: "/bench",
    createdAt: at,
    origin: "bench",
    lineage: null,
    delegationDepth: 0,
    timeZone: "UTC",
  }, []);
  let batch: SessionEvent[] = [];
  for (const event of history(n, at)) {
    batch.push(event);
    if (batch.length === 50_000) {
      await backend.append(id, batch);
      batch = [];
    }
  }
  if (batch.length > 0) await backend.append(id, batch);
}

interface Run {
  readonly n: number;
  readonly resumeMs: number;
  readonly setupMs: number;
  readonly create: number[];
  readonly foldMs: number;
  readonly coldMs: number;
  readonly rss: number;
}

async function measure(dir: string, n: number): Promise<Run> {
  const url = `file:${dir}/long-${n}.db`;
  const id = `long${n}`;
  await fill(url, id, n);
  await using store = new SessionStore({ backend: await LibsqlBackend.open({ url }) });
  const coldStart = performance.now();
  const cold = await readStoredChanges(store, id);
  const coldMs = performance.now() - coldStart;
  if (cold === undefined || foldSession(cold.header, cold.events).active.size !== ACTIVE) {
    throw new Error("the cold read did not find the active reminders");
  }
  const resumeStart = performance.now();
  const session = await store.resume(id);
  const resumeMs = performance.now() - resumeStart;
  await using agent = new Agent({
    session,
    store,
    model: new ScriptedModel(() => ({ text: "ok" })),
  });
  const tools = new Map<string, ToolDefinition>();
  const owned: AsyncDisposable[] = [];
  const scope: AgentScope = {
    agent,
    signal: new AbortController().signal,
    registerTool(tool) {
      tools.set(tool.name, tool);
      return { [Symbol.dispose]: () => tools.delete(tool.name) };
    },
    addPreStep: () => ({ [Symbol.dispose]() {} }),
    own: (owner) => void owned.push(owner),
  };
  const setupStart = performance.now();
  await schedulePlugin({ logger: silent }).setup(scope);
  const setupMs = performance.now() - setupStart;
  const create = tools.get("schedule_create")!;
  const latencies: number[] = [];
  for (let i = 0; i < CREATES; i++) {
    const ctx: ToolContext = {
      agent,
      turnId: "t-bench",
      callId: `c${i}`,
      signal: new AbortController().signal,
    };
    const t0 = performance.now();
    const result = await create.execute({ prompt: `bench ${i}`, after_seconds: 86_400 }, ctx) as {
      ok: boolean;
    };
    latencies.push(performance.now() - t0);
    if (!result.ok) throw new Error(`create failed: ${JSON.stringify(result)}`);
  }
  const active = LiveSchedule.of(session)!.state.active.size;
  if (active !== ACTIVE + CREATES) throw new Error(`expected ${ACTIVE + CREATES}, got ${active}`);
  // The old per-call cost: fold the whole log (read from storage: the live session holds a tail).
  const foldStart = performance.now();
  foldSession(session.header, await store.read(session, 0, session.length));
  const foldMs = performance.now() - foldStart;
  const rss = Deno.memoryUsage().rss;
  for (const owner of owned) await owner[Symbol.asyncDispose]();
  return {
    n,
    resumeMs,
    setupMs,
    create: latencies.sort((a, b) => a - b),
    foldMs,
    coldMs,
    rss,
  };
}

async function main(): Promise<void> {
  const sizes = Deno.args.length > 0 ? Deno.args.map(Number) : [1_000, 100_000, 1_000_000];
  const dir = await Deno.makeTempDir({ prefix: "chime-schedule-bench-" });
  const runs: Run[] = [];
  try {
    for (const n of sizes) runs.push(await measure(dir, n));
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
  const row = (...cells: string[]) => console.log(`| ${cells.join(" | ")} |`);
  console.log(
    `Deno ${Deno.version.deno}, ${Deno.build.os}/${Deno.build.arch}; libSQL file (WAL, ` +
      `synchronous=FULL); ${CREATES} creates per size\n`,
  );
  row(
    "stored events",
    "resume",
    "plugin setup (state build)",
    "create p50",
    "create p95",
    "create max",
    "one full fold (before)",
    "cold reminders read",
    "RSS after",
  );
  row("---", "---", "---", "---", "---", "---", "---", "---", "---");
  for (const r of runs) {
    row(
      r.n.toLocaleString("en-US"),
      ms(r.resumeMs),
      ms(r.setupMs),
      ms(percentile(r.create, 0.5)),
      ms(percentile(r.create, 0.95)),
      ms(r.create.at(-1)!),
      ms(r.foldMs),
      ms(r.coldMs),
      mb(r.rss),
    );
  }
  const first = runs[0];
  const last = runs.at(-1);
  if (first !== undefined && last !== undefined && last !== first) {
    const ratio = percentile(last.create, 0.5) / percentile(first.create, 0.5);
    console.log(
      `\ncreate p50 at ${last.n.toLocaleString("en-US")} / at ${first.n.toLocaleString("en-US")}: ${
        ratio.toFixed(2)
      }× (target ≤ 1.5×)`,
    );
  }
}

await main();
