/**
 * The message limit over real HTTP (README "HTTP API"): a message or an edit holds up to 32,768
 * UTF-16 code units in any script (32,768 Chinese characters, 16,384 emoji), however the client
 * writes its JSON; the body limit (256 KiB) stays bounded and only refuses what no message needs.
 *
 * @module
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { loadConfig, startServer } from "@chime/host";
import { MemoryBackend } from "@chime/session/testing";
import { ROOT } from "./_server.ts";

const MAX = 32_768;

async function post(url: string, body: string): Promise<{ status: number; error?: unknown }> {
  const response = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body,
  });
  const json = await response.json();
  return { status: response.status, ...(json.error === undefined ? {} : { error: json.error }) };
}

Deno.test("regression: 32,768 Chinese characters are accepted as a message and as an edit; one more is refused", async () => {
  const config = await loadConfig(join(ROOT, "config", "default.jsonc"), { env: {} });
  await using server = await startServer({ config, port: 0, backend: new MemoryBackend() });
  const api = `${server.url}api/sessions`;
  const created = await fetch(api, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ timeZone: "Asia/Shanghai" }),
  });
  const { header } = await created.json();
  const messages = `${api}/${header.id}/messages`;
  const send = (text: string, raw?: string) =>
    post(messages, raw ?? JSON.stringify({ text, clientTimeZone: "Asia/Shanghai" }));

  const chinese = "提醒".repeat(MAX / 2);
  assert.equal(new TextEncoder().encode(chinese).length, 3 * MAX, "96 KiB of UTF-8");
  assert.equal((await send(chinese)).status, 202);
  assert.equal((await send("🔔".repeat(MAX / 2))).status, 202, "an emoji counts 2");
  // The same text with every character escaped (\uXXXX, 6 bytes each) still fits the body.
  const escaped = `{"text":"${"\\u63d0".repeat(MAX)}","clientTimeZone":"Asia/Shanghai"}`;
  assert.ok(escaped.length > 6 * MAX);
  assert.equal((await send("", escaped)).status, 202);

  const over = await send(chinese + "吗");
  assert.equal(over.status, 413);
  assert.deepEqual(over.error, {
    code: "payload_too_large",
    message: "Cannot accept request: text is too long",
    field: "text",
    limit: MAX,
  });
  const session = server.runtime.store.live(header.id)!;
  const agent = (await server.runtime.existingAgent(session))!;
  await agent.whenIdle();
  const [first] = session.events().filter((e) => e.type === "user-rpc");
  const edited = await post(
    `${messages}/${(first!.data as { messageId: string }).messageId}/edit`,
    JSON.stringify({ text: "改".repeat(MAX) }),
  );
  assert.equal(edited.status, 202);
  await agent.whenIdle();

  // The body stays bounded: past 256 KiB nothing is read, whatever it holds.
  const huge = await send(
    "",
    JSON.stringify({ text: "x", clientTimeZone: "UTC", pad: "x".repeat(256 * 1024) }),
  );
  assert.equal(huge.status, 413);
  assert.deepEqual(huge.error, {
    code: "payload_too_large",
    message: "Cannot read body: it is too large",
    limit: 256 * 1024,
  });
}); // deno-fmt-ignore
