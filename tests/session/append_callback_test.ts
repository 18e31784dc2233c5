/**
 * `PersistenceBackend.appendCallback` of the libSQL backend (session/backend.ts): the promise-free
 * write the persistence coordinator uses on its hot path (docs/long-sessions.md §"Group commit").
 * Exactly one callback, never before the call returns; refusals as `append`'s; calls of many
 * sessions in one tick still share one transaction.
 */
import assert from "node:assert/strict";
import { LibsqlBackend } from "../../session/libsql/libsql_backend.ts";
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

Deno.test("writers that come straight back after each ack form one group per round", async () => {
  await using dir = await tempDir();
  const backend = await LibsqlBackend.open({ url: `file:${dir.path}/r.db` });
  await using store = new SessionStore({ backend });
  const sessions = await Promise.all(
    Array.from({ length: 20 }, (_, i) => store.create({ cwd: "/", id: `r${i}`, timeZone: "UTC" })),
  );
  await Promise.all(sessions.map((s) => store.flush(s)));
  const before = backend.commits;
  const rounds = 30;
  await Promise.all(sessions.map(async (s) => {
    for (let i = 0; i < rounds; i++) {
      store.append(s, "note", { i });
      assert.equal(await store.flush(s), true);
    }
  }));
  // Each commit wakes all 20 writers; the next group waits until they are back (a few
  // microtasks), so no writer straggles into a commit of its own. A full event-loop turn may
  // split at most a few rounds (`FAIR_TURN_MS`); never one commit per writer.
  const commits = backend.commits - before;
  assert.ok(commits >= rounds && commits <= rounds + 5, `${commits} commits for ${rounds} rounds`);
  for (const s of sessions) assert.equal((await backend.readEvents(s.id)).length, rounds);
});

Deno.test("a writer that never waits on I/O does not starve timers", async () => {
  await using dir = await tempDir();
  const backend = await LibsqlBackend.open({ url: `file:${dir.path}/t.db` });
  await using store = new SessionStore({ backend });
  const s = await store.create({ cwd: "/", id: "busy", timeZone: "UTC" });
  await store.flush(s);
  let fired = false;
  const timer = setTimeout(() => fired = true, 0);
  // Every flush's ack wakes this loop within microtasks, so the drain could commit forever
  // without a macrotask; it lets a whole event-loop turn pass at least every FAIR_TURN_MS.
  let writes = 0;
  while (!fired && writes < 20_000) {
    store.append(s, "note", { writes });
    await store.flush(s);
    writes++;
  }
  clearTimeout(timer);
  assert.ok(fired, `the timer did not run during ${writes} back-to-back commits`);
  assert.ok(writes > 0);
});
