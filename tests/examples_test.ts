// examples/embed/main.ts (README "Embedding") runs as its own process: the offline model sets a
// reminder through the schedule plugin, the live owner delivers it, and the log is on disk.
import assert from "node:assert/strict";
import { LibsqlBackend } from "@chime/session";
import { childEnv } from "./_env.ts";

const ROOT = new URL("../", import.meta.url);

Deno.test("examples/embed sets a reminder, delivers it and keeps the log in libSQL", async () => {
  const dir = await Deno.makeTempDir();
  const { code, stdout, stderr } = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "examples/embed/main.ts", dir],
    cwd: ROOT,
    clearEnv: true,
    env: childEnv(),
    stdout: "piped",
    stderr: "piped",
  }).output();
  const out = new TextDecoder().decode(stdout);
  assert.equal(code, 0, new TextDecoder().decode(stderr) + out);
  const lines = out.trim().split("\n");
  assert.match(
    lines[0]!,
    /^assistant: OK — I'll remind you to stretch at \d\d:\d\d(?::\d\d)? \(Europe\/Berlin\)/,
  );
  assert.equal(lines[1], "assistant: Reminder: stretch");
  const id = /^session (\S+):/.exec(lines[2]!)?.[1];
  await using backend = await LibsqlBackend.open({ url: `file:${dir}/chime.db` });
  const stored = await backend.load(id!);
  const ops = stored!.events.flatMap((e) =>
    e.type === "schedule/change" ? [(e.data as { op: string }).op] : []
  );
  assert.deepEqual(ops, ["create", "dispatch"]);
  await backend[Symbol.asyncDispose]();
  await Deno.remove(dir, { recursive: true });
});

Deno.test("the README's Embedding section shows examples/embed/main.ts as it is", async () => {
  const readme = await Deno.readTextFile(new URL("README.md", ROOT));
  const example = await Deno.readTextFile(new URL("examples/embed/main.ts", ROOT));
  const code = example.split("\n").filter((l) => !l.startsWith("//")).join("\n");
  assert.ok(readme.includes(code), "README Embedding block differs from examples/embed/main.ts");
});
