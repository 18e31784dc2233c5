/**
 * Per-event checksums (issue 26 fault 4): a byte flipped inside a stored event's data is
 * `storage_corrupt` naming the session and seq on every backend, never served, while other
 * sessions keep serving; the upgrade from the previous schema or format computes every checksum
 * once, and a store opened after it verifies.
 *
 * @module
 */
import assert from "node:assert/strict";
import postgres from "postgres";
import { createClient } from "@libsql/client";
import { POSTGRES_MIGRATIONS, POSTGRES_SCHEMA_VERSION } from "@chime/migrations";
import { LibsqlBackend } from "../../session/libsql/libsql_backend.ts";
import { JsonlBackend } from "../../session/jsonl/jsonl_backend.ts";
import { headerLine } from "../../session/jsonl/_jsonl_format.ts";
import { PostgresBackend } from "../../session/postgres/postgres_backend.ts";
import type { PersistenceBackend } from "../../session/backend.ts";
import { SessionError } from "../../session/errors.ts";
import { eventChecksum } from "../../session/_checksum.ts";
import { checkStorage } from "../../session/doctor.ts";
import { ev, evs, header, sha256, tempDir } from "./_helpers.ts";
import { postgresLanes, sharedPostgres } from "../_postgres.ts";

const MARK = "MARKER-7f3a";

function corrupt(sessionId: string, seq: number) {
  return (error: unknown) =>
    error instanceof SessionError && error.code === "storage_corrupt" &&
    error.details.sessionId === sessionId && error.details.seq === seq;
}

/** Session `a` (event 2 holds {@linkcode MARK}) and session `b`. */
async function fill(backend: PersistenceBackend): Promise<void> {
  await backend.initialize(header("a"), [ev(0), ev(1), ev(2, { text: MARK }), ev(3)]);
  await backend.initialize(header("b", { createdAt: "2026-02-01T00:00:00.000Z" }), evs(0, 2));
}

/** Flips `M` of the marker to `N` in a file: still valid UTF-8 and JSON, only the value moves. */
async function flipIn(path: string): Promise<boolean> {
  const bytes = await Deno.readFile(path);
  const at = new TextDecoder("latin1").decode(bytes).indexOf(MARK);
  if (at < 0) return false;
  bytes[at] = bytes[at]! ^ 0x03;
  await Deno.writeFile(path, bytes);
  return true;
}

/** `rowwise`: a SQL backend serves the session's other rows (a JSONL log is read whole). */
async function expectDamage(backend: PersistenceBackend, rowwise = true): Promise<void> {
  await assert.rejects(backend.load("a"), corrupt("a", 2));
  await assert.rejects(backend.tail("a", 3), corrupt("a", 2));
  await assert.rejects(backend.readEvents("a", { after: 1, limit: 1 }), corrupt("a", 2));
  await assert.rejects(backend.readByType("a", ["note"], 0, 10), corrupt("a", 2));
  if (rowwise) {
    assert.deepEqual(await backend.readEvents("a", { after: 2 }), [ev(3)], "other rows serve");
  }
  assert.deepEqual((await backend.load("b"))?.events, evs(0, 2), "other sessions serve");
}

Deno.test("libSQL: a flipped byte in a stored event's data is `storage_corrupt`, never served", async () => {
  await using dir = await tempDir();
  const url = `file:${dir.path}/chime.db`;
  {
    await using backend = await LibsqlBackend.open({ url });
    await fill(backend);
  }
  const client = createClient({ url });
  await client.execute("PRAGMA wal_checkpoint(TRUNCATE)");
  client.close();
  assert.ok(await flipIn(`${dir.path}/chime.db`), "the marker is in the file");
  {
    await using backend = await LibsqlBackend.open({ url });
    await expectDamage(backend);
  }
  const report = await checkStorage({ kind: "libsql", url });
  assert.deepEqual(report.damage, [{ sessionId: "a", seq: 2, what: "checksum mismatch" }]);
});

Deno.test("libSQL: a type-index entry that names another row is `storage_corrupt`", async () => {
  await using dir = await tempDir();
  const url = `file:${dir.path}/chime.db`;
  {
    await using backend = await LibsqlBackend.open({ url });
    await backend.initialize(header("a"), [ev(0), { ...ev(1), type: "other" }, ev(2)]);
  }
  // A row whose stored type no longer matches its checksum (as a flipped byte would leave it):
  // read through the index it is refused; the doctor names it and the index comparison.
  const client = createClient({ url });
  await client.execute("UPDATE events SET type = 'note' WHERE session_id = 'a' AND seq = 1");
  client.close();
  await using backend = await LibsqlBackend.open({ url });
  await assert.rejects(backend.readByType("a", ["note"], 0, 10), corrupt("a", 1));
  await assert.rejects(backend.readTypeAcross!(["note"], { limit: 10 }), corrupt("a", 1));
});

