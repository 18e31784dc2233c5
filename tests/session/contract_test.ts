/** The PersistenceBackend contract, run against every backend. */
import assert from "node:assert/strict";
import { SessionError } from "../../session/errors.ts";
import { ev, evs, header, openBackend, runnable, tempDir } from "./_helpers.ts";

const code = (c: string) => (e: unknown) => e instanceof SessionError && e.code === c;

// `driver`: a backend opened through a registered `StorageDriver` meets the same contract.
const KINDS = ["memory", "libsql", "libsql-shared", "jsonl", "driver", "postgres"] as const;
for (const kind of runnable(KINDS)) {
  Deno.test(`the ${kind} backend stores, pages and lists sessions`, async () => {
    await using dir = await tempDir();
    await using backend = await openBackend(kind, dir.path);
    const zoned = header("zoned", {
      timeZone: "Asia/Calcutta",
      createdAt: "2026-02-01T00:00:00.000Z",
    });
    const forked = header("forked", {
      lineage: { parentId: "zoned", forkedThroughSeq: 0 },
      seedLength: 2,
      delegationDepth: 2,
    });
    await backend.initialize(zoned, evs(0, 3));
    await backend.initialize(forked, [ev(0), {
      ...ev(1),
      type: "session/end-seed",
      data: { seedLength: 2 },
    }]);
    await backend.append("zoned", evs(3, 5));
    assert.deepEqual(await backend.cursor("zoned"), { header: zoned, length: 5 });
    assert.deepEqual((await backend.load("forked"))?.header, forked);
    assert.equal("timeZone" in (await backend.load("forked"))!.header, false);
    assert.deepEqual(
      (await backend.readEvents("zoned", { before: 4, limit: 2 })).map((e) => e.seq),
      [2, 3],
    );
    assert.deepEqual(
      (await backend.readEvents("zoned", { after: 1, limit: 2 })).map((e) => e.seq),
      [2, 3],
    );
    assert.deepEqual((await backend.list()).map((h) => h.id), ["zoned", "forked"]);
    assert.equal(await backend.cursor("nobody"), undefined);
    assert.equal(await backend.load("nobody"), undefined);
  });

  Deno.test(`the ${kind} backend rejects duplicate, missing and non-contiguous writes`, async () => {
    await using dir = await tempDir();
    await using backend = await openBackend(kind, dir.path);
    await backend.initialize(header("s"), evs(0, 2));
    await assert.rejects(backend.initialize(header("s"), []), code("session_exists"));
    await assert.rejects(backend.append("s", [ev(1)]), code("invalid_seq"));
    await assert.rejects(backend.append("s", [ev(3)]), code("invalid_seq"));
    await assert.rejects(backend.append("ghost", [ev(0)]), code("session_not_found"));
    await backend.append("s", [ev(2)]);
    assert.deepEqual((await backend.load("s"))?.events, evs(0, 3));
  });
}
