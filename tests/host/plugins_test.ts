/**
 * One registration point per plugin (docs/architecture.md "Plugins"): the host mounts whatever
 * the loaded plugins contribute (`Plugin.web`) and nothing else. With `config/default.jsonc`
 * (no plugins) there is no reminders route and the page is told of no renderer and no panel;
 * the web-schedule example brings them all back through the schedule plugin.
 *
 * @module
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import type { Plugin } from "@chime/agent";
import { createApp, HostRuntime, loadConfig, startServer } from "@chime/host";
import { SessionError } from "@chime/session";
import { MemoryBackend } from "@chime/session/testing";
import { postJson, testRuntime } from "./_helpers.ts";
import { ROOT } from "./_server.ts";

async function serve(config: string) {
  const dataDir = await Deno.makeTempDir({ prefix: "chime-plugins-" });
  const loaded = await loadConfig(join(ROOT, config), { dataDir });
  const server = await startServer({ config: loaded, port: 0 });
  const base = server.url.replace(/\/$/, "");
  const get = async (path: string) => {
    const response = await fetch(`${base}${path}`);
    return { status: response.status, body: await response.json() };
  };
  const post = async (path: string, body: unknown) => {
    const response = await fetch(`${base}${path}`, {
      ...postJson(body),
      headers: {
        "content-type": "application/json",
        origin: base,
      },
    });
    return { status: response.status, body: await response.json() };
  };
  return {
    get,
    post,
    async [Symbol.asyncDispose]() {
      await server.shutdown();
      await Deno.remove(dataDir, { recursive: true });
    },
  };
}

Deno.test("config/default.jsonc: no reminders route, no renderer, no panel", async () => {
  await using host = await serve("config/default.jsonc");
  assert.deepEqual((await host.get("/api/client-config")).body, {
    renderers: [],
    panels: [],
    alerts: true,
  });
  const created = await host.post("/api/sessions", { timeZone: "Europe/Paris" });
  assert.equal(created.status, 201);
  const id = created.body.header.id;
  const listed = await host.get(`/api/sessions/${id}/reminders`);
  assert.equal(listed.status, 404);
  assert.equal(listed.body.error.code, "not_found");
  assert.match(listed.body.error.message, /Cannot route: GET/, "the route is absent");
  const snoozed = await host.post(`/api/sessions/${id}/reminders/sch_AbCd1234/snooze`, {
    seconds: 600,
  });
  assert.equal(snoozed.status, 404);
  assert.match(snoozed.body.error.message, /Cannot route: POST/);
  assert.equal((await host.get(`/api/sessions/${id}`)).status, 200, "the chat host still works");
});

Deno.test("examples/web-schedule: the schedule plugin brings its route, renderer and panel", async () => {
  await using host = await serve("examples/web-schedule/chime.jsonc");
  assert.deepEqual((await host.get("/api/client-config")).body, {
    renderers: ["@chime/ui/schedule", "@chime/ui/push"],
    panels: ["reminders", "upcoming"],
    alerts: true,
  });
  const id = (await host.post("/api/sessions", { timeZone: "Europe/Paris" })).body.header.id;
  assert.deepEqual((await host.get(`/api/sessions/${id}/reminders`)).body, {
    reminders: [],
    deliveryMode: "session-local",
  });
  const snoozed = await host.post(`/api/sessions/${id}/reminders/sch_AbCd1234/snooze`, {
    seconds: 600,
  });
  assert.equal(snoozed.status, 404);
  assert.equal(snoozed.body.error.code, "schedule_not_found");
});

/** The client configuration of a runtime with these plugins and renderers. */
async function clientConfigOf(plugins: Plugin[], renderers: string[]) {
  await using runtime = await HostRuntime.open({
    config: {
      storage: { kind: "libsql", url: ":memory:" },
      model: { kind: "none", reason: "test" },
      plugins: [],
      renderers,
      cwd: "/",
    },
    backend: new MemoryBackend(),
    plugins,
  });
  return await (await createApp(runtime).request("/api/client-config")).json();
}

