/**
 * Routes through `app.request()`: the zone boundary, bad input answered with codes and nothing
 * written, message provenance per tab, cancel / retry / edit.
 *
 * @module
 */
import assert from "node:assert/strict";
import { ScriptedModel, type ScriptedReply } from "@chime/agent";
import { createApp } from "@chime/host";
import type { UserRpcData } from "@chime/session";
import { MemoryBackend } from "@chime/session/testing";
import { postJson, testRuntime } from "./_helpers.ts";

async function errorCode(response: Response): Promise<string> {
  const body = await response.json();
  return body.error.code;
}

Deno.test("POST /api/sessions stores one normalized zone and answers conflicts with 409", async () => {
  await using runtime = await testRuntime();
  const app = createApp(runtime);
  const created = await app.request("/api/sessions", postJson({ timeZone: "america/new_york" }));
  assert.equal(created.status, 201);
  assert.equal((await created.json()).header.timeZone, "America/New_York");
  const first = await app.request(
    "/api/sessions",
    postJson({ id: "tab", timeZone: "Asia/Calcutta" }),
  );
  assert.equal(first.status, 201);
  const same = await app.request(
    "/api/sessions",
    postJson({ id: "tab", timeZone: "Asia/Kolkata" }),
  );
  assert.equal(same.status, 200, "an equal zone (a link) is the same session");
  assert.equal((await same.json()).header.timeZone, "Asia/Calcutta");
  const other = await app.request(
    "/api/sessions",
    postJson({ id: "tab", timeZone: "Europe/Paris" }),
  );
  assert.equal(other.status, 409);
  const body = await other.json();
  assert.equal(body.error.code, "time_zone_conflict");
  assert.equal(body.error.knownTimeZone, "Asia/Calcutta");
});

Deno.test("bad input is answered with its code and writes nothing", async () => {
  const backend = new MemoryBackend();
  await using runtime = await testRuntime({ backend });
  const app = createApp(runtime, { bodyLimitBytes: 1024 });
  const cases: [RequestInit & { path?: string }, number, string][] = [
    [postJson("{not json"), 400, "invalid_json"],
    [postJson([1, 2]), 400, "invalid_request"],
    [postJson({ timeZone: "x".repeat(2000) }), 413, "payload_too_large"],
    [postJson({}), 400, "invalid_time_zone"],
    [postJson({ timeZone: "+05:30" }), 400, "invalid_time_zone"],
    [postJson({ timeZone: "Mars/Olympus" }), 400, "invalid_time_zone"],
    [postJson({ timeZone: "UTC", id: "../etc" }), 400, "invalid_session_id"],
  ];
  for (const [init, status, code] of cases) {
    const response = await app.request("/api/sessions", init);
    assert.equal(response.status, status, code);
    assert.equal(await errorCode(response), code);
  }
  const unknown = [
    ["/api/sessions/nope", "GET", 404, "session_not_found"],
    ["/api/sessions/bad!id", "GET", 400, "invalid_session_id"],
    ["/api/sessions/nope/history", "GET", 404, "session_not_found"],
    ["/api/sessions/nope/resume", "POST", 404, "session_not_found"],
    ["/api/sessions/nope/fork", "POST", 404, "session_not_found"],
    ["/api/sessions/nope/turns/current/cancel", "POST", 404, "session_not_found"],
  ] as const;
  for (const [path, method, status, code] of unknown) {
    const response = await app.request(path, { method });
    assert.equal(response.status, status, path);
    assert.equal(await errorCode(response), code, path);
  }
  const message = { text: "hi", clientTimeZone: "UTC" };
  const toUnknown = await app.request("/api/sessions/nope/messages", postJson(message));
  assert.equal(toUnknown.status, 404);
  assert.deepEqual(await runtime.store.list(), []);
  assert.equal(backend.calls.initialize ?? 0, 0);

  const { session } = await runtime.create({ timeZone: "UTC" });
  const path = `/api/sessions/${session.id}/messages`;
  const bad: [unknown, number, string][] = [
    ["{", 400, "invalid_json"],
    [{ text: "hi" }, 400, "invalid_time_zone"],
    [{ text: "hi", clientTimeZone: "Nowhere/City" }, 400, "invalid_time_zone"],
    [{ text: "  ", clientTimeZone: "UTC" }, 400, "invalid_request"],
    [{ text: 42, clientTimeZone: "UTC" }, 400, "invalid_request"],
    [{ text: "y".repeat(4000), clientTimeZone: "UTC" }, 413, "payload_too_large"],
  ];
  for (const [body, status, code] of bad) {
    const response = await app.request(path, postJson(body));
    assert.equal(response.status, status, code);
    assert.equal(await errorCode(response), code);
  }
  assert.equal(session.length, 0, "no rejected request appended anything");
  assert.equal((await app.request("/nowhere")).status, 404);
});

