/**
 * No request blocks the event loop for more than 50 ms (README "Failure behaviour"): the
 * measurement of `_heartbeat_child.ts` in a process of its own (its CPU-time heartbeat counts
 * only that process), which exits non-zero naming each request that blocked.
 *
 * @module
 */
import assert from "node:assert/strict";
import { childEnv } from "../_env.ts";

Deno.test("no tool call or route with its worst input blocks the event loop for 50 ms", async () => {
  const child = new URL("./_heartbeat_child.ts", import.meta.url).pathname;
  const { code, stdout, stderr } = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", child],
    env: childEnv(),
    clearEnv: true,
    stdout: "piped",
    stderr: "piped",
  }).output();
  const out = new TextDecoder().decode(stdout);
  const err = new TextDecoder().decode(stderr);
  console.log(out.split("\n").filter((line) => line.includes("ms CPU")).join("\n"));
  assert.equal(code, 0, `${out}\n${err}`);
});
