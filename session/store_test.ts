import assert from "node:assert/strict";
import { SessionStore } from "./store.ts";
import { Session } from "./session.ts";
import { SessionError } from "./errors.ts";
import { MemoryBackend } from "./testing/memory_backend.ts";
import { FakeClock } from "./testing/fake_clock.ts";
import { header } from "../tests/session/_helpers.ts";

const code = (c: string) => (e: unknown) => e instanceof SessionError && e.code === c;

function memoryStore(extra: { persist?: boolean; reportError?: (e: unknown) => void } = {}) {
  const backend = new MemoryBackend();
  let n = 0;
  const store = new SessionStore({
    backend,
    clock: new FakeClock(Date.UTC(2026, 0, 1)),
    generateId: () => `id${n++}`,
    ...extra,
  });
  return { backend, store };
}

Deno.test("`flush()` acknowledges with literal true and publishes session/flushed", async () => {
  const { backend, store } = memoryStore();
  await using _ = store;
  const seen: [Session, number][] = [];
  using _sub = store.onFlushed((s, through) => seen.push([s, through]));
  const session = await store.create({ cwd: "/", timeZone: "UTC" });
  store.append(session, "note", { a: 1 });
  assert.equal(await store.flush(session), true);
  // The coordinator's own commit is observed, then the checkpoint's.
  assert.deepEqual(seen, [[session, 1], [session, 1]]);
  assert.equal(backend.raw(session.id)?.events.length, 1);
});

Deno.test("every coordinator commit publishes session/flushed, with no flush call", async () => {
  const { backend, store } = memoryStore();
  await using _ = store;
  const session = await store.create({ cwd: "/" });
  await store.flush(session); // the header is stored
  const seen: number[] = [];
  let wake = () => {};
  using _sub = store.onFlushed((_s, t) => {
    seen.push(t);
    wake();
  });
  const until = async (n: number) => {
    while (seen.length < n) await new Promise<void>((resolve) => wake = resolve);
  };
  backend.hold();
  store.append(session, "note", { n: 0 });
  // The eager write is issued (parked in the backend) with the bound 1 …
  for (let i = 0; i < 100 && backend.calls.append !== 1; i++) await Promise.resolve();
  assert.equal(backend.calls.append, 1);
  store.append(session, "note", { n: 1 }); // … so this append is not claimed by it
  backend.release();
  await until(2);
  assert.deepEqual(seen, [1, 2]);
  assert.equal(backend.raw(session.id)?.events.length, 2);
});

Deno.test("`create()` refuses a cwd with a lone surrogate and stores nothing", async () => {
  const { backend, store } = memoryStore();
  await using _ = store;
  for (const cwd of ["/tmp/\uD800", "/a\uDC00b", 7 as unknown as string]) {
    await assert.rejects(
      store.create({ cwd, id: "s" }),
      (e) => code("invalid_arguments")(e) && (e as SessionError).details.field === "cwd",
    );
  }
  assert.equal(store.live("s"), undefined);
  assert.deepEqual(await backend.list(), []);
  assert.equal((await store.create({ cwd: "/tmp/\uD83D\uDE00", id: "s" })).header.cwd, "/tmp/😀");
});

Deno.test("`flush()` returns false when only observers listen", async () => {
  const { store } = memoryStore({ persist: false });
  await using _ = store;
  const seen: number[] = [];
  using _sub = store.onFlushed((_s, t) => seen.push(t));
  const session = await store.create({ cwd: "/" });
  assert.equal(await store.flush(session), false);
  using _l = store.addFlushListener(session, () => {});
  using _l2 = store.addFlushListener(session, () => Promise.resolve());
  using _l3 = store.addFlushListener(session, () => 1 as unknown as true | void);
  store.append(session, "note", {});
  assert.equal(await store.flush(session), false);
  assert.deepEqual(seen, []);
  using _ack = store.addFlushListener(session, () => Promise.resolve(true as const));
  assert.equal(await store.flush(session), true);
  assert.deepEqual(seen, [1]);
});

