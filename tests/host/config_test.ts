/**
 * Configuration: JSONC with line/column errors, the example overlay, paths independent of the
 * cwd, env overrides and clear validation messages.
 *
 * @module
 */
import assert from "node:assert/strict";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { ConfigError, loadConfig, parseJsonc, resolveRegistry } from "@chime/host";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
const EXAMPLE = join(ROOT, "examples", "web-schedule", "chime.jsonc");

Deno.test("parseJsonc() reports the line and column of a syntax error", () => {
  assert.throws(() => parseJsonc('{\n  // c\n  "port": 1 2\n}', "x.jsonc"), (error: unknown) => {
    assert.ok(error instanceof ConfigError);
    assert.equal(error.code, "config_syntax");
    assert.match(error.message, /x\.jsonc:3:13/);
    return true;
  });
});

Deno.test("the web-schedule example overlays the default and keeps data in the repo", async () => {
  const config = await loadConfig(EXAMPLE, { cwd: "/tmp" });
  assert.deepEqual(config.plugins, ["@chime/timecontext", "@chime/schedule", "@chime/push"]);
  assert.deepEqual(config.renderers, ["@chime/ui/schedule", "@chime/ui/push"]);
  assert.equal(config.hostname, "127.0.0.1");
  assert.equal(config.port, 8787);
  assert.deepEqual(config.storage, {
    kind: "libsql",
    url: new URL(`file://${join(ROOT, "data", "chime.db")}`).href,
  });
  assert.equal(config.model.kind, "offline");
  assert.equal(resolveRegistry(config.plugins, config.renderers).length, 3);
  const plain = await loadConfig(join(ROOT, "config", "default.jsonc"));
  assert.deepEqual(plain.plugins, [], "the default tree has no schedule");
});

Deno.test("env overrides: port, database, model selection", async () => {
  const load = (env: Record<string, string>) => loadConfig(EXAMPLE, { env, cwd: "/srv" });
  assert.equal((await load({ CHIME_PORT: "9000" })).port, 9000);
  assert.deepEqual((await load({ CHIME_DB: "x/my.db" })).storage, {
    kind: "libsql",
    url: "file:///srv/x/my.db",
  });
  assert.equal((await load({ CHIME_DB: "libsql://db.example" })).storage.kind, "libsql");
  const deepseek = (await load({ DEEPSEEK_API_KEY: "sk-1" })).model;
  assert.equal(deepseek.kind, "openai-compatible");
  assert.ok(
    deepseek.kind === "openai-compatible" && deepseek.baseURL === "https://api.deepseek.com",
  );
  const custom = (await load({
    CHIME_MODEL_API_KEY: "k",
    CHIME_MODEL_BASE_URL: "http://127.0.0.1:9/v1",
    CHIME_MODEL: "m",
  })).model;
  assert.ok(custom.kind === "openai-compatible" && custom.model === "m");
  assert.equal((await load({ CHIME_MODEL: "m" })).model.kind, "offline", "no key ⇒ offline");
  await assert.rejects(load({ CHIME_PORT: "http" }), ConfigError);
});

Deno.test("invalid configurations fail with clear messages", async () => {
  const files: Record<string, string> = {
    "/c/a.jsonc": '{ "extends": "b.jsonc", "port": 1 }',
    "/c/b.jsonc": '{ "extends": "a.jsonc" }',
    "/c/unknown.jsonc": '{ "storage": { "kind": "libsql", "url": "file:x.db" }, "prot": 1 }',
    "/c/kind.jsonc": '{ "storage": { "kind": "sqlite" } }',
    "/c/nostorage.jsonc": '{ "port": 1 }',
    "/c/port.jsonc": '{ "storage": { "kind": "jsonl", "dir": "d" }, "port": 70000 }',
    "/c/jsonl.jsonc": '{ "storage": { "kind": "jsonl", "dir": "d" } }',
  };
  const readTextFile = (path: string) =>
    path in files ? Promise.resolve(files[path]!) : Promise.reject(new Deno.errors.NotFound(path));
  const load = (path: string) => loadConfig(path, { readTextFile, cwd: "/" });
  await assert.rejects(load("/c/a.jsonc"), /extends itself/);
  await assert.rejects(load("/c/unknown.jsonc"), /unknown key "prot"/);
  await assert.rejects(load("/c/kind.jsonc"), /storage\.kind/);
  await assert.rejects(load("/c/nostorage.jsonc"), /storage is required/);
  await assert.rejects(load("/c/port.jsonc"), /port must be 0\.\.65535/);
  await assert.rejects(
    load("/c/missing.jsonc"),
    (e: unknown) => (e as ConfigError).code === "config_unreadable",
  );
  assert.deepEqual((await load("/c/jsonl.jsonc")).storage, { kind: "jsonl", dir: "/c/d" });
  assert.throws(() => resolveRegistry(["@chime/nope"], []), /unknown plugin "@chime\/nope"/);
  assert.throws(() => resolveRegistry([], ["@chime/ui/nope"]), /unknown renderer/);
});

Deno.test("the README's chime.jsonc block is a valid configuration with every key it names", async () => {
  const readme = await Deno.readTextFile(new URL("../../README.md", import.meta.url));
  const block = readme.match(/```jsonc\n(\{\n {2}"hostname"[\s\S]*?\n\})\n```/)?.[1];
  assert.ok(block !== undefined, "README Configuration has its chime.jsonc block");
  const file = "/srv/chime/chime.jsonc";
  const config = await loadConfig(file, {
    env: {},
    cwd: "/",
    readTextFile: (path) =>
      path === file ? Promise.resolve(block) : Promise.reject(new Error(path)),
  });
  assert.deepEqual(config.plugins, ["@chime/timecontext", "@chime/schedule"]);
  assert.deepEqual(config.pluginOptions, { "@chime/schedule": { maxRemindersPerHour: 60 } });
  assert.deepEqual(config.lease, { ttlSeconds: 15 });
  resolveRegistry(config.plugins, config.renderers, config.pluginOptions);
});
