/**
 * Commit-gated sidecars: reversed concurrent flushes and session objects reusing an id.
 *
 * @module
 */
import assert from "node:assert/strict";
import { Feeds, Views, Watermark } from "@chime/host";
import { scheduleViews } from "@chime/schedule";
import { SessionStore } from "@chime/session";
import { MemoryBackend } from "@chime/session/testing";
import { appendReminder, parseSse, reminderView } from "./_helpers.ts";

function wired(feeds: Feeds, backend = new MemoryBackend()): SessionStore {
  const store = new SessionStore({ backend });
  store.onFlushed((session, through) => feeds.onFlushed(session, through));
  return store;
}

async function drain(client: { take(ms: number): Promise<string[]> }) {
  return parseSse((await client.take(0)).join(""));
}

Deno.test("Watermark keeps the maximum over reversed concurrent flushes and re-sends once", async () => {
  const watermark = new Watermark();
  const feeds = new Feeds({ watermark, views: new Views([scheduleViews]) });
  await using store = wired(feeds);
  const session = await store.create({ cwd: "/", timeZone: "Europe/Berlin" });
  using client = feeds.attach(session);
  // Two flushes whose acknowledgements we release in reverse order.
  const gates = [Promise.withResolvers<void>(), Promise.withResolvers<void>()];
  let call = 0;
  using _gate = store.addFlushListener(session, () => gates[call++]!.promise);
  session.append("note", {});
  const first = store.flush(session); // throughSeq 1
  const dispatchSeq = appendReminder(session);
  const second = store.flush(session); // throughSeq 4
  gates[1]!.resolve();
  await second;
  assert.equal(watermark.get(session), dispatchSeq + 1);
  gates[0]!.resolve();
  await first;
  assert.equal(watermark.get(session), dispatchSeq + 1, "an older flush never moves it back");
  const messages = await drain(client);
  const sidecars = messages.filter((m) => m.data.view !== undefined);
  assert.equal(sidecars.length, 1);
  assert.deepEqual(sidecars[0]!.data.view, reminderView());
  assert.equal(sidecars[0]!.data.for, "event");
  assert.equal((sidecars[0]!.data.event as { seq: number }).seq, dispatchSeq);
  const flushed = messages.filter((m) => m.event === "flushed").map((m) => m.data.throughSeq);
  assert.deepEqual(flushed, [dispatchSeq + 1]);
});

Deno.test("a dispatch is sent raw at append and with its view only after session/flushed", async () => {
  const watermark = new Watermark();
  const feeds = new Feeds({ watermark, views: new Views([scheduleViews]) });
  const backend = new MemoryBackend();
  await using store = wired(feeds, backend);
  const session = await store.create({ cwd: "/", timeZone: "Asia/Kolkata" });
  await store.flush(session);
  using client = feeds.attach(session);
  // The eager write and the first barrier both fail.
  backend.failNext({ op: "append", when: "before" });
  backend.failNext({ op: "append", when: "before" });
  const seq = appendReminder(session);
  let messages = await drain(client);
  assert.deepEqual(messages.map((m) => m.data.view), [undefined, undefined]);
  await assert.rejects(store.flush(session));
  assert.equal((await drain(client)).length, 0, "a failed flush shows no ghost receipt");
  assert.equal(await store.flush(session), true);
  messages = await drain(client);
  assert.equal(messages[0]!.id, String(seq), "the sidecar's id is the stream cursor");
  assert.deepEqual(messages[0]!.data.view, reminderView());
});

Deno.test("a session id reused by a new Session object inherits no watermark", async () => {
  const watermark = new Watermark();
  const feeds = new Feeds({ watermark, views: new Views([scheduleViews]) });
  const storeA = wired(feeds);
  const first = await storeA.create({ id: "reused", cwd: "/", timeZone: "UTC" });
  for (let i = 0; i < 5; i++) first.append("note", { i });
  await storeA.flush(first);
  assert.equal(watermark.get(first), 5);
  await storeA[Symbol.asyncDispose]();

  await using storeB = wired(feeds);
  const second = await storeB.create({ id: "reused", cwd: "/", timeZone: "UTC" });
  assert.equal(second.id, first.id);
  assert.equal(watermark.get(second), 0);
  using client = feeds.attach(second);
  const seq = appendReminder(second);
  assert.ok(seq < 5, "the dispatch sits below the old lifetime's cursor");
  assert.ok((await drain(client)).every((m) => m.data.view === undefined));
  await storeB.flush(second);
  const views = (await drain(client)).filter((m) => m.data.view !== undefined);
  assert.equal(views.length, 1);
});

Deno.test("Feeds drops a client whose queue overflows without touching the others", () => {
  const watermark = new Watermark();
  const feeds = new Feeds({ watermark, views: new Views([]), limits: { maxFrames: 3 } });
  const store = new SessionStore({ backend: new MemoryBackend() });
  return (async () => {
    await using _store = store;
    const session = await store.create({ cwd: "/", timeZone: "UTC" });
    for (let i = 0; i < 10; i++) session.append("note", { i });
    using slow = feeds.attach(session, 9);
    using fast = feeds.attach(session, 9);
    for (let i = 0; i < 3; i++) {
      session.append("note", { i });
      await fast.take(0);
    }
    assert.equal(slow.closed, false);
    session.append("note", {});
    assert.equal(slow.dropped, true);
    assert.equal(fast.closed, false);
    assert.equal(feeds.clientCount, 1);
  })();
});
