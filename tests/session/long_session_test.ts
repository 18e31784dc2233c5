/**
 * Long-lived sessions, storage half (`docs/long-sessions.md` §"Bounded live session"): a live
 * session keeps a bounded tail, reads older events through the store, resumes from the tail only
 * and forks by copying in storage, on every real backend.
 */
import assert from "node:assert/strict";
import fc from "fast-check";
import { SessionError } from "../../session/errors.ts";
import { LibsqlBackend } from "../../session/libsql/libsql_backend.ts";
import { Session } from "../../session/session.ts";
import { SessionStore } from "../../session/store.ts";
import { MemoryBackend } from "../../session/testing/memory_backend.ts";
import { header, openBackend, runnable, tempDir } from "./_helpers.ts";

const TAIL = 5;

async function filled(store: SessionStore, id: string, n: number): Promise<Session> {
  const session = await store.create({ cwd: "/", id, timeZone: "UTC" });
  for (let i = 0; i < n; i++) store.append(session, i % 3 === 0 ? "marker" : "note", { i });
  assert.equal(await store.flush(session), true);
  return session;
}

for (const kind of runnable(["memory", "libsql", "libsql-shared", "jsonl", "postgres"] as const)) {
  Deno.test(`a live session past its tail reads, resumes and forks on ${kind}`, async () => {
    await using dir = await tempDir();
    const backend = await openBackend(kind, dir.path);
    await using store = new SessionStore({ backend, liveTailEvents: TAIL });
    const s = await filled(store, "long", 40);
    assert.equal(s.length, 40);
    assert.ok(s.tailStart >= 40 - TAIL * 2 && s.tailStart <= 40 - TAIL, `tail ${s.tailStart}`);
    assert.equal(s.event(0), undefined);
    assert.deepEqual(s.event(39)?.data, { i: 39 });
    assert.throws(() => s.events(), RangeError);
    assert.throws(() => s.events(s.tailStart - 1), RangeError);
    const all = (await store.inspect("long"))!.events;
    assert.deepEqual(await store.read(s), all);
    assert.deepEqual(await store.read(s, 3, 17), all.slice(3, 17));
    assert.deepEqual(await store.read(s, 30, 99), all.slice(30));
    assert.deepEqual(await store.read(s, 7, 7), []);
    assert.ok(Object.isFrozen((await store.read(s, 0, 1))[0]!.data));
    await assert.rejects(store.read(s, -1, 2), RangeError);
    // By type: the stored part from storage (libSQL: the index), the tail from memory.
    const markers = all.filter((e) => e.type === "marker");
    assert.deepEqual(await store.readByType(s, ["marker"]), markers);
    assert.deepEqual(
      await store.readByType("long", ["marker", "nope"], { from: 4, to: 38 }),
      markers.filter((e) => e.seq >= 4 && e.seq < 38),
    );
    assert.deepEqual(await store.readByType(s, []), []);
    await assert.rejects(store.readByType(s, "marker" as never), RangeError);
    await assert.rejects(store.readByType(s, ["marker"], { from: -1 }), RangeError);
    // Fork through an event long gone from memory: the child holds the same prefix.
    const kid = await store.fork(s, { id: "kid", throughSeq: 11 });
    assert.equal(kid.length, 13);
    assert.deepEqual((await store.read(kid)).slice(0, 12), all.slice(0, 12));
    assert.deepEqual(kid.event(12)?.data, { seedLength: 13 });
    // A cold session resumes from its tail only.
    await store.close(s);
    assert.deepEqual(await store.readByType("long", ["marker"]), markers);
    const again = await store.resume("long");
    assert.equal(again.length, 40);
    assert.equal(again.tailStart, 40 - TAIL);
    assert.deepEqual(again.events(again.tailStart), all.slice(40 - TAIL));
    assert.deepEqual(await store.read(again), all);
    // A fork of a cold parent by id copies in storage too.
    await store.close(again);
    const cold = await store.fork("long", { id: "cold", throughSeq: 39 });
    assert.deepEqual((await store.read(cold)).slice(0, 40), all);
  });
}