Deno.test("`flush()` returns false for a session with no scoped listeners", async () => {
  const { store } = memoryStore();
  await using _ = store;
  const stranger = new Session({ header: header("x"), now: () => 0 });
  assert.equal(await store.flush(stranger), false);
  assert.throws(() => store.addFlushListener(stranger, () => true), code("session_closed"));
});

Deno.test("`flush()` waits for every listener and a rejection blocks the observation", async () => {
  const { store } = memoryStore();
  await using _ = store;
  const seen: number[] = [];
  using _sub = store.onFlushed((_s, t) => seen.push(t));
  const session = await store.create({ cwd: "/" });
  const slow = Promise.withResolvers<true>();
  let slowSettled = false;
  using _a = store.addFlushListener(session, () => slow.promise.finally(() => slowSettled = true));
  const failing = store.addFlushListener(session, () => Promise.reject(new Error("disk on fire")));
  const flushed = store.flush(session);
  let rejectedEarly = false;
  flushed.catch(() => rejectedEarly = !slowSettled);
  await new Promise((r) => setTimeout(r, 0));
  slow.resolve(true);
  await assert.rejects(
    flushed,
    (e) => code("persistence_failed")(e) && (e as Error).cause instanceof Error,
  );
  assert.equal(rejectedEarly, false);
  assert.deepEqual(seen, []);
  using _b = store.addFlushListener(
    session,
    () => Promise.reject(new SessionError("invalid_seq", "x")),
  );
  await assert.rejects(store.flush(session), (e) => (e as Error).cause instanceof AggregateError);
  failing[Symbol.dispose]();
  await assert.rejects(store.flush(session), code("invalid_seq"));
});

Deno.test("`flush()` captures throughSeq at call entry while appends continue", async () => {
  const { backend, store } = memoryStore();
  await using _ = store;
  const session = await store.create({ cwd: "/" });
  await store.flush(session);
  const seen: number[] = [];
  using _sub = store.onFlushed((_s, t) => seen.push(t));
  const bounds: number[] = [];
  using _l = store.addFlushListener(session, (_s, through) => void bounds.push(through));
  store.append(session, "note", { n: 0 });
  backend.hold();
  const held = store.flush(session);
  store.append(session, "note", { n: 1 });
  store.append(session, "note", { n: 2 });
  backend.release();
  assert.equal(await held, true);
  assert.deepEqual(bounds, [1]);
  // The eager commit covered all three appends; the checkpoint keeps its entry bound.
  assert.deepEqual(seen, [3, 1]);
});

Deno.test("`flush()` reports observer exceptions without failing the checkpoint", async () => {
  const reported: unknown[] = [];
  const { store } = memoryStore({ reportError: (e) => reported.push(e) });
  await using _ = store;
  using _sub = store.onFlushed(() => {
    throw new Error("observer broke");
  });
  const session = await store.create({ cwd: "/" });
  assert.equal(await store.flush(session), true);
  assert.equal(reported.length, 1);
});

Deno.test("`create()` normalizes the zone and treats Asia/Calcutta ≡ Asia/Kolkata", async () => {
  const { store } = memoryStore();
  await using _ = store;
  const a = await store.create({ cwd: "/p", id: "z", timeZone: "asia/calcutta" });
  assert.equal(a.header.timeZone, "Asia/Calcutta");
  const b = await store.create({ cwd: "/p", id: "z", timeZone: "Asia/Kolkata" });
  assert.equal(b, a);
  assert.equal(b.header.timeZone, "Asia/Calcutta");
  const c = await store.create({ cwd: "/", timeZone: "america/new_york", origin: "test" });
  assert.equal(c.header.timeZone, "America/New_York");
  assert.equal(c.header.origin, "test");
});

