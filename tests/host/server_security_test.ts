/**
 * Against a real HTTP server (README "Security"): a non-loopback bind refuses to
 * start without a token and then asks every client for it, loopback included; a body cut short
 * is a 400 with no stack in the log; stalled bodies and idle connections are cut off while an
 * open stream stays open on its keep-alive comments.
 *
 * @module
 */
import assert from "node:assert/strict";
import { ScriptedModel } from "@chime/agent";
import { ConfigError, type HostConfig, loadConfig, startServer } from "@chime/host";
import { childEnv } from "../_env.ts";
import { ROOT, spawnServer } from "./_server.ts";

const TOKEN = "token-for-the-wildcard-bind";

async function rawExchange(port: number, request: string, closeWrite: boolean): Promise<string> {
  const conn = await Deno.connect({ hostname: "127.0.0.1", port });
  try {
    await conn.write(new TextEncoder().encode(request));
    if (closeWrite) await conn.closeWrite();
    let text = "";
    const buffer = new Uint8Array(8192);
    for (;;) {
      const n = await conn.read(buffer).catch(() => null);
      if (n === null) return text;
      text += new TextDecoder().decode(buffer.subarray(0, n));
      if (closeWrite && /\r\n\r\n[\s\S]*\}/.test(text)) return text;
    }
  } finally {
    try {
      conn.close();
    } catch { /* closed by the server */ }
  }
}

Deno.test("--host 0.0.0.0 without a token refuses to start with one clear line", async () => {
  const dataDir = await Deno.makeTempDir();
  const { code, stdout, stderr } = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "host/main.ts", "--config", "config/default.jsonc", "--port", "0"]
      .concat(["--data-dir", dataDir, "--host", "0.0.0.0"]),
    cwd: ROOT,
    clearEnv: true,
    env: childEnv(),
  }).output();
  assert.notEqual(code, 0);
  const lines = new TextDecoder().decode(stderr).trim().split("\n");
  assert.equal(lines.length, 1, lines.join("\n"));
  assert.match(lines[0]!, /^chime: config_invalid: Cannot start: binding 0\.0\.0\.0 .*CHIME_TOKEN/);
  assert.equal(new TextDecoder().decode(stdout), "", "never listened");
  await Deno.remove(dataDir, { recursive: true });
});

Deno.test("a non-loopback hostname in the config needs a token too", async () => {
  const dataDir = await Deno.makeTempDir();
  const config = await loadConfig(`${ROOT}/config/default.jsonc`, { dataDir });
  await assert.rejects(
    startServer({ config: { ...config, hostname: "0.0.0.0" }, port: 0 }),
    (error: unknown) => error instanceof ConfigError && error.code === "config_invalid",
  );
  await Deno.remove(dataDir, { recursive: true });
});

