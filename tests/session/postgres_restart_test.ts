/**
 * A PostgreSQL server restarted in the middle of a load (`pg_ctl stop -m immediate`, a crash
 * for the server, then `start`) loses no acknowledged write: 20 sessions append and flush in a
 * loop through one store, each acknowledged seq recorded; the pool reconnects on its own once
 * the server is back, and a fresh backend finds every acknowledged event, densely.
 */
import assert from "node:assert/strict";
import { SessionStore } from "../../session/store.ts";
import { PostgresBackend } from "../../session/postgres/postgres_backend.ts";
import { postgresLanes, startPostgres } from "../_postgres.ts";

if (postgresLanes()) {
  Deno.test("a PostgreSQL restart mid-load loses no acknowledged write; the pool reconnects", async () => {
    await using cluster = await startPostgres();
    const url = await cluster.database("restart");
    const store = new SessionStore({
      backend: await PostgresBackend.open({ url, connectTimeoutSeconds: 30 }),
    });
    const acked = new Map<string, number>();
    let failures = 0;
    let stop = false;
    const writer = async (id: string) => {
      const session = await store.create({ cwd: "/", id, timeZone: "UTC" });
      acked.set(id, session.length);
      while (!stop) {
        store.append(session, "note", { n: session.length });
        const through = session.length;
        const ok = await store.flush(session).catch(() => false);
        if (ok) acked.set(id, Math.max(acked.get(id)!, through));
        else {
          failures++;
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
      }
      // Everything appended is made durable once the server is back.
      for (let i = 0; i < 200 && !(await store.flush(session).catch(() => false)); i++) {
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      acked.set(id, session.length);
    };
    const ids = Array.from({ length: 20 }, (_, i) => `w${i}`);
    const running = ids.map(writer);
    const total = () => [...acked.values()].reduce((a, b) => a + b, 0);
    while (total() < 400) await new Promise((resolve) => setTimeout(resolve, 20));
    const before = total();
    await cluster.restart();
    const after = total();
    while (total() < after + 400) await new Promise((resolve) => setTimeout(resolve, 20));
    stop = true;
    await Promise.all(running);
    await store[Symbol.asyncDispose]();
    assert.ok(failures > 0 || after > before, "the load ran across the restart");
    await using fresh = await PostgresBackend.open({ url });
    for (const id of ids) {
      const stored = (await fresh.load(id))!;
      stored.events.forEach((e, i) => assert.equal(e.seq, i, `${id}: dense`));
      assert.ok(stored.events.length >= acked.get(id)!, `${id}: every acknowledged event`);
    }
  });
}
