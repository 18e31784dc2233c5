// readStoredChanges() on a store without the `(session_id, type, seq)` index
// (docs/long-sessions.md "Incremental schedule state"): it reads the stored log and keeps only
// the session's own `schedule/change` events, from `seedLength` for a fork.
import assert from "node:assert/strict";
import { SessionStore } from "@chime/session";
import { FakeClock, MemoryBackend } from "@chime/session/testing";
import { T0 } from "./_fixtures_test.ts";
import { readStoredChanges, typeIndex } from "./reader.ts";

/** `store` as a store that predates the index: no `readByType`, full loads only. */
function unindexed(store: SessionStore): SessionStore {
  const view = { inspect: (id: string) => store.inspect(id), backend: store.backend };
  return view as unknown as SessionStore;
}

function change(tag: string) {
  const record = { id: `sch_${tag}`, kind: "at", prompt: tag, scheduledAt: "2030-01-02T09:00:00Z" };
  return { version: 2, op: "create", record };
}

Deno.test("readStoredChanges() without an index filters the stored log by type", async () => {
  using clock = new FakeClock(T0);
  await using store = new SessionStore({ backend: new MemoryBackend(), clock });
  const session = await store.create({ cwd: "/w", timeZone: "UTC" });
  session.append("note", { text: "before" });
  session.append("schedule/change", change("Parent01"));
  session.append("note", { text: "after" });
  await store.flush(session);
  const cold = unindexed(store);
  assert.equal(typeIndex(cold), undefined);

  const stored = await readStoredChanges(cold, session.id);
  assert.equal(stored?.header.id, session.id);
  assert.deepEqual(stored?.events.map((e) => e.seq), [1]);
  assert.deepEqual(stored?.events.map((e) => e.type), ["schedule/change"]);
  assert.equal(await readStoredChanges(cold, "s_unknown"), undefined);
});

Deno.test("readStoredChanges() without an index skips a fork's inherited prefix", async () => {
  using clock = new FakeClock(T0);
  await using store = new SessionStore({ backend: new MemoryBackend(), clock });
  const parent = await store.create({ cwd: "/w", timeZone: "UTC" });
  parent.append("schedule/change", change("Parent01"));
  await store.flush(parent);
  const child = await store.fork(parent);
  child.append("schedule/change", change("Child001"));
  await store.flush(child);
  const seedLength = child.header.seedLength!;
  assert.ok(seedLength > 1, "the child copies the parent's change and ends its seed");

  const stored = await readStoredChanges(unindexed(store), child.id);
  assert.equal(stored?.header.seedLength, seedLength);
  assert.deepEqual(stored?.events.map((e) => e.seq), [seedLength]);
  assert.equal((stored?.events[0]?.data as ReturnType<typeof change>).record.id, "sch_Child001");
  const indexed = await readStoredChanges(store, child.id);
  assert.deepEqual(indexed?.events, stored?.events, "the indexed read answers the same");
});
