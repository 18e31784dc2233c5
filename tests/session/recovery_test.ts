/**
 * Initialization failure recovery (docs/design.md#persistence-checkpoint) for new, forked
 * and resumed sessions, with faults before and after commit, on every real backend.
 */
import assert from "node:assert/strict";
import { SessionError } from "../../session/errors.ts";
import { SessionStore } from "../../session/store.ts";
import type { Session } from "../../session/session.ts";
import type { Fault } from "../../session/testing/memory_backend.ts";
import { type BackendKind, FaultyBackend, openBackend, runnable, tempDir } from "./_helpers.ts";

type Kind = "new" | "forked" | "resumed";

const FAULTS: Record<Kind, Omit<Fault, "id">[]> = {
  new: [
    { op: "initialize", when: "before" },
    { op: "initialize", when: "after" },
    { op: "cursor", when: "before" },
    { op: "append", when: "before" },
    { op: "append", when: "after" },
  ],
  // A fork is stored before it goes live: a failure before commit rejects the fork (tested
  // below), one after commit is recovered by the fork itself.
  forked: [
    { op: "fork", when: "after" },
    { op: "cursor", when: "before" },
  ],
  resumed: [
    { op: "cursor", when: "before" },
    { op: "append", when: "before" },
    { op: "append", when: "after" },
  ],
};

async function settle(store: SessionStore, session: Session): Promise<void> {
  for (let attempt = 0; attempt < 3; attempt++) {
    if (await store.flush(session).catch(() => false)) return;
  }
  assert.fail("flush never recovered");
}

async function scenario(kind: Kind, backendKind: BackendKind, fault: Omit<Fault, "id">) {
  await using dir = await tempDir();
  const backend = new FaultyBackend(await openBackend(backendKind, dir.path));
  await using store = new SessionStore({ backend });
  let session: Session;
  if (kind === "new") {
    // create() itself reads the cursor once to look for an existing session.
    backend.failNext({ ...fault, id: "target" }, fault.op === "cursor" ? 1 : 0);
    session = await store.create({ cwd: "/", id: "target", timeZone: "Asia/Calcutta" });
  } else {
    const parent = await store.create({ cwd: "/", id: kind === "forked" ? "parent" : "target" });
    for (let i = 0; i < 3; i++) store.append(parent, "note", { i });
    await store.flush(parent);
    if (kind === "forked") {
      backend.failNext({ ...fault, id: "target" }, fault.op === "cursor" ? 1 : 0);
      session = await store.fork(parent, { id: "target", throughSeq: 1 });
    } else {
      await store.close(parent);
      backend.failNext({ ...fault, id: "target" });
      session = await store.resume("target");
    }
  }
  store.append(session, "note", { after: 1 });
  await settle(store, session);
  assert.equal(backend.armed, 0, "the fault struck");
  store.append(session, "note", { after: 2 });
  assert.equal(await store.flush(session), true, "not poisoned");
  const stored = await backend.inner.load("target");
  assert.deepEqual(stored?.events, session.events(), "no duplicate or missing prefix");
  assert.deepEqual(stored?.header, session.header);
}

for (
  const backendKind of runnable(["memory", "libsql", "libsql-shared", "jsonl", "postgres"] as const)
) {
  for (const kind of ["new", "forked", "resumed"] as const) {
    Deno.test(`a ${kind} session recovers from initialization failures on ${backendKind}`, async (t) => {
      for (const fault of FAULTS[kind]) {
        await t.step(
          `${fault.op} fails ${fault.when} commit`,
          () => scenario(kind, backendKind, fault),
        );
      }
    });
  }
}

for (
  const backendKind of runnable(["memory", "libsql", "libsql-shared", "jsonl", "postgres"] as const)
) {
  Deno.test(`a fork failing before commit stores nothing and can be retried on ${backendKind}`, async () => {
    await using dir = await tempDir();
    const backend = new FaultyBackend(await openBackend(backendKind, dir.path));
    await using store = new SessionStore({ backend });
    const parent = await store.create({ cwd: "/", id: "parent" });
    for (let i = 0; i < 3; i++) store.append(parent, "note", { i });
    backend.failNext({ op: "fork", when: "before", id: "kid" });
    await assert.rejects(
      store.fork(parent, { id: "kid", throughSeq: 1 }),
      (e) => e instanceof SessionError && e.code === "persistence_failed",
    );
    assert.equal(await backend.inner.cursor("kid"), undefined);
    assert.equal(store.live("kid"), undefined);
    const kid = await store.fork(parent, { id: "kid", throughSeq: 1 });
    assert.deepEqual(kid.events(0, 2), parent.events(0, 2));
    assert.equal((await backend.inner.cursor("kid"))?.length, 3);
  });
}

Deno.test("a resumed session survives a failing load by resuming again", async () => {
  await using dir = await tempDir();
  const backend = new FaultyBackend(await openBackend("libsql", dir.path));
  await using store = new SessionStore({ backend });
  const s = await store.create({ cwd: "/", id: "l" });
  store.append(s, "note", {});
  await store.close(s);
  backend.failNext({ op: "tail", when: "before" });
  await assert.rejects(store.resume("l"));
  const again = await store.resume("l");
  assert.equal(again.length, 1);
});
