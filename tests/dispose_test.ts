// Library use: every resource's `close()` / `[Symbol.asyncDispose]()` is idempotent, so holding
// a backend and the store that owns it both with `await using` (as the doc examples do) ends
// cleanly instead of closing the backend twice (`BadResource`).
import assert from "node:assert/strict";
import { Agent, Loader, ScriptedModel } from "@chime/agent";
import { loadConfig, startServer } from "@chime/host";
import { schedulePlugin } from "@chime/schedule";
import { JsonlBackend, LibsqlBackend, SessionStore } from "@chime/session";

Deno.test("a libSQL backend and its store both held with `await using` close once", async () => {
  const dir = await Deno.makeTempDir();
  {
    await using backend = await LibsqlBackend.open({ url: `file:${dir}/chime.db` });
    await using store = new SessionStore({ backend });
    const session = await store.create({ cwd: "/", timeZone: "UTC" });
    store.append(session, "user/message", {
      messageId: "m1",
      text: "hi",
      source: { kind: "web", clientTimeZone: "UTC" },
    });
  }
  // The writer lock was released exactly once: the file opens again.
  await using again = await LibsqlBackend.open({ url: `file:${dir}/chime.db` });
  assert.equal((await again.list()).length, 1);
  await again[Symbol.asyncDispose]();
  await Deno.remove(dir, { recursive: true });
});

Deno.test("a JSONL backend and its store both held with `await using` close once", async () => {
  const dir = await Deno.makeTempDir();
  {
    await using backend = await JsonlBackend.open({ dir });
    await using store = new SessionStore({ backend });
    await store.create({ cwd: "/", timeZone: "UTC" });
    await store[Symbol.asyncDispose]();
  }
  await using again = await JsonlBackend.open({ dir });
  assert.equal((await again.list()).length, 1);
  await Deno.remove(dir, { recursive: true });
});

Deno.test("agents, plugin handles, loaders, runtimes and servers dispose twice", async () => {
  const dir = await Deno.makeTempDir();
  const config = await loadConfig("examples/web-schedule/chime.jsonc", { env: {}, dataDir: dir });
  const server = await startServer({ config, port: 0 });
  const response = await fetch(`${server.url}api/sessions`);
  await response.body?.cancel();
  await server[Symbol.asyncDispose]();
  await server.shutdown();
  await server.runtime[Symbol.asyncDispose]();

  const backend = await LibsqlBackend.open({ url: ":memory:" });
  const store = new SessionStore({ backend });
  const session = await store.create({ cwd: "/", timeZone: "UTC" });
  const agent = new Agent({ session, store, model: new ScriptedModel([{ text: "ok" }]) });
  const loader = new Loader();
  const plugin = await loader.load(schedulePlugin({ logger: { warn() {}, error() {} } }));
  await loader.publish(agent);
  for (const resource of [agent, plugin, loader, store, backend]) {
    await resource[Symbol.asyncDispose]();
    await resource[Symbol.asyncDispose]();
  }
  await store.close(session);
  await Deno.remove(dir, { recursive: true });
});
