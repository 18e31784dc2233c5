/**
 * The crash lane in the suite: 20 random SIGKILLs of a real host (`deno task soak` runs 200).
 */
import assert from "node:assert/strict";
import { runCrashLane } from "./_lane.ts";

Deno.test("a host SIGKILLed at random moments 20 times loses no acknowledged event and delivers each reminder once", async () => {
  const result = await runCrashLane({ iterations: 20 });
  assert.equal(result.lost, 0, `seed ${result.seed}`);
  assert.ok(result.acked.messages > 0, `seed ${result.seed}: something was acknowledged`);
  assert.equal(result.deliveredOnce, result.acked.reminders);
});
