/**
 * `host/main.ts` on PostgreSQL and remote libSQL (README "Many hosts on PostgreSQL"): a host
 * pointed at PostgreSQL with `CHIME_DATABASE_URL` starts, serves and checks its store with the
 * password nowhere in its output; a wrong password, a missing database or an unreachable server
 * (PostgreSQL or a remote libSQL URL) fails startup with `storage_unavailable`, exit 1, and no
 * secret.
 */
import assert from "node:assert/strict";
import { childEnv } from "../_env.ts";
import { ROOT, spawnServer } from "../host/_server.ts";
import { postgresLanes, startPostgres } from "../_postgres.ts";
import { libsqlDriver } from "../../session/libsql/driver.ts";
import { tempDir } from "./_helpers.ts";

async function main(
  env: Record<string, string>,
  ...args: string[]
): Promise<{ code: number; out: string }> {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "host/main.ts", "--port", "0", ...args],
    cwd: ROOT,
    clearEnv: true,
    env: childEnv(env),
    stdout: "piped",
    stderr: "piped",
  }).output();
  const text = (b: Uint8Array) => new TextDecoder().decode(b);
  return { code: out.code, out: text(out.stdout) + text(out.stderr) };
}

function closedPort(): number {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (listener.addr as Deno.NetAddr).port;
  listener.close();
  return port;
}

Deno.test("an unreachable remote libSQL server is storage_unavailable (exit 1), its token never printed", async () => {
  await using dir = await tempDir();
  const url = `http://127.0.0.1:${closedPort()}/?authToken=SECRET-TOKEN-42`;
  const failed = await main({ CHIME_DB: url }, "--data-dir", dir.path);
  assert.equal(failed.code, 1, failed.out);
  assert.match(
    failed.out.trim(),
    /^chime: storage_unavailable: Cannot open http:\/\/127\.0\.0\.1:\d+\/\?authToken=\*\*\*: /,
  );
  assert.ok(!failed.out.includes("SECRET-TOKEN-42"), failed.out);
  const settings = libsqlDriver.parse({ kind: "libsql", url }, { file: "c", baseDir: "/" });
  assert.ok(!libsqlDriver.describe(settings).includes("SECRET-TOKEN-42"));
});

if (postgresLanes()) {
  Deno.test("a host on PostgreSQL: banner, doctor and errors never show the password", async () => {
    await using dir = await tempDir();
    await using cluster = await startPostgres({ password: "pg-Secret-77" });
    const url = await cluster.database("main");
    {
      await using host = await spawnServer(dir.path, undefined, {
        env: { CHIME_DATABASE_URL: url },
      });
      assert.match(host.output(), /storage: postgres:\/\/postgres:\*\*\*@127\.0\.0\.1:\d+\/main_/);
      const created = await fetch(`${host.url}/api/sessions`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ timeZone: "Europe/Paris" }),
      });
      assert.equal(created.status, 201);
      await created.body?.cancel();
      assert.equal(await host.stop("SIGTERM"), 0);
      assert.ok(!host.output().includes("pg-Secret-77"), host.output());
    }
    const checked = await main(
      { CHIME_DATABASE_URL: url },
      "--data-dir",
      dir.path,
      "--check-storage",
    );
    assert.equal(checked.code, 0, checked.out);
    assert.match(checked.out, /1 sessions, \d+ events, no damage/);
    assert.ok(!checked.out.includes("pg-Secret-77"), checked.out);
    for (
      const bad of [
        url.replace("pg-Secret-77", "wrong-Secret-88"),
        url.replace(/\/[^/]+$/, "/missing"),
        `postgres://postgres:pg-Secret-77@127.0.0.1:${closedPort()}/x`,
      ]
    ) {
      const failed = await main({ CHIME_DATABASE_URL: bad }, "--data-dir", dir.path);
      assert.equal(failed.code, 1, failed.out);
      assert.match(
        failed.out.trim(),
        /^chime: storage_unavailable: Cannot open postgres:\/\/postgres:\*\*\*@/,
      );
      assert.ok(!/pg-Secret-77|wrong-Secret-88/.test(failed.out), failed.out);
    }
    const malformed = await main(
      { CHIME_DATABASE_URL: "mysql://u:pg-Secret-77@h/x" },
      "--data-dir",
      dir.path,
    );
    assert.equal(malformed.code, 1);
    assert.match(malformed.out, /config_invalid/);
    assert.ok(!malformed.out.includes("pg-Secret-77"), malformed.out);
  });
}
