/**
 * Helpers of the multi-host lanes (docs/deploy.md): several real host processes on one shared
 * store, a libSQL file (WAL; the local stand-in for sqld) or a PostgreSQL database of a
 * throw-away cluster (tests/_postgres.ts), and small HTTP probes.
 *
 * @module
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { readSse, type SseMessage } from "../host/_helpers.ts";
import { postgresLanes, sharedPostgres } from "../_postgres.ts";
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

/** The shared stores the many-host lanes run on. */
export type SharedStorage = "libsql-shared" | "postgres";

/**
 * The stores the lanes run on here: both, or only libSQL where no PostgreSQL can be started
 * (then a line says the PostgreSQL lanes skip).
 */
export function sharedStorages(): SharedStorage[] {
  return postgresLanes() ? ["libsql-shared", "postgres"] : ["libsql-shared"];
}

/**
 * The `storage` settings of a lane: a shared libSQL file in the data folder, or a fresh
 * PostgreSQL database.
 *
 * @param kind the store
 * @returns the settings
 */
export async function laneStorage(kind: SharedStorage): Promise<Record<string, unknown>> {
  if (kind === "libsql-shared") return { kind: "libsql", url: "file:chime.db", shared: true };
  return { kind: "postgres", url: await (await sharedPostgres()).database("lane") };
}

/**
 * Writes the lanes' config (web-schedule, shared store, short leases) into `dir`.
 *
 * @param dir the lane's directory (a file database goes to `dir/data`)
 * @param ttlSeconds lease length @default TTL_SECONDS
 * @param extra more top-level settings (e.g. `model`)
 * @param kind the shared store @default "libsql-shared"
 * @returns the config path
 */
export async function sharedConfig(
  dir: string,
  ttlSeconds: number = TTL_SECONDS,
  extra: Record<string, unknown> = {},
  kind: SharedStorage = "libsql-shared",
): Promise<string> {
  const path = join(dir, "chime.jsonc");
  await Deno.writeTextFile(
    path,
    JSON.stringify({
      extends: join(ROOT, "examples", "web-schedule", "chime.jsonc"),
      storage: await laneStorage(kind),
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
