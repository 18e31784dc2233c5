// The browser bundle holds the server's pure code and nothing of its storage or model
// (docs/architecture.md "Per-path exports"): bundled as `ui/build.ts` bundles the page, with a
// source map whose `sources` name every module that went into `app.js`.
import { ok } from "node:assert/strict";
import { fileURLToPath } from "node:url";

const ROOT = new URL("../", import.meta.url);

async function bundledModules(): Promise<string[]> {
  const dir = await Deno.makeTempDir();
  try {
    const out = await new Deno.Command(Deno.execPath(), {
      args: [
        "bundle",
        "--platform",
        "browser",
        "--minify",
        "--sourcemap",
        "external",
        "--output",
        `${dir}/app.js`,
        fileURLToPath(new URL("ui/app.tsx", ROOT)),
      ],
      cwd: fileURLToPath(ROOT),
      stdout: "null",
      stderr: "piped",
    }).output();
    ok(out.success, new TextDecoder().decode(out.stderr));
    const map = JSON.parse(await Deno.readTextFile(`${dir}/app.js.map`));
    const base = new URL(`file://${dir}/app.js.map`);
    return (map.sources as string[]).map((s) => new URL(s, base).href);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test("the page bundles the server's describer, no member barrel, no storage or model SDK", async () => {
  const modules = await bundledModules();
  const inRepo = (path: string) => modules.includes(new URL(path, ROOT).href);
  ok(inRepo("schedule/_describe.ts"), "the one describer is the server's");
  ok(inRepo("ui/schedule/text.ts"));
  for (
    const barrel of ["session/mod.ts", "schedule/mod.ts", "agent/mod.ts", "timecontext/mod.ts"]
  ) {
    ok(!inRepo(barrel), `${barrel} is in the bundle`);
  }
  for (const pkg of ["@libsql/", "/openai/", "/hono/", "/valibot/"]) {
    const found = modules.filter((m) => m.includes(pkg));
    ok(found.length === 0, `${pkg} is in the bundle: ${found.slice(0, 3).join(", ")}`);
  }
  const members = ["migrations", "session", "agent", "timecontext", "offline", "host"];
  const server = modules.filter((m) =>
    members.some((d) => m.startsWith(new URL(`${d}/`, ROOT).href))
  );
  ok(server.length === 0, `server members in the bundle: ${server.join(", ")}`);
});
