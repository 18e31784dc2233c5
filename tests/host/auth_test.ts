/**
 * The access token through `app.request()` (README "Security"): API calls without it
 * answer 401, pages redirect to `/login`; a bearer header, the one-time URL and the login form
 * each grant access, the last two by an HttpOnly, SameSite=Strict cookie.
 *
 * @module
 */
import assert from "node:assert/strict";
import { Hono } from "hono";
import { createApp, HostError, loginPage } from "@chime/host";
import { tokenAuth } from "../../host/auth/auth.ts";
import { postJson, testRuntime } from "./_helpers.ts";

const TOKEN = "a-token-of-24-characters";
const ASSETS = {
  "/": { body: "<!doctype html>page", contentType: "text/html; charset=utf-8" },
  "/app.js": { body: "export {}", contentType: "text/javascript; charset=utf-8" },
};

function cookieOf(response: Response): string {
  const header = response.headers.get("set-cookie") ?? "";
  assert.match(header, /^chime_auth_1=[A-Za-z0-9_-]{43}; /, "a 256-bit random secret");
  assert.match(header, /Max-Age=2592000/, "30 days by default");
  assert.match(header, /HttpOnly/);
  assert.match(header, /SameSite=Strict/);
  assert.match(header, /Path=\//);
  assert.ok(!header.includes(TOKEN), "the cookie never holds the token itself");
  return header.split(";", 1)[0]!;
}

Deno.test("with a token, every request but /healthz and /login needs it", async () => {
  await using runtime = await testRuntime();
  const app = createApp(runtime, { token: TOKEN, cookieName: "chime_auth_1", assets: ASSETS });
  const anonymous = await app.request("/api/sessions");
  assert.equal(anonymous.status, 401);
  assert.equal((await anonymous.json()).error.code, "unauthorized");
  assert.match(anonymous.headers.get("www-authenticate") ?? "", /^Bearer/);
  const create = await app.request("/api/sessions", postJson({ timeZone: "UTC" }));
  assert.equal(create.status, 401);
  assert.deepEqual(await runtime.store.list(), [], "nothing written without the token");
  for (const path of ["/", "/app.js", "/?token=wrong-token-of-some-length"]) {
    const page = await app.request(path);
    assert.equal(page.status, 303, path);
    assert.equal(page.headers.get("location"), "/login");
    assert.equal(page.headers.get("set-cookie"), null);
  }
  assert.equal((await app.request("/healthz")).status, 200);
  const wrong = await app.request("/api/sessions", { headers: { authorization: "Bearer nope" } });
  assert.equal(wrong.status, 401);
  const bearer = { authorization: `Bearer ${TOKEN}` };
  assert.equal((await app.request("/api/sessions", { headers: bearer })).status, 200);
  const created = await app.request("/api/sessions", {
    ...postJson({ timeZone: "UTC" }),
    headers: { ...bearer, "content-type": "application/json" },
  });
  assert.equal(created.status, 201);
  // A token in an API query string is never accepted (it would end up in logs).
  assert.equal((await app.request(`/api/sessions?token=${TOKEN}`)).status, 401);
});

Deno.test("the one-time URL sets the cookie and redirects without the token", async () => {
  await using runtime = await testRuntime();
  const app = createApp(runtime, { token: TOKEN, cookieName: "chime_auth_1", assets: ASSETS });
  const first = await app.request(`/?token=${TOKEN}&lang=zh`);
  assert.equal(first.status, 303);
  assert.equal(first.headers.get("location"), "/?lang=zh");
  const cookie = cookieOf(first);
  const page = await app.request("/", { headers: { cookie } });
  assert.equal(page.status, 200);
  assert.equal(await page.text(), "<!doctype html>page");
  assert.equal((await app.request("/api/sessions", { headers: { cookie } })).status, 200);
  const forged = await app.request("/api/sessions", {
    headers: { cookie: `chime_auth_1=${TOKEN}` },
  });
  assert.equal(forged.status, 401, "the token itself is not a cookie value");
  const other = await app.request("/api/sessions", {
    headers: { cookie: cookie.replace("chime_auth_1", "chime_auth_2") },
  });
  assert.equal(other.status, 401, "another port's cookie name");
});

Deno.test("the login form: plain HTML without inline script, a cookie for the right token", async () => {
  await using runtime = await testRuntime();
  const app = createApp(runtime, { token: TOKEN, cookieName: "chime_auth_1", assets: ASSETS });
  const form = await app.request("/login");
  assert.equal(form.status, 200);
  const html = await form.text();
  assert.match(html, /<form method="post" action="\/login">/);
  assert.ok(!/<script|style=|\son[a-z]+=/i.test(html), "CSP-compatible: no inline script or style");
  assert.equal(html, loginPage(false));
  const post = (token: string, headers: Record<string, string> = {}) =>
    app.request("/login", {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", ...headers },
      body: new URLSearchParams({ token }).toString(),
    });
  const wrong = await post("not-the-token-at-all");
  assert.equal(wrong.status, 401);
  assert.match(await wrong.text(), /not right/);
  assert.equal(wrong.headers.get("set-cookie"), null);
  const foreign = await post(TOKEN, { origin: "http://evil.example" });
  assert.equal(foreign.status, 403, "login CSRF is refused too");
  const right = await post(TOKEN);
  assert.equal(right.status, 303);
  assert.equal(right.headers.get("location"), "/");
  const cookie = cookieOf(right);
  const again = await app.request("/login", { headers: { cookie } });
  assert.equal(again.status, 303, "signed in: /login goes to the page");
  assert.equal((await app.request("/", { headers: { cookie } })).status, 200);
});

Deno.test("wrong tokens are throttled: 429 too_many_attempts unchecked, a signed-in cookie still works", async () => {
  await using runtime = await testRuntime();
  const app = createApp(runtime, { token: TOKEN, cookieName: "chime_auth_1", assets: ASSETS });
  const signedIn = await app.request(`/?token=${TOKEN}`);
  const cookie = cookieOf(signedIn);
  const bearer = (token: string) =>
    app.request("/api/sessions", { headers: { authorization: `Bearer ${token}` } });
  for (let i = 0; i < 10; i++) assert.equal((await bearer(`wrong-token-number-${i}`)).status, 401);
  const throttled = await bearer("wrong-token-number-10");
  assert.equal(throttled.status, 429);
  const body = await throttled.json();
  assert.equal(body.error.code, "too_many_attempts");
  assert.ok(body.error.retryAfterSeconds >= 1 && body.error.retryAfterSeconds <= 60);
  assert.equal(throttled.headers.get("retry-after"), String(body.error.retryAfterSeconds));
  assert.equal(
    (await bearer(TOKEN)).status,
    429,
    "while throttled even the right token is unchecked",
  );
  const form = await app.request("/login", {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ token: TOKEN }).toString(),
  });
  assert.equal(form.status, 429);
  assert.match(await form.text(), /Too many wrong tokens\. Try again in \d+ s\./);
  assert.equal(form.headers.get("set-cookie"), null);
  const page = await app.request("/", { headers: { cookie } });
  assert.equal(page.status, 200, "the cookie of a signed-in page is never throttled");
});

