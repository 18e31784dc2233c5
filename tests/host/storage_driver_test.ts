/**
 * A new storage driver is one folder plus one row in the driver table (docs/architecture.md
 * "Storage drivers"): a configuration naming the test driver of `tests/session/_memory_driver.ts`
 * loads, a host starts over it and stores a session; unknown kinds and bad driver settings are
 * `config_invalid`; shared storage without a lease table is refused.
 */
import assert from "node:assert/strict";
import { ScriptedModel } from "@chime/agent";
import {
  ConfigError,
  createApp,
  HostRuntime,
  loadConfig,
  STORAGE_DRIVERS,
  storageDirectory,
  storageDriver,
} from "@chime/host";
import type { StorageDriver } from "@chime/session";
import { leaselessDriver, MEMORY_STORES, memoryDriver } from "../session/_memory_driver.ts";

/** The registry's table plus one row. */
const DRIVERS: Readonly<Record<string, StorageDriver>> = {
  ...STORAGE_DRIVERS,
  "memory-test": memoryDriver,
};

const configError = (code: string) => (error: unknown) =>
  error instanceof ConfigError && error.code === code;

function loader(files: Record<string, string>) {
  const readTextFile = (path: string) =>
    path in files ? Promise.resolve(files[path]!) : Promise.reject(new Deno.errors.NotFound(path));
  return (path: string, storageDrivers = DRIVERS) =>
    loadConfig(path, { readTextFile, cwd: "/", storageDrivers });
}

Deno.test("a host configured with a registered test driver starts and stores a session", async () => {
  const load = loader({
    "/c/chime.jsonc": '{ "storage": { "kind": "memory-test", "name": "h1" } }',
  });
  const config = await load("/c/chime.jsonc");
  assert.deepEqual(config.storage, { kind: "memory-test", name: "h1" });
  assert.equal(storageDirectory(config.storage, DRIVERS), undefined);
  assert.equal(
    storageDriver(config.storage.kind, { drivers: DRIVERS }).describe(config.storage),
    "memory:h1",
  );
  const runtime = await HostRuntime.open({
    config,
    storageDrivers: DRIVERS,
    model: new ScriptedModel(() => ({ text: "ok" })),
    plugins: [],
  });
  {
    await using _ = runtime;
    assert.equal(runtime.leases, undefined);
    const app = createApp(runtime);
    const response = await app.request("/api/sessions", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ timeZone: "UTC" }),
    });
    assert.equal(response.status, 201);
    const { header } = await response.json();
    const stored = await MEMORY_STORES.get("h1")!.cursor(header.id);
    assert.equal(stored?.header.id, header.id);
  }
});

Deno.test("storage.kind resolves against the table: unknown kinds and bad driver keys are config_invalid", async () => {
  const load = loader({
    "/c/unknown.jsonc": '{ "storage": { "kind": "sqlite" } }',
    "/c/badkey.jsonc": '{ "storage": { "kind": "memory-test", "url": "x" } }',
  });
  await assert.rejects(load("/c/unknown.jsonc"), configError("config_invalid"));
  await assert.rejects(load("/c/unknown.jsonc"), /"libsql", "jsonl", "postgres" or "memory-test"/);
  await assert.rejects(
    load("/c/unknown.jsonc", STORAGE_DRIVERS),
    /must be "libsql", "jsonl" or "postgres"/,
  );
  await assert.rejects(load("/c/badkey.jsonc"), configError("config_invalid"));
  await assert.rejects(load("/c/badkey.jsonc"), /\/c\/badkey\.jsonc: unknown key "storage\.url"/);
  // Without the row, the same file is refused.
  await assert.rejects(
    loader({ "/c/x.jsonc": '{ "storage": { "kind": "memory-test" } }' })(
      "/c/x.jsonc",
      STORAGE_DRIVERS,
    ),
    configError("config_invalid"),
  );
});

Deno.test("shared storage whose driver has no lease table is refused at startup", async () => {
  const drivers = { ...DRIVERS, "leaseless-test": leaselessDriver };
  await assert.rejects(
    HostRuntime.open({
      config: {
        storage: { kind: "leaseless-test", name: "h2" },
        model: { kind: "offline", reason: "test" },
        plugins: [],
        renderers: [],
        cwd: "/",
      },
      storageDrivers: drivers,
      plugins: [],
    }),
    configError("config_invalid"),
  );
});
