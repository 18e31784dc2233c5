/**
 * What a turn reads from storage on a long session (docs/long-sessions.md "Model context within
 * a budget"): a live agent keeps its window between turns and reads only what was appended
 * since; older messages its window names are looked up by a fixed number of indexed reads per
 * turn, whatever the log holds (missing ids, edit chains, fork prefixes). A counting wrapper
 * over a real libSQL backend counts every event storage returns.
 *
 * @module
 */
import assert from "node:assert/strict";
import { Agent, ScriptedModel, type ScriptedReply } from "@chime/agent";
import {
  LibsqlBackend,
  type PersistenceBackend,
  type SessionEvent,
  type SessionHeader,
  SessionStore,
} from "@chime/session";
import { FakeClock } from "@chime/session/testing";
import { LOOKUP_READS, LOOKUP_SPAN } from "../../agent/_window_state.ts";
import { longLogEvent, TURN_EVENTS } from "../../agent/testing/long_log.ts";

/** What storage returned, by read. */
interface Counts {
  /** Events returned by every read. */
  events: number;
  /** Calls of `readByType` (the indexed reads). */
  indexed: number;
}

/** The backend, counting the events each of its reads returns. */
function counting(backend: LibsqlBackend, counts: Counts): PersistenceBackend {
  const reads = new Set(["readEvents", "readByType", "tail", "load"]);
  return new Proxy(backend, {
    get(target, key) {
      const value = Reflect.get(target, key, target);
      if (typeof value !== "function") return value;
      if (typeof key !== "string" || !reads.has(key)) return value.bind(target);
      return async (...args: unknown[]) => {
        if (key === "readByType") counts.indexed++;
        const result = await value.apply(target, args);
        if (Array.isArray(result)) counts.events += result.length;
        else if (Array.isArray(result?.events)) counts.events += result.events.length;
        return result;
      };
    },
  });
}

const HEADER: SessionHeader = {
  version: 1,
  id: "long",
  cwd: "/",
  createdAt: "2026-01-01T00:00:00.000Z",
  origin: "test",
  lineage: null,
  delegationDepth: 0,
  timeZone: "UTC",
};

/** Stores `count` events made by `generate` as session `long` of a fresh file. */
async function build(
  path: string,
  count: number,
  generate: (seq: number) => { type: string; data: unknown },
): Promise<void> {
  await using backend = await LibsqlBackend.open({ url: `file:${path}` });
  await backend.initialize(HEADER, []);
  for (let from = 0; from < count; from += 5_000) {
    const events: SessionEvent[] = [];
    for (let seq = from; seq < Math.min(count, from + 5_000); seq++) {
      events.push({ seq, at: HEADER.createdAt, ...generate(seq) });
    }
    await backend.append(HEADER.id, events);
  }
}

interface Run extends AsyncDisposable {
  readonly store: SessionStore;
  readonly counts: Counts;
  /** Runs one turn (a tool call, then an answer) on `agent`; returns what storage returned. */
  turn(agent: Agent): Promise<Counts>;
  agentOf(id: string): Promise<Agent>;
}

async function open(path: string): Promise<Run> {
  const counts: Counts = { events: 0, indexed: 0 };
  const clock = new FakeClock(Date.UTC(2026, 0, 15, 8));
  const store = new SessionStore({
    backend: counting(await LibsqlBackend.open({ url: `file:${path}` }), counts),
    clock,
  });
  const agents: Agent[] = [];
  const replies: ScriptedReply[] = [];
  const model = new ScriptedModel(() => replies.shift() ?? { text: "done" });
  let n = 0;
  return {
    store,
    counts,
    async agentOf(id) {
      const session = await store.resume(id);
      const agent = new Agent({
        session,
        store,
        model,
        clock,
        contextTokens: 32_000, // the offline model's budget: the read limit is 16,000 events
        generateId: () => `g${++n}`,
      });
      agent.registerTool({
        name: "list",
        description: "Lists nothing.",
        parameters: { type: "object" },
        execute: () => Promise.resolve({ ok: true }),
      });
      agents.push(agent);
      return agent;
    },
    async turn(agent) {
      const before = { ...counts };
      replies.push({ toolCalls: [{ id: `call${++n}`, name: "list", arguments: "{}" }] });
      agent.submit({ text: "what is on my list?", source: { kind: "web" } });
      await agent.whenIdle();
      return { events: counts.events - before.events, indexed: counts.indexed - before.indexed };
    },
    async [Symbol.asyncDispose]() {
      for (const agent of agents) await agent[Symbol.asyncDispose]();
      await store[Symbol.asyncDispose]();
      clock[Symbol.dispose]();
    },
  };
}

