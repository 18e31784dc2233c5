import assert from "node:assert/strict";
import { createClient } from "@libsql/client";
import {
  APPLICATION_ID,
  CREATE_V13,
  CREATE_V14,
  CREATE_V15,
  CREATE_V16,
  CREATE_V17,
  CREATE_V18,
} from "@chime/migrations";
import { eventChecksum, headerChecksum } from "../_checksum.ts";
import { LibsqlBackend } from "./libsql_backend.ts";
import { SessionError } from "../errors.ts";
import { ev, evs, header, sha256, tempDir } from "../../tests/session/_helpers.ts";

async function build(path: string, statements: readonly string[]): Promise<void> {
  const client = createClient({ url: `file:${path}` });
  try {
    await client.batch([...statements], "write");
  } finally {
    client.close();
  }
}

const V13_ROWS = [
  "INSERT INTO sessions (id, cwd, created_at, origin, parent_id, forked_through_seq, " +
  "delegation_depth, seed_length) VALUES ('old', '/w', '2025-01-01T00:00:00.000Z', 'web', " +
  "NULL, NULL, 0, NULL), ('kid', '/w', '2025-01-02T00:00:00.000Z', 'fork', 'old', 1, 1, 3)",
  "INSERT INTO events (session_id, seq, type, at, data) VALUES ('old', 0, 'note', '2025-01-01T00:00:00.000Z', '{\"n\":0}'), " +
  "('old', 1, 'note', '2025-01-01T00:00:01.000Z', '{\"n\":1}')",
];

function changeCounter(bytes: Uint8Array): number {
  return new DataView(bytes.buffer, bytes.byteOffset).getUint32(24);
}

async function rejects(path: string): Promise<void> {
  const before = await sha256(path);
  await assert.rejects(
    LibsqlBackend.open({ url: `file:${path}` }),
    (e) => e instanceof SessionError && e.code === "schema_rejected",
  );
  assert.equal(await sha256(path), before);
}

Deno.test("`LibsqlBackend.open()` creates schema v18 with WAL and synchronous FULL", async () => {
  await using dir = await tempDir();
  const url = `file:${dir.path}/a.db`;
  {
    await using _ = await LibsqlBackend.open({ url });
  }
  const client = createClient({ url });
  try {
    const pragma = async (name: string) => (await client.execute(`PRAGMA ${name}`)).rows[0]![0];
    assert.equal(await pragma("application_id"), APPLICATION_ID);
    assert.equal(await pragma("user_version"), 18);
    assert.equal(await pragma("journal_mode"), "wal");
  } finally {
    client.close();
  }
  await using again = await LibsqlBackend.open({ url });
  assert.deepEqual(await again.list(), []);
});