Deno.test("with CHIME_TOKEN on 0.0.0.0, loopback clients need the token too; a cut body is a 400 without a stack", async () => {
  const dataDir = await Deno.makeTempDir();
  await using server = await spawnServer(dataDir, "config/default.jsonc", {
    args: ["--host", "0.0.0.0"],
    env: { CHIME_TOKEN: TOKEN },
  });
  const port = Number(new URL(server.url).port);
  const base = `http://127.0.0.1:${port}`;
  const signIn = server.output().match(/open \(sets a cookie\): (\S+)/)?.[1];
  // A wildcard bind covers 127.0.0.1: the printed URL is on the sign-in name of its own.
  assert.equal(signIn, `http://chime.localhost:${port}/?token=${TOKEN}`, server.output());
  assert.match(server.output(), new RegExp(`sign in at ${base}/login\n`));
  const anonymous = await fetch(`${base}/api/sessions`);
  assert.equal(anonymous.status, 401);
  assert.equal((await anonymous.json()).error.code, "unauthorized");
  const page = await fetch(`${base}/`, { redirect: "manual" });
  await page.body?.cancel();
  assert.equal(page.status, 303);
  assert.equal(page.headers.get("location"), "/login");
  const bearer = await fetch(`${base}/api/sessions`, {
    headers: { authorization: `Bearer ${TOKEN}` },
  });
  assert.equal(bearer.status, 200);
  await bearer.body?.cancel();
  // Deno's fetch does not resolve *.localhost; the same request on 127.0.0.1.
  const once = await fetch(`${base}/?token=${TOKEN}`, { redirect: "manual" });
  await once.body?.cancel();
  assert.equal(once.status, 303);
  assert.equal(once.headers.get("location"), "/");
  const cookie = once.headers.get("set-cookie")!.split(";", 1)[0]!;
  assert.match(cookie, new RegExp(`^chime_auth_${port}=`));
  const withCookie = await fetch(`${base}/`, { headers: { cookie } });
  assert.equal(withCookie.status, 200);
  assert.match(await withCookie.text(), /<!doctype html>/i);
  const rebound = await rawExchange(
    port,
    `GET /api/sessions HTTP/1.1\r\nHost: rebound.example:${port}\r\n` +
      `Authorization: Bearer ${TOKEN}\r\nConnection: close\r\n\r\n`,
    false,
  );
  assert.match(rebound, /^HTTP\/1\.1 403 [\s\S]*"code":"forbidden_host"/);

  const cut = await rawExchange(
    port,
    `POST /api/sessions HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nAuthorization: Bearer ${TOKEN}\r\n` +
      `Content-Type: application/json\r\nContent-Length: 100\r\n\r\n{"timeZone":`,
    true,
  );
  assert.match(cut, /^HTTP\/1\.1 400 /);
  assert.match(cut, /"code":"body_incomplete"/);
  assert.match(cut, /\r\nconnection: close\r\n/i);
  assert.equal(await server.stop(), 0);
  assert.ok(!/^\s+at /m.test(server.output()), `no stack in the log:\n${server.output()}`);
  await Deno.remove(dataDir, { recursive: true });
});

Deno.test("stalled bodies and idle connections are cut off; an open stream stays open", async () => {
  const dataDir = await Deno.makeTempDir();
  const loaded = await loadConfig(`${ROOT}/config/default.jsonc`, { dataDir });
  const config: HostConfig = { ...loaded, timeouts: { bodySeconds: 0.3, idleSeconds: 0.8 } };
  await using server = await startServer({
    config,
    port: 0,
    heartbeatMs: 200,
    model: new ScriptedModel(() => ({ text: "ok" })),
  });
  const host = `Host: 127.0.0.1:${server.port}\r\n`;
  const started = performance.now();
  // Stalls mid-body: 408 after the body time, then the connection is closed by the server.
  const stalled = await rawExchange(
    server.port,
    `POST /api/sessions HTTP/1.1\r\n${host}Content-Type: application/json\r\n` +
      `Content-Length: 100\r\n\r\n{"time`,
    false,
  );
  assert.match(stalled, /^HTTP\/1\.1 408 /);
  assert.match(stalled, /"code":"body_timeout"/);
  assert.match(stalled, /\r\nconnection: close\r\n/i, "the unread rest of the body ends it");
  // Half a request line, and an idle keep-alive connection: both closed by the server.
  assert.equal(await rawExchange(server.port, `GET /heal`, false), "");
  const kept = await rawExchange(server.port, `GET /healthz HTTP/1.1\r\n${host}\r\n`, false);
  assert.match(kept, /^HTTP\/1\.1 200 [\s\S]*\{"ok":true\}$/);
  assert.ok(performance.now() - started < 10_000);

  // A stream outlives several idle periods on its heartbeats.
  const created = await fetch(`${server.url}api/sessions`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ timeZone: "UTC" }),
  });
  const { header } = await created.json();
  const stream = await fetch(`${server.url}api/sessions/${header.id}/stream`);
  const reader = stream.body!.getReader();
  const opened = performance.now();
  let comments = 0;
  while (performance.now() - opened < 2_500) {
    const { done, value } = await reader.read();
    assert.equal(done, false, "the stream stayed open");
    if (new TextDecoder().decode(value).startsWith(":")) comments++;
  }
  assert.ok(comments >= 5, `heartbeat comments: ${comments}`);
  await reader.cancel();
  await server.shutdown();
  await Deno.remove(dataDir, { recursive: true });
});
