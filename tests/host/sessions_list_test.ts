/**
 * `GET /api/sessions` (README.md#the-page): titles from the first user message read from
 * the log, forks naming their parent, paging with `limit` / `before` / `nextBefore`, and the
 * original `{ sessions: [{ header, live }] }` shape kept.
 *
 * @module
 */
import assert from "node:assert/strict";
import { createApp } from "@chime/host";
import { MemoryBackend } from "@chime/session/testing";
import { TITLE_MAX, titleOf } from "../../host/sessions/titles.ts";
import { testRuntime } from "./_helpers.ts";

const say = (text: string, n = 0) => ({
  messageId: `m${n}`,
  text,
  source: { kind: "web", clientTimeZone: "UTC" },
});

interface Row {
  header: { id: string; lineage: unknown };
  live: boolean;
  title: string | null;
  forkOf?: { id: string; title: string | null };
}

Deno.test("GET /api/sessions titles sessions by their first user message; forks name their parent", async () => {
  await using runtime = await testRuntime();
  const app = createApp(runtime);
  const { session: a } = await runtime.create({ timeZone: "UTC" });
  a.append("turn/start", { turnId: "t0" });
  a.append("user-rpc", say("  remind me\n in 20 minutes to stretch "));
  a.append("user-rpc", say("second message", 1));
  const { session: empty } = await runtime.create({ timeZone: "UTC" });
  const child = await runtime.fork(a.id);
  const body = await (await app.request("/api/sessions")).json() as {
    sessions: Row[];
    nextBefore: string | null;
  };
  const byId = new Map(body.sessions.map((s) => [s.header.id, s]));
  assert.equal(byId.get(a.id)?.title, "remind me in 20 minutes to stretch");
  assert.equal(byId.get(a.id)?.live, true, "the original fields stay");
  assert.equal(byId.get(empty.id)?.title, null);
  assert.equal(byId.get(empty.id)?.forkOf, undefined);
  assert.deepEqual(byId.get(child.id)?.forkOf, {
    id: a.id,
    title: "remind me in 20 minutes to stretch",
  });
  assert.equal(byId.get(child.id)?.title, "remind me in 20 minutes to stretch", "inherited title");
  child.append("user-rpc", say("a question only the fork asked", 9));
  const again = await (await app.request("/api/sessions")).json() as { sessions: Row[] };
  assert.equal(
    again.sessions.find((s) => s.header.id === child.id)?.title,
    "a question only the fork asked",
    "a fork's own first message wins",
  );
  assert.equal(body.nextBefore, null);
});

Deno.test("GET /api/sessions pages newest first with limit and before; a cold session is read from storage", async () => {
  const backend = new MemoryBackend();
  await using runtime = await testRuntime({ backend });
  const app = createApp(runtime);
  const ids: string[] = [];
  for (let i = 0; i < 5; i++) {
    const { session } = await runtime.create({ timeZone: "UTC" });
    session.append("user-rpc", say(`message ${i}`));
    ids.push(session.id);
  }
  const list = await runtime.store.list();
  const order = list.map((h) => h.id);
  const first = await (await app.request("/api/sessions?limit=2")).json() as {
    sessions: Row[];
    nextBefore: string | null;
  };
  assert.deepEqual(first.sessions.map((s) => s.header.id), order.slice(0, 2));
  assert.equal(first.nextBefore, order[1]);
  const rest = await (await app.request(`/api/sessions?limit=10&before=${first.nextBefore}`))
    .json() as { sessions: Row[]; nextBefore: string | null };
  assert.deepEqual(rest.sessions.map((s) => s.header.id), order.slice(2));
  assert.equal(rest.nextBefore, null);
  // Cold: closed and read back from storage.
  const live = runtime.store.live(ids[0]!)!;
  await runtime.store.close(live);
  const cold = await (await app.request("/api/sessions")).json() as { sessions: Row[] };
  const row = cold.sessions.find((s) => s.header.id === ids[0]);
  assert.equal(row?.live, false);
  assert.equal(row?.title, "message 0");
  for (const query of ["limit=0", "limit=x", "before=nope"]) {
    const res = await app.request(`/api/sessions?${query}`);
    assert.equal(res.status, 400, query);
    assert.equal((await res.json()).error.code, "invalid_query");
  }
});

Deno.test("titleOf() collapses whitespace and shortens long messages", () => {
  assert.equal(titleOf(" \n "), null);
  const long = titleOf("提醒".repeat(100))!;
  assert.equal([...long].length, TITLE_MAX);
  assert.ok(long.endsWith("…"));
});
