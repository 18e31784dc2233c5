/**
 * Composition (README "Quick start"): the web-schedule overlay starts the host from source (as
 * `deno task dev` does) and from the built form (`deno task build`: the workspace bundled into
 * one module, run with `deno run` from another working directory); both pass the same keyless
 * main job.
 *
 * @module
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import {
  buildHost,
  lockPathOf,
  pinExternals,
  pinSpecifier,
  pointAtWorker,
  workerPathOf,
} from "../../host/build.ts";
import { mainJob } from "./_main_job.ts";
import { ROOT, spawnServer } from "./_server.ts";

const OVERLAY = "examples/web-schedule/chime.jsonc";

Deno.test("pinExternals() pins bare specifiers to the import map and refuses unknown ones", () => {
  const imports = { "@libsql/client": "npm:@libsql/client@0.18.0", "hono/": "npm:/hono@4/" };
  assert.equal(pinSpecifier("hono/streaming", imports), "npm:/hono@4/streaming");
  assert.equal(
    pinExternals('import { a } from "@libsql/client";\nawait import("node:fs");', imports),
    'import { a } from "npm:@libsql/client@0.18.0";\nawait import("node:fs");',
  );
  assert.throws(() => pinExternals('import "left-pad";', imports), /not in the root import map/);
  // A library's message text that only looks like an import (ical.js) is left as it is.
  const text = `throw new Error('cannot import "' + name + '" here');`;
  assert.equal(pinExternals(text, imports), text);
});

Deno.test("pointAtWorker() points the one reference to the front's worker at its built module", () => {
  const code =
    'const w = new Worker(new URL("./_front_worker.ts", import.meta.url), { type: "module" });';
  assert.equal(
    pointAtWorker(code, "./chime-front.js"),
    'const w = new Worker(new URL("./chime-front.js", import.meta.url), { type: "module" });',
  );
  assert.throws(() => pointAtWorker("no worker here", "./x.js"), /named 0 times/);
  assert.throws(() => pointAtWorker(code + code, "./x.js"), /named 2 times/);
  assert.equal(workerPathOf("/d/chime.js"), "/d/chime-front.js");
});

Deno.test("the keyless main job against the source form (`deno task dev`)", async () => {
  await mainJob((dataDir) => spawnServer(dataDir, OVERLAY));
});

Deno.test("the keyless main job against the built form, run from another directory", async () => {
  const dist = await Deno.makeTempDir({ prefix: "chime-dist-" });
  const cwd = await Deno.makeTempDir({ prefix: "chime-cwd-" });
  try {
    const entry = await buildHost({ output: join(dist, "chime.js") });
    const code = await Deno.readTextFile(entry);
    assert.match(code, /from "npm:@libsql\/client@/, "native packages stay external, pinned");
    assert.doesNotMatch(
      code,
      /from "(?!node:|npm:)[^"'\s.\/][^"'\s]*"/,
      "no bare specifier is left",
    );
    assert.match(code, /new URL\("\.\/chime-front\.js", import\.meta\.url\)/, "the front's worker");
    assert.ok((await Deno.stat(workerPathOf(entry))).isFile, "the worker is built beside it");
    // The overlay keeps the default idle timeout: the job below goes through the front's worker.
    await mainJob((dataDir) => spawnServer(dataDir, join(ROOT, OVERLAY), { entry, cwd }));
    assert.deepEqual(
      [...Deno.readDirSync(cwd)],
      [],
      "nothing is written to the working directory",
    );
  } finally {
    await Deno.remove(dist, { recursive: true });
    await Deno.remove(cwd, { recursive: true });
  }
});

Deno.test("the built form starts with no network from its lock file and the package cache", async () => {
  const dist = await Deno.makeTempDir({ prefix: "chime-dist-" });
  try {
    const entry = await buildHost({ output: join(dist, "chime.js") });
    const lock = lockPathOf(entry);
    assert.equal(lock, join(dist, "chime.lock"));
    const pinned = JSON.parse(await Deno.readTextFile(lock));
    assert.match(pinned.npm["@libsql/client@0.18.0"].integrity, /^sha512-/);
    // Any registry access would go to a dead proxy; --cached-only forbids it anyway.
    const dead = "http://127.0.0.1:9";
    await using server = await spawnServer(join(dist, "data"), join(ROOT, "config/default.jsonc"), {
      entry,
      cwd: dist,
      flags: ["--cached-only", "--no-config", `--lock=${lock}`, "--frozen"],
      env: { HTTPS_PROXY: dead, HTTP_PROXY: dead, https_proxy: dead, http_proxy: dead },
    });
    const health = await fetch(`${server.url}/healthz`);
    assert.deepEqual(await health.json(), { ok: true });
    assert.equal(await server.stop(), 0);
  } finally {
    await Deno.remove(dist, { recursive: true });
  }
});
