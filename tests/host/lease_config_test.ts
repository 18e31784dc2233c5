/**
 * The shared-mode settings of `chime.jsonc` (docs/deploy.md): `storage.shared`, `advertisedUrl`
 * (`CHIME_ADVERTISED_URL`) and `lease.ttlSeconds`, with their defaults and clear refusals.
 *
 * @module
 */
import assert from "node:assert/strict";
import { type ConfigError, loadConfig, sharedStorage } from "@chime/host";

function loader(body: string, env: Record<string, string> = {}) {
  const file = "/c/chime.jsonc";
  return loadConfig(file, {
    env,
    cwd: "/",
    readTextFile: (path) =>
      path === file ? Promise.resolve(`{ ${body} }`) : Promise.reject(new Error(path)),
  });
}

const FILE = '"storage": { "kind": "libsql", "url": "file:chime.db" }';

Deno.test("defaults: a file database is not shared, leases last 15 s, no advertised URL", async () => {
  const config = await loader(FILE);
  assert.equal(sharedStorage(config.storage), false);
  assert.deepEqual(config.lease, { ttlSeconds: 15 });
  assert.equal(config.advertisedUrl, undefined);
});

Deno.test("remote libSQL URLs imply shared mode; a file database can ask for it", async () => {
  const remote = await loader('"storage": { "kind": "libsql", "url": "libsql://db.example" }');
  assert.equal(sharedStorage(remote.storage), true);
  const https = await loader('"storage": { "kind": "libsql", "url": "https://db.example" }');
  assert.equal(sharedStorage(https.storage), true);
  const off = await loader(
    '"storage": { "kind": "libsql", "url": "libsql://db.example", "shared": false }',
  );
  assert.equal(sharedStorage(off.storage), false);
  const config = await loader(
    `"storage": { "kind": "libsql", "url": "file:chime.db", "shared": true },
    "advertisedUrl": "https://a.example/chime", "lease": { "ttlSeconds": 2 }`,
  );
  assert.equal(sharedStorage(config.storage), true);
  assert.equal(config.advertisedUrl, "https://a.example/chime/");
  assert.deepEqual(config.lease, { ttlSeconds: 2 });
  const jsonl = await loader('"storage": { "kind": "jsonl", "dir": "d" }');
  assert.equal(sharedStorage(jsonl.storage), false);
});

Deno.test("CHIME_ADVERTISED_URL overrides the file; CHIME_DB keeps storage.shared", async () => {
  const config = await loader(
    `"storage": { "kind": "libsql", "url": "file:a.db", "shared": true },
    "advertisedUrl": "http://a.example/"`,
    { CHIME_ADVERTISED_URL: "http://10.0.0.2:8787", CHIME_DB: "/data/b.db" },
  );
  assert.equal(config.advertisedUrl, "http://10.0.0.2:8787/");
  assert.deepEqual(config.storage, { kind: "libsql", url: "file:///data/b.db", shared: true });
});

Deno.test("bad shared-mode settings fail with config_invalid and a clear message", async () => {
  const cases: [string, Record<string, string>, RegExp][] = [
    [`"storage": { "kind": "libsql", "url": "file:x", "shared": "yes" }`, {}, /storage\.shared/],
    [`${FILE}, "advertisedUrl": "ftp://a"`, {}, /advertisedUrl must be an http\(s\) base URL/],
    [`${FILE}, "advertisedUrl": "http://a/?x=1"`, {}, /advertisedUrl/],
    [FILE, { CHIME_ADVERTISED_URL: "not a url" }, /CHIME_ADVERTISED_URL/],
    [`${FILE}, "lease": { "ttlSeconds": 0 }`, {}, /lease\.ttlSeconds must be an integer 1\.\.3600/],
    [`${FILE}, "lease": 5`, {}, /lease must be an object/],
    [`${FILE}, "lease": { "ttl": 5 }`, {}, /unknown key "lease\.ttl"/],
  ];
  for (const [body, env, message] of cases) {
    await assert.rejects(loader(body, env), (error: unknown) => {
      assert.equal((error as ConfigError).code, "config_invalid", body);
      assert.match((error as Error).message, message);
      return true;
    });
  }
});