Deno.test("the tail never drops an event that is not durable yet", async () => {
  const backend = new MemoryBackend();
  await using store = new SessionStore({ backend, liveTailEvents: 2 });
  const s = await store.create({ cwd: "/", id: "held" });
  await store.flush(s);
  backend.hold();
  for (let i = 0; i < 30; i++) store.append(s, "note", { i });
  await Promise.resolve();
  assert.equal(s.tailStart, 0, "nothing committed: everything stays");
  assert.equal(s.events(0).length, 30);
  backend.release();
  assert.equal(await store.flush(s), true);
  assert.equal(s.tailStart, 28);
  assert.equal(backend.calls.load, undefined, "nothing ever loads the whole log");
});

Deno.test("resume reads the header, the length and the tail, never the whole log", async () => {
  const backend = new MemoryBackend();
  {
    await using store = new SessionStore({ backend, liveTailEvents: 3 });
    await filled(store, "r", 10);
  }
  await using store = new SessionStore({ backend, liveTailEvents: 3 });
  const s = await store.resume("r");
  assert.deepEqual([s.tailStart, s.length], [7, 10]);
  assert.equal(backend.calls.load, undefined);
  assert.equal(backend.calls.tail, 1);
});

Deno.test("a memory-only store forks from its full in-memory log", async () => {
  const backend = new MemoryBackend();
  await using store = new SessionStore({ backend, persist: false, liveTailEvents: 2 });
  const s = await store.create({ cwd: "/", id: "m" });
  for (let i = 0; i < 6; i++) store.append(s, "note", { i });
  assert.equal(s.tailStart, 0, "nothing is durable, so nothing leaves memory");
  const kid = await store.fork(s, { id: "mk", throughSeq: 3 });
  assert.deepEqual(kid.events(0, 4), s.events(0, 4));
  assert.equal(await backend.cursor("mk"), undefined);
});

Deno.test("`Session` and `SessionStore` refuse a bad tail bound or start", () => {
  const h = header("x");
  assert.throws(() => new Session({ header: h, now: () => 0, liveTailEvents: 0 }), RangeError);
  assert.throws(() => new Session({ header: h, now: () => 0, tailStart: -1 }), RangeError);
  assert.throws(
    () => new SessionStore({ backend: new MemoryBackend(), liveTailEvents: 1.5 }),
    RangeError,
  );
  const s = new Session({
    header: h,
    now: () => 0,
    tailStart: 4,
    events: [{ seq: 4, type: "note", at: "2026-01-01T00:00:00.000Z", data: {} }],
  });
  assert.deepEqual([s.length, s.tailStart, s.event(3), s.events(4).length], [5, 4, undefined, 1]);
  assert.equal(s.append("note", {}).seq, 5);
  assert.throws(
    () =>
      new Session({
        header: h,
        now: () => 0,
        tailStart: 4,
        events: [{ seq: 3, type: "note", at: "2026-01-01T00:00:00.000Z", data: {} }],
      }),
    RangeError,
  );
});

Deno.test("`store.read` over random ranges equals the full log (libSQL, small tail)", async () => {
  await using dir = await tempDir();
  await using store = new SessionStore({
    backend: await LibsqlBackend.open({ url: `file:${dir.path}/p.db` }),
    liveTailEvents: 4,
  });
  let n = 0;
  await fc.assert(
    fc.asyncProperty(
      fc.integer({ min: 0, max: 60 }),
      fc.integer({ min: 0, max: 60 }),
      fc.array(fc.tuple(fc.nat(70), fc.nat(70)), { minLength: 1, maxLength: 6 }),
      async (flushed, unflushed, ranges) => {
        const s = await store.create({ cwd: "/", id: `p${n++}` });
        for (let i = 0; i < flushed; i++) store.append(s, "note", { i });
        await store.flush(s);
        for (let i = 0; i < unflushed; i++) store.append(s, "note", { i, late: true });
        const full = await store.read(s, 0, s.length);
        assert.equal(full.length, s.length);
        full.forEach((e, i) => assert.equal(e.seq, i));
        assert.deepEqual(full.slice(s.tailStart), s.events(s.tailStart));
        for (const [a, b] of ranges) {
          assert.deepEqual(await store.read(s, a, b), full.slice(a, Math.max(a, b)));
        }
        await store.flush(s);
        assert.deepEqual((await store.inspect(s.id))?.events, full);
        await store.close(s);
      },
    ),
    { numRuns: 60 },
  );
});

