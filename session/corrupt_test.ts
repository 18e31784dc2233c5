import assert from "node:assert/strict";
import { LibsqlBackend } from "./libsql/libsql_backend.ts";
import { SessionError } from "./errors.ts";
import { SessionStore } from "./store.ts";
import { ev, evs, header, tempDir } from "../tests/session/_helpers.ts";
import { runSql } from "../tests/session/_damage.ts";
import { CREATE_V17 } from "@chime/migrations";
import { checkStorage } from "./doctor.ts";
import { createClient } from "@libsql/client";

function corrupt(sessionId: string, seq?: number) {
  return (error: unknown) =>
    error instanceof SessionError && error.code === "storage_corrupt" &&
    error.details.sessionId === sessionId && error.details.seq === seq;
}

/** A database with sessions `a` (5 events) and `b` (2 events), closed again. */
async function twoSessions(dir: string): Promise<string> {
  const url = `file:${dir}/chime.db`;
  await using backend = await LibsqlBackend.open({ url });
  await backend.initialize(header("a"), evs(0, 5));
  await backend.initialize(header("b", { createdAt: "2026-02-01T00:00:00.000Z" }), evs(0, 2));
  return url;
}

// An invalid UTF-8 byte inside JSON text (README "How it behaves on failure", "Storage is
// damaged"): `{"n":` then 0xff then `}`.
const BAD_JSON_TEXT = "CAST(x'7b226e223aff7d' AS TEXT)";

Deno.test("`LibsqlBackend` reads an invalid UTF-8 byte in an event as `storage_corrupt`, not a crash", async () => {
  await using dir = await tempDir();
  const url = await twoSessions(dir.path);
  await runSql(url, `UPDATE events SET data = ${BAD_JSON_TEXT} WHERE session_id = 'a' AND seq = 2`);
  await using backend = await LibsqlBackend.open({ url });
  await assert.rejects(backend.load("a"), corrupt("a", 2));
  await assert.rejects(backend.readEvents("a", { before: 5, limit: 10 }), corrupt("a", 2));
  assert.deepEqual(await backend.readEvents("a", { after: 2 }), evs(3, 5), "pages above it read");
  assert.deepEqual((await backend.load("b"))?.events, evs(0, 2), "other sessions keep serving");
  assert.equal((await backend.cursor("a"))?.length, 5);
});

Deno.test("`LibsqlBackend` reports each damaged column of an event and JSON-level damage", async () => {
  await using dir = await tempDir();
  const url = await twoSessions(dir.path);
  await runSql(
    url,
    "UPDATE events SET type = CAST(x'ff' AS TEXT) WHERE session_id = 'a' AND seq = 0",
    "UPDATE events SET at = CAST(x'c3' AS TEXT) WHERE session_id = 'a' AND seq = 1",
    "UPDATE events SET data = '{\"n\":' WHERE session_id = 'a' AND seq = 3",
  );
  await using backend = await LibsqlBackend.open({ url });
  await assert.rejects(backend.readEvents("a", { limit: 1 }), corrupt("a", 0));
  await assert.rejects(backend.readEvents("a", { after: 0, limit: 1 }), corrupt("a", 1));
  await assert.rejects(backend.readEvents("a", { after: 2, limit: 1 }), corrupt("a", 3));
  assert.deepEqual(await backend.readEvents("a", { after: 3 }), [ev(4)]);
});

Deno.test("`LibsqlBackend` reads a damaged header as `storage_corrupt` without a seq and leaves it out of the list", async () => {
  await using dir = await tempDir();
  const url = await twoSessions(dir.path);
  await runSql(url, "UPDATE sessions SET cwd = CAST(x'2fff' AS TEXT) WHERE id = 'a'");
  await using backend = await LibsqlBackend.open({ url });
  await assert.rejects(backend.cursor("a"), corrupt("a"));
  await assert.rejects(backend.load("a"), corrupt("a"));
  assert.deepEqual((await backend.list()).map((h) => h.id), ["b"]);
  // A write to the damaged session fails alone; one to another session in the same group commits.
  const results = await Promise.allSettled([
    backend.append("a", [ev(5)]),
    backend.append("b", [ev(2)]),
  ]);
  assert.ok(results[0].status === "rejected" && corrupt("a")(results[0].reason));
  assert.equal(results[1].status, "fulfilled");
  assert.equal((await backend.cursor("b"))?.length, 3);
});

Deno.test("`LibsqlBackend` header rows with invalid fields, a damaged id or time zone are `storage_corrupt`", async () => {
  await using dir = await tempDir();
  const url = await twoSessions(dir.path);
  await runSql(
    url,
    "UPDATE sessions SET time_zone = CAST(x'ff' AS TEXT) WHERE id = 'a'",
    "UPDATE sessions SET delegation_depth = -1 WHERE id = 'b'",
    "INSERT INTO sessions (id, cwd, created_at, origin) VALUES (CAST(x'41ff' AS TEXT), '/', 'x', 'y')",
  );
  await using backend = await LibsqlBackend.open({ url });
  await assert.rejects(backend.cursor("a"), corrupt("a"));
  await assert.rejects(backend.cursor("b"), corrupt("b"));
  assert.deepEqual(await backend.list(), []);
});

