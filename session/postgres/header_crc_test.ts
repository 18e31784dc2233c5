/**
 * PostgreSQL schema v3: each session header's CRC-32C in `sessions.crc` (`session/_checksum.ts`),
 * written with the header, verified on every read and by the doctor; the upgrade from v2 (and
 * from v1, with the event checksums) computes it once, in the upgrade's one transaction, and a
 * header that did not decode keeps `-1`, so it stays damaged.
 *
 * @module
 */
import assert from "node:assert/strict";
import postgres from "postgres";
import {
  POSTGRES_LAYOUT_QUERY,
  POSTGRES_LAYOUTS,
  POSTGRES_MIGRATIONS,
  POSTGRES_SCHEMA_VERSION,
} from "@chime/migrations";
import type { SessionEvent } from "../event.ts";
import { normalizeHeader, type SessionHeader } from "../header.ts";
import { SessionError } from "../errors.ts";
import { eventChecksum, headerChecksum } from "../_checksum.ts";
import { postgresLanes, sharedPostgres } from "../../tests/_postgres.ts";
import { postgresDriver } from "./driver.ts";
import { PostgresBackend } from "./postgres_backend.ts";

const context = { file: "chime.jsonc", baseDir: "/" };
const AT = "2026-01-01T00:00:00.000Z";

function header(id: string, extra: Partial<SessionHeader> = {}): SessionHeader {
  return {
    version: 1,
    id,
    cwd: "/work",
    createdAt: AT,
    origin: "test",
    lineage: null,
    delegationDepth: 0,
    ...extra,
  };
}

function evs(from: number, to: number): SessionEvent[] {
  return Array.from({ length: to - from }, (_, i) => ({
    seq: from + i,
    type: "note",
    at: AT,
    data: { n: from + i },
  }));
}

/** `storage_corrupt` of a header (no seq), optionally with its reason. */
function headerCorrupt(sessionId: string, what?: string) {
  return (error: unknown) =>
    error instanceof SessionError && error.code === "storage_corrupt" &&
    error.details.sessionId === sessionId && error.details.seq === undefined &&
    (what === undefined || error.details.what === what);
}

/** Runs `body` with a raw client of `url`, then ends it. */
async function raw<T>(url: string, body: (sql: postgres.Sql) => Promise<T>): Promise<T> {
  const sql = postgres(url, { onnotice: () => {} });
  try {
    return await body(sql);
  } finally {
    await sql.end();
  }
}

/** A store of version `version` (1 or 2), made by its released steps, as a host left it. */
async function legacyStore(tx: postgres.TransactionSql, version: number): Promise<void> {
  for (const step of POSTGRES_MIGRATIONS.slice(0, version)) {
    for (const statement of step.statements) await tx.unsafe(statement);
  }
  await tx`UPDATE chime.schema_info SET version = ${version}`;
}

/** `id → crc` of every stored header. */
async function headerCrcs(sql: postgres.Sql): Promise<Record<string, number>> {
  const rows = await sql`SELECT id, crc FROM chime.sessions ORDER BY id`;
  return Object.fromEntries(rows.map((r) => [String(r.id), Number(r.crc)]));
}

