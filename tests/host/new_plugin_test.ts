/**
 * "A new plugin is one folder plus one registry row" (docs/architecture.md "Seams"): the test
 * plugin of `tests/fixtures/echo_plugin/` joins the host through one more row of the plugin
 * table; its tool runs, its route answers and its after-commit hook sees every durable event.
 *
 * @module
 */
import assert from "node:assert/strict";
import { ScriptedModel } from "@chime/agent";
import { createApp, HostRuntime, PLUGINS } from "@chime/host";
import { MemoryBackend } from "@chime/session/testing";
import { ECHO_PLUGIN, echoPlugin } from "../fixtures/echo_plugin/mod.ts";
import { postJson } from "./_helpers.ts";

Deno.test("a plugin in one folder joins the host with one registry row", async () => {
  let calls = 0;
  const model = new ScriptedModel(() =>
    calls++ === 0
      ? { text: "", toolCalls: [{ id: "c1", name: "echo", arguments: '{"text":"hi"}' }] }
      : { text: "done" }
  );
  await using runtime = await HostRuntime.open({
    config: {
      storage: { kind: "libsql", url: ":memory:" },
      model: { kind: "offline", reason: "test" },
      plugins: [ECHO_PLUGIN],
      renderers: [],
      cwd: "/",
    },
    backend: new MemoryBackend(),
    model,
    pluginTable: { ...PLUGINS, [ECHO_PLUGIN]: { options: [], check() {}, create: echoPlugin } },
  });
  const app = createApp(runtime);
  const created = await app.request("/api/sessions", postJson({ timeZone: "UTC" }));
  assert.equal(created.status, 201);
  const id = (await created.json()).header.id as string;
  const sent = await app.request(
    `/api/sessions/${id}/messages`,
    postJson({ text: "echo hi", clientTimeZone: "UTC" }),
  );
  assert.equal(sent.status, 202);
  const session = runtime.store.live(id)!;
  await (await runtime.agentFor(session)).whenIdle();
  assert.equal(await runtime.store.flush(session), true);
  for (let i = 0; i < 5; i++) await new Promise((resolve) => setTimeout(resolve, 0));
  const result = session.events().find((e) => e.type === "tool/result");
  assert.deepEqual((result?.data as { result: unknown }).result, {
    ok: true,
    echoed: { text: "hi" },
  });
  const answer = await app.request(`/api/sessions/${id}/echo`);
  assert.equal(answer.status, 200);
  const { durable } = await answer.json();
  assert.deepEqual(durable, [...Array(session.length).keys()], "every durable event, once");
});