Deno.test("a panel needs both its plugin and its enabled renderer", async () => {
  const renderer = "@chime/ui/schedule";
  const plugin: Plugin = { name: "p", setup() {}, web: { renderer, panels: ["list"] } };
  assert.deepEqual(await clientConfigOf([plugin], [renderer]), {
    renderers: [renderer],
    panels: ["list"],
    alerts: true,
  });
  assert.deepEqual(
    await clientConfigOf([], [renderer]),
    { renderers: [renderer], panels: [], alerts: true },
    "the renderer alone shows events but gets no panel (its routes are absent)",
  );
  assert.deepEqual(
    await clientConfigOf([plugin], []),
    { renderers: [], panels: [], alerts: true },
    "the plugin alone gets no panel (the page has no code enabled for it)",
  );
});

/** A plugin that is no schedule: the host mounts it the same way. */
function echoPlugin(): Plugin {
  return {
    name: "echo",
    setup() {},
    web: {
      routes: [
        {
          method: "POST",
          path: "/echo/:word",
          async handle(request, context) {
            const session = context.host.store.live(context.sessionId);
            return Response.json({
              id: context.sessionId,
              word: context.param("word"),
              body: await context.json(),
              method: request.method,
              durable: session === undefined ? null : context.host.durableLength(session),
            });
          },
        },
        {
          method: "GET",
          path: "/echo-missing",
          handle: (_request, context) => {
            throw new SessionError("session_not_found", `no session ${context.sessionId}`);
          },
        },
        {
          method: "GET",
          path: "/echo-broken",
          handle: () => {
            throw new Error("boom");
          },
        },
        {
          method: "GET",
          path: "/history",
          handle: () => Response.json({ shadowed: true }),
        },
      ],
    },
  };
}

Deno.test("any plugin's session routes are mounted generically behind the host's guards", async () => {
  const reported: unknown[] = [];
  await using runtime = await testRuntime({
    plugins: [echoPlugin()],
    reportError: (e) => reported.push(e),
  });
  const app = createApp(runtime, { reportError: (e) => reported.push(e) });
  const { session } = await runtime.create({ timeZone: "UTC" });
  await runtime.store.flush(session);
  const echoed = await app.request(`/api/sessions/${session.id}/echo/hello`, postJson({ a: 1 }));
  assert.equal(echoed.status, 200);
  assert.deepEqual(await echoed.json(), {
    id: session.id,
    word: "hello",
    body: { a: 1 },
    method: "POST",
    durable: session.length,
  });
  const notJson = await app.request(`/api/sessions/${session.id}/echo/x`, postJson("{"));
  assert.equal((await notJson.json()).error.code, "invalid_json");
  const missing = await app.request(`/api/sessions/${session.id}/echo-missing`);
  assert.equal(missing.status, 404);
  assert.equal((await missing.json()).error.code, "session_not_found");
  const broken = await app.request(`/api/sessions/${session.id}/echo-broken`);
  assert.equal(broken.status, 500);
  assert.equal((await broken.json()).error.code, "internal_error");
  assert.equal(reported.length, 1);
  const history = await app.request(`/api/sessions/${session.id}/history`);
  assert.ok("events" in await history.json(), "the host's own route wins a clash");
  const wrongMethod = await app.request(`/api/sessions/${session.id}/echo/hello`);
  assert.equal(wrongMethod.status, 404);
});

Deno.test("a plugin route path must start with /", async () => {
  const plugin: Plugin = {
    name: "bad",
    setup() {},
    web: { routes: [{ method: "GET", path: "nope", handle: () => new Response() }] },
  };
  await using runtime = await testRuntime({ plugins: [plugin] });
  assert.throws(() => createApp(runtime), /Cannot mount bad: route path "nope" lacks "\/"/);
});
