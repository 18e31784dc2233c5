import assert from "node:assert/strict";
import { CREATE_V13, CREATE_V16, CREATE_V17 } from "@chime/migrations";
import { eventChecksum } from "./_checksum.ts";
import { checkStorage, doctorMain, formatReport } from "./doctor.ts";
import { JsonlBackend } from "./jsonl/jsonl_backend.ts";
import { LibsqlBackend } from "./libsql/libsql_backend.ts";
import { SessionError } from "./errors.ts";
import { evs, header, sha256, tempDir } from "../tests/session/_helpers.ts";
import { buildDamaged, runSql } from "../tests/session/_damage.ts";

const DOCTOR = new URL("./doctor.ts", import.meta.url);

async function hashes(dir: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for await (const entry of Deno.readDir(dir)) {
    if (entry.isFile) out[entry.name] = await sha256(`${dir}/${entry.name}`);
  }
  return out;
}

/** Runs `deno task doctor`'s script as a real process. */
async function doctor(path: string): Promise<{ code: number; stdout: string }> {
  const { code, stdout } = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", DOCTOR.pathname, path],
    stdout: "piped",
    stderr: "inherit",
  }).output();
  return { code, stdout: new TextDecoder().decode(stdout) };
}

Deno.test("the doctor reports every damaged row, missing seq and orphan event, leaving the database byte for byte", async () => {
  await using dir = await tempDir();
  await buildDamaged(`file:${dir.path}/chime.db`, {
    sessions: { a: 4, b: 6, c: 2 },
    sql: [
      "UPDATE events SET data = CAST(x'7b226e223aff7d' AS TEXT) WHERE session_id = 'a' AND seq = 1",
      "UPDATE sessions SET cwd = CAST(x'2fff' AS TEXT) WHERE id = 'c'",
      "DELETE FROM events WHERE session_id = 'b' AND seq IN (2, 3)",
      "DELETE FROM events WHERE session_id = 'b' AND seq = 5",
      "UPDATE events SET data = 'nope' WHERE session_id = 'b' AND seq = 4",
      "INSERT INTO events VALUES ('zz', 0, 'note', 'x', '{}', -1)",
      "INSERT INTO events VALUES (CAST(x'41ff' AS TEXT), 0, 'note', 'x', '{}', -1)",
    ],
  });
  const before = await hashes(dir.path);
  const { code, stdout } = await doctor(`${dir.path}/chime.db`);
  assert.equal(code, 1);
  assert.deepEqual(stdout.trim().split("\n"), [
    "damage: session c: cwd is not valid UTF-8",
    "damage: session A\uFFFD: events without a header",
    "damage: session A\uFFFD seq 0: checksum mismatch",
    "damage: session a seq 1: data is not valid UTF-8",
    "damage: session b seq 2: missing (seqs 2..3)",
    "damage: session b seq 4: checksum mismatch",
    "damage: session zz: events without a header",
    "damage: session zz seq 0: checksum mismatch",
    `chime doctor: ${dir.path}/chime.db: 3 sessions, 11 events, 8 damaged`,
  ]);
  assert.deepEqual(await hashes(dir.path), before, "nothing changed, nothing created");
});

Deno.test("the doctor reads a leftover WAL without checkpointing it into the database", async () => {
  await using dir = await tempDir();
  const url = `file:${dir.path}/chime.db`;
  await buildDamaged(url, { sessions: { w: 3, long: 2_500 }, sql: [], crash: true });
  assert.ok((await Deno.stat(`${dir.path}/chime.db-wal`)).size > 0, "a WAL was left behind");
  const before = await hashes(dir.path);
  const report = await checkStorage({ kind: "libsql", url });
  assert.deepEqual(report.damage, []);
  assert.equal(report.events, 2_503, "read in pages past the first");
  assert.deepEqual(await hashes(dir.path), before);
  assert.equal(await doctorMain([url], () => {}), 0);
});

Deno.test("the doctor scans a legacy v13 database and refuses a foreign or garbage file as damage", async () => {
  await using dir = await tempDir();
  const v13 = `file:${dir.path}/v13.db`;
  await runSql(
    v13,
    ...CREATE_V13,
    "INSERT INTO sessions (id, cwd, created_at, origin) VALUES ('old', '/', '2025-01-01T00:00:00.000Z', 'web')",
  );
  const legacy = await checkStorage({ kind: "libsql", url: v13 });
  assert.deepEqual([legacy.sessions, legacy.damage], [1, []]);
  await runSql(`file:${dir.path}/foreign.db`, "CREATE TABLE t (x)");
  const foreign = await checkStorage({ kind: "libsql", url: `file:${dir.path}/foreign.db` });
  assert.equal(foreign.damage.length, 1);
  await Deno.writeTextFile(`${dir.path}/garbage.db`, "x".repeat(4096));
  const garbage = await checkStorage({ kind: "libsql", url: `file:${dir.path}/garbage.db` });
  assert.match(garbage.damage[0]!.what, /unreadable database/);
  assert.match(formatReport(garbage).at(-1)!, /1 damaged$/);
  await Deno.writeFile(`${dir.path}/empty.db`, new Uint8Array());
  const empty = await checkStorage({ kind: "libsql", url: `file:${dir.path}/empty.db` });
  assert.deepEqual(empty.damage, [{ what: "no chime schema" }]);
});

