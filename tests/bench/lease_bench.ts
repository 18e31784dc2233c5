/**
 * Multi-host benchmark (figures, not a timed test), real host processes on one shared store: a
 * shared libSQL file (WAL, the local stand-in for sqld) and a PostgreSQL database of a
 * throw-away cluster (tests/_postgres.ts; skipped, with a line saying so, where none can start):
 *
 * 1. Acknowledged events/s with 1, 2 and 3 hosts: each host serves its own sessions; clients
 *    post messages for a fixed time (`202` = the `user-rpc` is durable). Reported: acknowledged
 *    messages/s and durable events/s (every event of those sessions, turns included).
 * 2. Failover time: the owner of a session with a reminder due in 1 s is killed (SIGKILL); a
 *    second host retries `resume` every 50 ms; the time from the kill to the reminder's
 *    dispatch arriving on the new owner's stream, for the test TTL (2 s) and the default (15 s).
 *
 * Run: `deno run -A tests/bench/lease_bench.ts [--seconds 5] [--clients 8] [--storage KIND]`
 *
 * @module
 */
import { parseArgs } from "node:util";
import type { ServerProcess } from "../host/_server.ts";
import {
  createStored,
  send,
  sharedConfig,
  type SharedStorage,
  sharedStorages,
  spawnHost,
  streamDispatch,
  until,
} from "../multihost/_hosts.ts";

const { values } = parseArgs({
  args: Deno.args,
  options: {
    seconds: { type: "string", default: "5" },
    clients: { type: "string", default: "8" },
    storage: { type: "string" },
  },
});
const SECONDS = Number(values.seconds);
const CLIENTS = Number(values.clients);
const ZONE = "Europe/Paris";

async function newSession(host: ServerProcess): Promise<string> {
  const created = await send(`${host.url}/api/sessions`, { timeZone: ZONE });
  return (created.body.header as { id: string }).id;
}

async function throughput(storage: SharedStorage, count: number): Promise<void> {
  const dir = await Deno.makeTempDir({ prefix: "chime-lease-bench-" });
  const config = await sharedConfig(dir, 15, { model: { kind: "none" } }, storage);
  const hosts: ServerProcess[] = [];
  try {
    for (let i = 0; i < count; i++) hosts.push(await spawnHost(dir, config));
    const sessions = await Promise.all(
      hosts.flatMap((host) =>
        Array.from({ length: CLIENTS }, async () => ({ host, id: await newSession(host) }))
      ),
    );
    const deadline = performance.now() + SECONDS * 1000;
    const started = performance.now();
    let acknowledged = 0;
    await Promise.all(sessions.map(async ({ host, id }) => {
      for (let n = 0; performance.now() < deadline; n++) {
        const answer = await send(`${host.url}/api/sessions/${id}/messages`, {
          text: `message ${n}`,
          clientTimeZone: ZONE,
        });
        if (answer.status !== 202) throw new Error(`message refused: ${answer.status}`);
        acknowledged++;
      }
    }));
    const elapsed = (performance.now() - started) / 1000;
    let events = 0;
    for (const { host, id } of sessions) {
      const page = await fetch(`${host.url}/api/sessions/${id}/history?limit=1`);
      events += ((await page.json()).events[0]?.seq ?? -1) + 1;
    }
    console.log(
      `${storage}, ${count} host(s), ${sessions.length} sessions: ${
        (acknowledged / elapsed).toFixed(0)
      } acknowledged messages/s, ${(events / elapsed).toFixed(0)} durable events/s`,
    );
  } finally {
    for (const host of hosts) await host.stop("SIGKILL");
    await Deno.remove(dir, { recursive: true });
  }
}

async function failover(storage: SharedStorage, ttlSeconds: number): Promise<void> {
  const dir = await Deno.makeTempDir({ prefix: "chime-failover-bench-" });
  const config = await sharedConfig(dir, ttlSeconds, {}, storage);
  const a = await spawnHost(dir, config);
  const b = await spawnHost(dir, config);
  try {
    const id = await newSession(a);
    await send(`${a.url}/api/sessions/${id}/messages`, {
      text: "remind me in 1 seconds to stretch",
      clientTimeZone: ZONE,
    });
    await createStored(b.url, id);
    const killed = performance.now();
    await a.stop("SIGKILL");
    let taken = 0;
    await until(
      async () => {
        const answer = await send(`${b.url}/api/sessions/${id}/resume`);
        if (answer.status !== 200) return undefined;
        taken = performance.now();
        return true;
      },
      60_000,
      "the take-over",
    );
    await streamDispatch(b.url, id, 60_000);
    const delivered = performance.now();
    console.log(
      `${storage} failover, TTL ${ttlSeconds} s: kill → taken ${
        ((taken - killed) / 1000).toFixed(2)
      } s, ` +
        `kill → reminder delivered by the new owner ${((delivered - killed) / 1000).toFixed(2)} s`,
    );
  } finally {
    await a.stop("SIGKILL");
    await b.stop("SIGKILL");
    await Deno.remove(dir, { recursive: true });
  }
}

const storages = values.storage === undefined
  ? sharedStorages()
  : [values.storage as SharedStorage];
for (const storage of storages) {
  for (const count of [1, 2, 3]) await throughput(storage, count);
  for (const ttl of [2, 15]) await failover(storage, ttl);
}
// The cluster of tests/_postgres.ts stops at unload; leave through it.
Deno.exit(0);
