import assert from "node:assert/strict";
import { AgentError, clientAssetPaths, enabledPanels, type Plugin } from "@chime/contract";

Deno.test("AgentError carries its code and a Cannot message", () => {
  const error = new AgentError("busy", "Cannot run maintenance: the agent is busy");
  assert.ok(error instanceof Error);
  assert.equal(error.name, "AgentError");
  assert.equal(error.code, "busy");
});

Deno.test("enabledPanels() lists a plugin's panels only when its renderer is enabled", () => {
  const plugins: Plugin[] = [
    { name: "a", setup() {}, web: { renderer: "r", panels: ["one", "two"] } },
    { name: "b", setup() {}, web: { renderer: "s" } },
    { name: "c", setup() {} },
  ];
  assert.deepEqual(enabledPanels(plugins, ["r", "s"]), ["one", "two"]);
  assert.deepEqual(enabledPanels(plugins, ["s"]), []);
});

Deno.test("clientAssetPaths() slugs a renderer name below /renderers/", () => {
  assert.deepEqual(clientAssetPaths("@chime/ui/schedule"), {
    css: "/renderers/chime-ui-schedule.css",
    worker: "/renderers/chime-ui-schedule.sw.js",
  });
  assert.equal(clientAssetPaths("--odd name!").css, "/renderers/odd-name.css");
});
