/**
 * The crash lane (issue 14): a real host process (`host/main.ts`, web-schedule config, offline
 * model, libSQL file) is driven over HTTP with session creates, chat messages and reminder
 * creates, and SIGKILLed at a random moment; then it is restarted on the same data. After every
 * kill the stored log must hold every acknowledged event at its acknowledged seq, densely; in the
 * end every confirmed reminder is dispatched exactly once.
 *
 * What counts as acknowledged: `201` of a create (the header), `202 { seq, messageId }` of a
 * message (its `user-rpc`), and a reminder listed by `GET …/reminders` (the durable fold).
 *
 * @module
 */
import assert from "node:assert/strict";
import { checkStorage, LibsqlBackend, type SessionEvent } from "@chime/session";
import { spawnServer } from "../host/_server.ts";

/** Options of {@linkcode runCrashLane}. */
export interface CrashLaneOptions {
  /** SIGKILLs. */
  readonly iterations: number;
  /** PRNG seed (printed on failure to replay). @default random */
  readonly seed?: number;
  /** Longest run before the kill, ms. @default 900 */
  readonly maxRunMs?: number;
}

/** What a lane did. */
export interface CrashLaneResult {
  /** The seed used. */
  readonly seed: number;
  /** Acknowledged session creates, messages and confirmed reminders. */
  readonly acked: { sessions: number; messages: number; reminders: number };
  /** Acknowledged items missing after a restart (must be 0). */
  readonly lost: number;
  /** Confirmed reminders dispatched exactly once at the end. */
  readonly deliveredOnce: number;
}

const MAX_SESSIONS = 3;
const REMINDER_SECONDS = 2;

function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

interface Acked {
  readonly sessions: Set<string>;
  /** session → seq → messageId */
  readonly messages: Map<string, Map<number, string>>;
  /** session → confirmed reminder prompts */
  readonly reminders: Map<string, Set<string>>;
}

async function call(base: string, path: string, body?: unknown): Promise<Response> {
  return await fetch(`${base}${path}`, {
    method: body === undefined ? "GET" : "POST",
    ...(body === undefined
      ? {}
      : { headers: { "content-type": "application/json" }, body: JSON.stringify(body) }),
  });
}