Deno.test("`create()` rejects invalid zones and ids", async () => {
  const { store } = memoryStore();
  await using _ = store;
  for (const timeZone of ["+05:30", "Mars/Olympus", ""]) {
    await assert.rejects(store.create({ cwd: "/", timeZone }), code("invalid_time_zone"));
  }
  await assert.rejects(store.create({ cwd: "/", id: "../x" }), code("invalid_session_id"));
});

Deno.test("`create()` answers time_zone_conflict for the same id and cwd", async () => {
  const { store } = memoryStore();
  await using _ = store;
  await store.create({ cwd: "/p", id: "a", timeZone: "Europe/London" });
  await assert.rejects(
    store.create({ cwd: "/p", id: "a", timeZone: "Europe/Dublin" }),
    (e) =>
      code("time_zone_conflict")(e) &&
      (e as SessionError).details.knownTimeZone === "Europe/London",
  );
  await assert.rejects(store.create({ cwd: "/p", id: "a" }), code("time_zone_conflict"));
  await assert.rejects(store.create({ cwd: "/q", id: "a" }), code("session_exists"));
});

Deno.test("`create()` keeps a zone-less session zone-less forever", async () => {
  const { backend, store } = memoryStore();
  await using _ = store;
  const s = await store.create({ cwd: "/p", id: "legacy" });
  await store.close(s);
  await assert.rejects(
    store.create({ cwd: "/p", id: "legacy", timeZone: "UTC" }),
    (e) => code("time_zone_conflict")(e) && (e as SessionError).details.knownTimeZone === null,
  );
  const again = await store.create({ cwd: "/p", id: "legacy" });
  assert.equal(again.header.timeZone, undefined);
  assert.equal("timeZone" in backend.raw("legacy")!.header, false);
  const resumed = await store.resume("legacy");
  assert.equal(resumed, again);
});

Deno.test("`fork()` copies the prefix, adds session/end-seed and inherits the zone", async () => {
  const { backend, store } = memoryStore();
  await using _ = store;
  const parent = await store.create({
    cwd: "/p",
    id: "parent",
    timeZone: "Asia/Calcutta",
    delegationDepth: 1,
  });
  for (let i = 0; i < 4; i++) store.append(parent, "note", { i });
  const child = await store.fork(parent, { throughSeq: 1, id: "child" });
  assert.deepEqual(child.events(0, 2), parent.events(0, 2));
  assert.deepEqual(child.event(2)?.data, { seedLength: 3 });
  assert.equal(child.event(2)?.type, "session/end-seed");
  assert.deepEqual(child.header.lineage, { parentId: "parent", forkedThroughSeq: 1 });
  assert.equal(child.header.seedLength, 3);
  assert.equal(child.header.timeZone, "Asia/Calcutta");
  assert.equal(child.header.origin, "fork");
  assert.equal(child.header.delegationDepth, 1);
  assert.equal(parent.length, 4);
  assert.equal(await store.flush(child), true);
  assert.deepEqual(backend.raw("child")?.events, child.events());
});

Deno.test("`fork()` works from a cold parent id and rejects bad bounds", async () => {
  const { backend, store } = memoryStore();
  await using _ = store;
  const parent = await store.create({ cwd: "/p", id: "cold" });
  store.append(parent, "note", {});
  await store.close(parent);
  const child = await store.fork("cold");
  assert.equal(child.length, 2);
  assert.equal(child.header.timeZone, undefined);
  const empty = await store.fork("cold", { throughSeq: -1 });
  assert.deepEqual(empty.events().map((e) => e.type), ["session/end-seed"]);
  await assert.rejects(store.fork("cold", { throughSeq: 5 }), code("invalid_seq"));
  await assert.rejects(store.fork("nobody"), code("session_not_found"));
  await assert.rejects(store.fork("cold", { id: child.id }), code("session_exists"));
  // A stored id that is not live is taken too: the fork writes nothing for it.
  await store.close(child);
  const writes = { ...backend.calls };
  await assert.rejects(store.fork("cold", { id: child.id }), code("session_exists"));
  assert.equal(backend.calls.fork, writes.fork);
  assert.equal((await store.inspect(child.id))?.events.length, 2);
});

