import assert from "node:assert/strict";
import { modelFromEnv } from "./model_env.ts";

Deno.test("`modelFromEnv()` with no key decides the offline model", () => {
  assert.deepEqual(modelFromEnv({}), { kind: "offline" });
  assert.deepEqual(modelFromEnv({ DEEPSEEK_API_KEY: "  " }), { kind: "offline" });
  assert.deepEqual(
    modelFromEnv({}, {
      kind: "openai-compatible",
      baseURL: "http://x",
      model: "m",
      apiKeyEnv: "K",
    }),
    { kind: "offline" },
  );
});

Deno.test("`modelFromEnv()`: DEEPSEEK_API_KEY alone selects DeepSeek", () => {
  assert.deepEqual(modelFromEnv({ DEEPSEEK_API_KEY: "sk-d" }), {
    kind: "openai-compatible",
    baseURL: "https://api.deepseek.com",
    model: "deepseek-chat",
    apiKey: "sk-d",
  });
  // Never sent to another configured endpoint.
  const config = {
    kind: "openai-compatible",
    baseURL: "http://x",
    model: "m",
    apiKeyEnv: "K",
  } as const;
  assert.equal(modelFromEnv({ DEEPSEEK_API_KEY: "sk-d" }, config).kind, "openai-compatible");
  assert.deepEqual(modelFromEnv({ DEEPSEEK_API_KEY: "sk-d" }, config), {
    kind: "openai-compatible",
    baseURL: "https://api.deepseek.com",
    model: "deepseek-chat",
    apiKey: "sk-d",
  });
});

Deno.test("`modelFromEnv()`: CHIME_MODEL_* override, the config's key variable is read", () => {
  const config = {
    kind: "openai-compatible",
    baseURL: "http://cfg/v1",
    model: "cfg-m",
    apiKeyEnv: "MY_KEY",
  } as const;
  assert.deepEqual(modelFromEnv({ MY_KEY: "k1" }, config), {
    kind: "openai-compatible",
    baseURL: "http://cfg/v1",
    model: "cfg-m",
    apiKey: "k1",
  });
  assert.deepEqual(
    modelFromEnv({
      MY_KEY: "k1",
      CHIME_MODEL_API_KEY: "k2",
      CHIME_MODEL_BASE_URL: "http://env/v1",
      CHIME_MODEL: "env-m",
      DEEPSEEK_API_KEY: "sk-d",
    }, config),
    { kind: "openai-compatible", baseURL: "http://env/v1", model: "env-m", apiKey: "k2" },
  );
});
