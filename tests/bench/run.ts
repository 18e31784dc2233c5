/**
 * `deno task bench`: runs every benchmark script in `tests/bench/` one after another and prints
 * their figures. Benchmarks print numbers; they never assert timings.
 *
 * @module
 */
const here = new URL("./", import.meta.url);
const scripts: string[] = [];
for await (const entry of Deno.readDir(here)) {
  if (entry.isFile && entry.name.endsWith("_bench.ts")) scripts.push(entry.name);
}
scripts.sort();
let failed = 0;
for (const name of scripts) {
  console.log(`\n## ${name}\n`);
  const { code } = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", new URL(name, here).pathname],
    stdout: "inherit",
    stderr: "inherit",
  }).output();
  if (code !== 0) failed++;
}
Deno.exit(failed === 0 ? 0 : 1);