Deno.test("`resume()` loads a cold session once and continues its seqs", async () => {
  const { store } = memoryStore();
  await using _ = store;
  const s = await store.create({ cwd: "/p", id: "r" });
  store.append(s, "note", {});
  await store.close(s);
  assert.equal(s.closed, true);
  assert.equal(store.live("r"), undefined);
  const [a, b] = await Promise.all([store.resume("r"), store.resume("r")]);
  assert.equal(a, b);
  assert.notEqual(a, s);
  assert.equal(store.append(a, "note", {}).seq, 1);
  await assert.rejects(store.resume("nobody"), code("session_not_found"));
  assert.deepEqual(store.liveSessions(), [a]);
});

Deno.test("`SessionStore` lists live and stored sessions and inspects storage", async () => {
  const { store } = memoryStore();
  await using _ = store;
  const s = await store.create({ cwd: "/", id: "one" });
  store.append(s, "note", {});
  assert.deepEqual((await store.list()).map((h) => h.id), ["one"]);
  await store.flush(s);
  assert.deepEqual((await store.list()).map((h) => h.id), ["one"]);
  assert.equal((await store.inspect("one"))?.events.length, 1);
  assert.equal((await store.readStored("one", { limit: 1 })).length, 1);
  assert.equal(store.backend.kind, "memory");
  assert.equal(typeof store.clock.now(), "number");
});

Deno.test("`close()` closes the session even when its last flush fails", async () => {
  const { backend, store } = memoryStore();
  await using _ = store;
  const s = await store.create({ cwd: "/", id: "f" });
  await store.flush(s);
  store.append(s, "note", {});
  // The first fault is absorbed by the eager write (recovered later); the second hits the flush.
  backend.failNext({ op: "append", when: "before" });
  backend.failNext({ op: "append", when: "before" });
  await assert.rejects(store.close(s), code("persistence_failed"));
  assert.equal(s.closed, true);
  await store.close(s);
});

Deno.test("`SessionStore` dispose rethrows a failed final flush after closing the backend", async () => {
  const { backend, store } = memoryStore();
  const s = await store.create({ cwd: "/", id: "d" });
  await store.flush(s);
  store.append(s, "note", {});
  backend.failNext({ op: "append", when: "before" });
  backend.failNext({ op: "append", when: "before" });
  await assert.rejects(store[Symbol.asyncDispose](), code("persistence_failed"));
});

Deno.test("`SessionStore` generates url-safe ids by default", async () => {
  await using store = new SessionStore({ backend: new MemoryBackend() });
  const s = await store.create({ cwd: "/" });
  assert.match(s.id, /^[A-Za-z0-9_-]{22}$/);
});

Deno.test("`onLive()` reports the durable length storage holds: 0 for new, seedLength for forks", async () => {
  const backend = new MemoryBackend();
  const reported: unknown[] = [];
  await using store = new SessionStore({
    backend,
    reportError: (e) => reported.push(e),
  });
  const seen: [string, number][] = [];
  const live = store.onLive((session, durable) => seen.push([session.id, durable]));
  store.onLive(() => {
    throw new Error("observer bug");
  });
  const a = await store.create({ cwd: "/", id: "a", timeZone: "UTC" });
  store.append(a, "note", { n: 1 });
  store.append(a, "note", { n: 2 });
  assert.equal(await store.flush(a), true);
  await store.fork(a, { id: "f", throughSeq: 0 });
  await store.close(a);
  await store.resume("a");
  await store.close(store.live("a")!);
  // A create of a stored id makes it live from storage too.
  await store.create({ cwd: "/", id: "a", timeZone: "UTC" });
  live[Symbol.dispose]();
  await store.create({ cwd: "/", id: "b" });
  assert.deepEqual(seen, [["a", 0], ["f", 2], ["a", 2], ["a", 2]]);
  assert.equal(reported.length, 5, "every throwing observer call is reported, none swallowed");
});
