/**
 * Helpers of the multi-host lanes (docs/deploy.md): several real host processes on one shared file
 * database (WAL; the local stand-in for sqld), and small HTTP probes.
 *
 * @module
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { readSse, type SseMessage } from "../host/_helpers.ts";
import {
  eventOf,
  raw,
  ROOT,
  type ServerProcess,
  spawnServer,
  type WireEvent,
} from "../host/_server.ts";

/** Lease length of the lanes, seconds. */
export const TTL_SECONDS = 2;

/**
 * Writes the lanes' config (web-schedule, shared file database, short leases) into `dir`.
 *
 * @param dir the lane's directory (the database goes to `dir/data`)
 * @param ttlSeconds lease length @default TTL_SECONDS
 * @param extra more top-level settings (e.g. `model`)
 * @returns the config path
 */
export async function sharedConfig(
  dir: string,
  ttlSeconds: number = TTL_SECONDS,
  extra: Record<string, unknown> = {},
): Promise<string> {
  const path = join(dir, "chime.jsonc");
  await Deno.writeTextFile(
    path,
    JSON.stringify({
      extends: join(ROOT, "examples", "web-schedule", "chime.jsonc"),
      storage: { kind: "libsql", url: "file:chime.db", shared: true },
      lease: { ttlSeconds },
      ...extra,
    }),
  );
  return path;
}

/** Spawns one host on the shared database of `dir`. */
export function spawnHost(dir: string, config: string): Promise<ServerProcess> {
  return spawnServer(join(dir, "data"), config);
}

/** `POST`s JSON; returns the status and the parsed body. */
export async function send(
  url: string,
  body: unknown = {},
): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: await response.json() };
}

/** Asserts a `409 session_owned_elsewhere` naming `owner` (a base URL without the slash). */
export function assertElsewhere(
  answer: { status: number; body: Record<string, unknown> },
  owner: string,
): void {
  assert.equal(answer.status, 409, JSON.stringify(answer.body));
  const error = answer.body.error as Record<string, unknown>;
  assert.equal(error.code, "session_owned_elsewhere");
  assert.equal(error.url, `${owner}/`);
}

/** The durable log of a session, read from any host (never activates it). */
export async function durableEvents(base: string, id: string): Promise<WireEvent[]> {
  const response = await fetch(`${base}/api/sessions/${id}/history?limit=500`);
  assert.equal(response.status, 200);
  return ((await response.json()).events as WireEvent[]);
}

/** The `schedule/change` events of one op in a log. */
export function scheduleOps(events: readonly WireEvent[], op: string): WireEvent[] {
  return events.filter((e) => e.type === "schedule/change" && e.data.op === op);
}

/**
 * Retries `attempt` until it returns a value (state, not time: each try is a real request),
 * failing after `limitMs`.
 */
export async function until<T>(
  attempt: () => Promise<T | undefined>,
  limitMs: number,
  what: string,
): Promise<T> {
  const deadline = Date.now() + limitMs;
  for (;;) {
    const value = await attempt();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Waits until the reminder's `create` is in the durable log (read from `base`). */
export async function createStored(base: string, id: string): Promise<void> {
  await until(
    async () => scheduleOps(await durableEvents(base, id), "create")[0],
    10_000,
    "the reminder's create in the log",
  );
}

/**
 * Opens `base`'s stream of a session it owns and waits for a reminder dispatch on it.
 *
 * @returns the messages received, the dispatch last
 */
export async function streamDispatch(
  base: string,
  id: string,
  limitMs: number,
): Promise<SseMessage[]> {
  const stream = await fetch(`${base}/api/sessions/${id}/stream?after=-1`);
  return await readSse(
    stream.body!,
    (m) => m.filter(raw).some((x) => eventOf(x).data.op === "dispatch"),
    limitMs,
  );
}