Deno.test("`LibsqlBackend` serves no header whose valid fields changed under its checksum (schema v18)", async () => {
  await using dir = await tempDir();
  // Each stays a valid header: without the checksum it would be served as if stored so.
  const changes = [
    "UPDATE sessions SET cwd = '/x' WHERE id = 'a'",
    "UPDATE sessions SET created_at = '2026-01-01T00:00:00.001Z' WHERE id = 'a'",
    "UPDATE sessions SET time_zone = 'Europe/Paris' WHERE id = 'a'",
    "UPDATE sessions SET delegation_depth = 1 WHERE id = 'a'",
    "UPDATE sessions SET seed_length = 2 WHERE id = 'a'",
    "UPDATE sessions SET crc = (crc | 1) - (crc & 1) WHERE id = 'a'",
  ];
  for (const change of changes) {
    const url = await twoSessions(await Deno.makeTempDir({ dir: dir.path }));
    await runSql(url, change);
    {
      await using backend = await LibsqlBackend.open({ url });
      const wrong = (e: unknown) =>
        corrupt("a")(e) && (e as SessionError).details.what === "header checksum mismatch";
      await assert.rejects(backend.cursor("a"), wrong, change);
      await assert.rejects(backend.load("a"), wrong, change);
      assert.deepEqual((await backend.list()).map((h) => h.id), ["b"], change);
      assert.equal((await backend.cursor("b"))?.length, 2, "the other session reads");
    }
    const report = await checkStorage({ kind: "libsql", url });
    assert.deepEqual(
      report.damage,
      [{ sessionId: "a", what: "header checksum mismatch" }],
      `the doctor names it: ${change}`,
    );
  }
});

Deno.test("the v17→v18 upgrade checksums each header that decodes; a damaged one stays damaged", async () => {
  await using dir = await tempDir();
  const url = `file:${dir.path}/v17.db`;
  await runSql(
    url,
    ...CREATE_V17,
    "INSERT INTO sessions (id, cwd, created_at, origin) VALUES " +
      "('a', '/w', '2026-01-01T00:00:00.000Z', 'web'), ('b', '/w', '2026-01-02T00:00:00.000Z', 'web')",
    "UPDATE sessions SET delegation_depth = -1 WHERE id = 'b'",
  );
  await using backend = await LibsqlBackend.open({ url });
  assert.equal((await backend.cursor("a"))?.header.cwd, "/w");
  await assert.rejects(
    backend.cursor("b"),
    (e) => corrupt("b")(e) && (e as SessionError).details.what === "the header fields are invalid",
  );
  const client = createClient({ url });
  const { rows } = await client.execute("SELECT id, crc FROM sessions ORDER BY id");
  client.close();
  assert.deepEqual(
    rows.map((r) => [r.id, r.crc === -1]),
    [["a", false], ["b", true]],
    "b keeps -1: repairing its field later still does not make it verify",
  );
  await runSql(url, "UPDATE sessions SET delegation_depth = 0 WHERE id = 'b'");
  await assert.rejects(
    backend.cursor("b"),
    (e) => corrupt("b")(e) && (e as SessionError).details.what === "header checksum mismatch",
  );
});

Deno.test("`LibsqlBackend` never returns history with a hole: a missing seq is `storage_corrupt`", async () => {
  await using dir = await tempDir();
  const url = `file:${dir.path}/chime.db`;
  {
    await using backend = await LibsqlBackend.open({ url });
    await backend.initialize(header("g"), evs(0, 10));
  }
  await runSql(url, "DELETE FROM events WHERE session_id = 'g' AND seq IN (0, 5)");
  await using backend = await LibsqlBackend.open({ url });
  await assert.rejects(backend.load("g"), corrupt("g", 0));
  await assert.rejects(backend.readEvents("g"), corrupt("g", 0));
  await assert.rejects(backend.readEvents("g", { before: 10, limit: 6 }), corrupt("g", 5));
  await assert.rejects(backend.readEvents("g", { before: 6, limit: 2 }), corrupt("g", 5));
  await assert.rejects(backend.readEvents("g", { before: 5, limit: 10 }), corrupt("g", 0));
  await assert.rejects(backend.readEvents("g", { after: 4, limit: 2 }), corrupt("g", 5));
  await assert.rejects(backend.readEvents("g", { before: 1, limit: 1 }), corrupt("g", 0));
  assert.deepEqual(await backend.readEvents("g", { before: 10, limit: 4 }), evs(6, 10));
  assert.deepEqual(await backend.readEvents("g", { before: 5, after: 0, limit: 4 }), evs(1, 5));
  assert.deepEqual(await backend.readEvents("g", { before: 99, after: 5 }), evs(6, 10));
  assert.deepEqual(await backend.readEvents("g", { before: 99, after: 50 }), []);
  assert.deepEqual(await backend.readEvents("g", { before: 3, limit: 0 }), []);
  assert.deepEqual(await backend.readEvents("nobody", { before: 3 }), []);
});

Deno.test("`SessionStore.resume()` of a damaged session fails with `storage_corrupt`; others resume", async () => {
  await using dir = await tempDir();
  const url = await twoSessions(dir.path);
  await runSql(url, `UPDATE events SET data = ${BAD_JSON_TEXT} WHERE session_id = 'a' AND seq = 4`);
  await using store = new SessionStore({ backend: await LibsqlBackend.open({ url }) });
  await assert.rejects(store.resume("a"), corrupt("a", 4));
  assert.equal(store.live("a"), undefined);
  const b = await store.resume("b");
  store.append(b, "note", { after: "damage" });
  assert.equal(await store.flush(b), true);
});
