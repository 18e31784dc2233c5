// The spawn helper reports why a host died before listening (its real output and exit code),
// never "Child process has already terminated"; the host logs each request and lifecycle step.
import assert from "node:assert/strict";
import { spawnServer } from "./_server.ts";

Deno.test("a host that dies before listening is reported with its own output", async () => {
  const dataDir = await Deno.makeTempDir();
  const error = await spawnServer(dataDir, "config/default.jsonc", {
    args: ["--log-level", "loud"],
  }).then(() => undefined, (e: Error) => e);
  assert.ok(error instanceof Error);
  assert.match(error.message, /server exited \(1\) before listening/);
  assert.match(error.message, /config_invalid: Cannot start: log level "loud"/);
  assert.doesNotMatch(error.message, /already terminated/);
  await Deno.remove(dataDir, { recursive: true });
});

Deno.test("the host logs requests (no query) and session lifecycle at CHIME_LOG_LEVEL", async () => {
  const dataDir = await Deno.makeTempDir();
  await using server = await spawnServer(dataDir, "config/default.jsonc", {
    env: { CHIME_LOG_LEVEL: "info" },
  });
  const created = await fetch(`${server.url}/api/sessions?token=secret-value`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ timeZone: "UTC" }),
  });
  const { header } = await created.json() as { header: { id: string } };
  const forked = await fetch(`${server.url}/api/sessions/${header.id}/fork`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: "{}",
  });
  await forked.body?.cancel();
  assert.equal(await server.stop(), 0);
  const out = server.output();
  assert.match(out, /\[INF\] chime·http: POST \/api\/sessions 201 \d+ms/);
  assert.match(out, new RegExp(`chime·session: session ${header.id} created`));
  assert.match(out, new RegExp(`session [\\w-]+ forked from ${header.id} through seq -1`));
  assert.doesNotMatch(out, /secret-value/);
  await Deno.remove(dataDir, { recursive: true });
});

Deno.test("at CHIME_LOG_LEVEL=warning a request writes no line", async () => {
  const dataDir = await Deno.makeTempDir();
  await using server = await spawnServer(dataDir, "config/default.jsonc", {
    env: { CHIME_LOG_LEVEL: "warning" },
  });
  await (await fetch(`${server.url}/healthz`)).body?.cancel();
  assert.equal(await server.stop(), 0);
  assert.doesNotMatch(server.output(), /chime·http/);
  await Deno.remove(dataDir, { recursive: true });
});