Deno.test("the throttle window trails: failures older than the window no longer count", async () => {
  let now = 1_000_000;
  const app = new Hono()
    .use(tokenAuth({ token: TOKEN, maxFailures: 3, failureWindowMs: 60_000, now: () => now }))
    .get("/api/x", (c) => c.text("ok"));
  app.onError((error, c) => {
    const code = error instanceof HostError ? error.code : "internal_error";
    return c.json(
      { code },
      code === "too_many_attempts" ? 429 : code === "unauthorized" ? 401 : 500,
    );
  });
  const call = (token: string) =>
    app.request("/api/x", { headers: { authorization: `Bearer ${token}` } });
  for (let i = 0; i < 3; i++) {
    assert.equal((await call("wrong-token-aaaaaaaa")).status, 401);
    now += 10_000;
  }
  // Failures at 0 s, 10 s and 20 s; now 30 s: full until the first leaves the window at 60 s.
  const full = await call(TOKEN);
  assert.equal(full.status, 429);
  assert.equal((await full.json()).code, "too_many_attempts");
  now += 30_000; // 60 s: the first failure is out
  assert.equal((await call(TOKEN)).status, 200);
});

Deno.test("another site cannot spend the wrong-token budget: its unclicked ?token= is ignored", async () => {
  await using runtime = await testRuntime();
  const app = createApp(runtime, { token: TOKEN, cookieName: "chime_auth_1", assets: ASSETS });
  // What a foreign page's <img src="http://host/?token=guess"> sends, 20 times: each is
  // treated as a page request without a token (to /login), never checked, never counted.
  const image = {
    "sec-fetch-site": "cross-site",
    "sec-fetch-dest": "image",
    "sec-fetch-mode": "no-cors",
  };
  for (let i = 0; i < 20; i++) {
    const r = await app.request(`/?token=guess-number-${i}-aaaaaaaaaaaa`, { headers: image });
    assert.equal(r.status, 303);
    assert.equal(r.headers.get("location"), "/login");
  }
  // A frame and a navigation no user started are ignored the same way, even with the token.
  for (
    const headers of [
      { "sec-fetch-site": "cross-site", "sec-fetch-dest": "iframe" },
      { "sec-fetch-site": "cross-site", "sec-fetch-dest": "document" },
      { "sec-fetch-site": "same-site", "sec-fetch-dest": "document" },
    ]
  ) {
    const r = await app.request(`/?token=${TOKEN}`, { headers });
    assert.equal(r.headers.get("location"), "/login", JSON.stringify(headers));
    assert.equal(r.headers.get("set-cookie"), null);
  }
  // The owner is not locked out: the bearer token and a typed sign-in URL both work.
  const bearer = await app.request("/api/sessions", {
    headers: { authorization: `Bearer ${TOKEN}` },
  });
  assert.equal(bearer.status, 200);
  const typed = await app.request(`/?token=${TOKEN}`, {
    headers: { "sec-fetch-site": "none", "sec-fetch-dest": "document", "sec-fetch-user": "?1" },
  });
  assert.equal(typed.status, 303);
  cookieOf(typed);
  // A link the user clicked on another site (a chat message with the sign-in URL) signs in,
  // and a wrong token sent that way is checked and counted like a typed one.
  const clicked = {
    "sec-fetch-site": "cross-site",
    "sec-fetch-dest": "document",
    "sec-fetch-user": "?1",
  };
  cookieOf(await app.request(`/?token=${TOKEN}`, { headers: clicked }));
  for (let i = 0; i < 10; i++) {
    await app.request(`/?token=wrong-clicked-${i}-aaaaaaaaaa`, { headers: clicked });
  }
  const locked = await app.request(`/?token=${TOKEN}`, { headers: clicked });
  assert.equal(locked.status, 429, "user-started guesses still count");
});

