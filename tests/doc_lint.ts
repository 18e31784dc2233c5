// `deno task check`: `deno doc --lint` over the root module and every exported entry point of
// every workspace member (each member's deno.json `exports`), so a JSR page never lacks docs.
// Each entry point is linted alone: a type its signatures name must be exported from that entry
// point itself (`private-type-ref`), which linting them all together would hide, because there
// another entry point's export makes the type public.
const ROOT = new URL("../", import.meta.url);

async function readJson(path: string): Promise<Record<string, unknown>> {
  return JSON.parse(await Deno.readTextFile(new URL(path, ROOT)));
}

/** The root module and each member's exported files, as paths from the repository root. */
export async function entryPoints(): Promise<string[]> {
  const root = await readJson("deno.json");
  const entries = ["mod.ts"];
  for (const member of root.workspace as string[]) {
    const exports = (await readJson(`${member}/deno.json`)).exports;
    const files = typeof exports === "string" ? [exports] : Object.values(exports as object);
    for (const file of files as string[]) entries.push(`${member.slice(2)}/${file.slice(2)}`);
  }
  return entries;
}

/**
 * Lints one entry point alone.
 *
 * @param entry a path from the repository root
 * @returns `deno doc --lint`'s exit code and its report
 */
async function lint(entry: string): Promise<{ entry: string; code: number; report: string }> {
  const { code, stdout, stderr } = await new Deno.Command(Deno.execPath(), {
    args: ["doc", "--lint", entry],
    cwd: ROOT,
    stdout: "piped",
    stderr: "piped",
  }).output();
  const text = new TextDecoder();
  return { entry, code, report: text.decode(stdout) + text.decode(stderr) };
}

if (import.meta.main) {
  const entries = await entryPoints();
  const results: { entry: string; code: number; report: string }[] = [];
  // Two at a time: each run is short, and CI machines have few cores.
  for (let i = 0; i < entries.length; i += 2) {
    results.push(...await Promise.all(entries.slice(i, i + 2).map(lint)));
  }
  const failed = results.filter((r) => r.code !== 0);
  for (const r of failed) console.error(`deno doc --lint ${r.entry}\n${r.report}`);
  console.log(
    `doc lint: ${results.length - failed.length} of ${results.length} entry points clean`,
  );
  Deno.exit(failed.length === 0 ? 0 : 1);
}
