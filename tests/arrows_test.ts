// The dependency arrows of docs/architecture.md ("Dependency arrows"), checked against the
// imports of every member's published (non-test) files.
import assert from "node:assert/strict";

const ROOT = new URL("../", import.meta.url);

/** Which members each member's published code may import (docs/architecture.md). */
const ALLOWED: Record<string, readonly string[]> = {
  migrations: [],
  session: ["migrations"],
  contract: ["session"],
  agent: ["contract", "session"],
  timecontext: ["contract", "session"],
  schedule: ["contract", "session"],
  offline: ["agent", "contract", "schedule", "timecontext"],
  push: ["contract", "schedule", "session"],
  host: ["agent", "contract", "offline", "push", "schedule", "session", "timecontext", "ui"],
  // The contract is npm-free; the schedule only through per-path pure exports, never a barrel.
  ui: ["contract", "schedule"],
};

async function* sources(dir: URL): AsyncGenerator<URL> {
  for await (const entry of Deno.readDir(dir)) {
    const url = new URL(entry.name + (entry.isDirectory ? "/" : ""), dir);
    if (entry.isDirectory && entry.name !== "testing") yield* sources(url);
    if (entry.isFile && /\.tsx?$/.test(entry.name) && !/_test\.tsx?$/.test(entry.name)) yield url;
  }
}

