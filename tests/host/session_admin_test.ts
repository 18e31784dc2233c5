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
import { RECORD, SCHEDULE_ID, testRuntime } from "./_helpers.ts";

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
