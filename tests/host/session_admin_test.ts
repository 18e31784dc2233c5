/**
 * Renaming and deleting a session (README.md "The page" and "HTTP API", docs/events.md
 * `session/title` / `session/deleted`): a rename is recorded in the log and wins in the list; a
 * delete ends the session's reminders through the schedule plugin's own `delete` records, then
 * records `session/deleted`, hides the session and answers `session_not_found` everywhere, with
 * its log kept until the purge. Bad input answers a coded error and stores nothing; a cold
 * session with an overdue reminder is deleted without firing it.
 *
 * @module
 */
import assert from "node:assert/strict";
import { createApp } from "@chime/host";
import { schedulePlugin } from "@chime/schedule";
import { MemoryBackend } from "@chime/session/testing";
import {
  postJson,
  readSse,
  RECORD,
  SCHEDULE_ID,
  scheduleWebOnly,
  testRuntime,
} from "./_helpers.ts";

const json = (body: unknown) => ({
  headers: { "content-type": "application/json" },
  body: JSON.stringify(body),
});

Deno.test("PATCH /api/sessions/:id renames (recorded, listed); bad titles store nothing", async () => {
  const backend = new MemoryBackend();
  await using runtime = await testRuntime({ backend });
  const app = createApp(runtime);
  const { session } = await runtime.create({ timeZone: "UTC" });
  await runtime.store.flush(session);
  const before = session.length;
  for (
    const [body, status, code] of [
      [{ title: "" }, 400, "invalid_request"],
      [{ title: "a\u0007b" }, 400, "invalid_request"],
      [{ title: "a\ud800b" }, 400, "invalid_request"], // a lone surrogate has no UTF-8 form
      [{ title: "x".repeat(81) }, 400, "invalid_request"],
      [{ title: 3 }, 400, "invalid_request"],
      [{}, 400, "invalid_request"],
    ] as const
  ) {
    const res = await app.request(`/api/sessions/${session.id}`, {
      method: "PATCH",
      ...json(body),
    });
    assert.equal(res.status, status, JSON.stringify(body));
    const answer = await res.json() as { error: { code: string; field?: string } };
    assert.equal(answer.error.code, code);
    assert.equal(answer.error.field, "title");
  }
  assert.equal(session.length, before, "nothing appended for bad input");
  const missing = await app.request("/api/sessions/nope", {
    method: "PATCH",
    ...json({ title: "x" }),
  });
  assert.equal(missing.status, 404);
  assert.equal(
    (await missing.json() as { error: { code: string } }).error.code,
    "session_not_found",
  );

  const ok = await app.request(`/api/sessions/${session.id}`, {
    method: "PATCH",
    ...json({ title: "  Groceries  " }),
  });
  assert.equal(ok.status, 200);
  assert.equal((await ok.json() as { title: string }).title, "Groceries");
  const last = session.events().at(-1)!;
  assert.deepEqual([last.type, last.data], ["session/title", { title: "Groceries" }]);
  const list = await (await app.request("/api/sessions")).json() as {
    sessions: { header: { id: string }; title: string | null }[];
  };
  assert.equal(list.sessions.find((s) => s.header.id === session.id)?.title, "Groceries");
});

