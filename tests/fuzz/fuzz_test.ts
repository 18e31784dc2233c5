/**
 * 10,000 fuzz inputs in `deno task test`: the same targets as `deno task fuzz`,
 * which runs 1,000,000. A failure prints fast-check's seed and shrunk counterexample.
 *
 * @module
 */
import { TARGETS } from "./_plan.ts";

const TOTAL = 10_000;

for (const target of TARGETS) {
  const runs = Math.round(TOTAL * target.share);
  Deno.test(`fuzz: ${target.name} (${runs} inputs): no crash, nothing invalid accepted`, () =>
    target.run(runs));
}
