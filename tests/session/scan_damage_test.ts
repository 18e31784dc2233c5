/**
 * `SessionStore.readTypeAcross` and `scanTypes` with `onDamage` (session/_store_scan.ts): one
 * session's damaged row is reported and that session left out, while every row before it in the
 * same backend page and every later session is still read, on libSQL (keyset pages of the type
 * index, read again in halves down to the failing row) and JSONL (one read per session).
 *
 * @module
 */
import assert from "node:assert/strict";
import { LibsqlBackend } from "@chime/session/libsql";
import { JsonlBackend } from "@chime/session/jsonl";
import { type PersistenceBackend, SessionError, SessionStore } from "@chime/session";
import { header, tempDir } from "./_helpers.ts";
import { runSql } from "./_damage.ts";

const IDS = ["s0", "s1", "s2", "s3", "s4"];
const at = "2026-01-01T00:00:00.000Z";
const events = (n: number) =>
  Array.from({ length: n }, (_, seq) => ({
    seq,
    type: seq % 2 === 0 ? "schedule/change" : "note",
    at,
    data: { n: seq },
  }));

async function fill(backend: PersistenceBackend): Promise<void> {
  for (const id of IDS) await backend.initialize(header(id), events(9));
}

for (const kind of ["libsql", "jsonl"] as const) {
  Deno.test(`a ${kind} scan with onDamage leaves out the damaged session only`, async () => {
    await using dir = await tempDir();
    const url = `file:${dir.path}/chime.db`;
    const open = () =>
      kind === "libsql"
        ? LibsqlBackend.open({ url })
        : JsonlBackend.open({ dir: `${dir.path}/logs` });
    {
      await using backend = await open();
      await fill(backend);
    }
    if (kind === "libsql") {
      await runSql(url, `UPDATE events SET data = '{"n":7}' WHERE session_id = 's2' AND seq = 4`);
    } else {
      const path = `${dir.path}/logs/s2.jsonl`;
      const text = await Deno.readTextFile(path);
      await Deno.writeTextFile(path, text.replace('"data":{"n":4}', '"data":{"n":7}'));
    }
    await using store = new SessionStore({ backend: await open() });
    const types = ["schedule/change"];
    await assert.rejects(
      (async () => {
        for await (const _ of store.readTypeAcross(types, 3)) { /* raises */ }
      })(),
      (e) => e instanceof SessionError && e.code === "storage_corrupt",
      "without onDamage the damage is raised",
    );
    const reported: unknown[] = [];
    const seen: Record<string, number[]> = {};
    for await (
      const { sessionId, events } of store.readTypeAcross(
        types,
        3,
        (e) => reported.push((e as SessionError).details),
      )
    ) {
      seen[sessionId] = events.map((e) => e.seq);
    }
    const all = [0, 2, 4, 6, 8];
    assert.deepEqual(seen, { s0: all, s1: all, s3: all, s4: all });
    assert.deepEqual(reported, [{ sessionId: "s2", seq: 4, what: "checksum mismatch" }]);
    const scanned: string[] = [];
    const scanReported: unknown[] = [];
    for await (
      const part of store.scanTypes(types, 3, (e) => scanReported.push((e as SessionError).details))
    ) {
      scanned.push(`${part.header.id}:${part.length}:${part.events.length}`);
    }
    assert.deepEqual(scanned, ["s0:9:5", "s1:9:5", "s3:9:5", "s4:9:5"]);
    assert.equal(scanReported.length, 1);
  });
}
