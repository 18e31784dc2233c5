import assert from "node:assert/strict";
import { StorageSettingsError } from "../backend.ts";
import { leaseTableContract } from "../testing/lease_table_contract.ts";
import { tempDir } from "../../tests/session/_helpers.ts";
import { libsqlDriver, libsqlUrl } from "./driver.ts";

const context = { file: "chime.jsonc", baseDir: "/data" };
const code = (error: unknown) =>
  error instanceof StorageSettingsError && error.code === "storage_settings_invalid";

Deno.test("libsqlDriver.parse() resolves paths and refuses bad keys and values", () => {
  assert.deepEqual(libsqlDriver.parse({ kind: "libsql", url: "x.db", "#dir": "/c" }, context), {
    kind: "libsql",
    url: "file:///data/x.db",
  });
  assert.deepEqual(
    libsqlDriver.parse({ kind: "libsql", url: "libsql://db.example", shared: false }, context),
    { kind: "libsql", url: "libsql://db.example", shared: false },
  );
  assert.throws(() => libsqlDriver.parse({ kind: "libsql", url: "x", dir: "d" }, context), code);
  assert.throws(() => libsqlDriver.parse({ kind: "libsql", url: " " }, context), code);
  assert.throws(() => libsqlDriver.parse({ kind: "libsql", url: "x", shared: 1 }, context), code);
});

Deno.test("libsqlUrl() keeps remote, in-memory and host-qualified URLs", () => {
  assert.equal(libsqlUrl(":memory:", "/d"), ":memory:");
  assert.equal(libsqlUrl("https://db.example", "/d"), "https://db.example");
  assert.equal(libsqlUrl("file::memory:", "/d"), "file::memory:");
  assert.equal(libsqlUrl("file:///abs/x.db", "/d"), "file:///abs/x.db");
  assert.equal(libsqlUrl("file:/abs/x.db", "/d"), "file:///abs/x.db");
  assert.equal(libsqlUrl("file:rel.db", "/d"), "file:///d/rel.db");
});

Deno.test("libsqlDriver: a location override keeps a configured `shared`; sharing and directories", () => {
  const kept = libsqlDriver.fromLocation!("y.db", "/cwd", {
    kind: "libsql",
    url: "file:///x.db",
    shared: true,
  });
  assert.deepEqual(kept, { kind: "libsql", url: "file:///cwd/y.db", shared: true });
  assert.deepEqual(libsqlDriver.fromLocation!("y.db", "/cwd", { kind: "jsonl", dir: "/d" }), {
    kind: "libsql",
    url: "file:///cwd/y.db",
  });
  assert.equal(libsqlDriver.shared({ kind: "libsql", url: "wss://db.example" }), true);
  assert.equal(libsqlDriver.shared({ kind: "libsql", url: "file:///x.db" }), false);
  assert.equal(libsqlDriver.shared({ kind: "libsql", url: "file:///x.db", shared: true }), true);
  assert.equal(libsqlDriver.directory({ kind: "libsql", url: "file:///a/b/x.db" }), "/a/b");
  assert.equal(libsqlDriver.directory({ kind: "libsql", url: "file:rel/x.db" }), "rel");
  assert.equal(libsqlDriver.directory({ kind: "libsql", url: "file::memory:" }), undefined);
  assert.equal(libsqlDriver.directory({ kind: "libsql", url: ":memory:" }), undefined);
  assert.equal(libsqlDriver.describe({ kind: "libsql", url: ":memory:" }), ":memory:");
});

Deno.test("libsqlDriver opens a fenced shared backend, checks it, and its lease tables meet the contract", async () => {
  await using dir = await tempDir();
  const settings = libsqlDriver.parse({ kind: "libsql", url: "chime.db", shared: true }, {
    file: "chime.jsonc",
    baseDir: dir.path,
  });
  {
    await using backend = await libsqlDriver.open(settings, { fence: () => undefined });
    assert.equal(backend.kind, "libsql");
  }
  {
    // Unshared: the per-file writer lock, and nothing passed for the fence.
    await using backend = await libsqlDriver.open({ ...settings, shared: false }, {});
    assert.deepEqual(await backend.list(), []);
  }
  const report = await libsqlDriver.check!({ ...settings, shared: false });
  assert.deepEqual(report.damage, []);
  // Each run gets a fresh database: the backend's open creates `session_leases` (schema v15).
  let run = 0;
  await leaseTableContract(async (clock) => {
    const fresh = { ...settings, url: `file:${dir.path}/leases-${run++}.db` };
    await (await libsqlDriver.open(fresh, {}))[Symbol.asyncDispose]();
    const a = await libsqlDriver.leases!(fresh, { holder: "a", url: "http://a/", clock });
    const b = await libsqlDriver.leases!(fresh, { holder: "b", clock });
    return {
      a,
      b,
      [Symbol.asyncDispose]: async () => {
        await a[Symbol.asyncDispose]();
        await b[Symbol.asyncDispose]();
      },
    };
  });
});