Deno.test("`LibsqlBackend.open()` upgrades real v13–v17 databases to v18 in one transaction, checksums included", async () => {
  await using dir = await tempDir();
  const paths = {
    v13: `${dir.path}/v13.db`,
    v14: `${dir.path}/v14.db`,
    v15: `${dir.path}/v15.db`,
    v16: `${dir.path}/v16.db`,
    v17: `${dir.path}/v17.db`,
    v18: `${dir.path}/v18.db`,
  };
  await build(paths.v13, [...CREATE_V13, ...V13_ROWS]);
  await build(paths.v14, [...CREATE_V14, ...V13_ROWS]);
  await build(paths.v15, [...CREATE_V15, ...V13_ROWS]);
  await build(paths.v16, [...CREATE_V16, ...v16Rows()]);
  await build(paths.v17, [...CREATE_V17, ...v16Rows()]);
  await build(paths.v18, [...CREATE_V18]);
  const counter = async (path: string) => changeCounter(await Deno.readFile(path));
  const before = {
    v13: await counter(paths.v13),
    v14: await counter(paths.v14),
    v15: await counter(paths.v15),
    v16: await counter(paths.v16),
    v17: await counter(paths.v17),
    v18: await counter(paths.v18),
  };
  {
    await using _ = await LibsqlBackend.open({ url: `file:${paths.v18}` });
  }
  const legacy = [paths.v13, paths.v14, paths.v15, paths.v16, paths.v17];
  for (const path of legacy) {
    await using backend = await LibsqlBackend.open({ url: `file:${path}` });
    const old = await backend.load("old");
    assert.deepEqual(
      old?.header,
      header("old", { cwd: "/w", createdAt: "2025-01-01T00:00:00.000Z", origin: "web" }),
    );
    assert.equal(old?.header.timeZone, undefined);
    assert.deepEqual(old?.events.map((e) => e.data), [{ n: 0 }, { n: 1 }]);
    const kid = (await backend.cursor("kid"))!;
    assert.deepEqual(kid.header.lineage, { parentId: "old", forkedThroughSeq: 1 });
    assert.equal(kid.header.seedLength, 3);
    assert.equal(kid.header.delegationDepth, 1);
    await backend.append("old", [ev(2)]);
    assert.deepEqual((await backend.readByType("old", ["note"], 1, 10)).map((e) => e.seq), [1, 2]);
  }
  // Rollback-journal commits bump the header's change counter once each; the WAL switch after
  // acceptance bumps it once for every file, so each upgrade itself is exactly one transaction.
  const delta18 = (await counter(paths.v18)) - before.v18;
  assert.equal((await counter(paths.v13)) - before.v13 - delta18, 1);
  assert.equal((await counter(paths.v14)) - before.v14 - delta18, 1);
  assert.equal((await counter(paths.v15)) - before.v15 - delta18, 1);
  assert.equal((await counter(paths.v16)) - before.v16 - delta18, 1);
  assert.equal((await counter(paths.v17)) - before.v17 - delta18, 1);
  for (const path of legacy) {
    const client = createClient({ url: `file:${path}` });
    try {
      assert.equal((await client.execute("PRAGMA user_version")).rows[0]![0], 18);
      await using backend = await LibsqlBackend.open({ url: `file:${path}` });
      const heads = await client.execute("SELECT id, crc FROM sessions ORDER BY id");
      for (const r of heads.rows) {
        const stored = (await backend.cursor(String(r.id)))!.header;
        assert.equal(r.crc, headerChecksum(stored), `the header of ${r.id} got its checksum`);
      }
      const crcs = await client.execute(
        "SELECT session_id, seq, type, at, data, crc FROM events ORDER BY session_id, seq",
      );
      for (const r of crcs.rows) {
        const { session_id, seq, type, at, data } = r as unknown as Record<string, string>;
        assert.equal(r.crc, eventChecksum(session_id!, Number(seq), type!, at!, data!));
      }
      const zones = await client.execute("SELECT time_zone FROM sessions");
      assert.deepEqual(zones.rows.map((r) => r.time_zone), [null, null]);
      const leases = await client.execute("SELECT count(*) AS n FROM session_leases");
      assert.equal(leases.rows[0]!.n, 0, "no lease is made up for existing sessions");
      const plan = await client.execute(
        "EXPLAIN QUERY PLAN SELECT seq FROM events WHERE session_id = 'old' AND type = 'note'",
      );
      assert.match(String(plan.rows.map((r) => r.detail)), /events_by_type/);
      const typed = await client.execute(
        "SELECT count(*) AS n FROM events INDEXED BY events_typed WHERE " +
          "type IN ('schedule/change', 'session/deleted', 'user-rpc')",
      );
      assert.equal(typed.rows[0]!.n, 0, "events_typed holds the typed events (none here)");
    } finally {
      client.close();
    }
  }
});

/** The v13 fixture rows in a v16 file (with the checksum each row has there). */
function v16Rows(): string[] {
  const crc = (seq: number, at: string, data: string) =>
    eventChecksum("old", seq, "note", at, data);
  const at = ["2025-01-01T00:00:00.000Z", "2025-01-01T00:00:01.000Z"];
  return [
    V13_ROWS[0]!,
    "INSERT INTO events VALUES " +
    `('old', 0, 'note', '${at[0]}', '{"n":0}', ${crc(0, at[0]!, '{"n":0}')}), ` +
    `('old', 1, 'note', '${at[1]}', '{"n":1}', ${crc(1, at[1]!, '{"n":1}')})`,
  ];
}

Deno.test("the v16→v17 upgrade keeps each stored checksum: a damaged v16 row stays damaged", async () => {
  await using dir = await tempDir();
  const path = `${dir.path}/v16.db`;
  const rows = v16Rows();
  // Row 1's data changed after its checksum was written: the upgrade must not recompute it.
  await build(path, [...CREATE_V16, rows[0]!, rows[1]!.replace(`'{"n":1}', `, `'{"n":7}', `)]);
  await using backend = await LibsqlBackend.open({ url: `file:${path}` });
  await assert.rejects(
    backend.load("old"),
    (e) => e instanceof SessionError && e.code === "storage_corrupt",
  );
});

