/**
 * The damage lane at small N (issue 26 fault 4; `deno task damage 400` is the full lane): 20
 * random single-byte flips of a real libSQL database and real JSONL files, the store opened on
 * each copy and every read compared with the original. No flip may change what is served
 * without an error, kill the process, or be reported by the store and missed by the doctor.
 *
 * @module
 */
import assert from "node:assert/strict";
import { runDamageLane } from "./damage.ts";

Deno.test("20 single-byte flips: no silent change, no crash, no damage the doctor misses", async () => {
  const counts = await runDamageLane(20, 2026);
  assert.equal(counts.flips, 20);
  assert.deepEqual(counts.silent.map((s) => `${s.file} +${s.offset}`), [], "silent changes");
  assert.deepEqual(counts.crashes.map((c) => `${c.file} +${c.offset}`), [], "crashes");
  assert.equal(counts.doctorMisses, 0, "doctor misses");
});