Deno.test("JSONL: a flipped byte in a stored event's data is `storage_corrupt`, never served", async () => {
  await using dir = await tempDir();
  {
    await using backend = await JsonlBackend.open({ dir: dir.path });
    await fill(backend);
  }
  assert.ok(await flipIn(`${dir.path}/a.jsonl`));
  {
    await using backend = await JsonlBackend.open({ dir: dir.path });
    await expectDamage(backend, false);
  }
  const report = await checkStorage({ kind: "jsonl", dir: dir.path });
  assert.deepEqual(report.damage, [{ sessionId: "a", seq: 2, what: "checksum mismatch" }]);
});

Deno.test("JSONL: a format-1 folder is upgraded once, every checksum computed, and verifies after", async () => {
  await using dir = await tempDir();
  const lines = [header("old"), ev(0), ev(1, { text: MARK })].map((l) => JSON.stringify(l));
  await Deno.writeTextFile(`${dir.path}/old.jsonl`, lines.join("\n") + "\n");
  const before = await checkStorage({ kind: "jsonl", dir: dir.path });
  assert.deepEqual(before.damage, []);
  assert.match(before.notes.join(), /JSONL format 1: no checksums yet/);
  {
    await using backend = await JsonlBackend.open({ dir: dir.path });
    assert.deepEqual((await backend.load("old"))?.events, [ev(0), ev(1, { text: MARK })]);
  }
  assert.deepEqual(JSON.parse(await Deno.readTextFile(`${dir.path}/chime-jsonl.json`)), {
    format: 3,
  });
  const stored = (await Deno.readTextFile(`${dir.path}/old.jsonl`)).trim().split("\n");
  assert.equal(stored.length, 3);
  assert.equal(`${stored[0]}\n`, headerLine(header("old")), "the header line gets its checksum");
  for (const line of stored.slice(1)) {
    const e = JSON.parse(line);
    assert.equal(e.crc, eventChecksum("old", e.seq, e.type, e.at, JSON.stringify(e.data)));
  }
  const hash = await sha256(`${dir.path}/old.jsonl`);
  {
    await using _ = await JsonlBackend.open({ dir: dir.path });
  }
  assert.equal(await sha256(`${dir.path}/old.jsonl`), hash, "a second open writes nothing");
  assert.deepEqual((await checkStorage({ kind: "jsonl", dir: dir.path })).damage, []);
  assert.ok(await flipIn(`${dir.path}/old.jsonl`));
  await using backend = await JsonlBackend.open({ dir: dir.path });
  await assert.rejects(backend.load("old"), corrupt("old", 1));
});

Deno.test("JSONL: a folder of an unknown format is refused untouched", async () => {
  await using dir = await tempDir();
  await Deno.writeTextFile(`${dir.path}/chime-jsonl.json`, '{"format":4}\n');
  await assert.rejects(
    JsonlBackend.open({ dir: dir.path }),
    (e) => e instanceof SessionError && e.code === "schema_rejected",
  );
});

if (postgresLanes()) {
  Deno.test("PostgreSQL: damaged event data is `storage_corrupt`, never served", async () => {
    const url = await (await sharedPostgres()).database("crc");
    {
      await using backend = await PostgresBackend.open({ url });
      await fill(backend);
    }
    const sql = postgres(url, { onnotice: () => {} });
    try {
      await sql`UPDATE chime.events SET data = replace(data, 'MARKER', 'NARKER')`;
    } finally {
      await sql.end();
    }
    await using backend = await PostgresBackend.open({ url });
    await expectDamage(backend);
  });

  Deno.test("PostgreSQL: a v1 schema is upgraded in one step with every checksum, and verifies after", async () => {
    const url = await (await sharedPostgres()).database("v1");
    const sql = postgres(url, { onnotice: () => {} });
    try {
      await sql.begin(async (tx) => {
        for (const statement of POSTGRES_MIGRATIONS[0]!.statements) await tx.unsafe(statement);
        await tx`INSERT INTO chime.sessions (id, cwd, created_at, origin)
          VALUES ('old', '/work', '2026-01-01T00:00:00.000Z', 'test')`;
        await tx`INSERT INTO chime.events (session_id, seq, type, at, data) VALUES
          ('old', 0, 'note', '2026-01-01T00:00:00.000Z', '{"n":0}'),
          ('old', 1, 'note', '2026-01-01T00:00:00.000Z', ${JSON.stringify({ text: MARK })})`;
      });
      {
        await using backend = await PostgresBackend.open({ url });
        assert.deepEqual((await backend.load("old"))?.events, [ev(0), ev(1, { text: MARK })]);
      }
      const [info] = await sql`SELECT version FROM chime.schema_info`;
      assert.equal(info!.version, POSTGRES_SCHEMA_VERSION);
      for (const r of await sql`SELECT * FROM chime.events ORDER BY seq`) {
        assert.equal(Number(r.crc), eventChecksum("old", r.seq, r.type, r.at, r.data));
      }
      await sql`UPDATE chime.events SET data = replace(data, 'MARKER', 'NARKER')`;
    } finally {
      await sql.end();
    }
    await using backend = await PostgresBackend.open({ url });
    await assert.rejects(backend.load("old"), corrupt("old", 1));
  });
}