Deno.test("`LibsqlBackend.open()` rejects older, newer, foreign and forged databases unchanged", async () => {
  await using dir = await tempDir();
  const cases: Record<string, readonly string[]> = {
    older: [...CREATE_V13.slice(0, -1), "PRAGMA user_version = 12"],
    newer: [...CREATE_V18.slice(0, -1), "PRAGMA user_version = 19"],
    v17AsV18: [...CREATE_V17.slice(0, -1), "PRAGMA user_version = 18"],
    v15AsV16: [...CREATE_V15.slice(0, -1), "PRAGMA user_version = 16"],
    v16AsV17: [...CREATE_V16.slice(0, -1), "PRAGMA user_version = 17"],
    v14AsV15: [...CREATE_V14.slice(0, -1), "PRAGMA user_version = 15"],
    v15AsV14: [...CREATE_V15.slice(0, -1), "PRAGMA user_version = 14"],
    forgedLeases: [
      ...CREATE_V14,
      "CREATE INDEX events_by_type ON events (session_id, type, seq)",
      "CREATE TABLE session_leases (session_id TEXT PRIMARY KEY NOT NULL, token INTEGER)",
      "PRAGMA user_version = 15",
    ],
    foreignV15: [
      ...CREATE_V15.slice(0, 4),
      "PRAGMA application_id = 7",
      "PRAGMA user_version = 15",
    ],
    foreign: [...CREATE_V14.slice(0, 2), "PRAGMA application_id = 42", "PRAGMA user_version = 14"],
    unowned: ["CREATE TABLE notes (body TEXT)"],
    forgedIndex: [...CREATE_V14, "CREATE INDEX events_by_type ON events (type)"],
    forgedColumn: [...CREATE_V13, "ALTER TABLE sessions ADD COLUMN time_zone INTEGER"],
    forgedV13: [...CREATE_V13.slice(0, -1), "PRAGMA user_version = 14"],
  };
  for (const [name, statements] of Object.entries(cases)) {
    const path = `${dir.path}/${name}.db`;
    await build(path, [...statements, ...(name === "unowned" ? [] : V13_ROWS.slice(1))]);
    await rejects(path);
  }
  const garbage = `${dir.path}/garbage.db`;
  await Deno.writeTextFile(garbage, "this is not a database, just text ".repeat(200));
  await rejects(garbage);
});

Deno.test("`LibsqlBackend.open()`: of two racing openers of one fresh file, exactly one writes", async () => {
  await using dir = await tempDir();
  const url = `file:${dir.path}/race.db`;
  const results = await Promise.allSettled([
    LibsqlBackend.open({ url }),
    LibsqlBackend.open({ url }),
  ]);
  const opened = results.flatMap((r) => r.status === "fulfilled" ? [r.value] : []);
  const refused = results.flatMap((r) => r.status === "rejected" ? [r.reason] : []);
  assert.equal(opened.length, 1);
  assert.ok(refused[0] instanceof SessionError && refused[0].code === "storage_in_use");
  await using a = opened[0]!;
  await a.initialize(header("s"), []);
  assert.equal((await a.cursor("s"))?.length, 0);
});

Deno.test("`LibsqlBackend` accepts a non-file URL (in-memory)", async () => {
  await using backend = await LibsqlBackend.open({ url: ":memory:", authToken: "unused" });
  await backend.initialize(header("m"), evs(0, 2));
  assert.equal((await backend.cursor("m"))?.length, 2);
});

Deno.test("`LibsqlBackend` group-commits calls from many sessions in one transaction", async () => {
  await using dir = await tempDir();
  await using backend = await LibsqlBackend.open({ url: `file:${dir.path}/g.db` });
  const ids = Array.from({ length: 50 }, (_, i) => `s${i}`);
  await Promise.all(ids.map((id) => backend.initialize(header(id), evs(0, 1))));
  assert.equal(backend.commits, 1);
  await Promise.all(ids.map((id) => backend.append(id, evs(1, 3))));
  assert.equal(backend.commits, 2);
  assert.equal((await backend.cursor("s49"))?.length, 3);
});

Deno.test("`LibsqlBackend.append()` rejects a bad call without failing its group", async () => {
  await using dir = await tempDir();
  await using backend = await LibsqlBackend.open({ url: `file:${dir.path}/v.db` });
  await backend.initialize(header("a"), evs(0, 2));
  await backend.initialize(header("b"), []);
  const commits = backend.commits;
  const results = await Promise.allSettled([
    backend.append("a", [ev(2)]),
    backend.append("b", [ev(1)]),
    backend.append("ghost", [ev(0)]),
    backend.initialize(header("a"), []),
    backend.initialize(header("c"), [ev(1)]),
    backend.append("b", [ev(0, { big: 1n })]),
    backend.append("a", [ev(3), ev(5)]),
    backend.append("a", [ev(3), { ...ev(4), data: undefined }]),
    backend.append("a", []),
  ]);
  const codes = results.map((r) =>
    r.status === "fulfilled" ? "ok" : r.reason instanceof SessionError ? r.reason.code : "error"
  );
  assert.deepEqual(codes, [
    "ok",
    "invalid_seq",
    "session_not_found",
    "session_exists",
    "invalid_seq",
    "error",
    "invalid_seq",
    "ok",
    "ok",
  ]);
  assert.equal(backend.commits, commits + 1);
  assert.deepEqual((await backend.load("a"))?.events.map((e) => e.data), [
    { n: 0 },
    { n: 1 },
    { n: 2 },
    { n: 3 },
    null,
  ]);
});

