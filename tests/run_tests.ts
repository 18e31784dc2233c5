/**
 * `deno task test`: runs every test (browser tests skip with a printed reason when
 * `/usr/bin/chromium` is absent), prints the per-file line-coverage table of the members whose
 * coverage is a target (docs/architecture.md#done), and ends with the line `N passed, N failed`
 * taken from the JUnit report of the real run.
 *
 * Usage: `deno task test [extra paths…]`
 *
 * @module
 */

const root = new URL("../", import.meta.url);
const coverageDir = new URL("coverage/", root);
const rawDir = new URL("raw/", coverageDir);
const junit = new URL("junit.xml", coverageDir);

async function run(args: string[]): Promise<number> {
  const child = new Deno.Command(Deno.execPath(), {
    args,
    cwd: root,
    stdout: "inherit",
    stderr: "inherit",
  }).spawn();
  return (await child.status).code;
}

function count(xml: string, attr: string): number {
  const match = xml.match(new RegExp(`<testsuites[^>]*\\s${attr}="(\\d+)"`));
  return match ? Number(match[1]) : 0;
}

await Deno.remove(coverageDir, { recursive: true }).catch(() => {});
await Deno.mkdir(coverageDir, { recursive: true });

const paths = Deno.args.length > 0 ? Deno.args : ["."];
const code = await run([
  "test",
  "-A",
  "--trace-leaks",
  "--doc", // the `@example` blocks of every export run too (CONTRIBUTING.md#docs)
  "--parallel",
  `--coverage=${rawDir.pathname}`,
  `--junit-path=${junit.pathname}`,
  ...paths,
]);

console.log(
  "\nLine coverage of the members with a 100% target (session, schedule, timecontext, migrations, contract):",
);
await run([
  "coverage",
  rawDir.pathname,
  // Anchored at the workspace root: `ui/schedule/` is the page's, not the schedule member's.
  `--include=^${
    root.href.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")
  }(session|schedule|timecontext|migrations|contract)/`,
  "--exclude=_test\\.ts$|/testing/",
]);

let passed = 0;
let failed = 0;
try {
  const xml = await Deno.readTextFile(junit);
  const tests = count(xml, "tests");
  failed = count(xml, "failures") + count(xml, "errors");
  passed = tests - failed;
} catch {
  failed = 1; // no report means the runner itself failed
}
if (code !== 0 && failed === 0) failed = 1;
console.log(`${passed} passed, ${failed} failed`);
Deno.exit(code === 0 && failed === 0 ? 0 : 1);
