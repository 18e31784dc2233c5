/**
 * `deno task soak [N] [SEED] [--storage libsql|libsql-shared|postgres] [--hosts H]`: the crash
 * lane with N random SIGKILLs (default 200) across H hosts (default 1; several need a shared
 * store; `postgres` starts a throw-away cluster, tests/_postgres.ts); prints what was
 * acknowledged, lost and delivered, and how often the documented crash window was hit, and
 * exits non-zero on any loss.
 *
 * @module
 */
import { parseArgs } from "node:util";
import { runCrashLane } from "./_lane.ts";

const { values, positionals } = parseArgs({
  args: Deno.args,
  options: { storage: { type: "string" }, hosts: { type: "string" } },
  allowPositionals: true,
});
const iterations = Number(positionals[0] ?? 200);
const seed = positionals[1] === undefined ? undefined : Number(positionals[1]);
const storage = (values.storage ?? "libsql") as "libsql" | "libsql-shared" | "postgres";
const hosts = Number(values.hosts ?? 1);
const started = Date.now();
const result = await runCrashLane({
  iterations,
  storage,
  hosts,
  ...(seed === undefined ? {} : { seed }),
  // One line per kill on stderr: a long soak shows how far it got.
  progress: (kills, messages, lost) =>
    console.error(
      JSON.stringify({ kills, messages, lost, seconds: (Date.now() - started) / 1000 }),
    ),
});
console.log(
  JSON.stringify({ iterations, storage, hosts, ...result, seconds: (Date.now() - started) / 1000 }),
);
Deno.exit(result.lost === 0 ? 0 : 1);