Deno.test("`store.read` reports a stored event missing below the tail as storage_corrupt", async () => {
  const backend = new MemoryBackend();
  await using store = new SessionStore({ backend, liveTailEvents: 2 });
  const s = await filled(store, "gap", 10);
  backend.raw("gap")!.events.splice(3);
  await assert.rejects(
    store.read(s, 0, 8),
    (e) => e instanceof SessionError && e.code === "storage_corrupt" && e.details.seq === 3,
  );
});

for (const kind of runnable(["memory", "libsql", "libsql-shared", "jsonl", "postgres"] as const)) {
  Deno.test(`\`fork()\` and \`tail()\` of the ${kind} backend refuse what is not stored`, async () => {
    await using dir = await tempDir();
    await using backend = await openBackend(kind, dir.path);
    await backend.initialize(header("p"), [{ seq: 0, type: "note", at: "x", data: {} }]);
    const refused = (code: string) => (e: unknown) => e instanceof SessionError && e.code === code;
    await assert.rejects(backend.fork(header("k"), "nope", 0, []), refused("session_not_found"));
    await assert.rejects(backend.fork(header("k"), "p", 1, []), refused("invalid_seq"));
    await assert.rejects(backend.fork(header("p"), "p", 0, []), refused("session_exists"));
    assert.equal(await backend.tail("nope", 3), undefined);
    assert.equal((await backend.tail("p", 3))?.length, 1);
  });
}

Deno.test("a long-running session compacts its tail and keeps reads exact", async () => {
  await using store = new SessionStore({ backend: new MemoryBackend(), liveTailEvents: 2 });
  const s = await store.create({ cwd: "/", id: "c" });
  for (let round = 0; round < 20; round++) {
    for (let i = 0; i < 50; i++) store.append(s, i % 7 === 0 ? "marker" : "note", { round, i });
    assert.equal(await store.flush(s), true);
    assert.ok(s.length - s.tailStart <= 2);
  }
  const all = await store.read(s);
  assert.equal(all.length, 1_000);
  all.forEach((e, i) => assert.equal(e.seq, i));
  assert.deepEqual(
    await store.readByType(s, ["marker"], { from: 999 }),
    all.slice(999).filter((e) => e.type === "marker"),
  );
});

Deno.test("`flush()` with one observe-only listener acknowledges nothing", async () => {
  await using store = new SessionStore({ backend: new MemoryBackend(), persist: false });
  const s = await store.create({ cwd: "/", id: "o" });
  store.addFlushListener(s, () => {});
  assert.equal(await store.flush(s), false);
  using _bug = store.addFlushListener(s, () => {
    throw new Error("listener bug");
  });
  await assert.rejects(store.flush(s), (e) => e instanceof SessionError);
  _bug[Symbol.dispose]();
});

Deno.test("a fork whose stored child cannot be read back fails with persistence_failed", async () => {
  class Vanishing extends MemoryBackend {
    override tail(id: string, count: number) {
      return id === "gone" ? Promise.resolve(undefined) : super.tail(id, count);
    }
  }
  await using store = new SessionStore({ backend: new Vanishing() });
  const s = await filled(store, "v", 3);
  await assert.rejects(
    store.fork(s, { id: "gone" }),
    (e) => e instanceof SessionError && e.code === "persistence_failed",
  );
});
