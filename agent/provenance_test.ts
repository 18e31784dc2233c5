import assert from "node:assert/strict";
import { openTurnId, turnMessages } from "./provenance.ts";
import { ScriptedModel } from "./scripted.ts";
import { gate, harness, web } from "./testing/harness.ts";

Deno.test("`turnMessages()` returns the messages a turn claimed across steps, with their sources", async () => {
  const inCall = gate();
  const release = gate<{ text: string }>();
  let n = 0;
  const model = new ScriptedModel(() => {
    if (++n > 1) return { text: "second" };
    inCall.resolve();
    return release.promise;
  });
  await using h = await harness(model);
  const a = h.agent.submit({ text: "a", source: web("Asia/Kolkata") });
  await inCall.promise;
  const turnId = openTurnId(h.session)!;
  assert.equal(turnId, h.agent.turnId);
  const b = h.agent.submit({ text: "b", source: web("Asia/Calcutta") });
  assert.deepEqual(turnMessages(h.session, turnId), [a]);
  release.resolve({ text: "first" });
  await h.agent.whenIdle();
  assert.deepEqual(turnMessages(h.session, turnId), [a, b]);
  assert.equal(openTurnId(h.session), undefined);
  assert.deepEqual(turnMessages(h.session, "unknown"), []);
});

Deno.test("`turnMessages()` of a retry turn holds the original message once", async () => {
  await using h = await harness(new ScriptedModel(() => ({ text: "ok" })));
  const a = h.agent.submit({ text: "a", source: web("Asia/Tokyo") });
  await h.agent.whenIdle();
  await h.agent.retry(a.data.messageId);
  let retryTurn: string | undefined;
  h.agent.addPreStep((batch) => {
    retryTurn = batch.turnId;
  });
  await h.agent.whenIdle();
  await h.agent.retry(a.data.messageId);
  await h.agent.whenIdle();
  assert.ok(retryTurn);
  assert.deepEqual(turnMessages(h.session, retryTurn), [a]);
});

Deno.test("`openTurnId()` ignores a turn left open in a fork's inherited prefix", () => {
  const events = [
    { seq: 0, type: "turn/start", at: "", data: { turnId: "parent" } },
    { seq: 1, type: "session/end-seed", at: "", data: { seedLength: 2 } },
  ];
  assert.equal(openTurnId({ header: { seedLength: 2 }, events: () => events }), undefined);
  assert.equal(openTurnId({ header: {}, events: () => events }), "parent");
  const own = [...events, { seq: 2, type: "turn/start", at: "", data: { turnId: "child" } }];
  assert.equal(openTurnId({ header: { seedLength: 2 }, events: () => own }), "child");
});
