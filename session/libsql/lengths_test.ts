// `LibsqlBackend.lengths()` reads every stored session's length in one read, and names exactly the
// sessions `list()` names: a header that does not decode or verify is left out (its own reads are
// `storage_corrupt`), so a damaged sessions page cannot make up a session (damage lane seed 28).
import assert from "node:assert/strict";
import { createClient } from "@libsql/client";
import { LibsqlBackend } from "./libsql_backend.ts";
import { headerChecksum } from "../_checksum.ts";
import { evs, header, tempDir } from "../../tests/session/_helpers.ts";

Deno.test("`lengths()` gives every sound session's stored length, with or without events, and leaves out damaged headers", async () => {
  await using dir = await tempDir();
  const url = `file:${dir.path}/a.db`;
  {
    await using backend = await LibsqlBackend.open({ url });
    await backend.initialize(header("s_one-1"), evs(0, 3));
    await backend.initialize(header("none"), []);
    await backend.initialize(header("many"), evs(0, 1200));
    await backend.initialize(header("bad-cwd"), evs(0, 2));
  }
  const tool = header("tool", { cwd: "/w\nx", origin: "tool", timeZone: "Asia/Kolkata" });
  const client = createClient({ url });
  await client.batch([
    // Written by another tool with its checksum (a newline in cwd): listed and counted.
    {
      sql: "INSERT INTO sessions (id, cwd, created_at, origin, time_zone, crc) " +
        "VALUES (?, ?, ?, ?, ?, ?)",
      args: [tool.id, tool.cwd, tool.createdAt, tool.origin, tool.timeZone!, headerChecksum(tool)],
    },
    // Without a checksum, an id the host never makes, a header whose bytes changed, one whose
    // text is not UTF-8: none of them is a session `list()` names.
    "INSERT INTO sessions (id, cwd, created_at, origin) VALUES " +
    "('nocrc', '/w', '2026-01-01T00:00:00.000Z', 'tool')",
    {
      sql: "INSERT INTO sessions (id, cwd, created_at, origin, crc) VALUES (?, ?, ?, ?, ?)",
      args: ["odd id.x", "/w", "2026-01-01T00:00:00.000Z", "tool", 1],
    },
    "UPDATE sessions SET created_at = '2026-' WHERE id = 'none'",
    "UPDATE sessions SET cwd = CAST(x'2fff' AS TEXT) WHERE id = 'bad-cwd'",
    "INSERT INTO events VALUES ('odd id.x', 0, 'note', '2026-01-01T00:00:00.000Z', '{}', -1)",
  ], "write");
  client.close();
  await using backend = await LibsqlBackend.open({ url });
  const lengths = await backend.lengths();
  assert.deepEqual([...lengths].sort(), [["many", 1200], ["s_one-1", 3], ["tool", 0]]);
  assert.deepEqual(
    [...lengths.keys()].sort(),
    (await backend.list()).map((h) => h.id).sort(),
    "the same sessions as the list",
  );
});

Deno.test("`lengths()` of an empty store is empty", async () => {
  await using dir = await tempDir();
  await using backend = await LibsqlBackend.open({ url: `file:${dir.path}/a.db` });
  assert.equal((await backend.lengths()).size, 0);
});
