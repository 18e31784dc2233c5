/**
 * The API answers the page's own origin only (README "Security"), through
 * `app.request()`: security headers on every answer, JSON only, foreign origins and foreign
 * Host names refused, and nothing durable written by a refused request.
 *
 * @module
 */
import assert from "node:assert/strict";
import { CONTENT_SECURITY_POLICY, createApp } from "@chime/host";
import { MemoryBackend } from "@chime/session/testing";
import { postJson, testRuntime } from "./_helpers.ts";

const ASSETS = {
  "/": { body: "<!doctype html>", contentType: "text/html; charset=utf-8" },
};

async function code(response: Response): Promise<string | undefined> {
  const body = await response.json().catch(() => null);
  return body?.error?.code;
}

Deno.test("every answer carries the CSP, nosniff, no-referrer and DENY headers", async () => {
  await using runtime = await testRuntime();
  const app = createApp(runtime, { assets: ASSETS });
  const { session } = await runtime.create({ timeZone: "UTC" });
  const answers = [
    await app.request("/"),
    await app.request("/healthz"),
    await app.request("/api/sessions"),
    await app.request("/nowhere"),
    await app.request("/api/sessions", postJson("{bad")),
    await app.request("/api/sessions", { headers: { host: "evil.example" } }),
    await app.request(`/api/sessions/${session.id}/stream`),
  ];
  assert.deepEqual(answers.map((r) => r.status), [200, 200, 200, 404, 400, 403, 200]);
  for (const response of answers) {
    assert.equal(response.headers.get("content-security-policy"), CONTENT_SECURITY_POLICY);
    assert.match(CONTENT_SECURITY_POLICY, /frame-ancestors 'none'/);
    assert.equal(response.headers.get("x-content-type-options"), "nosniff");
    assert.equal(response.headers.get("referrer-policy"), "no-referrer");
    assert.equal(response.headers.get("x-frame-options"), "DENY");
    await response.body?.cancel();
  }
});

Deno.test("JSON routes refuse other content types with 415 and write nothing", async () => {
  const backend = new MemoryBackend();
  await using runtime = await testRuntime({ backend });
  const app = createApp(runtime);
  const body = JSON.stringify({ timeZone: "UTC" });
  const refused: Record<string, string>[] = [
    { "content-type": "text/plain" },
    { "content-type": "application/x-www-form-urlencoded" },
    { "content-type": "multipart/form-data; boundary=x" },
    { "content-type": "application/jsonp" },
    {}, // a body without any type
  ];
  for (const headers of refused) {
    const response = await app.request("/api/sessions", { method: "POST", headers, body });
    assert.equal(response.status, 415, JSON.stringify(headers));
    assert.equal(await code(response), "unsupported_media_type");
  }
  assert.deepEqual(await runtime.store.list(), [], "no refused request created a session");
  const ok = await app.request("/api/sessions", {
    method: "POST",
    headers: { "content-type": "Application/JSON; charset=utf-8" },
    body,
  });
  assert.equal(ok.status, 201);
  const { header } = await ok.json();
  // A body-less POST needs no type; a typed empty body of another type is refused.
  const resume = await app.request(`/api/sessions/${header.id}/resume`, { method: "POST" });
  assert.equal(resume.status, 200);
  const typed = await app.request(`/api/sessions/${header.id}/resume`, {
    method: "POST",
    headers: { "content-type": "text/plain" },
  });
  assert.equal(typed.status, 415);
  const message = await app.request(`/api/sessions/${header.id}/messages`, {
    method: "POST",
    headers: { "content-type": "text/plain" },
    body: JSON.stringify({ text: "hi", clientTimeZone: "UTC" }),
  });
  assert.equal(message.status, 415);
  assert.equal(runtime.store.live(header.id)!.length, 0, "no message was appended");
});

Deno.test("unsafe methods from another origin answer 403 forbidden_origin", async () => {
  await using runtime = await testRuntime();
  const app = createApp(runtime, { allowedHosts: ["chime.example.com"] });
  const create = (headers: Record<string, string>) =>
    app.request("/api/sessions", {
      method: "POST",
      headers: { "content-type": "application/json", ...headers },
      body: JSON.stringify({ timeZone: "UTC" }),
    });
  const foreign = [
    { origin: "http://evil.example" },
    { origin: "null" },
    { origin: "null", "sec-fetch-site": "cross-site" }, // a sandboxed frame elsewhere
    { origin: "http://localhost:3000", host: "localhost:8787" }, // another local origin
    { origin: "file://" },
    { "sec-fetch-site": "cross-site" },
    { "sec-fetch-site": "same-site" },
    { origin: "http://localhost:8787", host: "localhost:8787", "sec-fetch-site": "cross-site" },
  ];
  for (const headers of foreign) {
    const response = await create(headers);
    assert.equal(response.status, 403, JSON.stringify(headers));
    assert.equal(await code(response), "forbidden_origin");
  }
  assert.deepEqual(await runtime.store.list(), []);
  const own = [
    { origin: "http://localhost:8787", host: "localhost:8787", "sec-fetch-site": "same-origin" },
    { origin: "http://127.0.0.1", host: "127.0.0.1:80" },
    { origin: "https://chime.example.com", host: "127.0.0.1:8787" }, // behind a proxy
    { "sec-fetch-site": "none" },
    { origin: "null", "sec-fetch-site": "same-origin" }, // a form post under no-referrer
    {}, // curl and scripts send neither
  ];
  for (const headers of own) {
    assert.equal((await create(headers)).status, 201, JSON.stringify(headers));
  }
  // Reads are not refused (without CORS the browser hides the answer anyway).
  const read = await app.request("/api/sessions", { headers: { origin: "http://evil.example" } });
  assert.equal(read.status, 200);
});

Deno.test("Host must be loopback, the bound name or allowed: 403 forbidden_host (DNS rebinding)", async () => {
  await using runtime = await testRuntime();
  const plain = createApp(runtime, { assets: ASSETS });
  for (
    const host of [
      "evil.example",
      "evil.example:8787",
      "127.0.0.1.evil.example",
      "0.0.0.0:8787",
      "bad host",
    ]
  ) {
    for (const path of ["/api/sessions", "/"]) {
      const response = await plain.request(path, { headers: { host } });
      assert.equal(response.status, 403, `${host} ${path}`);
      assert.equal(await code(response), "forbidden_host");
    }
  }
  for (
    const host of [
      "localhost:8787",
      "LOCALHOST",
      "127.0.0.1:8787",
      "127.1.2.3",
      "[::1]:8787",
      "app.localhost:1",
    ]
  ) {
    assert.equal((await plain.request("/api/sessions", { headers: { host } })).status, 200, host);
  }
  const configured = createApp(runtime, {
    boundHostname: "192.168.7.7",
    allowedHosts: ["chime.example.com"],
  });
  for (const host of ["192.168.7.7:8787", "chime.example.com", "Chime.Example.Com.:443"]) {
    assert.equal((await configured.request("/healthz", { headers: { host } })).status, 200, host);
  }
  assert.equal(
    (await configured.request("/healthz", { headers: { host: "10.0.0.1" } })).status,
    403,
  );
  const wildcard = createApp(runtime, {
    boundHostname: "0.0.0.0",
    localNames: () => ["10.1.2.3", "box"],
  });
  for (const host of ["10.1.2.3:8787", "box:8787", "localhost"]) {
    assert.equal((await wildcard.request("/healthz", { headers: { host } })).status, 200, host);
  }
  assert.equal(
    (await wildcard.request("/healthz", { headers: { host: "rebound.example" } })).status,
    403,
  );
});
