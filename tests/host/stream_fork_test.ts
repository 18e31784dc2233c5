/**
 * The stream never activates a cold session and streams its connect-time backlog in bounded
 * chunks; fork validates `throughSeq`.
 *
 * @module
 */
import assert from "node:assert/strict";
import { createApp, Feeds, Views, Watermark } from "@chime/host";
import { scheduleViews } from "@chime/schedule";
import { SessionStore } from "@chime/session";
import { MemoryBackend } from "@chime/session/testing";
import { appendReminder, parseSse, postJson, readSse, testRuntime } from "./_helpers.ts";

Deno.test("GET /stream answers 409 session_cold for a cold session and never activates it", async () => {
  await using runtime = await testRuntime();
  const app = createApp(runtime);
  const { session } = await runtime.create({ timeZone: "UTC" });
  const id = session.id;
  await runtime.store.close(session);
  const response = await app.request(`/api/sessions/${id}/stream`);
  assert.equal(response.status, 409);
  assert.equal((await response.json()).error.code, "session_cold");
  assert.equal(runtime.store.live(id), undefined, "still cold");
  const unknown = await app.request(`/api/sessions/nobody/stream`);
  assert.equal(unknown.status, 404);
  await unknown.body?.cancel();
  assert.equal((await app.request(`/api/sessions/${id}/resume`, { method: "POST" })).status, 200);
  const live = await app.request(`/api/sessions/${id}/stream`);
  assert.equal(live.status, 200);
  await live.body?.cancel();
});

Deno.test("the connect-time backlog is streamed in bounded chunks, then live without gap or duplicate", async () => {
  const watermark = new Watermark();
  await using store = new SessionStore({ backend: new MemoryBackend() });
  const feeds = new Feeds({
    watermark,
    views: new Views([scheduleViews]),
    limits: { maxFrames: 8 },
    // Older events than the live tail come from storage (docs/long-sessions.md).
    read: (s, from, to) => store.read(s, from, to),
  });
  store.onFlushed((s, through) => feeds.onFlushed(s, through));
  const session = await store.create({ cwd: "/", timeZone: "UTC" });
  const dispatch = appendReminder(session);
  for (let i = 0; i < 3000; i++) session.append("note", { i });
  await store.flush(session);
  using client = feeds.attach(session, -1);
  assert.equal(client.queued, 0, "nothing of the backlog is queued up front");
  const seqs: number[] = [];
  const views: number[] = [];
  const flushed: number[] = [];
  let chunks = 0;
  while (seqs.length < session.length || flushed.length === 0) {
    const frames = await client.take(0);
    assert.ok(frames.length <= 256 + 8, `chunk of ${frames.length}`);
    chunks++;
    for (const m of parseSse(frames.join(""))) {
      const event = m.data.event as { seq: number } | undefined;
      if (m.event === "flushed") flushed.push(m.data.throughSeq as number);
      else if (m.data.view !== undefined) views.push(event!.seq);
      else seqs.push(event!.seq);
    }
    // Appends during the backlog are chased by it, never doubled.
    if (chunks % 3 === 0 && chunks < 20) session.append("note", { during: chunks });
    assert.equal(client.dropped, false);
  }
  assert.ok(chunks > 10);
  assert.deepEqual(seqs, [...Array(session.length).keys()]);
  assert.deepEqual(views, [dispatch]);
  assert.equal(flushed.at(-1), watermark.get(session));
  session.append("note", { after: true });
  const [next] = parseSse((await client.take(0)).join(""));
  assert.equal((next!.data.event as { seq: number }).seq, session.length - 1);
});

Deno.test("a big session streams over HTTP to a client with small queue limits", async () => {
  await using runtime = await testRuntime({ feedLimits: { maxFrames: 16, maxBytes: 64 * 1024 } });
  const app = createApp(runtime, { heartbeatMs: 50 });
  const { session } = await runtime.create({ timeZone: "UTC" });
  for (let i = 0; i < 5000; i++) session.append("note", { text: "x".repeat(40), i });
  const response = await app.request(`/api/sessions/${session.id}/stream`);
  const messages = await readSse(
    response.body!,
    (ms) => ms.filter((m) => m.event === "session-event").length >= session.length,
  );
  const seqs = messages.filter((m) => m.event === "session-event")
    .map((m) => (m.data.event as { seq: number }).seq);
  assert.deepEqual(seqs, [...Array(session.length).keys()]);
});

Deno.test("fork validates throughSeq: integer, 0 ≤ throughSeq < parent length; nothing written", async () => {
  await using runtime = await testRuntime();
  const app = createApp(runtime);
  const { session } = await runtime.create({ timeZone: "UTC" });
  for (let i = 0; i < 3; i++) session.append("note", { i });
  const fork = (body: unknown) => app.request(`/api/sessions/${session.id}/fork`, postJson(body));
  const before = (await runtime.store.list()).length;
  for (
    const [throughSeq, code] of [
      ["3", "invalid_arguments"],
      [1.5, "invalid_arguments"],
      [null, "invalid_arguments"],
      [true, "invalid_arguments"],
      [-1, "invalid_seq"],
      [session.length, "invalid_seq"],
      [1e9, "invalid_seq"],
    ] as const
  ) {
    const response = await fork({ throughSeq });
    assert.equal(response.status, 400, `${JSON.stringify(throughSeq)}`);
    assert.equal((await response.json()).error.code, code, `${JSON.stringify(throughSeq)}`);
  }
  assert.equal((await runtime.store.list()).length, before, "nothing written");
  const ok = await fork({ throughSeq: 0 });
  assert.equal(ok.status, 201);
  const child = (await ok.json()).header;
  assert.equal(child.lineage.forkedThroughSeq, 0);
  assert.equal((await fork({})).status, 201);
  await runtime.store.close(session);
  assert.equal((await fork({ throughSeq: session.length })).status, 400, "cold parent too");
});
