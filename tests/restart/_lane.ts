// Private helpers of the restart lanes: spawn `lane_child.ts`, read its JSON lines, SIGKILL it.
import { fileURLToPath as fromFileUrl } from "node:url";
import type { StoredSession } from "@chime/session";
import { JsonLineChild } from "../_child.ts";
import { postgresLanes, sharedPostgres } from "../_postgres.ts";
import { type LaneConfig, openStorage } from "./lane_child.ts";

const CHILD = fromFileUrl(new URL("./lane_child.ts", import.meta.url));
const ROOT = fromFileUrl(new URL("../../", import.meta.url));

/** One JSON line the child printed. */
export type Line = Record<string, unknown> & { readonly t: number };

/** A running lane process (SIGKILLed on dispose). */
export class LaneProcess extends JsonLineChild<Line> {
  /** Spawns `lane_child.ts` with `config` from the repository root. */
  constructor(config: LaneConfig) {
    super(CHILD, [JSON.stringify(config)], { cwd: ROOT });
  }
}

/** The schedule/change ops the child printed for `session`. */
export function changes(lines: Line[], session: string): { op: string; at: string }[] {
  return events(lines, session, "schedule/change").map((e) => ({
    op: (e.data as { op: string }).op,
    at: e.at,
  }));
}

/** Printed events of one type for `session`. */
export function events(
  lines: Line[],
  session: string,
  type: string,
): { seq: number; at: string; data: unknown }[] {
  return lines.flatMap((line) => {
    const event = line.event as
      | { type: string; seq: number; at: string; data: unknown }
      | undefined;
    return line.session === session && event?.type === type ? [event] : [];
  });
}

/** The reminder frames (parsed JSON line) the child recorded as `followup` events. */
export function frames(lines: Line[], session: string): Record<string, unknown>[] {
  return events(lines, session, "followup").map((e) =>
    JSON.parse((e.data as { frame: string }).frame.split("\n")[1]!)
  );
}

/** Promise-based sleep for the real-time lanes. */
export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** On-time tolerance for a live process (timer jitter, libSQL commit, CPU contention). */
export const ON_TIME_MS = 1_500;

/** Where a lane's session lives. */
export type Storage = LaneConfig["storage"];

/** The stores the restart lanes run on: a private libSQL file, a shared one, PostgreSQL. */
export type LaneKind = "libsql" | "libsql-shared" | "postgres";

/** The kinds that run here (PostgreSQL only where a server can be started; else it says so). */
export function laneKinds(): LaneKind[] {
  return postgresLanes() ? ["libsql", "libsql-shared", "postgres"] : ["libsql", "libsql-shared"];
}

/**
 * A fresh store of `kind`: a libSQL file in a temp folder (shared mode for `libsql-shared`), or
 * a fresh database of the test process's PostgreSQL cluster.
 */
export async function freshStorage(kind: LaneKind): Promise<Storage> {
  if (kind === "postgres") {
    return { kind: "postgres", url: await (await sharedPostgres()).database("restart") };
  }
  const url = `file:${await Deno.makeTempDir()}/chime.db`;
  return kind === "libsql" ? { kind: "libsql", url } : { kind: "libsql", url, shared: true };
}

/** The stored session, read back from the lane's storage after its process died. */
export async function stored(storage: Storage, id: string): Promise<StoredSession> {
  const backend = await openStorage(storage);
  await using _ = backend;
  return (await backend.load(id))!;
}

/** The `scheduledAt` (epoch ms) of every create the child printed for `session`. */
export function scheduledAt(lines: Line[], session: string): number[] {
  return events(lines, session, "schedule/change")
    .filter((e) => (e.data as { op: string }).op === "create")
    .map((e) => Date.parse((e.data as { record: { scheduledAt: string } }).record.scheduledAt));
}

/** Runs a lane process until `until` holds, then SIGKILLs it. */
export async function run(
  config: LaneConfig,
  until: (lines: Line[]) => boolean,
  what: string,
): Promise<Line[]> {
  await using lane = new LaneProcess(config);
  await lane.waitFor(until, what, 90_000);
  return lane.lines;
}

/** The child finished its `n` creates. */
export const created = (n: number) => (lines: Line[]): boolean =>
  lines.some((l) => l.created === n);

/** `n` dispatches of `id` were printed and a flush covers the last schedule change. */
export const dispatched = (id: string, n: number) => (lines: Line[]): boolean =>
  changes(lines, id).filter((c) => c.op === "dispatch").length >= n &&
  lines.some((l) =>
    l.session === id && typeof l.flushed === "number" &&
    l.flushed > events(lines, id, "schedule/change").at(-1)!.seq
  );

/** Runs a lane process for `ms` after it is ready, then SIGKILLs it. */
export async function quiet(config: LaneConfig, ms: number): Promise<Line[]> {
  await using lane = new LaneProcess(config);
  await lane.waitFor((lines) => lines.some((l) => "created" in l), "ready", 30_000);
  await sleep(ms);
  return lane.lines;
}
