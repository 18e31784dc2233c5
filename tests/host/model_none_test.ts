/**
 * `model: { kind: "none" }`: a deliberately missing model adapter. Every turn ends
 * `turn/end { outcome: 'error' }` with `model_missing`, and nothing durable is removed.
 *
 * @module
 */
import assert from "node:assert/strict";
import { createApp, createModel, loadConfig } from "@chime/host";
import { systemClock } from "@chime/session";
import { appendReminder, postJson, reminderView, testRuntime } from "./_helpers.ts";

Deno.test('`model: { kind: "none" }` validates and no key in the environment overrides it', async () => {
  const files: Record<string, string> = {
    "/c/none.jsonc": '{ "storage": { "kind": "libsql", "url": "file:x.db" }, "model": ' +
      '{ "kind": "none" } }',
    "/c/extra.jsonc": '{ "storage": { "kind": "libsql", "url": "file:x.db" }, "model": ' +
      '{ "kind": "none", "model": "m" } }',
    "/c/overlay.jsonc": '{ "extends": "base.jsonc", "model": { "kind": "none" } }',
    "/c/base.jsonc": '{ "storage": { "kind": "libsql", "url": "file:x.db" }, "model": ' +
      '{ "kind": "openai-compatible", "baseURL": "http://127.0.0.1:9/v1", "model": "m", ' +
      '"apiKeyEnv": "K" } }',
  };
  const readTextFile = (path: string) =>
    path in files ? Promise.resolve(files[path]!) : Promise.reject(new Deno.errors.NotFound(path));
  const env = { CHIME_MODEL_API_KEY: "k", DEEPSEEK_API_KEY: "sk", K: "k" };
  const none = await loadConfig("/c/none.jsonc", { readTextFile, cwd: "/", env });
  assert.equal(none.model.kind, "none");
  assert.equal(createModel(none.model, systemClock), undefined);
  const overlay = await loadConfig("/c/overlay.jsonc", { readTextFile, cwd: "/", env });
  assert.equal(overlay.model.kind, "none", "an overlay switches a configured endpoint off");
  await assert.rejects(
    loadConfig("/c/extra.jsonc", { readTextFile, cwd: "/" }),
    /unknown key "model\.model"/,
  );
});

Deno.test("with no model adapter each turn ends `model_missing` and the reminder card stays", async () => {
  await using runtime = await testRuntime({ modelSettings: { kind: "none", reason: "test" } });
  const app = createApp(runtime);
  const { session } = await runtime.create({ timeZone: "Europe/Berlin" });
  const dispatchSeq = appendReminder(session);
  await runtime.store.flush(session);
  const before = session.events();

  const sent = await app.request(
    `/api/sessions/${session.id}/messages`,
    postJson({ text: "what is due?", clientTimeZone: "Europe/Berlin" }),
  );
  assert.equal(sent.status, 202);
  await (await runtime.agentFor(session)).whenIdle();
  await runtime.store.flush(session);

  const events = session.events();
  assert.deepEqual(events.slice(0, before.length), before, "nothing earlier changed");
  const types = events.slice(before.length).map((e) => e.type);
  assert.deepEqual(types, ["user-rpc", "turn/start", "step/start", "turn/end"]);
  const end = events.at(-1)!.data as { outcome: string; error: string };
  assert.equal(end.outcome, "error");
  assert.match(end.error, /^model_missing: /);

  const page = await (await app.request(`/api/sessions/${session.id}/history`)).json();
  assert.equal(page.events.length, events.length, "the failed turn is durable too");
  assert.deepEqual(page.views, { [dispatchSeq]: reminderView() }, "the card stays");
  const again = await app.request(
    `/api/sessions/${session.id}/messages`,
    postJson({ text: "still there?", clientTimeZone: "Europe/Berlin" }),
  );
  assert.equal(again.status, 202, "the agent keeps serving after a failed turn");
  await (await runtime.agentFor(session)).whenIdle();
  const ends = session.events().filter((e) => e.type === "turn/end")
    .map((e) => (e.data as { outcome: string }).outcome);
  assert.deepEqual(ends, ["error", "error"]);
});
