/**
 * `host/main.ts` startup failures: one clear line (code and message), a non-zero exit.
 *
 * @module
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { ConfigError, loadConfig, startServer } from "@chime/host";
import { MemoryBackend } from "@chime/session/testing";
import { ROOT } from "./_server.ts";

/**
 * Runs `host/main.ts` on a fresh data directory (`prepare` may seed it) and returns its exit code
 * and the lines it printed to stderr.
 */
async function failedStart(
  args: readonly string[],
  prepare: (dir: string) => Promise<void> = () => Promise.resolve(),
): Promise<{ code: number; lines: string[] }> {
  const dir = await Deno.makeTempDir();
  try {
    await prepare(dir);
    const output = await new Deno.Command(Deno.execPath(), {
      args: ["run", "-A", join(ROOT, "host", "main.ts"), "--data-dir", dir, ...args],
      cwd: ROOT,
      stdout: "piped",
      stderr: "piped",
    }).output();
    const lines = new TextDecoder().decode(output.stderr).trim().split("\n");
    return { code: output.code, lines };
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test("a rejected database schema is reported once, as `code: message`, exit 1", async () => {
  const { code, lines } = await failedStart(
    ["--port", "0"],
    (dir) => Deno.writeTextFile(join(dir, "chime.db"), "not a database; ".repeat(64)),
  );
  assert.equal(code, 1);
  assert.equal(lines.length, 1, lines.join("\n"));
  assert.match(lines[0]!, /^chime: schema_rejected: Cannot open file:.*chime\.db: /);
});

Deno.test("regression: a port in use is reported as `chime: port_in_use: …` naming the address, exit 1", async () => {
  using taken = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const { port } = taken.addr as Deno.NetAddr;
  const { code, lines } = await failedStart(["--port", String(port)]);
  assert.equal(code, 1);
  assert.deepEqual(lines, [
    `chime: port_in_use: Cannot start: 127.0.0.1:${port} is already in use by another ` +
    `process; stop it, or pick another port with --port, CHIME_PORT or "port" in chime.jsonc`,
  ]);
}); // deno-fmt-ignore

Deno.test("startServer maps a taken port to port_in_use with or without the idle front", async () => {
  using taken = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const { port } = taken.addr as Deno.NetAddr;
  const loaded = await loadConfig(join(ROOT, "config", "default.jsonc"), { env: {} });
  for (const idleSeconds of [120, 0]) {
    const config = { ...loaded, timeouts: { ...loaded.timeouts, idleSeconds } };
    const backend = new MemoryBackend();
    await assert.rejects(
      startServer({ config, port, backend }),
      (error: unknown) =>
        error instanceof ConfigError && error.code === "port_in_use" &&
        error.message.includes(`127.0.0.1:${port} is already in use`) &&
        error.cause instanceof Deno.errors.AddrInUse,
      `idleSeconds ${idleSeconds}`,
    );
  }
  // Any other failure is not renamed: a free port still starts.
  await using server = await startServer({ config: loaded, port: 0, backend: new MemoryBackend() });
  assert.ok(server.port > 0);
});
