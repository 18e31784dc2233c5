/**
 * `host/main.ts` startup failures: one clear line (code and message), a non-zero exit.
 *
 * @module
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { ROOT } from "./_server.ts";

Deno.test("a rejected database schema is reported once, as `code: message`, exit 1", async () => {
  const dir = await Deno.makeTempDir();
  try {
    await Deno.writeTextFile(join(dir, "chime.db"), "not a database; ".repeat(64));
    const output = await new Deno.Command(Deno.execPath(), {
      args: ["run", "-A", join(ROOT, "host", "main.ts"), "--data-dir", dir, "--port", "0"],
      cwd: ROOT,
      stdout: "piped",
      stderr: "piped",
    }).output();
    const stderr = new TextDecoder().decode(output.stderr).trim();
    assert.equal(output.code, 1);
    const lines = stderr.split("\n");
    assert.equal(lines.length, 1, stderr);
    assert.match(lines[0]!, /^chime: schema_rejected: Cannot open file:.*chime\.db: /);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