/** One host lifetime: resume everything, then act until the kill lands. */
async function drive(base: string, acked: Acked, random: () => number, n: { next: number }) {
  for (const id of acked.sessions) {
    (await call(base, `/api/sessions/${id}/resume`, {})).body?.cancel();
  }
  for (;;) {
    const ids = [...acked.sessions];
    const pick = random();
    if (ids.length === 0 || (pick < 0.15 && ids.length < MAX_SESSIONS)) {
      const id = `crash${n.next++}`;
      const response = await call(base, "/api/sessions", { timeZone: "Europe/Berlin", id });
      await response.body?.cancel();
      if (response.status === 201) acked.sessions.add(id);
      continue;
    }
    const id = ids[Math.floor(random() * ids.length)]!;
    const remind = pick > 0.8;
    const tag = `ping${n.next++}`;
    const text = remind ? `remind me in ${REMINDER_SECONDS} seconds to ${tag}` : `note ${tag}`;
    const response = await call(base, `/api/sessions/${id}/messages`, {
      text,
      clientTimeZone: "Europe/Berlin",
    });
    if (response.status !== 202) {
      await response.body?.cancel();
      continue;
    }
    const { seq, messageId } = await response.json();
    let messages = acked.messages.get(id);
    if (messages === undefined) acked.messages.set(id, messages = new Map());
    messages.set(seq, messageId);
    if (!remind) continue;
    // Confirmed once the durable fold lists it (before it fires, REMINDER_SECONDS later).
    for (let tries = 0; tries < 40; tries++) {
      const list = await (await call(base, `/api/sessions/${id}/reminders`)).json();
      if (list.reminders.some((r: { prompt: string }) => r.prompt === tag)) {
        let set = acked.reminders.get(id);
        if (set === undefined) acked.reminders.set(id, set = new Set());
        set.add(tag);
        break;
      }
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  }
}

type Log = Map<string, readonly SessionEvent[]>;

/** Reads every session (dense, or `load` throws `storage_corrupt`) and counts what is lost. */
async function verify(url: string, acked: Acked): Promise<{ log: Log; lost: number }> {
  const report = await checkStorage({ kind: "libsql", url });
  assert.deepEqual(report.damage, [], "the doctor finds no damage");
  await using backend = await LibsqlBackend.open({ url });
  const log: Log = new Map();
  let lost = 0;
  for (const id of acked.sessions) {
    const stored = await backend.load(id);
    if (stored === undefined) {
      lost++;
      continue;
    }
    stored.events.forEach((e, i) => assert.equal(e.seq, i, `${id}: dense seqs`));
    log.set(id, stored.events);
    for (const [seq, messageId] of acked.messages.get(id) ?? []) {
      const event = stored.events[seq];
      if (
        event?.type !== "user-rpc" || (event.data as { messageId: string }).messageId !== messageId
      ) {
        lost++;
      }
    }
    const prompts = creates(stored.events);
    for (const prompt of acked.reminders.get(id) ?? []) if (!prompts.has(prompt)) lost++;
  }
  return { log, lost };
}

/** prompt → schedule id of each `schedule/change` create. */
function creates(events: readonly SessionEvent[]): Map<string, string> {
  const out = new Map<string, string>();
  for (const e of events) {
    const data = e.data as { op?: string; record?: { id: string; prompt: string } };
    if (e.type === "schedule/change" && data.op === "create") {
      out.set(data.record!.prompt, data.record!.id);
    }
  }
  return out;
}

function dispatches(events: readonly SessionEvent[], scheduleId: string): number {
  return events.filter((e) => {
    const data = e.data as { op?: string; id?: string };
    return e.type === "schedule/change" && data.op === "dispatch" && data.id === scheduleId;
  }).length;
}

/**
 * Runs the lane: `iterations` SIGKILLs with checks after each, then one last clean run that
 * lets every confirmed reminder fire.
 *
 * @param options iterations, seed, longest run
 * @returns what was acknowledged and what was lost (the caller asserts 0)
 */
export async function runCrashLane(options: CrashLaneOptions): Promise<CrashLaneResult> {
  const seed = options.seed ?? Math.floor(Math.random() * 2 ** 31);
  const random = prng(seed);
  const dataDir = await Deno.makeTempDir({ prefix: "chime-crash-" });
  const url = `file:${dataDir}/chime.db`;
  // The web-schedule example with a budget no lane reaches: the lane checks durability and
  // exactly-once delivery, not the hourly budget (which holds a long soak's reminders for hours).
  const config = `${dataDir}/chime.jsonc`;
  await Deno.writeTextFile(
    config,
    JSON.stringify({
      extends: new URL("../../examples/web-schedule/chime.jsonc", import.meta.url).pathname,
      pluginOptions: { "@chime/schedule": { maxRemindersPerHour: 10_000 } },
    }),
  );
  const acked: Acked = { sessions: new Set(), messages: new Map(), reminders: new Map() };
  const n = { next: 0 };
  let lost = 0;
  try {
    for (let i = 0; i < options.iterations; i++) {
      const server = await spawnServer(dataDir, config);
      const runMs = Math.floor(random() * (options.maxRunMs ?? 900));
      const timer = setTimeout(() => server.stop("SIGKILL"), runMs);
      try {
        await drive(server.url, acked, random, n).catch(() => {}); // ends when the kill lands
      } finally {
        clearTimeout(timer);
        await server.stop("SIGKILL");
      }
      lost += (await verify(url, acked)).lost;
    }
    // A last lifetime, not killed: every confirmed reminder comes due and is dispatched.
    const due = Date.now() + REMINDER_SECONDS * 1_000;
    {
      await using server = await spawnServer(dataDir, config);
      for (const id of acked.sessions) {
        (await call(server.url, `/api/sessions/${id}/resume`, {})).body?.cancel();
      }
      // Wait on state, with a generous bound for a busy machine: every session's list empties.
      const deadline = due + 60_000;
      for (const id of acked.sessions) {
        for (;;) {
          const list = await (await call(server.url, `/api/sessions/${id}/reminders`)).json();
          if (list.reminders.length === 0 && Date.now() > due) break;
          if (Date.now() > deadline) {
            const left = list.reminders.map((r: { prompt: string }) => r.prompt).join(", ");
            assert.fail(`seed ${seed}: ${id} still lists [${left}] 60 s after they came due`);
          }
          await new Promise((resolve) => setTimeout(resolve, 25));
        }
      }
      assert.equal(await server.stop("SIGTERM"), 0);
    }
    const { log, lost: lostAtEnd } = await verify(url, acked);
    lost += lostAtEnd;
    let deliveredOnce = 0;
    for (const [id, prompts] of acked.reminders) {
      const events = log.get(id) ?? [];
      const ids = creates(events);
      for (const prompt of prompts) {
        const scheduleId = ids.get(prompt);
        assert.ok(scheduleId !== undefined, `seed ${seed}: ${id} lost the confirmed ${prompt}`);
        const count = dispatches(events, scheduleId);
        assert.equal(count, 1, `seed ${seed}: ${id} ${prompt} dispatched ${count} times`);
        deliveredOnce++;
      }
    }
    for (const events of log.values()) {
      for (const scheduleId of creates(events).values()) {
        assert.ok(dispatches(events, scheduleId) <= 1, `seed ${seed}: a durable double dispatch`);
      }
    }
    const count = (m: Map<string, { size: number }>) =>
      [...m.values()].reduce((s, x) => s + x.size, 0);
    return {
      seed,
      acked: {
        sessions: acked.sessions.size,
        messages: count(acked.messages),
        reminders: count(acked.reminders),
      },
      lost,
      deliveredOnce,
    };
  } finally {
    await Deno.remove(dataDir, { recursive: true });
  }
}
