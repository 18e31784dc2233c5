/**
 * Regression: a repeated SIGINT (`deno task` forwards Ctrl-C beside the terminal's own) during a
 * clean shutdown no longer kills the host halfway (exit 130, the idle front's socket folder left
 * behind): the shutdown finishes, prints `chime: stopped` and exits 0.
 *
 * @module
 */
import assert from "node:assert/strict";
import { spawnServer } from "./_server.ts";

Deno.test("regression: SIGINT twice in a row still shuts down cleanly, exit 0", async () => {
  const dataDir = await Deno.makeTempDir();
  try {
    for (let attempt = 0; attempt < 3; attempt++) {
      await using server = await spawnServer(dataDir, "config/default.jsonc");
      Deno.kill(server.pid, "SIGINT");
      const code = await server.stop("SIGINT");
      assert.equal(code, 0, server.output());
      assert.match(server.output(), /chime: stopped/);
    }
  } finally {
    await Deno.remove(dataDir, { recursive: true });
  }
});
