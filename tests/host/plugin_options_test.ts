/**
 * `pluginOptions` of `chime.jsonc` (README "Configuration"): options per configured plugin,
 * checked by the registry (`host/registry.ts`) at startup, and the schedule plugin's hourly
 * reminder budget (`maxRemindersPerHour`, docs/recurring.md "Delivery") reaching its owner.
 *
 * @module
 */
import assert from "node:assert/strict";
import { ConfigError, HostRuntime, loadConfig, resolveRegistry } from "@chime/host";
import { FakeClock, flushMicrotasks, MemoryBackend } from "@chime/session/testing";

function loader(body: string) {
  const file = "/c/chime.jsonc";
  return loadConfig(file, {
    env: {},
    cwd: "/",
    readTextFile: (path) =>
      path === file
        ? Promise.resolve(`{ "storage": { "kind": "libsql", "url": "file:c.db" }, ${body} }`)
        : Promise.reject(new Error(path)),
  });
}

const invalid = (pattern: RegExp) => (e: unknown) =>
  e instanceof ConfigError && e.code === "config_invalid" && pattern.test(e.message);

Deno.test("pluginOptions: read per configured plugin, refused for a plugin not loaded", async () => {
  const config = await loader(
    `"plugins": ["@chime/schedule"],
    "pluginOptions": { "@chime/schedule": { "maxRemindersPerHour": 120 } }`,
  );
  assert.deepEqual(config.pluginOptions, { "@chime/schedule": { maxRemindersPerHour: 120 } });
  assert.deepEqual((await loader(`"plugins": []`)).pluginOptions, {});
  await assert.rejects(
    loader(`"plugins": [], "pluginOptions": { "@chime/schedule": {} }`),
    invalid(/pluginOptions names "@chime\/schedule", which is not in plugins/),
  );
  await assert.rejects(
    loader(`"plugins": ["@chime/schedule"], "pluginOptions": { "@chime/schedule": 5 }`),
    invalid(/pluginOptions\["@chime\/schedule"\] must be an object/),
  );
});

Deno.test("the registry refuses an unknown option or a value out of range, naming what it takes", () => {
  const names = ["@chime/timecontext", "@chime/schedule"];
  assert.throws(
    () => resolveRegistry(names, [], { "@chime/schedule": { maxPerHour: 5 } }),
    invalid(
      /unknown option pluginOptions\["@chime\/schedule"\]\.maxPerHour \(known: maxRemindersPerHour\)/,
    ),
  );
  assert.throws(
    () => resolveRegistry(names, [], { "@chime/timecontext": { zone: "UTC" } }),
    invalid(/known: none/),
  );
  for (const bad of [0, 1.5, 10_001, "60"]) {
    assert.throws(
      () => resolveRegistry(names, [], { "@chime/schedule": { maxRemindersPerHour: bad } }),
      invalid(/maxRemindersPerHour must be an integer 1\.\.10000/),
      String(bad),
    );
  }
  assert.equal(
    resolveRegistry(names, [], { "@chime/schedule": { maxRemindersPerHour: 1 } }).length,
    2,
  );
});

Deno.test("maxRemindersPerHour from the configuration holds back a second reminder due together", async () => {
  const START = Date.parse("2030-01-01T00:00:00.000Z");
  const dispatched = async (budget: number | undefined): Promise<number> => {
    using clock = new FakeClock(START);
    await using runtime = await HostRuntime.open({
      config: {
        storage: { kind: "libsql", url: ":memory:" },
        model: { kind: "offline", reason: "test" },
        plugins: ["@chime/schedule"],
        ...(budget === undefined
          ? {}
          : { pluginOptions: { "@chime/schedule": { maxRemindersPerHour: budget } } }),
        renderers: [],
        cwd: "/",
      },
      backend: new MemoryBackend(),
      clock,
    });
    const { session } = await runtime.create({ timeZone: "UTC" });
    const agent = await runtime.agentFor(session);
    for (const text of ["remind me in 1 minute to stretch", "remind me in 1 minute to drink"]) {
      agent.submit({ text, source: { kind: "web", clientTimeZone: "UTC" } });
    }
    const creates = () =>
      session.events().filter((e) =>
        e.type === "schedule/change" && (e.data as { op: string }).op === "create"
      ).length;
    for (let i = 0; i < 200 && creates() < 2; i++) await flushMicrotasks();
    assert.equal(creates(), 2);
    await clock.advance(120_000);
    for (let i = 0; i < 50; i++) await flushMicrotasks();
    return session.events().filter((e) =>
      e.type === "schedule/change" && (e.data as { op: string }).op === "dispatch"
    ).length;
  };
  assert.equal(await dispatched(undefined), 2, "the default budget (60) lets both through");
  assert.equal(await dispatched(1), 1, "a budget of 1 holds the second back");
});

Deno.test("the push plugin's allowedOrigins takes exact http: or https: origins only", () => {
  const names = ["@chime/push"];
  for (
    const bad of [
      "http://127.0.0.1:8099/path",
      "file:///tmp",
      "not a url",
      5,
      ["http://127.0.0.1:8099/"],
    ]
  ) {
    assert.throws(
      () =>
        resolveRegistry(names, [], {
          "@chime/push": { allowedOrigins: Array.isArray(bad) ? bad : [bad] },
        }),
      invalid(/allowedOrigins must be a list of http: or https: origins/),
      String(bad),
    );
  }
  assert.throws(
    () => resolveRegistry(names, [], { "@chime/push": { allowedOrigins: "http://a" } }),
    invalid(/allowedOrigins/),
  );
  const ok = { allowedOrigins: ["http://127.0.0.1:8099", "https://push.example"] };
  assert.equal(resolveRegistry(names, [], { "@chime/push": ok }).length, 1);
});
