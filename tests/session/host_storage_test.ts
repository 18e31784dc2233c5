/**
 * The host over damaged or strict storage (README "How it behaves on failure"): a damaged
 * session answers a coded `storage_corrupt` (no stack) while the others keep serving; a `cwd`
 * with a lone surrogate is refused with nothing stored; every acknowledged message is followed
 * by a `flushed` notice without any schedule barrier.
 */
import assert from "node:assert/strict";
import { ScriptedModel } from "@chime/agent";
import { createApp, HostRuntime } from "@chime/host";
import { scheduleViews } from "@chime/schedule";
import { LibsqlBackend, type PersistenceBackend } from "@chime/session";
import { readSse } from "../host/_helpers.ts";
import { buildDamaged } from "./_damage.ts";
import { evs, header, tempDir } from "./_helpers.ts";
import { JsonlBackend } from "@chime/session/jsonl";

async function host(backend: PersistenceBackend) {
  const reported: unknown[] = [];
  const runtime = await HostRuntime.open({
    config: {
      storage: { kind: "libsql", url: ":memory:" },
      model: { kind: "offline", reason: "test" },
      plugins: [],
      renderers: [],
      cwd: "/",
    },
    backend,
    model: new ScriptedModel(() => ({ text: "ok" })),
    plugins: [],
    views: [scheduleViews],
    reportError: (e) => reported.push(e),
  });
  const app = createApp(runtime, { reportError: (e) => reported.push(e) });
  return { runtime, app, reported };
}

const json = (body: unknown): RequestInit => ({
  method: "POST",
  headers: { "content-type": "application/json" },
  body: JSON.stringify(body),
});

Deno.test("a damaged session answers 500 `storage_corrupt` with its ids, never a stack; others keep serving", async () => {
  await using dir = await tempDir();
  const url = `file:${dir.path}/chime.db`;
  await buildDamaged(url, {
    sessions: { a: 4, b: 2, c: 1 },
    sql: [
      "UPDATE events SET data = CAST(x'7b226e223aff7d' AS TEXT) WHERE session_id = 'a' AND seq = 2",
      "UPDATE sessions SET origin = CAST(x'ff' AS TEXT) WHERE id = 'c'",
    ],
  });
  const { runtime, app, reported } = await host(await LibsqlBackend.open({ url }));
  await using _ = runtime;
  for (
    const [path, init, seq] of [
      ["/api/sessions/a/history", undefined, 2],
      ["/api/sessions/a/resume", { method: "POST" }, 2],
      ["/api/sessions/a/messages", json({ text: "hi", clientTimeZone: "UTC" }), 2],
      ["/api/sessions/c", undefined, undefined],
      ["/api/sessions/c/history", undefined, undefined],
    ] as const
  ) {
    const response = await app.request(path, init);
    const body = await response.json();
    assert.equal(response.status, 500, path);
    assert.equal(body.error.code, "storage_corrupt", path);
    assert.equal(body.error.sessionId, path.split("/")[3]);
    assert.equal(body.error.seq, seq, path);
    assert.doesNotMatch(JSON.stringify(body), /\bat .*\.ts:\d+/, "no stack in the answer");
  }
  const list = await (await app.request("/api/sessions")).json();
  assert.deepEqual(list.sessions.map((s: { header: { id: string } }) => s.header.id).sort(), [
    "a",
    "b",
  ]);
  const b = await app.request("/api/sessions/b/history");
  assert.equal(b.status, 200);
  assert.equal((await b.json()).events.length, 2);
  const sent = await app.request(
    "/api/sessions/b/messages",
    json({ text: "still here", clientTimeZone: "UTC" }),
  );
  assert.equal(sent.status, 202);
  assert.deepEqual(reported, []);
});

Deno.test("`POST /api/sessions` with a lone surrogate in cwd is 400 `invalid_arguments` and stores nothing", async () => {
  await using dir = await tempDir();
  const { runtime, app } = await host(await LibsqlBackend.open({ url: `file:${dir.path}/c.db` }));
  await using _ = runtime;
  const response = await app.request(
    "/api/sessions",
    json({ timeZone: "UTC", cwd: "/home/\uD800", id: "lone" }),
  );
  assert.equal(response.status, 400);
  assert.equal((await response.json()).error.code, "invalid_arguments");
  assert.equal((await app.request("/api/sessions/lone")).status, 404);
  assert.deepEqual(await runtime.store.backend.list(), []);
});

Deno.test("`POST /api/sessions` answers 201 with the header stored and plain chat gets `flushed` notices", async () => {
  await using dir = await tempDir();
  const backend = await LibsqlBackend.open({ url: `file:${dir.path}/f.db` });
  const { runtime, app } = await host(backend);
  await using _ = runtime;
  const created = await app.request("/api/sessions", json({ timeZone: "UTC", id: "chat" }));
  assert.equal(created.status, 201);
  await created.body?.cancel();
  // Stored at the moment of the answer (no later write needed).
  assert.equal((await backend.cursor("chat"))?.length, 0);
  const stream = await app.request("/api/sessions/chat/stream");
  const sent = await app.request(
    "/api/sessions/chat/messages",
    json({ text: "hello", clientTimeZone: "UTC" }),
  );
  const { seq } = await sent.json();
  assert.equal(sent.status, 202);
  assert.ok((await backend.cursor("chat"))!.length > seq, "the user-rpc is stored at 202");
  const messages = await readSse(
    stream.body!,
    (m) => m.some((x) => x.event === "flushed" && (x.data.throughSeq as number) > seq),
  );
  assert.ok(messages.some((m) => m.event === "flushed"));
});

Deno.test("JSONL: one damaged event line leaves `GET /api/sessions` answering for every session", async () => {
  await using dir = await tempDir();
  const logs = `${dir.path}/logs`;
  {
    await using backend = await JsonlBackend.open({ dir: logs });
    for (const id of ["a", "b", "c"]) await backend.initialize(header(id), evs(0, 4));
  }
  // Seq 2 of `b` (not a deletion mark, not a message): its checksum no longer matches.
  const path = `${logs}/b.jsonl`;
  const lines = (await Deno.readTextFile(path)).split("\n");
  lines[3] = lines[3]!.replace('"n":2', '"n":7');
  await Deno.writeTextFile(path, lines.join("\n"));
  const { runtime, app, reported } = await host(await JsonlBackend.open({ dir: logs }));
  await using _ = runtime;
  const response = await app.request("/api/sessions");
  assert.equal(response.status, 200);
  const list = await response.json();
  assert.deepEqual(list.sessions.map((s: { header: { id: string } }) => s.header.id).sort(), [
    "a",
    "b",
    "c",
  ]);
  const b = await app.request("/api/sessions/b/history");
  assert.equal(b.status, 500);
  assert.equal((await b.json()).error.seq, 2);
  assert.equal((await app.request("/api/sessions/a/history")).status, 200);
  assert.deepEqual(reported, []);
});
