/**
 * The damage lane at small N (issue 26 fault 4; `deno task damage 400` is the full lane): 20
 * random single-byte flips of a real libSQL database and real JSONL files, the store opened on
 * each copy and every read compared with the original. No flip may kill the process, change a
 * JSONL read without an error, or be missed by the doctor (a silent libSQL change included).
 *
 * @module
 */
import assert from "node:assert/strict";
import { runDamageLane } from "./damage.ts";

Deno.test("20 single-byte flips: no crash, no JSONL silent change, the doctor finds every damage", async () => {
  const counts = await runDamageLane(20, 2026);
  assert.equal(counts.flips, 20);
  // What remains (README "How it behaves on failure"): a damaged key inside the libSQL type
  // index can still hide an event from typed reads; the doctor must name each such flip.
  const jsonl = counts.silent.filter((s) => s.kind === "jsonl");
  assert.deepEqual(jsonl.map((s) => `${s.file} +${s.offset}`), [], "JSONL silent changes");
  assert.deepEqual(counts.crashes.map((c) => `${c.file} +${c.offset}`), [], "crashes");
  assert.equal(counts.doctorMisses, 0, "doctor misses");
});
