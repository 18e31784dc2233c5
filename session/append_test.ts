import assert from "node:assert/strict";
import { Session } from "./session.ts";
import { SessionStore } from "./store.ts";
import { LibsqlBackend } from "./libsql/libsql_backend.ts";
import { header, tempDir } from "../tests/session/_helpers.ts";

Deno.test("`Session.append()` freezes every node reachable from the event, and only a copy", () => {
  const session = new Session({ header: header("s"), now: () => 0 });
  const first = { a: 1 };
  const data = { list: [first, [2, { b: [3] }]], nested: { c: { d: "e" } }, n: null };
  const event = session.append("note", data);
  const nodes: unknown[] = [];
  const walk = (v: unknown): void => {
    if (typeof v !== "object" || v === null) return;
    nodes.push(v);
    for (const child of Object.values(v)) walk(child);
  };
  walk(event);
  assert.equal(nodes.length, 9, "envelope, data and 7 nested nodes");
  for (const node of nodes) assert.ok(Object.isFrozen(node), JSON.stringify(node));
  // Modules are strict: writes to a committed event throw instead of changing it.
  const e = event as unknown as { seq: number; data: typeof data };
  assert.throws(() => (e.seq = 9), TypeError);
  assert.throws(() => ((e.data.list[0] as typeof first).a = 9), TypeError);
  assert.throws(() => (e.data.list[1] as unknown[]).push(4), TypeError);
  assert.throws(() => delete (e.data.nested as { c?: unknown }).c, TypeError);
  // The caller's value stays the caller's: changing it later changes no committed event.
  first.a = 42;
  (data.nested.c as { d: string }).d = "changed";
  assert.deepEqual(session.event(0)?.data, {
    list: [{ a: 1 }, [2, { b: [3] }]],
    nested: { c: { d: "e" } },
    n: null,
  });
  assert.notEqual(event.data, data);
});

Deno.test("append listeners get the data's JSON text, exactly what storage holds", () => {
  const session = new Session({ header: header("s"), now: () => 0 });
  const texts: (string | undefined)[] = [];
  using _ = session.subscribe((_event, _session, text) => texts.push(text));
  session.append("note", { when: new Date(Date.UTC(2026, 0, 2)), skip: undefined, k: [1] });
  session.append("note", "plain");
  assert.deepEqual(texts, ['{"when":"2026-01-02T00:00:00.000Z","k":[1]}', '"plain"']);
  assert.deepEqual(session.events().map((e) => JSON.stringify(e.data)), texts);
});

Deno.test("`LibsqlBackend` stores the appended data once serialized, as the live event holds it", async () => {
  await using dir = await tempDir();
  const url = `file:${dir.path}/chime.db`;
  const data = { text: "x\u2028y \ud83d\ude00", n: -0, big: 1e21, list: [{ a: [] }] };
  {
    await using store = new SessionStore({ backend: await LibsqlBackend.open({ url }) });
    const session = await store.create({ cwd: "/", id: "s", timeZone: "UTC" });
    store.append(session, "note", data);
    store.append(session, "note", { second: true });
    assert.equal(await store.flush(session), true);
    assert.deepEqual(await store.readStored("s"), session.events());
  }
  // A fresh process view: the stored text parses to the live event's data.
  await using backend = await LibsqlBackend.open({ url });
  const stored = await backend.load("s");
  assert.deepEqual(stored?.events.map((e) => e.data), [
    { text: "x\u2028y \ud83d\ude00", n: 0, big: 1e21, list: [{ a: [] }] },
    { second: true },
  ]);
  // Entries the caller does not know are serialized by the backend.
  await backend.append("s", [{ seq: 2, type: "note", at: "2026-01-01T00:00:00.000Z", data: [3] }], [
    undefined,
  ]);
  assert.deepEqual((await backend.readEvents("s", { after: 1 }))[0]?.data, [3]);
});
