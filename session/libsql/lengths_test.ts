// `LibsqlBackend.lengths()` reads every stored session's length in one read: the plain ids the
// host makes as one text value, any other id (a row written by another tool) one row each.
import assert from "node:assert/strict";
import { createClient } from "@libsql/client";
import { LibsqlBackend } from "./libsql_backend.ts";
import { evs, header, tempDir } from "../../tests/session/_helpers.ts";

Deno.test("`lengths()` gives every session's stored length, plain ids or not, with or without events", async () => {
  await using dir = await tempDir();
  const url = `file:${dir.path}/a.db`;
  {
    await using backend = await LibsqlBackend.open({ url });
    await backend.initialize(header("s_one-1"), evs(0, 3));
    await backend.initialize(header("none"), []);
    await backend.initialize(header("many"), evs(0, 1200));
  }
  // An id the host never makes (a space, a dot, a newline) written by another tool.
  const client = createClient({ url });
  await client.batch([
    "INSERT INTO sessions (id, cwd, created_at, origin, delegation_depth) VALUES " +
    "('odd id.x', '/w', '2026-01-01T00:00:00.000Z', 'tool', 0), " +
    "('line\nbreak', '/w', '2026-01-01T00:00:00.000Z', 'tool', 0)",
    "INSERT INTO events VALUES ('odd id.x', 0, 'note', '2026-01-01T00:00:00.000Z', '{}', -1), " +
    "('odd id.x', 1, 'note', '2026-01-01T00:00:00.000Z', '{}', -1)",
  ], "write");
  client.close();
  await using backend = await LibsqlBackend.open({ url });
  const lengths = await backend.lengths();
  assert.deepEqual(
    [...lengths].sort(),
    [["line\nbreak", 0], ["many", 1200], ["none", 0], ["odd id.x", 2], ["s_one-1", 3]],
  );
});

Deno.test("`lengths()` of an empty store is empty", async () => {
  await using dir = await tempDir();
  await using backend = await LibsqlBackend.open({ url: `file:${dir.path}/a.db` });
  assert.equal((await backend.lengths()).size, 0);
});
