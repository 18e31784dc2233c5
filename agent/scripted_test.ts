import assert from "node:assert/strict";
import { ScriptedModel } from "./scripted.ts";
import { ModelError, type ModelRequest } from "./types.ts";

function request(signal = new AbortController().signal): ModelRequest {
  return { messages: [], tools: [], signal, context: { now: 0 } };
}

Deno.test("`ScriptedModel` replays its queue, throws scripted errors and then runs dry", async () => {
  const model = new ScriptedModel([{ text: "a" }, new ModelError("model_timeout", "Cannot: slow")]);
  model.push({ toolCalls: [{ id: "c", name: "t", arguments: "{}" }] });
  assert.deepEqual(await model.complete(request()), { text: "a", toolCalls: [] });
  await assert.rejects(
    model.complete(request()),
    (e) => e instanceof ModelError && e.code === "model_timeout",
  );
  assert.deepEqual((await model.complete(request())).toolCalls.length, 1);
  await assert.rejects(
    model.complete(request()),
    (e) => e instanceof ModelError && e.code === "model_unavailable",
  );
  assert.equal(model.requests.length, 4);
});

Deno.test("`ScriptedModel` honours the request signal while a step is pending", async () => {
  const model = new ScriptedModel(() => new Promise(() => {}));
  const controller = new AbortController();
  const call = model.complete(request(controller.signal));
  controller.abort(new Error("stop"));
  await assert.rejects(call, /stop/);
});
