import assert from "node:assert/strict";
import { StorageSettingsError } from "../backend.ts";
import { ev, header, tempDir } from "../../tests/session/_helpers.ts";
import { jsonlDriver } from "./driver.ts";

const code = (error: unknown) =>
  error instanceof StorageSettingsError && error.code === "storage_settings_invalid";

Deno.test("jsonlDriver.parse() resolves the folder and refuses bad keys", () => {
  const context = { file: "chime.jsonc", baseDir: "/data" };
  assert.deepEqual(jsonlDriver.parse({ kind: "jsonl", dir: "s", "#dir": "/x" }, context), {
    kind: "jsonl",
    dir: "/data/s",
  });
  assert.deepEqual(jsonlDriver.parse({ kind: "jsonl", dir: "/abs" }, context).dir, "/abs");
  assert.throws(() => jsonlDriver.parse({ kind: "jsonl", dir: "s", url: "u" }, context), code);
  assert.throws(() => jsonlDriver.parse({ kind: "jsonl" }, context), code);
});

Deno.test("jsonlDriver is never shared, names its folder, opens and checks it", async () => {
  await using dir = await tempDir();
  const settings = jsonlDriver.parse({ kind: "jsonl", dir: "sessions" }, {
    file: "chime.jsonc",
    baseDir: dir.path,
  });
  assert.equal(jsonlDriver.shared(settings), false);
  assert.equal(jsonlDriver.directory(settings), `${dir.path}/sessions`);
  assert.equal(jsonlDriver.describe(settings), `${dir.path}/sessions`);
  assert.equal(jsonlDriver.leases, undefined);
  {
    await using backend = await jsonlDriver.open(settings, {});
    await backend.initialize(header("s"), [ev(0)]);
  }
  const report = await jsonlDriver.check!(settings);
  assert.equal(report.sessions, 1);
  assert.deepEqual(report.damage, []);
});