Deno.test("two tabs with different zones keep each message's own zone", async () => {
  const gate = Promise.withResolvers<ScriptedReply>();
  const model = new ScriptedModel([() => gate.promise, { text: "second" }]);
  await using runtime = await testRuntime({ model });
  const app = createApp(runtime);
  const { session } = await runtime.create({ timeZone: "Europe/Berlin" });
  const path = `/api/sessions/${session.id}/messages`;
  const a = await app.request(
    path,
    postJson({ text: "from Berlin", clientTimeZone: "Europe/Berlin" }),
  );
  const b = await app.request(path, postJson({ text: "from Tokyo", clientTimeZone: "asia/tokyo" }));
  assert.equal(a.status, 202);
  assert.equal(b.status, 202);
  gate.resolve({ text: "first" });
  const agent = await runtime.agentFor(session);
  await agent.whenIdle();
  const zones = session.events().filter((e) => e.type === "user-rpc")
    .map((e) => [(e.data as UserRpcData).text, (e.data as UserRpcData).source.clientTimeZone]);
  assert.deepEqual(zones, [["from Berlin", "Europe/Berlin"], ["from Tokyo", "Asia/Tokyo"]]);
});

Deno.test("cancel, retry and edit answer 404/409 with codes and keep the original zone", async () => {
  const gate = Promise.withResolvers<ScriptedReply>();
  const model = new ScriptedModel((request) =>
    request.messages.some((m) => m.role === "user" && m.content === "slow")
      ? gate.promise
      : { text: "ok" }
  );
  await using runtime = await testRuntime({ model });
  const app = createApp(runtime);
  const { session } = await runtime.create({ timeZone: "Asia/Kolkata" });
  const base = `/api/sessions/${session.id}`;
  const idle = await app.request(`${base}/turns/current/cancel`, { method: "POST" });
  assert.equal(idle.status, 409);
  assert.equal(await errorCode(idle), "no_running_turn");

  const sent = await app.request(
    `${base}/messages`,
    postJson({ text: "slow", clientTimeZone: "Asia/Calcutta" }),
  );
  const { messageId } = await sent.json();
  const cancelled = await app.request(`${base}/turns/current/cancel`, { method: "POST" });
  assert.equal(cancelled.status, 200);
  const agent = await runtime.agentFor(session);
  await agent.whenIdle();
  const ends = session.events().filter((e) => e.type === "turn/end").map((e) =>
    (e.data as { outcome: string }).outcome
  );
  assert.deepEqual(ends, ["cancelled"]);

  const missing = await app.request(`${base}/messages/nope/retry`, { method: "POST" });
  assert.equal(missing.status, 404);
  assert.equal(await errorCode(missing), "message_not_found");
  const missingEdit = await app.request(`${base}/messages/nope/edit`, postJson({ text: "x" }));
  assert.equal(missingEdit.status, 404);
  const before = session.length;
  const badEdit = await app.request(`${base}/messages/${messageId}/edit`, postJson({ text: "" }));
  assert.equal(badEdit.status, 400);
  assert.equal(session.length, before, "nothing written");

  gate.resolve({ text: "late" });
  const edited = await app.request(
    `${base}/messages/${messageId}/edit`,
    postJson({ text: "fast now" }),
  );
  assert.equal(edited.status, 202);
  const edit = await edited.json();
  assert.equal(edit.edits, messageId);
  await agent.whenIdle();
  const editEvent = session.event(edit.seq)!;
  assert.deepEqual(editEvent.data, {
    messageId: edit.messageId,
    text: "fast now",
    source: { kind: "web", clientTimeZone: "Asia/Calcutta" },
    edits: messageId,
  });
  const retried = await app.request(`${base}/messages/${edit.messageId}/retry`, { method: "POST" });
  assert.equal(retried.status, 202);
  await agent.whenIdle();
  const starts = session.events().filter((e) => e.type === "turn/start").length;
  assert.equal(starts, 3);
  const unknownSession = await app.request(`/api/sessions/nope/messages/${messageId}/retry`, {
    method: "POST",
  });
  assert.equal(unknownSession.status, 404);
});

Deno.test("GET /healthz, the session list and the page assets", async () => {
  await using runtime = await testRuntime();
  const app = createApp(runtime, {
    assets: {
      "/": { body: "<!doctype html>", contentType: "text/html; charset=utf-8" },
      "/app.js": { body: "export {}", contentType: "text/javascript; charset=utf-8" },
    },
  });
  assert.deepEqual(await (await app.request("/healthz")).json(), { ok: true });
  const { session } = await runtime.create({ timeZone: "UTC" });
  const list = await (await app.request("/api/sessions")).json();
  assert.deepEqual(list.sessions.map((s: { header: { id: string } }) => s.header.id), [session.id]);
  assert.equal(list.sessions[0].live, true);
  const page = await app.request("/");
  assert.equal(page.headers.get("content-type"), "text/html; charset=utf-8");
  assert.equal(await page.text(), "<!doctype html>");
  const js = await app.request("/app.js");
  assert.match(js.headers.get("content-type") ?? "", /javascript/);
  await js.body?.cancel();
});