Deno.test("DELETE /api/sessions/:id of a cold session with an overdue reminder ends it by its own delete, fires nothing, hides the session", async () => {
  const backend = new MemoryBackend();
  {
    await using runtime = await testRuntime({ backend, plugins: [schedulePlugin()] });
    const { session } = await runtime.create({ timeZone: "UTC", id: "doomed" });
    // Overdue: due in the past, never delivered (the session goes cold before it fires).
    session.append("schedule/change", {
      version: 1,
      op: "create",
      record: {
        id: SCHEDULE_ID,
        kind: "at",
        prompt: "stretch",
        scheduledAt: "2020-01-01T00:00:00.000Z",
      },
    });
    await runtime.store.flush(session);
  }
  await using runtime = await testRuntime({ backend, plugins: [schedulePlugin()] });
  const app = createApp(runtime);
  assert.equal(runtime.store.live("doomed"), undefined, "cold after the restart");
  const res = await app.request("/api/sessions/doomed", { method: "DELETE" });
  assert.equal(res.status, 200, await res.clone().text());
  const stored = await runtime.store.inspect("doomed");
  const tail = stored!.events.map((e) => [e.type, (e.data as { op?: string }).op ?? null]);
  assert.deepEqual(tail.slice(-2), [["schedule/change", "delete"], ["session/deleted", null]]);
  assert.ok(
    !stored!.events.some((e) => (e.data as { op?: string }).op === "dispatch"),
    "the overdue reminder never fired",
  );
  assert.equal(runtime.store.live("doomed"), undefined, "left cold");
  const list = await (await app.request("/api/sessions")).json() as {
    sessions: { header: { id: string } }[];
  };
  assert.ok(!list.sessions.some((s) => s.header.id === "doomed"), "hidden from the list");
  for (
    const [method, path] of [
      ["POST", "/resume"],
      ["GET", "/history"],
      ["GET", ""],
      ["GET", "/stream"],
      ["DELETE", ""],
      ["PATCH", ""],
      ["POST", "/messages"],
      ["POST", "/acknowledge"],
      ["POST", "/turns/current/cancel"],
    ] as const
  ) {
    const init = method === "PATCH"
      ? { method, ...json({ title: "x" }) }
      : method === "POST" && path === "/messages"
      ? { method, ...json({ text: "hi", clientTimeZone: "UTC" }) }
      : method === "POST" && path === "/acknowledge"
      ? { method, ...json({ tag: "chime:doomed:x" }) }
      : { method };
    const r = await app.request(`/api/sessions/doomed${path}`, init);
    assert.equal(r.status, 404, `${method} ${path}`);
    assert.equal((await r.json() as { error: { code: string } }).error.code, "session_not_found");
  }
  const again = await app.request("/api/sessions", {
    method: "POST",
    ...json({ timeZone: "UTC", id: "doomed" }),
  });
  assert.equal(again.status, 409, "a deleted id is not made live again");
  assert.equal((await again.json() as { error: { code: string } }).error.code, "session_exists");
  assert.equal((await runtime.store.inspect("doomed"))!.events.length, stored!.events.length);
});

Deno.test("DELETE of a live session stops its agent first; unknown ids are session_not_found", async () => {
  const backend = new MemoryBackend();
  await using runtime = await testRuntime({ backend, plugins: [schedulePlugin()] });
  const app = createApp(runtime);
  const { session } = await runtime.create({ timeZone: "UTC" });
  const record = { ...RECORD, scheduledAt: new Date(Date.now() + 3_600_000).toISOString() };
  session.append("schedule/change", { version: 1, op: "create", record });
  await runtime.store.flush(session);
  const res = await app.request(`/api/sessions/${session.id}`, { method: "DELETE" });
  assert.equal(res.status, 200);
  assert.equal(runtime.store.live(session.id), undefined);
  const events = (await runtime.store.inspect(session.id))!.events;
  assert.equal(events.at(-1)?.type, "session/deleted");
  assert.ok(events.some((e) => (e.data as { op?: string; id?: string }).op === "delete"));
  const unknown = await app.request("/api/sessions/nobody", { method: "DELETE" });
  assert.equal(unknown.status, 404);
  const bad = await app.request("/api/sessions/bad%20id", { method: "DELETE" });
  assert.equal(bad.status, 400);
});