Deno.test("the doctor verifies a v16 database's checksums (v16 rows have them) and notes the upgrade step", async () => {
  await using dir = await tempDir();
  const url = `file:${dir.path}/v16.db`;
  const at = "2025-01-01T00:00:00.000Z";
  const crc = eventChecksum("old", 0, "note", at, '{"n":0}');
  await runSql(
    url,
    ...CREATE_V16,
    `INSERT INTO sessions (id, cwd, created_at, origin) VALUES ('old', '/', '${at}', 'web')`,
    // Row 0 as written, then row 1 whose data changed after its checksum was computed.
    `INSERT INTO events VALUES ('old', 0, 'note', '${at}', '{"n":0}', ${crc})`,
    `INSERT INTO events VALUES ('old', 1, 'note', '${at}', '{"n":7}', ${crc})`,
  );
  const report = await checkStorage({ kind: "libsql", url });
  assert.equal(report.events, 2);
  assert.deepEqual(report.damage.map((d) => d.seq), [1]);
  assert.deepEqual(report.notes, [
    "schema version 16: no header checksums yet (opening computes them once and adds the " +
    "events_typed index)",
  ]);
});

Deno.test("the doctor reads a v17 database's headers without checksums and notes the v18 step", async () => {
  await using dir = await tempDir();
  const url = `file:${dir.path}/v17.db`;
  const at = "2025-01-01T00:00:00.000Z";
  await runSql(
    url,
    ...CREATE_V17,
    `INSERT INTO sessions (id, cwd, created_at, origin) VALUES ('old', '/', '${at}', 'web')`,
    `INSERT INTO sessions (id, cwd, created_at, origin) VALUES ('bad', '/', '${at}', 'web')`,
    "UPDATE sessions SET delegation_depth = -1 WHERE id = 'bad'",
  );
  const report = await checkStorage({ kind: "libsql", url });
  assert.equal(report.sessions, 2);
  assert.deepEqual(report.damage, [{ sessionId: "bad", what: "the header fields are invalid" }]);
  assert.deepEqual(report.notes, [
    "schema version 17: no header checksums yet (opening computes them once)",
  ]);
});

Deno.test("the doctor reports damaged JSONL lines and notes a torn tail, changing nothing", async () => {
  await using dir = await tempDir();
  {
    await using backend = await JsonlBackend.open({ dir: dir.path });
    await backend.initialize(header("ok"), evs(0, 2));
    await backend.initialize(header("bad"), evs(0, 3));
  }
  const path = `${dir.path}/bad.jsonl`;
  const lines = (await Deno.readTextFile(path)).split("\n");
  lines[2] = "{not json";
  await Deno.writeTextFile(path, lines.join("\n") + '{"seq":3,"ty');
  await Deno.writeTextFile(`${dir.path}/notes.txt`, "ignored");
  const before = await hashes(dir.path);
  const out: string[] = [];
  assert.equal(await doctorMain([dir.path], (line) => out.push(line)), 1);
  assert.deepEqual(out, [
    "damage: session bad seq 1: line is not JSON",
    "note: session bad: torn tail at byte " + (lines.join("\n").length) +
    " (set aside on next open)",
    `chime doctor: ${dir.path}: 2 sessions, 4 events, 1 damaged`,
  ]);
  assert.deepEqual(await hashes(dir.path), before);
  await Deno.remove(path);
  assert.equal(await doctorMain([dir.path], () => {}), 0);
});

Deno.test("the doctor refuses a store a host is writing, a remote URL and bad arguments (exit 2)", async () => {
  await using dir = await tempDir();
  const url = `file:${dir.path}/chime.db`;
  {
    await using _writer = await LibsqlBackend.open({ url });
    await assert.rejects(
      checkStorage({ kind: "libsql", url }),
      (e) => e instanceof SessionError && e.code === "storage_in_use",
    );
    const out: string[] = [];
    assert.equal(await doctorMain([url], (line) => out.push(line)), 2);
    assert.match(out[0]!, /^chime doctor: storage_in_use: /);
  }
  {
    await using _writer = await JsonlBackend.open({ dir: dir.path });
    await assert.rejects(checkStorage({ kind: "jsonl", dir: dir.path }));
  }
  await assert.rejects(
    checkStorage({ kind: "libsql", url: "libsql://example.invalid" }),
    (e) => e instanceof SessionError && e.code === "invalid_arguments",
  );
  for (const args of [[], ["--help"], ["a", "b"], [`${dir.path}/missing.db`]]) {
    assert.equal(await doctorMain(args, () => {}), 2, args.join(" "));
  }
});
