/**
 * `deno task fuzz [TOTAL] [--seed N]`: 1,000,000 inputs by default through the schedule
 * decoder and fold, the RFC 3339 parser, the config parser and every route's body validation
 * (README "How it behaves on failure", "Bad input"). Prints one line per target and exits
 * non-zero on the first failure, with fast-check's seed and shrunk counterexample.
 *
 * @module
 */
import { parseArgs } from "node:util";
import { TARGETS } from "./_plan.ts";

const { values, positionals } = parseArgs({
  args: Deno.args,
  options: { seed: { type: "string" } },
  allowPositionals: true,
});
const total = positionals[0] === undefined ? 1_000_000 : Number(positionals[0]);
const seed = values.seed === undefined ? Date.now() ^ 0 : Number(values.seed);
console.log(`fuzz: ${total} inputs, seed ${seed}`);
let failed = 0;
let done = 0;
for (const target of TARGETS) {
  const runs = Math.round(total * target.share);
  const started = performance.now();
  try {
    await target.run(runs, seed);
    done += runs;
    const seconds = ((performance.now() - started) / 1000).toFixed(1);
    console.log(`  ${target.name}: ${runs} inputs, 0 crashes, 0 invalid accepted (${seconds} s)`);
  } catch (error) {
    failed++;
    console.log(`  ${target.name}: FAILED\n${error instanceof Error ? error.message : error}`);
  }
}
console.log(`${done} inputs checked, ${failed} target(s) failed`);
Deno.exit(failed === 0 ? 0 : 1);
