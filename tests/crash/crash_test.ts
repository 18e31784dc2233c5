/**
 * The crash lane in the suite: 20 random SIGKILLs of one real host on a private libSQL file,
 * and 10 across three hosts on a shared libSQL file and on PostgreSQL (`deno task soak` runs
 * more, `--storage`/`--hosts` choose).
 */
import assert from "node:assert/strict";
import { postgresLanes } from "../_postgres.ts";
import { type CrashLaneOptions, runCrashLane } from "./_lane.ts";

const LANES: (Omit<CrashLaneOptions, "iterations"> & { iterations: number })[] = [
  { iterations: 20 },
  { iterations: 10, storage: "libsql-shared", hosts: 3 },
  ...(postgresLanes() ? [{ iterations: 10, storage: "postgres" as const, hosts: 3 }] : []),
];

for (const lane of LANES) {
  const where = `${lane.hosts ?? 1} host(s) on ${lane.storage ?? "libsql"}`;
  Deno.test(`${where}: SIGKILLed at random moments ${lane.iterations} times, no acknowledged event lost, each reminder delivered once`, async () => {
    const result = await runCrashLane(lane);
    assert.equal(result.lost, 0, `seed ${result.seed}`);
    assert.ok(result.acked.messages > 0, `seed ${result.seed}: something was acknowledged`);
    assert.equal(result.deliveredOnce, result.acked.reminders);
    console.log(`${where}: ${JSON.stringify(result)}`);
  });
}