if (postgresLanes()) {
  Deno.test("PostgreSQL v3: each header is stored with its checksum; a changed field is `storage_corrupt` for that session only", async () => {
    const url = await (await sharedPostgres()).database("hcrc");
    const a = header("a");
    const b = header("b", {
      createdAt: "2026-02-01T00:00:00.000Z",
      timeZone: "Europe/Berlin",
      seedLength: 2,
      delegationDepth: 1,
    });
    const c = header("c", {
      createdAt: "2026-03-01T00:00:00.000Z",
      lineage: { parentId: "a", forkedThroughSeq: 1 },
    });
    {
      await using backend = await PostgresBackend.open({ url });
      await backend.initialize(a, evs(0, 4));
      await backend.initialize(b, evs(0, 2));
      await backend.fork(c, "a", 1, evs(2, 3));
    }
    await raw(url, async (sql) => {
      assert.deepEqual(await headerCrcs(sql), {
        a: headerChecksum(a),
        b: headerChecksum(b),
        c: headerChecksum(c),
      });
      await sql`UPDATE chime.sessions SET cwd = '/x' WHERE id = 'a'`;
    });
    {
      await using backend = await PostgresBackend.open({ url });
      const damaged = headerCorrupt("a", "header checksum mismatch");
      await assert.rejects(backend.cursor("a"), damaged);
      await assert.rejects(backend.load("a"), damaged);
      await assert.rejects(backend.tail("a", 2), damaged);
      assert.deepEqual(await backend.load("b"), { header: normalizeHeader(b), events: evs(0, 2) });
      assert.deepEqual((await backend.tail("c", 1))?.header, normalizeHeader(c));
      assert.deepEqual((await backend.list()).map((h) => h.id), ["c", "b"], "a is left out");
    }
    const report = await postgresDriver.check!(
      postgresDriver.parse({ kind: "postgres", url }, context),
    );
    assert.deepEqual([report.sessions, report.events, report.notes], [3, 9, []]);
    assert.deepEqual(report.damage, [{ sessionId: "a", what: "header checksum mismatch" }]);
  });

  Deno.test("PostgreSQL v2 → v3 in one step: every header that decodes gets its checksum, events keep theirs, a damaged header keeps -1", async () => {
    const url = await (await sharedPostgres()).database("v2");
    const settings = postgresDriver.parse({ kind: "postgres", url }, context);
    const old = header("old", { timeZone: "Europe/Berlin", seedLength: 1 });
    const before = await raw(url, async (sql) => {
      await sql.begin(async (tx) => {
        await legacyStore(tx, 2);
        await tx`INSERT INTO chime.sessions (id, cwd, created_at, origin, time_zone, seed_length)
          VALUES ('old', '/work', ${AT}, 'test', 'Europe/Berlin', 1),
            ('bad', '/work', ${AT}, 'test', 'EuroTe/Berlin', NULL),
            ('kept', '/work', ${AT}, 'test', NULL, NULL)`;
        // More headers than one page of the fill (2,000), so its keyset paging is exercised.
        await tx`INSERT INTO chime.sessions (id, cwd, created_at, origin)
          SELECT 'many-' || lpad(n::text, 4, '0'), '/work', ${AT}, 'test'
          FROM generate_series(1, 2500) AS n`;
        // `kept` 0 holds a stale checksum (7): were it recomputed, it would read as sound.
        const rows = [["old", 0], ["old", 1], ["bad", 0], ["kept", 0]] as const;
        for (const [id, seq] of rows) {
          const data = JSON.stringify({ n: seq });
          const crc = id === "kept" ? 7 : eventChecksum(id, seq, "note", AT, data);
          await tx`INSERT INTO chime.events (session_id, seq, type, at, data, crc) VALUES
            (${id}, ${seq}, 'note', ${AT}, ${data}, ${crc})`;
        }
      });
      return await sql`SELECT session_id, seq, crc, xmin::text AS x FROM chime.events
        ORDER BY session_id, seq`;
    });
    // The doctor reads a v2 store without `sessions.crc` and writes nothing.
    const doctor = await postgresDriver.check!(settings);
    assert.deepEqual(doctor.damage, [{ what: "schema version 2 (opening upgrades it)" }]);
    assert.deepEqual(doctor.notes, [
      "schema version 2: headers have no checksums yet (opening computes them once)",
    ]);
    {
      await using backend = await PostgresBackend.open({ url });
      assert.deepEqual(await backend.load("old"), {
        header: normalizeHeader(old),
        events: evs(0, 2),
      });
      await assert.rejects(backend.cursor("bad"), headerCorrupt("bad"));
      // The stored event checksum was kept, not recomputed: the stale one still fails.
      await assert.rejects(
        backend.load("kept"),
        (e) => e instanceof SessionError && e.code === "storage_corrupt" && e.details.seq === 0,
      );
      assert.deepEqual((await backend.cursor("kept"))?.header, normalizeHeader(header("kept")));
    }
    await raw(url, async (sql) => {
      const [info] = await sql`SELECT version FROM chime.schema_info`;
      assert.equal(info!.version, POSTGRES_SCHEMA_VERSION);
      const layout = (await sql.unsafe(POSTGRES_LAYOUT_QUERY)).map((r) => r.layout).sort();
      assert.equal(layout.join("\n"), POSTGRES_LAYOUTS[3]);
      const crcs = await headerCrcs(sql);
      assert.equal(Object.keys(crcs).length, 2503);
      for (let n = 1; n <= 2500; n++) {
        const id = `many-${String(n).padStart(4, "0")}`;
        assert.equal(crcs[id], headerChecksum(header(id)), id);
      }
      assert.deepEqual([crcs.bad, crcs.kept, crcs.old], [
        -1,
        headerChecksum(header("kept")),
        headerChecksum(old),
      ]);
      const after = await sql`SELECT session_id, seq, crc, xmin::text AS x FROM chime.events
        ORDER BY session_id, seq`;
      assert.deepEqual([...after], [...before], "event rows untouched (same crc, same xmin)");
      // Repairing the field afterwards does not make it verify: -1 is never a checksum.
      await sql`UPDATE chime.sessions SET time_zone = 'Europe/Berlin' WHERE id = 'bad'`;
    });
    await using backend = await PostgresBackend.open({ url });
    await assert.rejects(backend.cursor("bad"), headerCorrupt("bad", "header checksum mismatch"));
  });

  Deno.test("PostgreSQL v1 → v3 in one transaction: event and header checksums both computed", async () => {
    const url = await (await sharedPostgres()).database("v1");
    const settings = postgresDriver.parse({ kind: "postgres", url }, context);
    await raw(url, async (sql) => {
      await sql.begin(async (tx) => {
        await legacyStore(tx, 1);
        await tx`INSERT INTO chime.sessions (id, cwd, created_at, origin)
          VALUES ('x', '/work', ${AT}, 'test'), ('y', '/work', ${AT}, 'test')`;
        await tx`INSERT INTO chime.events (session_id, seq, type, at, data) VALUES
          ('x', 0, 'note', ${AT}, '{"n":0}'), ('x', 1, 'note', ${AT}, '{"n":1}'),
          ('y', 0, 'note', ${AT}, '{"n":0}')`;
      });
    });
    const doctor = await postgresDriver.check!(settings);
    assert.deepEqual(doctor.notes, [
      "schema version 1: no checksums yet (opening computes them once)",
    ]);
    {
      await using backend = await PostgresBackend.open({ url });
      assert.deepEqual(await backend.load("x"), { header: header("x"), events: evs(0, 2) });
      assert.deepEqual((await backend.tail("y", 5))?.events, evs(0, 1));
    }
    await raw(url, async (sql) => {
      const [info] = await sql`SELECT version, xmin::text AS x FROM chime.schema_info`;
      assert.equal(info!.version, POSTGRES_SCHEMA_VERSION);
      assert.deepEqual(await headerCrcs(sql), {
        x: headerChecksum(header("x")),
        y: headerChecksum(header("y")),
      });
      const events =
        await sql`SELECT * , xmin::text AS x FROM chime.events ORDER BY session_id, seq`;
      for (const r of events) {
        assert.equal(Number(r.crc), eventChecksum(r.session_id, r.seq, r.type, r.at, r.data));
      }
      // One transaction wrote the marker, every header checksum and every event checksum.
      const sessions = await sql`SELECT xmin::text AS x FROM chime.sessions`;
      const writers = new Set([info!, ...sessions, ...events].map((r) => r.x));
      assert.deepEqual([...writers], [info!.x]);
    });
    assert.deepEqual((await postgresDriver.check!(settings)).damage, []);
  });
}
