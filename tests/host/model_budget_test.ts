/**
 * `model.contextTokens` in `chime.jsonc` (README "Configuration"): validated, defaulting by the
 * adapter chosen, and carried by the adapter `createModel` builds to the agent.
 *
 * @module
 */
import assert from "node:assert/strict";
import { ConfigError, createModel, loadConfig } from "@chime/host";
import { systemClock } from "@chime/session";

const STORAGE = '"storage": { "kind": "jsonl", "dir": "d" }';
const OPENAI = '"kind": "openai-compatible", "baseURL": "http://127.0.0.1:9/v1", ' +
  '"model": "m", "apiKeyEnv": "MY_KEY"';

function loader(files: Record<string, string>) {
  const readTextFile = (path: string) =>
    path in files ? Promise.resolve(files[path]!) : Promise.reject(new Deno.errors.NotFound(path));
  return (path: string, env: Record<string, string> = {}) =>
    loadConfig(path, { readTextFile, cwd: "/", env });
}

Deno.test("model.contextTokens defaults by the adapter chosen: offline 32,000, OpenAI-compatible and DeepSeek 64,000", async () => {
  const load = loader({
    "/c/plain.jsonc": `{ ${STORAGE} }`,
    "/c/openai.jsonc": `{ ${STORAGE}, "model": { ${OPENAI} } }`,
  });
  assert.equal((await load("/c/plain.jsonc")).model.contextTokens, 32_000);
  const deepseek = (await load("/c/plain.jsonc", { DEEPSEEK_API_KEY: "sk-1" })).model;
  assert.equal(deepseek.kind, "openai-compatible");
  assert.equal(deepseek.contextTokens, 64_000);
  assert.equal((await load("/c/openai.jsonc", { MY_KEY: "k" })).model.contextTokens, 64_000);
  // The configured endpoint without its key falls back to the offline model and its budget.
  assert.equal((await load("/c/openai.jsonc")).model.contextTokens, 32_000);
});

Deno.test("model.contextTokens set in chime.jsonc (or an overlay) wins for any adapter", async () => {
  const load = loader({
    "/c/base.jsonc": `{ ${STORAGE}, "model": { ${OPENAI}, "contextTokens": 128000 } }`,
    "/c/over.jsonc": '{ "extends": "base.jsonc", "model": { "contextTokens": 100000 } }',
    "/c/offline.jsonc": `{ ${STORAGE}, "model": { "kind": "offline", "contextTokens": 8000 } }`,
  });
  assert.equal((await load("/c/base.jsonc", { MY_KEY: "k" })).model.contextTokens, 128_000);
  assert.equal((await load("/c/over.jsonc", { MY_KEY: "k" })).model.contextTokens, 100_000);
  assert.equal((await load("/c/offline.jsonc")).model.contextTokens, 8_000);
});

Deno.test("a bad model.contextTokens fails config_invalid and names the key", async () => {
  for (const bad of ["999", "1.5", '"64000"', "null", "10000001", "-1"]) {
    const load = loader({
      "/c/bad.jsonc": `{ ${STORAGE}, "model": { "kind": "offline", "contextTokens": ${bad} } }`,
    });
    await assert.rejects(load("/c/bad.jsonc"), (error: unknown) => {
      assert.ok(error instanceof ConfigError, bad);
      assert.equal(error.code, "config_invalid");
      assert.match(error.message, /model\.contextTokens/);
      return true;
    });
  }
});

Deno.test("createModel() carries the budget on the adapter the agent reads it from", () => {
  const offline = createModel({ kind: "offline", reason: "", contextTokens: 8_000 }, systemClock);
  assert.equal(offline?.contextTokens, 8_000);
  assert.equal(offline?.name, "offline");
  assert.equal(createModel({ kind: "offline", reason: "" }, systemClock)?.contextTokens, undefined);
  const remote = createModel({
    kind: "openai-compatible",
    baseURL: "http://127.0.0.1:9/v1",
    model: "m",
    apiKey: "k",
    reason: "",
    contextTokens: 100_000,
  }, systemClock);
  assert.equal(remote?.contextTokens, 100_000);
  const defaulted = createModel({
    kind: "openai-compatible",
    baseURL: "http://127.0.0.1:9/v1",
    model: "m",
    apiKey: "k",
    reason: "",
  }, systemClock);
  assert.equal(defaulted?.contextTokens, 64_000);
});
