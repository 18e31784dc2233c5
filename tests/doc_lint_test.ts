// `deno task check` doc-lints every exported entry point of every member, and the entry points
// have no missing docs; the `@example` blocks of the published entry points import by package
// name, so they can be copied from a JSR page.
import assert from "node:assert/strict";
import { entryPoints } from "./doc_lint.ts";

const ROOT = new URL("../", import.meta.url);

Deno.test("the doc lint covers each member's exports, and they lint clean", async () => {
  const entries = await entryPoints();
  for (const entry of ["mod.ts", "session/testing/mod.ts", "offline/mod.ts", "host/main.ts"]) {
    assert.ok(entries.includes(entry), entry);
  }
  const tasks = JSON.parse(await Deno.readTextFile(new URL("deno.json", ROOT))).tasks;
  assert.match(tasks.check, /tests\/doc_lint\.ts/);
  const { code, stderr } = await new Deno.Command(Deno.execPath(), {
    args: ["doc", "--lint", ...entries],
    cwd: ROOT,
    stdout: "null",
    stderr: "piped",
  }).output();
  const errors = new TextDecoder().decode(stderr).split("\n").filter((l) => l.includes("error"));
  assert.equal(code, 0, errors.join("\n"));
});

/**
 * Files whose examples still import a relative path: examples of symbols no entry point exports
 * (never on a JSR page), and files other branches are rewriting now (to follow when they land).
 */
const RELATIVE_ALLOWED = new Set([
  // Not exported from any entry point.
  "host/auth/auth.ts",
  "host/sessions/titles.ts",
  "host/plugins/link_keys.ts",
  "ui/tool_summary.ts",
  "ui/icons.ts",
  "ui/markdown.ts",
  "ui/client/scroll.ts",
  "ui/client/alerts.ts",
  "ui/client/lifecycle.ts",
]);

async function* sources(dir: URL, path: string): AsyncGenerator<string> {
  for await (const entry of Deno.readDir(dir)) {
    const sub = `${path}/${entry.name}`;
    if (entry.isDirectory) yield* sources(new URL(`${entry.name}/`, dir), sub);
    else if (/\.tsx?$/.test(entry.name) && !/_test\.tsx?$/.test(entry.name)) yield sub;
  }
}

Deno.test("examples import by package name", async () => {
  const workspace = JSON.parse(await Deno.readTextFile(new URL("deno.json", ROOT))).workspace;
  for (const member of workspace as string[]) {
    const name = member.slice(2);
    for await (const file of sources(new URL(`${name}/`, ROOT), name)) {
      const text = await Deno.readTextFile(new URL(file, ROOT));
      const relative = text.split("\n").filter((l) => /^\s*\*\s*import .* from "\.\.?\//.test(l));
      if (!RELATIVE_ALLOWED.has(file)) assert.deepEqual(relative, [], file);
    }
  }
});
