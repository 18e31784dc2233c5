/**
 * Stop over HTTP (README "Contract notes"): the cancel answer and the durable
 * `turn/end.stoppedMessageIds` name the running request and the one queued behind it; no later
 * turn carries either out, and every later model call sees them as stopped.
 *
 * @module
 */
import assert from "node:assert/strict";
import { type ModelRequest, ScriptedModel } from "@chime/agent";
import { createApp } from "@chime/host";
import { postJson, testRuntime } from "./_helpers.ts";

const STOPPED =
  "[The user stopped this request before it finished; do not carry it out unless asked again]";

Deno.test("POST …/turns/current/cancel stops the running turn and the queue behind it", async () => {
  const entered = Promise.withResolvers<void>();
  const requests: ModelRequest[] = [];
  const model = new ScriptedModel((request) => {
    requests.push(request);
    if (requests.length > 1) return { text: "ok" };
    entered.resolve();
    return new Promise(() => {});
  });
  await using runtime = await testRuntime({ model });
  const app = createApp(runtime);
  const { session } = await runtime.create({ timeZone: "Europe/Berlin" });
  const base = `/api/sessions/${session.id}`;
  const send = async (text: string) =>
    (await (await app.request(
      `${base}/messages`,
      postJson({ text, clientTimeZone: "Europe/Berlin" }),
    )).json()).messageId as string;
  const first = await send("remind me in 1 hour to water the plants");
  await entered.promise;
  const queued = await send("remind me in 3 hours to buy milk");
  const answer = await app.request(`${base}/turns/current/cancel`, { method: "POST" });
  assert.equal(answer.status, 200);
  const body = await answer.json();
  assert.deepEqual(body.stoppedMessageIds, [first, queued]);
  assert.equal(body.cancelled, true);
  const agent = await runtime.agentFor(session);
  await agent.whenIdle();
  assert.equal(requests.length, 1, "no turn ran for the queued message");
  const history = await (await app.request(`${base}/history?limit=50`)).json();
  const ends = history.events.filter((e: { type: string }) => e.type === "turn/end");
  assert.deepEqual(ends.map((e: { data: unknown }) => e.data), [
    { turnId: body.turnId, outcome: "cancelled", stoppedMessageIds: [first, queued] },
  ]);
  await send("hello");
  await agent.whenIdle();
  const users = requests[1]!.messages.filter((m) => m.role === "user").map((m) => m.content);
  assert.deepEqual(users.slice(0, 3), [
    `${STOPPED}\nremind me in 1 hour to water the plants`,
    `${STOPPED}\nremind me in 3 hours to buy milk`,
    "hello",
  ]);
  // Retry asks again.
  const retried = await app.request(`${base}/messages/${queued}/retry`, { method: "POST" });
  assert.equal(retried.status, 202);
  await agent.whenIdle();
  assert.equal(
    requests[2]!.messages.filter((m) => m.role === "user").at(-1)?.content,
    "remind me in 3 hours to buy milk",
  );
}); // deno-fmt-ignore
