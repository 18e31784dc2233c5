import assert from "node:assert/strict";
import { Loader, ScriptedModel } from "@chime/agent";
import { hasTimeContextMarker, timeContextPlugin } from "@chime/timecontext";
import { gate, harness, types, web } from "../../agent/testing/harness.ts";

async function withTimeContext(model: ScriptedModel | undefined) {
  const loader = new Loader();
  const plugin = await loader.load(timeContextPlugin());
  const h = await harness(model);
  await loader.publish(h.agent);
  return {
    h,
    async [Symbol.asyncDispose]() {
      await h[Symbol.asyncDispose]();
      await plugin[Symbol.asyncDispose]();
      await loader[Symbol.asyncDispose]();
    },
  };
}

Deno.test("the time-context plugin adds a reading to the final batch and a marker before step/start", async () => {
  const model = new ScriptedModel(() => ({ text: "ok" }));
  await using t = await withTimeContext(model);
  t.h.agent.submit({ text: "remind me at 9", source: web("Europe/Berlin") });
  await t.h.agent.whenIdle();
  assert.deepEqual(types(t.h.session), [
    "user-rpc",
    "turn/start",
    "time-context/marker",
    "step/start",
    "assistant/message",
    "turn/end",
  ]);
  const last = model.requests[0]!.messages.at(-1)!;
  assert.equal(last.role, "user");
  assert.ok(last.content.startsWith("[time-context]"));
});

Deno.test("steering after the claim gets its own time-context reading in the next step", async () => {
  const inCall = gate();
  const release = gate<{ text: string }>();
  let n = 0;
  const model = new ScriptedModel(() => {
    if (++n > 1) return { text: "second" };
    inCall.resolve();
    return release.promise;
  });
  await using t = await withTimeContext(model);
  t.h.agent.submit({ text: "one", source: web("Europe/Berlin") });
  await inCall.promise;
  t.h.agent.submit({ text: "two", source: web("Asia/Tokyo") });
  release.resolve({ text: "first" });
  await t.h.agent.whenIdle();
  const markers = t.h.session.events().filter((e) => e.type === "time-context/marker");
  assert.equal(markers.length, 2);
  const second = model.requests[1]!.messages;
  assert.equal(second.at(-2)!.content, "two");
  assert.ok(second.at(-1)!.content.startsWith("[time-context]"));
  assert.match(second.at(-1)!.content, /Asia\/Tokyo/);
});

Deno.test("a turn cancelled before step/start records no time-context reading", async () => {
  const inHook = gate();
  await using t = await withTimeContext(new ScriptedModel(() => ({ text: "never" })));
  t.h.agent.addPreStep(async () => {
    inHook.resolve();
    await new Promise(() => {});
  });
  t.h.agent.submit({ text: "x", source: web("Europe/Berlin") });
  await inHook.promise;
  const turnId = t.h.agent.turnId!;
  t.h.agent.cancel();
  await t.h.agent.whenIdle();
  assert.equal(hasTimeContextMarker(t.h.session.events(), turnId), false);
  assert.deepEqual(types(t.h.session), ["user-rpc", "turn/start", "turn/end"]);
});

Deno.test("a missing model closes the turn `error` after the reading was recorded", async () => {
  await using t = await withTimeContext(undefined);
  t.h.agent.submit({ text: "x", source: web("Europe/Berlin") });
  await t.h.agent.whenIdle();
  assert.deepEqual(types(t.h.session), [
    "user-rpc",
    "turn/start",
    "time-context/marker",
    "step/start",
    "turn/end",
  ]);
  const end = t.h.session.events().at(-1)!.data as { outcome: string; error: string };
  assert.equal(end.outcome, "error");
  assert.match(end.error, /^model_missing: /);
});
