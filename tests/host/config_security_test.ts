/**
 * The security settings of `chime.jsonc` and their environment overrides (README "Security",
 * "Configuration"): allowed hosts, the token, idle release and HTTP timeouts, with their defaults
 * and clear refusals.
 *
 * @module
 */
import assert from "node:assert/strict";
import { type ConfigError, loadConfig } from "@chime/host";

const STORAGE = '"storage": { "kind": "jsonl", "dir": "d" }';

function loader(body: string, env: Record<string, string> = {}) {
  const file = "/c/chime.jsonc";
  return loadConfig(file, {
    env,
    cwd: "/",
    readTextFile: (path) =>
      path === file ? Promise.resolve(`{ ${STORAGE}${body} }`) : Promise.reject(new Error(path)),
  });
}

Deno.test("defaults: no allowed hosts, no token, release after 30 min, 30 s bodies, 120 s idle", async () => {
  const config = await loader("");
  assert.deepEqual(config.allowedHosts, []);
  assert.equal(config.token, undefined);
  assert.equal(config.idleReleaseMinutes, 30);
  assert.deepEqual(config.timeouts, { bodySeconds: 30, idleSeconds: 120 });
});

Deno.test("allowedHosts, token, idleReleaseMinutes and timeouts are read and normalized", async () => {
  const config = await loader(
    `, "allowedHosts": ["Chime.Example.COM.", "10.0.0.2", "[::1]"], "token": "0123456789abcdef",
    "idleReleaseMinutes": 0, "timeouts": { "bodySeconds": 5, "idleSeconds": 0 }`,
  );
  assert.deepEqual(config.allowedHosts, ["chime.example.com", "10.0.0.2", "[::1]"]);
  assert.equal(config.token, "0123456789abcdef");
  assert.equal(config.idleReleaseMinutes, 0);
  assert.deepEqual(config.timeouts, { bodySeconds: 5, idleSeconds: 0 });
  const env = await loader(`, "token": "0123456789abcdef"`, {
    CHIME_TOKEN: "from-the-environment-1234",
    CHIME_ALLOWED_HOSTS: "a.example, b.example",
  });
  assert.equal(env.token, "from-the-environment-1234", "CHIME_TOKEN overrides the file");
  assert.deepEqual(env.allowedHosts, ["a.example", "b.example"]);
});

Deno.test("bad security settings fail with config_invalid and a clear message", async () => {
  const cases: [string, Record<string, string>, RegExp][] = [
    [`, "allowedHosts": ["chime.example.com:8787"]`, {}, /allowedHosts.*not a host name/],
    [`, "allowedHosts": ["http://x"]`, {}, /not a host name/],
    [`, "allowedHosts": "x"`, {}, /allowedHosts must be an array/],
    [`, "token": "short"`, {}, /token must be 16\.\.512 characters/],
    [`, "token": "has a space in it 0123"`, {}, /without whitespace/],
    ["", { CHIME_TOKEN: "short" }, /CHIME_TOKEN must be/],
    ["", { CHIME_ALLOWED_HOSTS: "bad host" }, /CHIME_ALLOWED_HOSTS/],
    [`, "idleReleaseMinutes": -1`, {}, /idleReleaseMinutes must be an integer/],
    [`, "timeouts": { "idleSeconds": 5 }`, {}, /at least 20/],
    [`, "timeouts": { "bodySeconds": 0 }`, {}, /bodySeconds must be an integer 1\.\.3600/],
    [`, "timeouts": { "connect": 1 }`, {}, /unknown key "timeouts\.connect"/],
  ];
  for (const [body, env, message] of cases) {
    await assert.rejects(loader(body, env), (error: unknown) => {
      assert.equal((error as ConfigError).code, "config_invalid", body);
      assert.match((error as Error).message, message);
      return true;
    });
  }
});