/**
 * Runs 10 turns and checks what each read: the first at most the read limit (the budget's
 * half in events, from the end), each later one at most what was appended since plus 200.
 *
 * @returns the events read per turn
 */
async function tenTurns(run: Run, agent: Agent): Promise<number[]> {
  const reads: number[] = [];
  let length = agent.session.length;
  for (let i = 0; i < 10; i++) {
    const read = (await run.turn(agent)).events;
    reads.push(read);
    const appended = agent.session.length - length;
    length = agent.session.length;
    if (i === 0) assert.ok(read <= 16_128 + 200, `turn 1 read ${read} events`);
    else assert.ok(read <= appended + 200, `turn ${i + 1} read ${read} of ${appended} appended`);
  }
  return reads;
}

Deno.test("a live agent on a 40,000-event libSQL session reads only what each turn appended", async () => {
  const dir = await Deno.makeTempDir();
  try {
    await build(`${dir}/s.db`, 40_000, longLogEvent);
    await using run = await open(`${dir}/s.db`);
    const agent = await run.agentOf("long");
    const reads = await tenTurns(run, agent);
    assert.ok(reads[0]! > 0, "the first turn read its window from storage");
    assert.deepEqual(reads.slice(1), Array(9).fill(0), "later turns read the memory tail only");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

/**
 * A damaged log: every step names a message id the log lacks (the `user-rpc` events are
 * notes), and every 50th turn's prompt is an edit of a message that is not there either.
 */
function dangling(seq: number): { type: string; data: unknown } {
  const event = longLogEvent(seq);
  if (event.type !== "user-rpc") return event;
  const t = Math.floor(seq / TURN_EVENTS);
  if (t % 50 !== 0) return { type: "note", data: { t } };
  return {
    type: "user-rpc",
    data: { messageId: `m${t}`, text: `edit ${t}`, edits: `gone${t}`, source: { kind: "web" } },
  };
}

Deno.test("missing message ids and dangling edits cost a fixed number of indexed reads per turn", async () => {
  const dir = await Deno.makeTempDir();
  try {
    await build(`${dir}/s.db`, 200_000, dangling);
    await using run = await open(`${dir}/s.db`);
    const agent = await run.agentOf("long");
    for (let i = 0; i < 5; i++) {
      const read = await run.turn(agent);
      assert.ok(read.indexed <= LOOKUP_READS, `turn ${i + 1}: ${read.indexed} indexed reads`);
      // The window's own pages once, then at most the lookups' rows.
      const bound = (i === 0 ? 16_128 : 0) + LOOKUP_READS * LOOKUP_SPAN;
      assert.ok(read.events <= bound, `turn ${i + 1} read ${read.events} events`);
    }
    assert.ok(run.counts.indexed > 0, "the missing ids were looked up");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a fork of a long session reads its copied prefix once, then what each turn appended", async () => {
  const dir = await Deno.makeTempDir();
  try {
    await build(`${dir}/s.db`, 40_000, longLogEvent);
    await using run = await open(`${dir}/s.db`);
    const child = await run.store.fork("long", { throughSeq: 30_000 - 1, id: "child" });
    await run.store.close(child);
    const agent = await run.agentOf("child");
    assert.equal(agent.session.header.seedLength, 30_001);
    const reads = await tenTurns(run, agent);
    assert.deepEqual(reads.slice(1), Array(9).fill(0));
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