/** Waits (on state, with a generous deadline) until `ready()` holds. */
async function until(what: string, ready: () => boolean): Promise<void> {
  const deadline = Date.now() + 30_000;
  while (!ready()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

Deno.test("DELETE revokes the session's calendar feed key and refuses a new one; streams are told and end", async () => {
  await using runtime = await testRuntime({ plugins: [scheduleWebOnly()] });
  const app = createApp(runtime, { heartbeatMs: 60_000 });
  const { session: doomed } = await runtime.create({ timeZone: "UTC", id: "doomed" });
  const { session: other } = await runtime.create({ timeZone: "UTC", id: "other" });
  await runtime.store.flush(doomed);
  await runtime.store.flush(other);
  const issued = await app.request("/api/reminders/feed", postJson({ session: "doomed" }));
  assert.equal(issued.status, 200);
  const { url } = await issued.json() as { url: string };
  assert.equal((await app.request(url)).status, 200, "the feed answers before the delete");

  const both = await app.request("/api/alerts?sessions=doomed,other");
  const only = await app.request("/api/alerts?sessions=doomed");
  const stream = await app.request("/api/sessions/doomed/stream");
  assert.equal(stream.status, 200);
  await until(
    "the streams attach",
    () => runtime.alerts.clientCount === 2 && runtime.feeds.clientCount === 1,
  );

  const res = await app.request("/api/sessions/doomed", { method: "DELETE" });
  assert.equal(res.status, 200);

  // The session stream: a last `session-deleted`, then the stream ends (readSse returns at its end).
  const events = await readSse(stream.body!, () => false, 30_000);
  const last = events.at(-1)!;
  assert.deepEqual([last.event, last.data], ["session-deleted", { code: "session_not_found" }]);
  // A page watching only the deleted session: `deleted`, then its stream ends.
  const alone = await readSse(only.body!, () => false, 30_000);
  assert.deepEqual(alone.map((m) => [m.event, m.data]), [
    ["deleted", { sessionId: "doomed", code: "session_not_found" }],
  ]);
  // A page watching another session too: `deleted`, and the stream stays for the other one.
  const rest = await readSse(both.body!, (m) => m.some((x) => x.event === "deleted"), 30_000);
  assert.deepEqual(rest.map((m) => m.event), ["deleted"]);
  await until(
    "the ended streams detach",
    () => runtime.alerts.clientCount === 0 && runtime.feeds.clientCount === 0,
  );

  // The key is revoked (not merely hidden behind the route guard), and none is issued again.
  assert.equal(await runtime.links.get("sessions/doomed/reminders.ics"), undefined);
  const old = await app.request(url);
  assert.equal(old.status, 404);
  for (
    const request of [
      app.request("/api/reminders/feed", postJson({ session: "doomed" })),
      app.request("/api/reminders/feed?session=doomed"),
      app.request("/api/reminders/feed?session=doomed", { method: "DELETE" }),
    ]
  ) {
    const answer = await request;
    assert.equal(answer.status, 404);
    assert.equal((await answer.json()).error.code, "session_not_found");
  }
  assert.equal(await runtime.links.get("sessions/doomed/reminders.ics"), undefined);
});

Deno.test("PATCH refuses a field it does not take; titles count UTF-16 code units like messages", async () => {
  await using runtime = await testRuntime();
  const app = createApp(runtime);
  const { session } = await runtime.create({ timeZone: "UTC" });
  await runtime.store.flush(session);
  const before = session.length;
  const patch = (body: unknown) =>
    app.request(`/api/sessions/${session.id}`, { method: "PATCH", ...json(body) });
  const extra = await patch({ title: "Groceries", pinned: true });
  assert.equal(extra.status, 400);
  const answer = await extra.json() as { error: { code: string; field: string } };
  assert.deepEqual([answer.error.code, answer.error.field], ["unknown_field", "pinned"]);
  // 41 emoji are 41 code points but 82 UTF-16 code units: over 80, as a message would count it.
  const long = await patch({ title: "😀".repeat(41) });
  assert.equal(long.status, 400);
  assert.equal((await long.json()).error.code, "invalid_request");
  assert.equal(session.length, before, "nothing appended for bad input");
  const fits = await patch({ title: "😀".repeat(40) });
  assert.equal(fits.status, 200);
  assert.equal((await fits.json()).title, "😀".repeat(40));
});
