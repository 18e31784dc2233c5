/**
 * The crash lane: real host processes (`host/main.ts`, web-schedule config, offline model) on
 * one store (a private libSQL file for one host; a shared libSQL file or a PostgreSQL database
 * for several, with leases) are driven over HTTP with session creates, chat messages and
 * reminder creates, and one of them is SIGKILLed at a random moment, then restarted on the same
 * data. After every kill the stored log must hold every acknowledged event at its acknowledged
 * seq, densely; in the end every confirmed reminder is dispatched exactly once (durably), and the
 * lane counts how often a reminder's turn ran again on the next owner (docs/deploy.md
 * "Promised": the crash window between a reminder's turn and its stored `dispatch`).
 *
 * What counts as acknowledged: `201` of a create (the header), `202 { seq, messageId }` of a
 * message (its `user-rpc`), and a reminder listed by `GET …/reminders` (the durable fold). With
 * several hosts a request goes to the session's owner as a proxy routing by session id would
 * send it, following a `409 session_owned_elsewhere` to the owner it names.
 *
 * @module
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import type { SessionEvent } from "@chime/session";
import { STORAGE_DRIVERS } from "@chime/host";
import { type ServerProcess, spawnServer } from "../host/_server.ts";
import { sharedPostgres } from "../_postgres.ts";

/** Options of {@linkcode runCrashLane}. */
export interface CrashLaneOptions {
  /** SIGKILLs. */
  readonly iterations: number;
  /** PRNG seed (printed on failure to replay). @default random */
  readonly seed?: number;
  /** Longest run before the kill, ms. @default 900 */
  readonly maxRunMs?: number;
  /** The store: a private libSQL file (one host only), a shared one, or PostgreSQL. @default "libsql" */
  readonly storage?: "libsql" | "libsql-shared" | "postgres";
  /** Hosts on the store (more than one needs a shared store). @default 1 */
  readonly hosts?: number;
  /** Lease length with several hosts, seconds. @default 2 */
  readonly ttlSeconds?: number;
  /** Told after each kill's check: kills so far, acknowledged messages, lost so far. */
  readonly progress?: (kills: number, messages: number, lost: number) => void;
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
  /** Reminders whose turn was stored more than once (the documented crash window was hit). */
  readonly windowHits: number;
}

const MAX_SESSIONS = 3;
const REMINDER_SECONDS = 2;

/** A seeded PRNG (mulberry32): the same seed gives the same sequence in `[0, 1)`. */
export function prng(seed: number): () => number {
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

/**
 * The hosts of a lane as a proxy routing by session id sees them: each session's requests go to
 * its last known owner (else a host picked by its id), a `409` re-routes to the owner it names.
 */
class Router {
  readonly urls: (string | undefined)[];
  readonly #owner = new Map<string, number>();

  constructor(size: number) {
    this.urls = Array.from({ length: size }, () => undefined);
  }

  #pick(id: string): number {
    const known = this.#owner.get(id);
    if (known !== undefined && this.urls[known] !== undefined) return known;
    let hash = 0;
    for (const c of id) hash = (hash * 31 + c.charCodeAt(0)) >>> 0;
    const alive = this.urls.flatMap((u, i) => u === undefined ? [] : [i]);
    return alive[hash % alive.length]!;
  }

  /** Sends a session's request to its owner, following at most two `409`s. */
  async send(id: string, path: string, body?: unknown): Promise<Response> {
    for (let hop = 0;; hop++) {
      const index = this.#pick(id);
      const response = await call(this.urls[index]!, path, body);
      if (response.status !== 409 || hop === 2) return response;
      const error = (await response.json()).error as { code?: string; url?: string };
      const owner = this.urls.findIndex((u) => u !== undefined && `${u}/` === error.url);
      if (error.code !== "session_owned_elsewhere" || owner < 0) {
        // The owner is dead (its lease not expired yet) or unknown: answer as a 409.
        return new Response(JSON.stringify({ error }), { status: 409 });
      }
      this.#owner.set(id, owner);
    }
  }

  /** Any live host (creates). */
  any(random: () => number): string {
    const alive = this.urls.filter((u): u is string => u !== undefined);
    return alive[Math.floor(random() * alive.length)]!;
  }
}

