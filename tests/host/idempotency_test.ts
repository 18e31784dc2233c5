/**
 * `Idempotency-Key` on `POST /api/sessions/:id/messages` (README "HTTP API"), on a real libSQL
 * file: a retry of an accepted message is answered with the original result and stored once,
 * also after a refused flush and after a host restart; the same key with another text is
 * `409 idempotency_key_reused`; a malformed key is `400` and stores nothing.
 *
 * @module
 */
import assert from "node:assert/strict";
import { ScriptedModel } from "@chime/agent";
import { createApp, type HostRuntime } from "@chime/host";
import { fileRuntime } from "./_file_runtime.ts";
import { postJson } from "./_helpers.ts";

function open(dir: string): Promise<HostRuntime> {
  return fileRuntime(dir, new ScriptedModel(() => ({ text: "ok" })), []);
}

function send(app: ReturnType<typeof createApp>, id: string, text: string, key?: string) {
  const request = postJson({ text, clientTimeZone: "UTC" });
  const headers = new Headers(request.headers);
  if (key !== undefined) headers.set("idempotency-key", key);
  return app.request(`/api/sessions/${id}/messages`, { ...request, headers });
}

async function userMessages(runtime: HostRuntime, id: string): Promise<string[]> {
  const events = await runtime.store.readByType(id, ["user-rpc"]);
  return events.map((e) => (e.data as { text: string }).text);
}

Deno.test("a retry with the same Idempotency-Key is answered with the original message, stored once", async () => {
  const dir = await Deno.makeTempDir({ prefix: "chime-idem-" });
  let id: string;
  let original: { messageId: string; seq: number };
  {
    await using runtime = await open(dir);
    const app = createApp(runtime);
    id = (await runtime.create({ timeZone: "UTC" })).session.id;
    const first = await send(app, id, "feed the cat", "k-1");
    assert.equal(first.status, 202);
    original = await first.json();
    const again = await send(app, id, "feed the cat", "k-1");
    assert.equal(again.status, 202);
    assert.deepEqual(await again.json(), original, "the original's result");

    const reused = await send(app, id, "water the plants", "k-1");
    assert.equal(reused.status, 409);
    const refusal = (await reused.json()).error;
    assert.equal(refusal.code, "idempotency_key_reused");
    assert.equal(refusal.messageId, original.messageId);

    for (const bad of ["", "has space", "x".repeat(129), "é"]) {
      const answer = await send(app, id, "hello", bad);
      assert.equal(answer.status, 400, JSON.stringify(bad));
      assert.equal((await answer.json()).error.field, "Idempotency-Key");
    }
    await (await runtime.agentFor(runtime.store.live(id)!)).whenIdle();
    assert.deepEqual(await userMessages(runtime, id), ["feed the cat"]);
  }
  // After a restart the key is still known: it is in the log.
  await using runtime = await open(dir);
  const app = createApp(runtime);
  const retried = await send(app, id, "feed the cat", "k-1");
  assert.equal(retried.status, 202);
  assert.deepEqual(await retried.json(), original);
  const other = await send(app, id, "feed the cat", "k-2");
  assert.equal(other.status, 202, "another key is another message");
  await (await runtime.agentFor(runtime.store.live(id)!)).whenIdle();
  assert.deepEqual(await userMessages(runtime, id), ["feed the cat", "feed the cat"]);
  await Deno.remove(dir, { recursive: true });
});

Deno.test("a message refused by a failed flush and retried with its key is stored once", async () => {
  const dir = await Deno.makeTempDir({ prefix: "chime-idem-" });
  await using runtime = await open(dir);
  const app = createApp(runtime);
  const { session } = await runtime.create({ timeZone: "UTC" });
  let full = true;
  using _ = runtime.store.addFlushListener(
    session,
    () => full ? Promise.reject(new Error("disk full")) : undefined,
  );
  const refused = await send(app, session.id, "call mum", "k-full");
  assert.equal(refused.status, 503);
  await refused.body?.cancel();
  full = false; // space returns; the client retries with the same key
  const retried = await send(app, session.id, "call mum", "k-full");
  assert.equal(retried.status, 202);
  await (await runtime.agentFor(session)).whenIdle();
  assert.equal(await runtime.store.flush(session), true);
  assert.deepEqual(await userMessages(runtime, session.id), ["call mum"], "never twice");
  await Deno.remove(dir, { recursive: true });
});