/** The members a file imports, from its import and export statements (not its doc examples). */
function importsOf(text: string): Set<string> {
  const found = new Set<string>();
  const code = text.replace(/\/\*[\s\S]*?\*\//g, "").replace(/^\s*\/\/.*$/gm, "");
  for (const m of code.matchAll(/(?:from|import)\s*\(?\s*"@chime\/([a-z]+)/g)) found.add(m[1]!);
  return found;
}

Deno.test("each member imports only the members its arrows allow", async () => {
  for (const [member, allowed] of Object.entries(ALLOWED)) {
    for await (const file of sources(new URL(`${member}/`, ROOT))) {
      const used = [...importsOf(await Deno.readTextFile(file))].filter((m) => m !== member);
      const stray = used.filter((m) => !allowed.includes(m));
      assert.deepEqual(stray, [], `${file.pathname} imports ${stray.join(", ")}`);
    }
  }
});

Deno.test("the contract imports session types only and no npm package", async () => {
  // docs/architecture.md "Seams": @chime/contract is browser-safe; what it takes from
  // @chime/session is erased at run time.
  for await (const file of sources(new URL("contract/", ROOT))) {
    const code = codeOf(await Deno.readTextFile(file));
    for (const m of code.matchAll(/^(import|export)\s+(type\s+)?[^;]*?from\s*"([^"]+)"/gm)) {
      const [statement, , typeOnly, specifier] = m;
      if (specifier!.startsWith("./")) continue;
      assert.ok(specifier!.startsWith("@chime/session"), `${file.pathname}: ${statement}`);
      assert.ok(typeOnly !== undefined, `${file.pathname} imports session values: ${statement}`);
    }
  }
});

Deno.test("plugins import the contract and the session, never the agent", async () => {
  // docs/architecture.md "Dependency arrows": a plugin speaks the contract the agent implements.
  for (const member of ["schedule", "timecontext"]) {
    for await (const file of sources(new URL(`${member}/`, ROOT))) {
      const used = importsOf(await Deno.readTextFile(file));
      assert.ok(!used.has("agent"), `${file.pathname} imports @chime/agent`);
    }
  }
});

Deno.test("the offline model lives in @chime/offline only", async () => {
  for await (const file of sources(new URL("agent/", ROOT))) {
    assert.ok(!(await Deno.readTextFile(file)).includes("OfflineModel"), file.pathname);
  }
  const workspace = JSON.parse(await Deno.readTextFile(new URL("deno.json", ROOT)));
  assert.ok(workspace.workspace.includes("./offline"));
  assert.deepEqual(
    Object.keys(ALLOWED).sort(),
    workspace.workspace.map((m: string) => m.slice(2)).sort(),
  );
});

/** A file's code without its comments (doc examples included). */
function codeOf(text: string): string {
  return text.replace(/\/\*[\s\S]*?\*\//g, "").replace(/^\s*\/\/.*$/gm, "");
}

Deno.test("the host knows no plugin by name beyond its static registry", async () => {
  // docs/architecture.md "Plugins": everything a plugin brings arrives through `Plugin.web` and
  // its agent scope; host/registry.ts alone maps names to factories (for `deno compile`).
  const plugins = /"@chime\/(schedule|timecontext|ui\/schedule)"/;
  for await (const file of sources(new URL("host/", ROOT))) {
    const code = codeOf(await Deno.readTextFile(file));
    if (file.pathname.endsWith("/host/registry.ts")) {
      const named = [...code.matchAll(/import\s*\{([^}]*)\}\s*from\s*"@chime\/schedule"/g)]
        .flatMap((m) => m[1]!.split(",").map((s) => s.trim()).filter(Boolean));
      assert.deepEqual(named, ["schedulePlugin"], "the registry takes only the factory");
      continue;
    }
    assert.ok(!plugins.test(code), `${file.pathname} imports a plugin package`);
    assert.ok(!/schedul|remind/i.test(code), `${file.pathname} names the schedule in code`);
  }
});

Deno.test("the page knows no renderer module by name beyond its static registry", async () => {
  // The page shell (ui/app.tsx, ui/client/) enables what GET /api/client-config lists; only
  // ui/renderers.ts maps names to modules (docs/architecture.md "Plugins").
  const files = [new URL("ui/app.tsx", ROOT)];
  for await (const file of sources(new URL("ui/client/", ROOT))) files.push(file);
  for (const file of files) {
    const code = codeOf(await Deno.readTextFile(file));
    assert.ok(!/schedul|remind/i.test(code), `${file.pathname} names the schedule in code`);
  }
  for await (const file of sources(new URL("ui/", ROOT))) {
    const code = codeOf(await Deno.readTextFile(file));
    if (/from\s*"\.\/schedule\/mod\.ts"/.test(code)) {
      assert.ok(file.pathname.endsWith("/ui/renderers.ts"), `${file.pathname} imports the module`);
    }
  }
});

Deno.test("the generic page has no schedule words: they arrive with the schedule slice", async () => {
  // docs/architecture.md "Plugins": the conversation renderers, the registry and the page shell
  // are generic; schedule tool lines and the reminder follow-up label are contributed to the
  // registry by `ui/schedule/`. Only the static renderer map, the wire mirror and the module
  // re-exporting its types name the schedule.
  const NAMING = new Set(["renderers.ts", "renderer_names.ts", "wire.ts", "mod.ts"]);
  for await (const file of sources(new URL("ui/", ROOT))) {
    const name = file.pathname.split("/").at(-1)!;
    if (file.pathname.includes("/ui/schedule/") || name === "assets_generated.ts") continue;
    if (file.pathname.includes("/ui/dist/")) continue;
    const code = codeOf(await Deno.readTextFile(file));
    if (file.pathname.endsWith("/ui/renderers.ts")) continue;
    assert.ok(!/from\s*"\.\.?\/_?schedule/.test(code), `${file.pathname} imports the slice`);
    if (NAMING.has(name) && file.pathname.endsWith(`/ui/${name}`)) continue;
    assert.ok(!/schedul|remind|提醒/i.test(code), `${file.pathname} names the schedule in code`);
  }
});

/** Every `@chime/…`, relative and bare specifier a file's code imports (not its doc examples). */
function specifiersOf(text: string): string[] {
  return [...codeOf(text).matchAll(/(?:from|import)\s*\(?\s*"([^"]+)"/g)].map((m) => m[1]!);
}

/** Export paths that are storage drivers, each one folder of `session/` (docs/architecture.md). */
const DRIVER_FOLDERS = new Set(["session/libsql", "session/jsonl", "session/postgres"]);

/** The specifiers a file loads at run time: type-only imports and re-exports are erased. */
function runtimeSpecifiersOf(text: string): string[] {
  const code = codeOf(text).replace(/^(?:import|export)\s+type\b[^;]*?from\s*"[^"]+";?/gm, "");
  return specifiersOf(code);
}

/**
 * A member's per-path pure exports: `deno.json` `exports` without the barrel, `./testing` and the
 * storage driver folders (`session/libsql/`, `session/jsonl/`, `session/postgres/`: they carry
 * their database client).
 */
async function purePaths(member: string): Promise<Map<string, URL>> {
  const exports = JSON.parse(await Deno.readTextFile(new URL(`${member}/deno.json`, ROOT))).exports;
  const paths = new Map<string, URL>();
  for (const [key, file] of Object.entries(exports as Record<string, string>)) {
    if (key === "." || key === "./testing" || DRIVER_FOLDERS.has(`${member}/${key.slice(2)}`)) {
      continue;
    }
    paths.set(`@chime/${member}/${key.slice(2)}`, new URL(`${member}/${file.slice(2)}`, ROOT));
  }
  return paths;
}

Deno.test("page halves import no member barrel: only per-path pure exports", async () => {
  // docs/architecture.md "Per-path exports": the page bundles the server's pure code (one
  // describer, schedule/_describe.ts) but never a barrel, which would pull @libsql/client or openai.
  const pure = new Map<string, URL>();
  for (const member of ["session", "schedule", "contract"]) {
    for (const [specifier, url] of await purePaths(member)) pure.set(specifier, url);
  }
  // The contract's barrel is itself browser-safe (the "contract" test above).
  pure.set("@chime/contract", new URL("contract/mod.ts", ROOT));
  const files: URL[] = [];
  const walk = async (dir: URL) => {
    for await (const entry of Deno.readDir(dir)) {
      const url = new URL(entry.name + (entry.isDirectory ? "/" : ""), dir);
      if (entry.isDirectory && entry.name !== "dist") await walk(url);
      if (entry.isFile && /\.tsx?$/.test(entry.name)) files.push(url);
    }
  };
  await walk(new URL("ui/", ROOT));
  for (const file of files) {
    for (const specifier of specifiersOf(await Deno.readTextFile(file))) {
      const member = /^@chime\/([a-z]+)/.exec(specifier)?.[1];
      if (member === undefined || member === "ui") continue;
      assert.ok(pure.has(specifier), `${file.pathname} imports ${specifier}, not a pure path`);
    }
  }
  // Each pure path, transitively, loads no barrel, no npm package and no other member's code.
  for (const [specifier, entry] of pure) {
    const seen = new Set<string>();
    const todo = [entry];
    while (todo.length > 0) {
      const url = todo.pop()!;
      if (seen.has(url.href)) continue;
      seen.add(url.href);
      for (const s of runtimeSpecifiersOf(await Deno.readTextFile(url))) {
        if (s.startsWith(".")) todo.push(new URL(s, url));
        else if (pure.has(s)) todo.push(pure.get(s)!);
        else assert.ok(s.startsWith("node:"), `${specifier} loads ${s} (${url.pathname})`);
      }
    }
  }
});

Deno.test("the host knows no storage backend beyond its static registry", async () => {
  // docs/architecture.md "Storage drivers": host/registry.ts alone names the drivers; the host
  // reaches storage through `StorageDriver` and imports no database client (host/build.ts only
  // lists the native package for bundling).
  for await (const file of sources(new URL("host/", ROOT))) {
    const code = codeOf(await Deno.readTextFile(file));
    if (file.pathname.endsWith("/host/build.ts")) continue;
    assert.ok(
      !/from\s*"(@libsql\/client|postgres)"/.test(code),
      `${file.pathname} imports a database client`,
    );
    if (file.pathname.endsWith("/host/registry.ts")) continue;
    assert.ok(
      !/\b(LibsqlBackend|JsonlBackend|PostgresBackend|SessionLeases|PostgresLeases|libsqlDriver|jsonlDriver|postgresDriver)\b/
        .test(code),
      `${file.pathname} names a storage backend`,
    );
    assert.ok(
      !/kind\s*[!=]==?\s*"(libsql|jsonl|postgres)"/.test(code),
      `${file.pathname} decides by kind`,
    );
  }
});