/** The hosts' lifetimes: act until the kill lands. */
async function drive(
  router: Router,
  acked: Acked,
  random: () => number,
  n: { next: number },
  control: { readonly stop: boolean },
) {
  for (const id of acked.sessions) {
    (await router.send(id, `/api/sessions/${id}/resume`, {})).body?.cancel();
  }
  while (!control.stop) {
    const ids = [...acked.sessions];
    const pick = random();
    if (ids.length === 0 || (pick < 0.15 && ids.length < MAX_SESSIONS)) {
      const id = `crash${n.next++}`;
      const response = await call(router.any(random), "/api/sessions", {
        timeZone: "Europe/Berlin",
        id,
      });
      await response.body?.cancel();
      if (response.status === 201) acked.sessions.add(id);
      continue;
    }
    const id = ids[Math.floor(random() * ids.length)]!;
    const remind = pick > 0.8;
    const tag = `ping${n.next++}`;
    const text = remind ? `remind me in ${REMINDER_SECONDS} seconds to ${tag}` : `note ${tag}`;
    const response = await router.send(id, `/api/sessions/${id}/messages`, {
      text,
      clientTimeZone: "Europe/Berlin",
    });
    if (response.status !== 202) {
      await response.body?.cancel();
      // A session whose owner died waits for its lease: do not spin on it.
      if (response.status === 409) await new Promise((resolve) => setTimeout(resolve, 20));
      continue;
    }
    const { seq, messageId } = await response.json();
    let messages = acked.messages.get(id);
    if (messages === undefined) acked.messages.set(id, messages = new Map());
    messages.set(seq, messageId);
    if (!remind) continue;
    // Confirmed once the durable fold lists it (before it fires, REMINDER_SECONDS later).
    for (let tries = 0; tries < 40; tries++) {
      const list = await (await router.send(id, `/api/sessions/${id}/reminders`)).json();
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
async function verify(
  storage: StorageSettings,
  acked: Acked,
  doctor: boolean,
): Promise<{ log: Log; lost: number }> {
  const driver = STORAGE_DRIVERS[storage.kind]!;
  if (doctor) {
    const report = await driver.check!(storage);
    assert.deepEqual(report.damage, [], "the doctor finds no damage");
  }
  await using backend = await driver.open(storage, {});
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

/** The `storage` settings of a lane. */
type StorageSettings = { readonly kind: string; readonly [key: string]: unknown };

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

/** How many `followup` turns of one reminder the log holds (more than one: the crash window). */
function followups(events: readonly SessionEvent[], scheduleId: string): number {
  return events.filter((e) =>
    e.type === "followup" &&
    (e.data as { frame?: string }).frame?.includes(JSON.stringify(scheduleId))
  ).length;
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
  const hosts = options.hosts ?? 1;
  const kind = options.storage ?? "libsql";
  if (hosts > 1 && kind === "libsql") throw new RangeError("several hosts need a shared store");
  const dataDir = await Deno.makeTempDir({ prefix: "chime-crash-" });
  const storage: StorageSettings = kind === "postgres"
    ? { kind: "postgres", url: await (await sharedPostgres()).database("crash") }
    : kind === "libsql-shared"
    ? { kind: "libsql", url: `file:${join(dataDir, "chime.db")}`, shared: true }
    : { kind: "libsql", url: `file:${join(dataDir, "chime.db")}` };
  // The web-schedule example with a budget no lane reaches: the lane checks durability and
  // exactly-once delivery, not the hourly budget (which holds a long soak's reminders for hours).
  const config = `${dataDir}/chime.jsonc`;
  await Deno.writeTextFile(
    config,
    JSON.stringify({
      extends: new URL("../../examples/web-schedule/chime.jsonc", import.meta.url).pathname,
      pluginOptions: { "@chime/schedule": { maxRemindersPerHour: 10_000 } },
      storage,
      lease: { ttlSeconds: options.ttlSeconds ?? 2 },
    }),
  );
  // A file store is checked by the doctor only while no host writes it (it scans a copy).
  const doctorWhileRunning = hosts === 1 || kind === "postgres";
  const acked: Acked = { sessions: new Set(), messages: new Map(), reminders: new Map() };
  const n = { next: 0 };
  let lost = 0;
  const router = new Router(hosts);
  const processes: (ServerProcess | undefined)[] = Array.from({ length: hosts }, () => undefined);
  const start = async (i: number) => {
    const server = await spawnServer(dataDir, config);
    processes[i] = server;
    router.urls[i] = server.url;
  };
  try {
    for (let i = 0; i < hosts; i++) await start(i);
    for (let i = 0; i < options.iterations; i++) {
      const victim = Math.floor(random() * hosts);
      const server = processes[victim]!;
      const runMs = Math.floor(random() * (options.maxRunMs ?? 900));
      const control = { stop: false };
      // Ends when the kill lands on a request, or once told to stop.
      const driving = drive(router, acked, random, n, control).catch(() => {});
      await new Promise((resolve) => setTimeout(resolve, runMs));
      await server.stop("SIGKILL");
      router.urls[victim] = undefined;
      control.stop = true;
      await driving;
      lost += (await verify(storage, acked, doctorWhileRunning)).lost;
      options.progress?.(
        i + 1,
        [...acked.messages.values()].reduce((sum, m) => sum + m.size, 0),
        lost,
      );
      await start(victim);
    }
    // A last lifetime, not killed: every confirmed reminder comes due and is dispatched.
    const due = Date.now() + REMINDER_SECONDS * 1_000;
    // Wait on state, with a generous bound for a busy machine: every session's list empties
    // (a session whose dead owner's lease is still in force is taken once it expires).
    const deadline = due + 60_000;
    for (const id of acked.sessions) {
      for (;;) {
        const resumed = await router.send(id, `/api/sessions/${id}/resume`, {});
        await resumed.body?.cancel();
        const list = await (await router.send(id, `/api/sessions/${id}/reminders`)).json();
        if (resumed.status === 200 && list.reminders.length === 0 && Date.now() > due) break;
        if (Date.now() > deadline) {
          const left = list.reminders.map((r: { prompt: string }) => r.prompt).join(", ");
          assert.fail(`seed ${seed}: ${id} still lists [${left}] 60 s after they came due`);
        }
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
    }
    for (const server of processes) assert.equal(await server!.stop("SIGTERM"), 0);
    const { log, lost: lostAtEnd } = await verify(storage, acked, true);
    lost += lostAtEnd;
    let deliveredOnce = 0;
    let windowHits = 0;
    for (const [id, prompts] of acked.reminders) {
      const events = log.get(id) ?? [];
      const ids = creates(events);
      for (const prompt of prompts) {
        const scheduleId = ids.get(prompt);
        assert.ok(scheduleId !== undefined, `seed ${seed}: ${id} lost the confirmed ${prompt}`);
        const count = dispatches(events, scheduleId);
        assert.equal(count, 1, `seed ${seed}: ${id} ${prompt} dispatched ${count} times`);
        if (followups(events, scheduleId) > 1) windowHits++;
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
      windowHits,
    };
  } finally {
    for (const server of processes) await server?.stop("SIGKILL");
    await Deno.remove(dataDir, { recursive: true });
  }
}