Deno.test("regression: a sign-in URL whose path is //other.host/ redirects to /, never off-site", async () => {
  await using runtime = await testRuntime();
  const app = createApp(runtime, { token: TOKEN, cookieName: "chime_auth_1", assets: ASSETS });
  // A real server: the request target is read as the browser sent it.
  await using server = Deno.serve({ port: 0, hostname: "127.0.0.1", onListen() {} }, app.fetch);
  const base = `http://127.0.0.1:${server.addr.port}`;
  for (const path of ["//evil.test/", "/\\evil.test/", "//evil.test/x?y=1"]) {
    const response = await fetch(`${base}${path}?token=${TOKEN}`.replace("?y=1?", "?y=1&"), {
      redirect: "manual",
      headers: { "sec-fetch-site": "none", "sec-fetch-user": "?1" },
    });
    await response.body?.cancel();
    assert.equal(response.status, 303, path);
    assert.equal(response.headers.get("location"), "/", path);
    cookieOf(response);
  }
  const normal = await fetch(`${base}/?s=abc&token=${TOKEN}`, {
    redirect: "manual",
    headers: { "sec-fetch-site": "none", "sec-fetch-user": "?1" },
  });
  await normal.body?.cancel();
  assert.equal(normal.headers.get("location"), "/?s=abc");
});
