/**
 * Fuzz property of the configuration parser (README "Configuration"): any `chime.jsonc` text
 * and environment either loads into a configuration that holds every documented invariant or
 * fails with a `ConfigError`; nothing else is thrown.
 *
 * @module
 */
import assert from "node:assert/strict";
import fc from "fast-check";
import { ConfigError, type HostConfig, loadConfig } from "@chime/host";

const value = (...valid: unknown[]) =>
  fc.oneof(fc.constantFrom(...valid), fc.jsonValue({ maxDepth: 2 }));

/** Objects near the configuration's shape, with junk values mixed in. */
const nearConfig = fc.record(
  {
    hostname: value("127.0.0.1", "0.0.0.0", "", "localhost"),
    port: value(0, 8787, 65535, 65536, -1, 1.5, "80"),
    dataDir: value("data", "/abs/data", "", "../x"),
    storage: value(
      { kind: "libsql", url: "file:chime.db" },
      { kind: "libsql", url: ":memory:" },
      { kind: "libsql", url: "libsql://db.example" },
      { kind: "jsonl", dir: "logs" },
      { kind: "jsonl" },
      { kind: "sqlite", url: "x" },
    ),
    model: value(
      { kind: "offline" },
      { kind: "none" },
      { kind: "openai-compatible", baseURL: "https://x", model: "m", apiKeyEnv: "K" },
      { kind: "openai-compatible", baseURL: "not a url", model: "m", apiKeyEnv: "K" },
    ),
    plugins: value([], ["@chime/schedule"], ["a", "a"], [1]),
    renderers: value([], ["@chime/ui/schedule"]),
    cwd: value("/", "", "/home"),
    allowedHosts: value([], ["chime.example.com"], ["Example.COM."], ["a:80"], ["[::1]"], [""]),
    token: value("0123456789abcdef", "short", "with space 0123456789", "x".repeat(600)),
    idleReleaseMinutes: value(0, 30, -1, 1.5),
    timeouts: value({}, { bodySeconds: 30, idleSeconds: 120 }, { idleSeconds: 5 }, {
      bodySeconds: 0,
    }, { idleSeconds: 0, junk: 1 }),
    extends: value("base.jsonc", 42),
    junk: fc.jsonValue({ maxDepth: 1 }),
  },
  { requiredKeys: [] },
);

const text = fc.oneof(
  nearConfig.map((c) => JSON.stringify(c)),
  fc.tuple(nearConfig, fc.nat(), fc.string({ maxLength: 3 })).map(([c, at, junk]) => {
    const json = JSON.stringify(c);
    const i = at % (json.length + 1);
    return json.slice(0, i) + junk + json.slice(i);
  }),
  fc.string(),
);

const env = fc.record(
  {
    CHIME_PORT: fc.constantFrom("8080", "0", "99999", "x", " "),
    CHIME_DB: fc.constantFrom("db/chime.db", "libsql://x", ":memory:", ""),
    CHIME_TOKEN: fc.constantFrom("0123456789abcdef0123", "short", ""),
    CHIME_ALLOWED_HOSTS: fc.constantFrom("a.example,b.example", "bad host", ",", "x:1"),
    CHIME_MODEL_BASE_URL: fc.constantFrom("https://api.example", "nope"),
    CHIME_MODEL_API_KEY: fc.constantFrom("k", ""),
    DEEPSEEK_API_KEY: fc.constantFrom("k"),
  },
  { requiredKeys: [] },
);

const HOST_NAME =
  /^(?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)*|\[[0-9a-f:.]+\])$/;

/** Every invariant the rest of the host relies on. */
function checkLoaded(config: HostConfig): void {
  assert.ok(typeof config.hostname === "string" && config.hostname.trim() !== "");
  assert.ok(Number.isInteger(config.port) && config.port >= 0 && config.port <= 65535);
  if (config.storage.kind === "libsql") {
    assert.match(String(config.storage.url), /^(file:|libsql:|https?:|wss?:|:memory:$)/);
  } else {
    assert.equal(config.storage.kind, "jsonl");
    assert.ok(String(config.storage.dir).startsWith("/"));
  }
  assert.ok(["offline", "none", "openai-compatible"].includes(config.model.kind));
  if (config.model.kind === "openai-compatible") assert.ok(URL.canParse(config.model.baseURL));
  for (const list of [config.plugins, config.renderers]) {
    assert.ok(list.every((n) => typeof n === "string" && n !== ""));
    assert.equal(new Set(list).size, list.length);
  }
  assert.ok(typeof config.cwd === "string" && config.cwd.trim() !== "");
  assert.ok(config.allowedHosts.every((h) => HOST_NAME.test(h)), String(config.allowedHosts));
  if (config.token !== undefined) {
    assert.ok(config.token.length >= 16 && config.token.length <= 512 && !/\s/.test(config.token));
  }
  assert.ok(Number.isInteger(config.idleReleaseMinutes) && config.idleReleaseMinutes >= 0);
  const { bodySeconds, idleSeconds } = config.timeouts;
  assert.ok(Number.isInteger(bodySeconds) && bodySeconds >= 1 && bodySeconds <= 3600);
  assert.ok(idleSeconds === 0 || (Number.isInteger(idleSeconds) && idleSeconds >= 20));
}

/** `loadConfig` yields a valid configuration or a `ConfigError`, never anything else. */
export const configProperty: fc.IAsyncPropertyWithHooks<[string, Record<string, string>]> = fc
  .asyncProperty(text, env, async (source, variables) => {
    const file = "/etc/chime/chime.jsonc";
    let config: HostConfig;
    try {
      config = await loadConfig(file, {
        env: variables,
        cwd: "/srv",
        readTextFile: (path) =>
          path === file ? Promise.resolve(source) : Promise.reject(new Deno.errors.NotFound(path)),
      });
    } catch (error) {
      assert.ok(error instanceof ConfigError, `threw ${String(error)}`);
      return;
    }
    checkLoaded(config);
  });
