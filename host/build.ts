/**
 * Builds the host into one module: `deno task build` (= `deno run -A host/build.ts`) writes
 * `dist/chime.js`, which runs from any working directory with
 * `deno run -A dist/chime.js --config PATH`.
 *
 * The workspace, the embedded page and every pure-JS npm package are bundled by
 * `deno bundle --platform deno`. Packages with native code (`@libsql/client` loads a
 * platform-specific `.node` addon through `require`) cannot be inlined, so they stay external,
 * and their bare import-map specifiers are rewritten to the pinned `npm:` specifiers of the root
 * `deno.json`: the built module then needs no `deno.json` or import map beside it, and Deno
 * resolves those packages from its npm cache (`DENO_DIR`), downloading them once if missing.
 *
 * The idle front's worker (`host/http/_front_worker.ts`) is bundled beside it as
 * `dist/chime-front.js`, and the host's reference to it points there.
 *
 * A lock file is written beside the module (`dist/chime.lock`: the exact npm versions and their
 * integrity hashes), and the build caches those packages. On another machine, one
 * `deno cache --lock=dist/chime.lock dist/chime.js` fetches them (verified against the lock);
 * from then on `deno run -A --cached-only --lock=dist/chime.lock dist/chime.js` starts with no
 * network at all.
 *
 * Flags: `--output PATH` (default `dist/chime.js` at the repository root; relative to the cwd).
 *
 * @module
 */
import { basename, dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");

/** npm packages with native addons: never inlined. */
const NATIVE_PACKAGES: readonly string[] = ["@libsql/client"];

/**
 * The lock file written beside a built module: `chime.js` → `chime.lock`.
 *
 * @param output the module path
 * @returns the lock file path
 */
export function lockPathOf(output: string): string {
  return output.replace(/(\.[cm]?js)?$/, ".lock");
}

/**
 * The front's worker module written beside a built module: `chime.js` → `chime-front.js`.
 *
 * @param output the module path
 * @returns the worker module's path
 */
export function workerPathOf(output: string): string {
  return output.replace(/(\.[cm]?js)?$/, "-front.js");
}

/** How the source names the front's worker (`host/http/_front_thread.ts`). */
const WORKER_SOURCE = /new URL\(\s*"\.\/_front_worker\.ts"\s*,\s*import\.meta\.url\s*\)/g;

/**
 * Points a bundle's reference to the front's worker at the worker's built module.
 *
 * @param code the bundle
 * @param relative the worker module, relative to the bundle (`./chime-front.js`)
 * @returns the rewritten bundle
 * @throws {Error} when the bundle names the worker other than exactly once
 */
export function pointAtWorker(code: string, relative: string): string {
  const found = code.match(WORKER_SOURCE)?.length ?? 0;
  if (found !== 1) {
    throw new Error(`Cannot build the host: the front's worker is named ${found} times, not once`);
  }
  return code.replace(WORKER_SOURCE, `new URL(${JSON.stringify(relative)}, import.meta.url)`);
}

/** Options of {@linkcode buildHost}. */
export interface BuildHostOptions {
  /** Where to write the module (absolute, or relative to the cwd). @default `<repo>/dist/chime.js` */
  readonly output?: string;
}

/**
 * Maps a bare specifier through the root import map (exact keys, then `prefix/` keys).
 *
 * @param specifier a bare specifier left in the bundle, e.g. `@libsql/client`
 * @param imports the root `deno.json` `imports`
 * @returns the pinned `npm:` specifier, or `undefined` when the map does not name it
 */
export function pinSpecifier(
  specifier: string,
  imports: Readonly<Record<string, string>>,
): string | undefined {
  const exact = imports[specifier];
  if (exact !== undefined) return exact;
  for (const [key, target] of Object.entries(imports)) {
    if (key.endsWith("/") && specifier.startsWith(key)) {
      return target + specifier.slice(key.length);
    }
  }
  return undefined;
}

/**
 * Rewrites the external bare specifiers of a bundle to pinned `npm:` specifiers.
 *
 * @param code the bundle
 * @param imports the root import map
 * @returns the rewritten bundle
 * @throws {Error} when a bare specifier is not in the import map
 */
export function pinExternals(code: string, imports: Readonly<Record<string, string>>): string {
  // A specifier has no quote or space: text inside a bundled library's strings that only looks
  // like an import (ical.js builds `import "' + name + '"` messages) is left alone.
  const bare = /(\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)"([^"'\s.\/][^"'\s]*)"/g;
  return code.replace(bare, (whole, head: string, specifier: string) => {
    if (/^(node|npm|jsr|https?|file|data):/.test(specifier)) return whole;
    const pinned = pinSpecifier(specifier, imports);
    if (pinned === undefined) {
      throw new Error(`Cannot build the host: "${specifier}" is not in the root import map`);
    }
    return `${head}"${pinned}"`;
  });
}

/**
 * Bundles `host/main.ts` into one module.
 *
 * @param options output path
 * @returns the absolute path written (the lock file is {@linkcode lockPathOf} it)
 * @throws {Error} when `deno bundle` fails, a bare specifier cannot be pinned, or the external
 *   packages cannot be cached
 */
export async function buildHost(options: BuildHostOptions = {}): Promise<string> {
  const output = resolve(options.output ?? resolve(ROOT, "dist", "chime.js"));
  await Deno.mkdir(dirname(output), { recursive: true });
  const externals = NATIVE_PACKAGES.flatMap((name) => ["--external", name]);
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["bundle", "--platform", "deno", ...externals, "--output", output, "host/main.ts"],
    cwd: ROOT,
    stdout: "inherit",
    stderr: "inherit",
  }).output();
  if (!out.success) throw new Error("Cannot build the host: deno bundle failed");
  // The idle front's worker (`host/http/_front_thread.ts`) is a module of its own: bundled
  // beside the host, and the host's reference to it pointed there.
  const worker = workerPathOf(output);
  const bundled = await new Deno.Command(Deno.execPath(), {
    args: ["bundle", "--platform", "deno", "--output", worker, "host/http/_front_worker.ts"],
    cwd: ROOT,
    stdout: "inherit",
    stderr: "inherit",
  }).output();
  if (!bundled.success) throw new Error("Cannot build the host: deno bundle of the front failed");
  const config = JSON.parse(await Deno.readTextFile(resolve(ROOT, "deno.json")));
  const code = pointAtWorker(
    pinExternals(await Deno.readTextFile(output), config.imports ?? {}),
    `./${basename(worker)}`,
  );
  await Deno.writeTextFile(output, code);
  // Pin the external packages beside the module and cache them: no config (the module needs
  // none), a fresh lock (a stale one would fail the integrity check).
  const lock = lockPathOf(output);
  await Deno.remove(lock).catch(() => {});
  const cached = await new Deno.Command(Deno.execPath(), {
    args: ["cache", "--no-config", `--lock=${lock}`, output],
    cwd: dirname(output),
    stdout: "inherit",
    stderr: "inherit",
  }).output();
  if (!cached.success) throw new Error("Cannot build the host: deno cache failed");
  return output;
}

if (import.meta.main) {
  const { values } = parseArgs({ args: Deno.args, options: { output: { type: "string" } } });
  const path = await buildHost(values.output === undefined ? {} : { output: values.output });
  console.log(`built ${path} (lock: ${lockPathOf(path)})`);
}
