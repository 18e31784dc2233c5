// `deno task check`: `deno doc --lint` over the root module and every exported entry point of
// every workspace member (each member's deno.json `exports`), so a JSR page never lacks docs.
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

if (import.meta.main) {
  const { code } = await new Deno.Command(Deno.execPath(), {
    args: ["doc", "--lint", ...await entryPoints()],
    cwd: ROOT,
    stdout: "inherit",
    stderr: "inherit",
  }).output();
  Deno.exit(code);
}
