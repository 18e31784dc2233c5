/**
 * `withdrawFailedWrites` (README.md "How it behaves on failure"): a write storage refuses is withdrawn, never stored
 * by a later flush, and resuming the session reads back its durable length only.
 */
import assert from "node:assert/strict";
import { SessionStore } from "./store.ts";
import type { Session } from "./session.ts";
import { LibsqlBackend } from "./libsql/libsql_backend.ts";
import { FaultyBackend, tempDir } from "../tests/session/_helpers.ts";

Deno.test("a refused write is withdrawn: later flushes never store it, resume reads the durable log", async () => {
  await using dir = await tempDir();
  const backend = new FaultyBackend(await LibsqlBackend.open({ url: `file:${dir.path}/c.db` }));
  await using store = new SessionStore({ backend, withdrawFailedWrites: true });
  const withdrawn: Session[] = [];
  using _ = store.onWithdrawn((session) => withdrawn.push(session));
  const session = await store.create({ cwd: "/", timeZone: "UTC" });
  store.append(session, "note", { n: 0 });
  assert.equal(await store.flush(session), true);
  backend.failNext({ op: "append", when: "before" });
  store.append(session, "note", { n: 1, refused: true });
  await assert.rejects(
    store.flush(session),
    (e: Error & { code?: string }) => e.code === "persistence_failed",
  );
  assert.deepEqual(withdrawn, [session]);
  // The storage works again, but nothing of the live object is written any more.
  store.append(session, "note", { n: 2 });
  await assert.rejects(store.flush(session));
  await store.close(session); // skips the flush of a withdrawn session
  const resumed = await store.resume(session.id);
  assert.equal(resumed.length, 1, "back to the durable length");
  store.append(resumed, "note", { n: 1, retried: true });
  assert.equal(await store.flush(resumed), true);
  const stored = await backend.inner.load(session.id);
  assert.deepEqual(stored?.events.map((e) => e.data), [{ n: 0 }, { n: 1, retried: true }]);
});

Deno.test("without `withdrawFailedWrites` a failed write is retried by the next flush (the library default)", async () => {
  await using dir = await tempDir();
  const backend = new FaultyBackend(await LibsqlBackend.open({ url: `file:${dir.path}/c.db` }));
  await using store = new SessionStore({ backend });
  const session = await store.create({ cwd: "/", timeZone: "UTC" });
  backend.failNext({ op: "append", when: "before" });
  store.append(session, "note", { n: 0 });
  await assert.rejects(store.flush(session));
  assert.equal(await store.flush(session), true);
  assert.equal((await backend.inner.cursor(session.id))?.length, 1);
});
