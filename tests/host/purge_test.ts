/**
 * The purge of deleted sessions (`deno task purge`, host/purge.ts; README.md "The page"): only
 * sessions whose `session/deleted` is old enough are removed, header and events, on real libSQL
 * JSONL and PostgreSQL storage; a fork of a purged parent still reads its own copy; a dry run removes nothing.
 *
 * @module
 */
import assert from "node:assert/strict";
import { JsonlBackend, LibsqlBackend, type PersistenceBackend, SessionStore } from "@chime/session";
import { PostgresBackend } from "@chime/session/postgres";
import { purgeDeleted } from "../../host/purge.ts";
import { postgresLanes, sharedPostgres } from "../_postgres.ts";

const DAY = 86_400_000;

for (
  const [kind, open] of [
    ["libsql", (dir: string) => LibsqlBackend.open({ url: `file:${dir}/purge.db` })],
    ["jsonl", (dir: string) => JsonlBackend.open({ dir })],
    ...postgresLanes()
      ? [
        [
          "postgres",
          async () =>
            PostgresBackend.open({ url: await (await sharedPostgres()).database("purge") }),
        ] as const,
      ]
      : [],
  ] as const
) {
  Deno.test(`purge removes only sessions deleted long enough ago (${kind})`, async () => {
    const dir = await Deno.makeTempDir();
    try {
      await using store = new SessionStore({
        backend: await (open as (d: string) => Promise<PersistenceBackend>)(dir),
      });
      const old = await store.create({ cwd: "/", id: "old" });
      old.append("user-rpc", { messageId: "m", text: "hi", source: { kind: "web" } });
      const child = await store.fork(old);
      old.append("session/deleted", {});
      const fresh = await store.create({ cwd: "/", id: "fresh" });
      fresh.append("session/deleted", {});
      const kept = await store.create({ cwd: "/", id: "kept" });
      for (const s of [old, fresh, kept, child]) await store.close(s);
      const now = Date.now() + 10 * DAY; // "old" and "fresh" were deleted just now
      const dry = await purgeDeleted(store, { now, olderThanMs: 5 * DAY, dryRun: true });
      assert.deepEqual([...dry.purged].sort(), ["fresh", "old"]);
      assert.ok(await store.inspect("old"), "a dry run removes nothing");
      const report = await purgeDeleted(store, { now: Date.now(), olderThanMs: 0 });
      assert.deepEqual([...report.purged].sort(), ["fresh", "old"]);
      assert.equal(await store.inspect("old"), undefined);
      assert.ok(await store.inspect("kept"), "a session not deleted stays");
      const ids = (await store.list()).map((h) => h.id).sort();
      assert.deepEqual(ids, [child.id, "kept"].sort());
      const inherited = await store.readStored(child.id);
      const said = inherited.find((e) => e.type === "user-rpc")?.data as { text?: string };
      assert.equal(said?.text, "hi");
      const none = await purgeDeleted(store, { now: Date.now(), olderThanMs: 0 });
      assert.deepEqual(none.purged, []);
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  });
}