Deno.test("`LibsqlBackend` retries a failed shared commit call by call", async () => {
  await using dir = await tempDir();
  const url = `file:${dir.path}/r.db`;
  await using backend = await LibsqlBackend.open({ url });
  await backend.initialize(header("a"), evs(0, 1));
  await backend.initialize(header("b"), evs(0, 1));
  // Another writer makes the cached length of `a` stale: the shared batch hits the primary key.
  const other = createClient({ url });
  await other.execute("INSERT INTO events VALUES ('a', 1, 'note', 'x', '{}', -1)");
  const [a, b] = await Promise.allSettled([
    backend.append("a", [ev(1)]),
    backend.append("b", [ev(1)]),
  ]);
  assert.equal(a.status === "rejected" && (a.reason as SessionError).code, "invalid_seq");
  assert.equal(b.status, "fulfilled");
  // A lone call that fails is rejected with the driver's error.
  await other.execute("INSERT INTO events VALUES ('b', 2, 'note', 'x', '{}', -1)");
  await assert.rejects(backend.append("b", [ev(2)]), (e) => !(e instanceof SessionError));
  await other.execute("DROP TABLE sessions");
  other.close();
  await assert.rejects(backend.append("zzz", [ev(0)]), /no such table/);
});

Deno.test("`LibsqlBackend.readEvents()` pages by seq bounds", async () => {
  await using dir = await tempDir();
  await using backend = await LibsqlBackend.open({ url: `file:${dir.path}/p.db` });
  await backend.initialize(header("p"), evs(0, 1200));
  const seqs = async (page: Parameters<typeof backend.readEvents>[1]) =>
    (await backend.readEvents("p", page)).map((e) => e.seq);
  assert.deepEqual(await seqs({ before: 10, limit: 3 }), [7, 8, 9]);
  assert.deepEqual(await seqs({ after: 10, limit: 3 }), [11, 12, 13]);
  assert.deepEqual(await seqs({ after: 3, before: 6 }), [4, 5]);
  assert.equal((await seqs(undefined)).length, 500);
  assert.deepEqual(await seqs({ before: 0 }), []);
  assert.deepEqual(await backend.readEvents("nobody"), []);
  await assert.rejects(backend.readEvents("p", { limit: -1 }), RangeError);
});

Deno.test("`LibsqlBackend` lists headers newest first and loads nothing for unknown ids", async () => {
  await using dir = await tempDir();
  await using backend = await LibsqlBackend.open({ url: `file:${dir.path}/l.db` });
  await backend.initialize(header("x", { createdAt: "2026-01-01T00:00:00.000Z" }), []);
  await backend.initialize(
    header("y", { createdAt: "2026-02-01T00:00:00.000Z", timeZone: "Asia/Calcutta" }),
    [],
  );
  assert.deepEqual((await backend.list()).map((h) => [h.id, h.timeZone]), [
    ["y", "Asia/Calcutta"],
    ["x", undefined],
  ]);
  assert.equal(await backend.load("nobody"), undefined);
  assert.equal(await backend.cursor("nobody"), undefined);
});

Deno.test("`LibsqlBackend` waits for queued writes on dispose and refuses later ones", async () => {
  await using dir = await tempDir();
  const backend = await LibsqlBackend.open({ url: `file:${dir.path}/d.db` });
  const pending = backend.initialize(header("d"), evs(0, 3));
  await backend[Symbol.asyncDispose]();
  await pending;
  await assert.rejects(
    backend.append("d", [ev(3)]),
    (e) => e instanceof SessionError && e.code === "persistence_failed",
  );
  await using again = await LibsqlBackend.open({ url: `file:${dir.path}/d.db` });
  assert.equal((await again.cursor("d"))?.length, 3);
});

Deno.test("`LibsqlBackend.open()` refuses a database file another handle is writing", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const url = `file:${dir}/one.db`;
    const first = await LibsqlBackend.open({ url });
    await assert.rejects(
      () => LibsqlBackend.open({ url }),
      (e) => e instanceof SessionError && e.code === "storage_in_use",
    );
    await first[Symbol.asyncDispose]();
    // Released with the first handle: the file opens again.
    await (await LibsqlBackend.open({ url }))[Symbol.asyncDispose]();
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
