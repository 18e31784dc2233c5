/**
 * Over real HTTP with the keyless offline model (README "HTTP API"): a retry of a message that an
 * edit replaced runs the message as it reads now, its newest edit, never the replaced text the
 * model is told not to act on.
 *
 * @module
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { loadConfig, type RunningServer, startServer } from "@chime/host";
import type { SessionEvent } from "@chime/session";
import { MemoryBackend } from "@chime/session/testing";
import { ROOT } from "./_server.ts";

const ZONE = "Europe/Berlin";

// deno-lint-ignore no-explicit-any
type Json = any;

async function postJson(url: string, body?: unknown): Promise<{ status: number; body: Json }> {
  const response = await fetch(url, {
    method: "POST",
    ...(body === undefined
      ? {}
      : { headers: { "content-type": "application/json" }, body: JSON.stringify(body) }),
  });
  return { status: response.status, body: await response.json() };
}

async function idle(server: RunningServer, id: string): Promise<readonly SessionEvent[]> {
  const session = server.runtime.store.live(id)!;
  await (await server.runtime.existingAgent(session))!.whenIdle();
  return session.events();
}

/** The messages the last turn claimed and the reply it gave. */
function lastTurn(events: readonly SessionEvent[]): { claimed: unknown; reply: string } {
  const turn = events.slice(events.findLastIndex((e) => e.type === "turn/start"));
  const step = turn.find((e) => e.type === "step/start")!;
  const reply = turn.findLast((e) => e.type === "assistant/message")!;
  return {
    claimed: (step.data as { messageIds: string[] }).messageIds,
    reply: (reply.data as { text: string }).text,
  };
}

Deno.test("regression: retrying a message replaced by an edit runs its newest edit (real HTTP, offline model)", async () => {
  const config = await loadConfig(join(ROOT, "examples", "web-schedule", "chime.jsonc"), {
    env: {},
  });
  await using server = await startServer({ config, port: 0, backend: new MemoryBackend() });
  const api = `${server.url}api/sessions`;
  const { body: { header } } = await postJson(api, { timeZone: ZONE });
  const base = `${api}/${header.id}`;
  const sent = await postJson(`${base}/messages`, {
    text: "remind me in 1 hour to water the plants",
    clientTimeZone: ZONE,
  });
  await idle(server, header.id);
  const original = sent.body.messageId;
  const edited = await postJson(`${base}/messages/${original}/edit`, {
    text: "remind me in 2 hours to water the plants",
  });
  assert.equal(edited.status, 202);
  const answered = lastTurn(await idle(server, header.id));

  const retried = await postJson(`${base}/messages/${original}/retry`);
  assert.equal(retried.status, 202);
  assert.deepEqual(retried.body, { messageId: edited.body.messageId, superseded: original });
  const turn = lastTurn(await idle(server, header.id));
  assert.deepEqual(turn.claimed, [edited.body.messageId], "the edit runs, not the original");
  assert.equal(turn.reply, answered.reply, "answered as the edit was, not with the help text");
  assert.match(turn.reply, /^Updated — I'll remind you to water the plants at /);
  const listed = await (await fetch(`${base}/reminders`)).json();
  assert.equal(listed.reminders.length, 1, "one reminder, reconciled, never a second");

  // An edit of the edit: every member of the family retries as the newest.
  const again = await postJson(`${base}/messages/${edited.body.messageId}/edit`, {
    text: "remind me in 3 hours to water the plants",
  });
  await idle(server, header.id);
  for (const id of [original, edited.body.messageId]) {
    const answer = await postJson(`${base}/messages/${id}/retry`);
    assert.deepEqual(answer.body, { messageId: again.body.messageId, superseded: id });
    assert.deepEqual(lastTurn(await idle(server, header.id)).claimed, [again.body.messageId]);
  }
  const newest = await postJson(`${base}/messages/${again.body.messageId}/retry`);
  assert.deepEqual(newest.body, { messageId: again.body.messageId }, "the newest runs itself");
  const missing = await postJson(`${base}/messages/nope/retry`);
  assert.equal(missing.status, 404);
  assert.equal(missing.body.error.code, "message_not_found");
}); // deno-fmt-ignore
