/**
 * The smaller HTTP faults (README "How it behaves on failure") through `app.request()`: a body
 * cut short or stalled is a coded 4xx (never a 500 or a logged stack), an unexpected failure
 * answers a generic 500 and is logged once, and a 404 retry or edit never activates a cold
 * session (its overdue reminder does not fire).
 *
 * @module
 */
import assert from "node:assert/strict";
import { ScriptedModel } from "@chime/agent";
import { createApp } from "@chime/host";
import { schedulePlugin } from "@chime/schedule";
import { MemoryBackend } from "@chime/session/testing";
import { postJson, RECORD, testRuntime } from "./_helpers.ts";

function streamBody(chunks: string[], end: "error" | "stall"): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  return new ReadableStream({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(encoder.encode(chunk));
      if (end === "error") controller.error(new Error("connection reset by peer"));
    },
  });
}

function post(body: ReadableStream<Uint8Array>): RequestInit {
  return {
    method: "POST",
    headers: { "content-type": "application/json" },
    body,
    // @ts-ignore Deno needs duplex for a streamed request body
    duplex: "half",
  };
}

Deno.test("a body cut short is 400 body_incomplete, a stalled one 408 body_timeout; no stack logged", async () => {
  const reported: unknown[] = [];
  await using runtime = await testRuntime();
  const app = createApp(runtime, { bodyTimeoutMs: 50, reportError: (e) => reported.push(e) });
  const cut = await app.request("/api/sessions", post(streamBody(['{"timeZ'], "error")));
  assert.equal(cut.status, 400);
  const cutBody = await cut.json();
  assert.equal(cutBody.error.code, "body_incomplete");
  const stalled = await app.request("/api/sessions", post(streamBody(['{"timeZone"'], "stall")));
  assert.equal(stalled.status, 408);
  assert.equal((await stalled.json()).error.code, "body_timeout");
  assert.deepEqual(reported, [], "client faults are not logged as errors");
  assert.deepEqual(await runtime.store.list(), []);
});

class BrokenList extends MemoryBackend {
  override list(): never {
    throw new TypeError("Cannot read properties of undefined (reading 'secret')");
  }
}

Deno.test("an unexpected failure answers 500 internal_error with no detail, logged once", async () => {
  const reported: unknown[] = [];
  await using runtime = await testRuntime({ backend: new BrokenList() });
  const app = createApp(runtime, { reportError: (e) => reported.push(e) });
  const response = await app.request("/api/sessions");
  assert.equal(response.status, 500);
  const text = await response.text();
  assert.deepEqual(JSON.parse(text), {
    error: { code: "internal_error", message: "Cannot answer: internal error" },
  });
  assert.ok(!/secret|\bat\s|\.ts:/.test(text), "no message, stack or path in the answer");
  assert.equal(reported.length, 1);
  assert.ok(reported[0] instanceof TypeError);
});

Deno.test("a 404 retry or edit of a cold session leaves it cold: its overdue reminder does not fire", async () => {
  const backend = new MemoryBackend();
  const id = "cold-with-overdue";
  {
    await using seed = await testRuntime({ backend });
    const { session } = await seed.create({ id, timeZone: "UTC" });
    session.append("user-rpc", {
      messageId: "m1",
      text: "hello",
      source: { kind: "web", clientTimeZone: "UTC" },
    });
    session.append("schedule/change", {
      version: 1,
      op: "create",
      record: { ...RECORD, scheduledAt: "2020-01-01T00:00:10.000Z" }, // long overdue
    });
    assert.equal(await seed.store.flush(session), true);
  }
  const stored = (await backend.cursor(id))!.length;
  await using runtime = await testRuntime({
    backend,
    plugins: [schedulePlugin()],
    model: new ScriptedModel(() => ({ text: "ok" })),
  });
  const app = createApp(runtime);
  const base = `/api/sessions/${id}`;
  const attempts = [
    await app.request(`${base}/messages/nope/retry`, { method: "POST" }),
    await app.request(`${base}/messages/nope/edit`, postJson({ text: "changed" })),
  ];
  for (const response of attempts) {
    assert.equal(response.status, 404);
    assert.equal((await response.json()).error.code, "message_not_found");
  }
  assert.equal(runtime.store.live(id), undefined, "still cold");
  assert.equal((await backend.cursor(id))!.length, stored, "no dispatch, nothing appended");
  const unknown = await app.request(`/api/sessions/nobody/messages/m1/retry`, { method: "POST" });
  assert.equal(unknown.status, 404);
  assert.equal((await unknown.json()).error.code, "session_not_found");
  // A real message still resumes the session and retries it.
  const retried = await app.request(`${base}/messages/m1/retry`, { method: "POST" });
  assert.equal(retried.status, 202);
  assert.ok(runtime.store.live(id) !== undefined);
});
