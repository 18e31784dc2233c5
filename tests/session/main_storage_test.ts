/**
 * `host/main.ts` and storage (README "How it behaves on failure"): `--check-storage` runs the
 * doctor on the configured store, and a read-only or already-written store (or one whose `-wal`
 * or `-shm` cannot be written) fails startup with one clear line.
 */
import assert from "node:assert/strict";
import { childEnv } from "../_env.ts";
import { ROOT } from "../host/_server.ts";
import { buildDamaged } from "./_damage.ts";
import { ev, header, tempDir } from "./_helpers.ts";
import { LibsqlBackend } from "@chime/session";
import { readOnly } from "./_read_only.ts";
import { JsonLineChild } from "../_child.ts";

async function main(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "host/main.ts", "--port", "0", ...args],
    cwd: ROOT,
    clearEnv: true,
    env: childEnv(),
    stdout: "piped",
    stderr: "piped",
  }).output();
  const text = (b: Uint8Array) => new TextDecoder().decode(b);
  return { code: out.code, stdout: text(out.stdout), stderr: text(out.stderr) };
}

Deno.test("`host/main.ts --check-storage` reports damage (exit 1), a clean store (exit 0), none (exit 2)", async () => {
  await using dir = await tempDir();
  assert.equal((await main("--data-dir", dir.path, "--check-storage")).code, 2);
  await buildDamaged(`file:${dir.path}/chime.db`, { sessions: { a: 2 }, sql: [] });
  const clean = await main("--data-dir", dir.path, "--check-storage");
  assert.equal(clean.code, 0);
  assert.match(clean.stdout, /1 sessions, 2 events, no damage/);
  await buildDamaged(`file:${dir.path}/chime.db`, {
    sessions: {},
    sql: ["UPDATE events SET at = CAST(x'ff' AS TEXT) WHERE session_id = 'a' AND seq = 1"],
  });
  const damaged = await main("--data-dir", dir.path, "--check-storage");
  assert.equal(damaged.code, 1);
  assert.match(damaged.stdout, /^damage: session a seq 1: at is not valid UTF-8$/m);
});

Deno.test("a read-only data folder or a store another host writes fails startup with one line", async (t) => {
  await using dir = await tempDir();
  await using holder = new JsonLineChild<{ held?: string }>(
    new URL("./_lock_holder.ts", import.meta.url),
    ["libsql", `${dir.path}/chime.db`],
  );
  await holder.waitFor((lines) => lines.some((l) => l.held), "the lock", 30_000);
  const busy = await main("--data-dir", dir.path);
  assert.equal(busy.code, 1);
  assert.match(busy.stderr.trim(), /^chime: storage_in_use: [^\n]+$/);
  await holder.kill("SIGKILL");
  await using empty = await tempDir();
  const locked = await readOnly(empty.path);
  if (locked === undefined) {
    await t.step({
      name: "skipped: no way to make a folder read-only here",
      ignore: true,
      fn() {},
    });
    return;
  }
  await using _ = locked;
  const readonly = await main("--data-dir", empty.path);
  assert.equal(readonly.code, 1);
  assert.match(readonly.stderr.trim(), /^chime: storage_read_only: [^\n]+$/);
});

Deno.test("an unwritable `-shm` or `-wal` fails startup with `storage_read_only`, never SIGBUS", async (t) => {
  for (const side of ["-shm", "-wal"]) {
    await using dir = await tempDir();
    const db = `${dir.path}/chime.db`;
    // A real side file as a crashed host leaves it: copied while the database is open.
    {
      await using backend = await LibsqlBackend.open({ url: `file:${db}` });
      await backend.initialize(header("s"), [ev(0)]);
      await Deno.copyFile(`${db}${side}`, `${dir.path}/side`);
    }
    await Deno.rename(`${dir.path}/side`, `${db}${side}`);
    const locked = await readOnly(`${db}${side}`);
    if (locked === undefined) {
      await t.step({
        name: "skipped: no way to make a file read-only here",
        ignore: true,
        fn() {},
      });
      return;
    }
    await using _ = locked;
    const started = await main("--data-dir", dir.path);
    assert.equal(started.code, 1, started.stderr);
    assert.match(
      started.stderr.trim(),
      new RegExp(`^chime: storage_read_only: [^\\n]+chime\\.db${side} is not writable[^\\n]+$`),
    );
  }
});
