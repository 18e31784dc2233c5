import assert from "node:assert/strict";
import { Agent } from "./agent.ts";
import { Loader } from "./loader.ts";
import { ScriptedModel } from "./scripted.ts";
import { AgentError, type AgentScope, type Plugin, type ToolDefinition } from "./types.ts";
import { gate, harness, settle, web } from "./testing/harness.ts";

function tool(name: string): ToolDefinition {
  return {
    name,
    description: `The ${name} tool.`,
    parameters: { type: "object" },
    execute: () => Promise.resolve({ ok: true }),
  };
}

function recorder(): Plugin & { scopes: AgentScope[] } {
  const scopes: AgentScope[] = [];
  return {
    name: "recorder",
    scopes,
    setup(scope) {
      scopes.push(scope);
      scope.registerTool(tool("probe"));
    },
  };
}

Deno.test("plugins ignore earlier roots and children and see later roots", async () => {
  await using loader = new Loader();
  await using earlier = await harness(new ScriptedModel());
  await loader.publish(earlier.agent);
  const plugin = recorder();
  await using _handle = await loader.load(plugin);
  await using child = await harness(new ScriptedModel(), { delegationDepth: 1 });
  await loader.publish(child.agent);
  await using later = await harness(new ScriptedModel());
  await loader.publish(later.agent);
  assert.equal(plugin.scopes.length, 1);
  assert.equal(plugin.scopes[0]!.agent, later.agent);
  // Only the later root got the tool; the earlier root and the child can take the name.
  assert.throws(() => later.agent.registerTool(tool("probe")), TypeError);
  earlier.agent.registerTool(tool("probe"));
  child.agent.registerTool(tool("probe"));
});

Deno.test("a setup that throws has everything it registered revoked", async () => {
  await using loader = new Loader();
  let disposedOwner = false;
  let scopeSignal: AbortSignal | undefined;
  await using _handle = await loader.load({
    name: "broken",
    setup(scope) {
      scopeSignal = scope.signal;
      scope.registerTool(tool("half"));
      scope.addPreStep(() => ["[never]"]);
      scope.own({
        [Symbol.asyncDispose]: () => {
          disposedOwner = true;
          return Promise.resolve();
        },
      });
      throw new Error("setup failed");
    },
  });
  const model = new ScriptedModel(() => ({ text: "ok" }));
  await using h = await harness(model);
  await assert.rejects(loader.publish(h.agent), /setup failed/);
  assert.equal(disposedOwner, true);
  assert.equal(scopeSignal?.aborted, true);
  h.agent.submit({ text: "a", source: web() });
  await h.agent.whenIdle();
  assert.deepEqual(model.requests[0]!.tools, []);
  assert.deepEqual(model.requests[0]!.messages.map((m) => m.content), ["a"]);
});

Deno.test("an async setup that rejects after registering is rolled back", async () => {
  await using loader = new Loader();
  await using _handle = await loader.load({
    name: "late",
    async setup(scope) {
      scope.registerTool(tool("late"));
      await settle(3);
      throw new Error("late failure");
    },
  });
  await using h = await harness(new ScriptedModel());
  await assert.rejects(loader.publish(h.agent), /late failure/);
  h.agent.registerTool(tool("late"));
});

Deno.test("disposing the agent settles the owner's work in flight and revokes the scope", async () => {
  await using loader = new Loader();
  const work = gate();
  let settled = false;
  let scope: AgentScope | undefined;
  await using _handle = await loader.load({
    name: "owner",
    setup(s) {
      scope = s;
      s.registerTool(tool("owned"));
      const inFlight = work.promise.then(() => settled = true);
      s.own({ [Symbol.asyncDispose]: () => inFlight.then(() => {}) });
    },
  });
  await using h = await harness(new ScriptedModel());
  await loader.publish(h.agent);
  const disposing = h.agent[Symbol.asyncDispose]();
  await settle();
  assert.equal(scope!.signal.aborted, true);
  assert.equal(settled, false);
  work.resolve();
  await disposing;
  assert.equal(settled, true);
  assert.throws(
    () => scope!.registerTool(tool("again")),
    (e) => e instanceof AgentError && e.code === "disposed",
  );
});

Deno.test("disposing the plugin revokes its tools and hooks on live agents and stops installs", async () => {
  await using loader = new Loader();
  const plugin: Plugin = {
    name: "p",
    setup(scope) {
      scope.registerTool(tool("p_tool"));
      scope.addPreStep(() => ["[p]"]);
    },
  };
  const handle = await loader.load(plugin);
  const model = new ScriptedModel(() => ({ text: "ok" }));
  await using h = await harness(model);
  await loader.publish(h.agent);
  h.agent.submit({ text: "1", source: web() });
  await h.agent.whenIdle();
  await handle[Symbol.asyncDispose]();
  h.agent.submit({ text: "2", source: web() });
  await h.agent.whenIdle();
  assert.deepEqual(model.requests.map((r) => r.tools.map((t) => t.name)), [["p_tool"], []]);
  assert.deepEqual(model.requests[0]!.messages.at(-1), { role: "user", content: "[p]" });
  assert.deepEqual(model.requests[1]!.messages.at(-1), { role: "user", content: "2" });
  await using later = await harness(new ScriptedModel());
  await loader.publish(later.agent);
  later.agent.registerTool(tool("p_tool"));
});

Deno.test("`Loader.publish()` ignores a disposed agent", async () => {
  await using loader = new Loader();
  const plugin = recorder();
  await using _handle = await loader.load(plugin);
  await using h = await harness(new ScriptedModel());
  await h.agent[Symbol.asyncDispose]();
  await loader.publish(h.agent);
  assert.equal(plugin.scopes.length, 0);
  assert.ok(h.agent instanceof Agent);
});

Deno.test("`Loader.load()` rejects a plugin without setup", async () => {
  await using loader = new Loader();
  await assert.rejects(loader.load({ name: "x" } as unknown as Plugin), TypeError);
});
