/**
 * `PersistenceBackend.appendCallback` of the libSQL backend (session/backend.ts): the promise-free
 * write the persistence coordinator uses on its hot path (docs/long-sessions.md §"Group commit").
 * Exactly one callback, never before the call returns; refusals as `append`'s; calls of many
 * sessions in one tick still share one transaction.
 */
import assert from "node:assert/strict";
import { LibsqlBackend } from "../../session/libsql_backend.ts";
import { SessionError } from "../../session/errors.ts";
import { SessionStore } from "../../session/store.ts";
import type { SessionEvent } from "../../session/event.ts";
import { header, tempDir } from "./_helpers.ts";

const at = "2026-01-01T00:00:00.000Z";
const note = (seq: number): SessionEvent => ({ seq, type: "note", at, data: { seq } });

/** Calls `appendCallback` and reports how it settled and whether that was after the return. */
function settle(
  backend: LibsqlBackend,
  id: string,
  events: SessionEvent[],
): Promise<{ error: unknown; afterReturn: boolean }> {
  let returned = false;
  const done = new Promise<{ error: unknown; afterReturn: boolean }>((resolve) => {
    let calls = 0;
    const once = (error: unknown) => {
      calls++;
      assert.equal(calls, 1, "exactly one callback");
      resolve({ error, afterReturn: returned });
    };
    backend.appendCallback(id, events, undefined, () => once(undefined), once);
  });
  returned = true;
  return done;
}

Deno.test("appendCallback commits once, after the call returns, and refuses as append does", async () => {
  await using dir = await tempDir();
  const backend = await LibsqlBackend.open({ url: `file:${dir.path}/c.db` });
  await backend.initialize(header("s"), []);

  const ok = await settle(backend, "s", [note(0), note(1)]);
  assert.deepEqual(ok, { error: undefined, afterReturn: true });
  assert.deepEqual((await backend.readEvents("s")).map((e) => e.seq), [0, 1]);

  const gap = await settle(backend, "s", [note(5)]);
  assert.ok(gap.error instanceof SessionError && gap.error.code === "invalid_seq");
  const missing = await settle(backend, "nobody", [note(0)]);
  assert.ok(missing.error instanceof SessionError && missing.error.code === "session_not_found");
  assert.equal((await backend.readEvents("s")).length, 2, "a refused call writes nothing");

  await backend[Symbol.asyncDispose]();
  const closed = await settle(backend, "s", [note(2)]);
  assert.ok(closed.error instanceof SessionError && closed.error.code === "persistence_failed");
  assert.equal(closed.afterReturn, true, "even a refusal after close comes later");
});

Deno.test("the store's flushes of many sessions in one tick share one transaction", async () => {
  await using dir = await tempDir();
  const backend = await LibsqlBackend.open({ url: `file:${dir.path}/g.db` });
  await using store = new SessionStore({ backend });
  const sessions = await Promise.all(
    [0, 1, 2, 3].map((i) => store.create({ cwd: "/", id: `g${i}`, timeZone: "UTC" })),
  );
  await Promise.all(sessions.map((s) => store.flush(s)));
  const before = backend.commits;
  const acks = await Promise.all(sessions.map((s) => {
    store.append(s, "note", { n: 1 });
    return store.flush(s);
  }));
  assert.deepEqual(acks, [true, true, true, true]);
  assert.equal(backend.commits - before, 1, "one write transaction for the four flushes");
  for (const s of sessions) {
    const stored = await backend.readEvents(s.id);
    assert.deepEqual(stored.at(-1)?.data, { n: 1 });
  }
});
