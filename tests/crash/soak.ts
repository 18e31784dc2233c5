/**
 * `deno task soak [N] [SEED]`: the crash lane with N random SIGKILLs (default 200); prints what
 * was acknowledged, lost and delivered, and exits non-zero on any loss.
 *
 * @module
 */
import { runCrashLane } from "./_lane.ts";

const iterations = Number(Deno.args[0] ?? 200);
const seed = Deno.args[1] === undefined ? undefined : Number(Deno.args[1]);
const started = Date.now();
const result = await runCrashLane({ iterations, ...(seed === undefined ? {} : { seed }) });
console.log(JSON.stringify({ iterations, ...result, seconds: (Date.now() - started) / 1000 }));
Deno.exit(result.lost === 0 ? 0 : 1);
