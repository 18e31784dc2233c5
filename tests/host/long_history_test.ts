/**
 * A live session past its in-memory tail (`docs/long-sessions.md` §"Bounded live session"):
 * attached history, the attached-history identity check, stream backlog and fork all serve the
 * events that left memory, read from real libSQL storage.
 *
 * @module
 */
import assert from "node:assert/strict";
import { attachedHistory, Feeds, provenPrefix, Views, Watermark } from "@chime/host";
import { scheduleViews } from "@chime/schedule";
import { LibsqlBackend, SessionStore } from "@chime/session";
import { appendReminder, parseSse, reminderView } from "./_helpers.ts";

Deno.test("a live session past its tail serves history, identity, backlog and fork", async () => {
  const dir = await Deno.makeTempDir({ prefix: "chime-long-" });
  try {
    await using store = new SessionStore({
      backend: await LibsqlBackend.open({ url: `file:${dir}/long.db` }),
      liveTailEvents: 8,
    });
    const views = new Views([scheduleViews]);
    const session = await store.create({ cwd: "/", id: "long", timeZone: "UTC" });
    const dispatch = appendReminder(session);
    for (let i = 0; i < 300; i++) session.append("note", { i });
    assert.equal(await store.flush(session), true);
    assert.ok(session.tailStart > dispatch + 100, "the dispatch left memory");
    const stored = (await store.inspect("long"))!.events;
    // Attached history, oldest page: from storage, with the view proven against storage.
    const page = await attachedHistory(store, views, session, { before: 50, limit: 50 });
    assert.deepEqual(page.events, stored.slice(0, 50));
    assert.deepEqual(page.views, { [dispatch]: reminderView() });
    const newest = await attachedHistory(store, views, session, { limit: 20 });
    assert.deepEqual(newest.events, stored.slice(-20));
    assert.deepEqual(await provenPrefix(store, session), { ok: true, length: session.length });
    // A newest-page view whose context (the schedule change) is only in storage.
    const late = appendReminder(session, "sch_ZyXwVuTs9876");
    assert.equal(await store.flush(session), true);
    const tail = await attachedHistory(store, views, session, { limit: 5 });
    assert.deepEqual(tail.views, { [late]: reminderView("sch_ZyXwVuTs9876") });
    // A stream client catching up from seq 0 gets every event once, in order.
    const feeds = new Feeds({
      watermark: new Watermark(),
      views,
      read: (s, from, to) => store.read(s, from, to),
    });
    const client = feeds.attach(session, -1);
    const seqs: number[] = [];
    while (seqs.length < session.length) {
      for (const m of parseSse((await client.take(0)).join(""))) {
        const event = m.data.event as { seq: number } | undefined;
        if (event !== undefined && m.data.view === undefined) seqs.push(event.seq);
      }
    }
    client.close();
    assert.deepEqual(seqs, [...Array(session.length).keys()]);
    // Fork through the dispatch, long gone from memory.
    const kid = await store.fork(session, { id: "kid", throughSeq: dispatch + 3 });
    assert.deepEqual((await store.read(kid)).slice(0, dispatch + 4), stored.slice(0, dispatch + 4));
    const kidPage = await attachedHistory(store, views, kid);
    assert.deepEqual(kidPage.views, { [dispatch]: reminderView() });
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
