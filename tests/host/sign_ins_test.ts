/**
 * Browser sign-ins (README "Security"): each sign-in's cookie is a random secret of its own,
 * kept by the host as a digest in the data directory, with an expiry; "sign out" and "sign out
 * everywhere" revoke them, a changed token revokes them all, and they survive a restart (a
 * SIGKILL included), revocations too.
 *
 * @module
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { createApp, type HostApp, loadConfig, SignIns } from "@chime/host";
import { postJson, testRuntime } from "./_helpers.ts";
import { ROOT, spawnServer } from "./_server.ts";

const TOKEN = "a-token-of-24-characters";
const ASSETS = {
  "/": { body: "<!doctype html>page", contentType: "text/html; charset=utf-8" },
};
const DAY = 86_400_000;

/** Signs in through the sign-in URL and returns the `name=value` cookie pair. */
async function signIn(app: HostApp, cookie?: string): Promise<string> {
  const response = await app.request(`/?token=${TOKEN}`, {
    headers: cookie === undefined ? {} : { cookie },
  });
  assert.equal(response.status, 303);
  const header = response.headers.get("set-cookie") ?? "";
  assert.match(header, /^chime_auth_1=[A-Za-z0-9_-]{43}; /);
  return header.split(";", 1)[0]!;
}

/** The app of a runtime with a token and these sign-ins (a host start, as far as they go). */
const appWith = (
  runtime: Parameters<typeof createApp>[0],
  signIns: SignIns,
  token = TOKEN,
): HostApp => createApp(runtime, { token, cookieName: "chime_auth_1", signIns, assets: ASSETS });

const api = (app: HostApp, cookie: string, path = "/api/sessions", init: RequestInit = {}) =>
  app.request(path, { ...init, headers: { cookie, ...init.headers } });

async function status(response: Response | Promise<Response>): Promise<number> {
  const r = await response;
  await r.body?.cancel();
  return r.status;
}

Deno.test("a sign-in expires on the host, whatever the browser keeps", async () => {
  let now = Date.UTC(2026, 0, 1);
  await using runtime = await testRuntime();
  const signIns = await SignIns.open({ token: TOKEN, maxAgeMs: 2 * DAY, now: () => now });
  const app = appWith(runtime, signIns);
  const response = await app.request(`/?token=${TOKEN}`);
  assert.match(response.headers.get("set-cookie") ?? "", /Max-Age=172800;/, "2 days, in seconds");
  const cookie = (response.headers.get("set-cookie") ?? "").split(";", 1)[0]!;
  const info = await (await api(app, cookie, "/api/auth")).json();
  assert.deepEqual(info, {
    via: "cookie",
    expiresAt: new Date(Date.UTC(2026, 0, 3)).toISOString(),
    signIns: 1,
  });
  now += 2 * DAY - 1;
  assert.equal(await status(api(app, cookie)), 200, "a millisecond before the expiry");
  now += 1;
  const expired = await api(app, cookie);
  assert.equal(expired.status, 401, "replayed after its expiry");
  assert.equal((await expired.json()).error.code, "unauthorized");
  assert.equal(await status(api(app, cookie, "/")), 303, "the page goes to /login");
  assert.equal(signIns.size, 0);
});

Deno.test("sign out ends this browser's sign-in only; sign out everywhere ends every one", async () => {
  await using runtime = await testRuntime();
  const app = createApp(runtime, { token: TOKEN, cookieName: "chime_auth_1", assets: ASSETS });
  const [a, b, c] = [await signIn(app), await signIn(app), await signIn(app)];
  const out = await api(app, a, "/api/auth/sign-out", { method: "POST" });
  assert.equal(out.status, 200);
  assert.deepEqual(await out.json(), { signedOut: 1 });
  assert.match(out.headers.get("set-cookie") ?? "", /^chime_auth_1=; Max-Age=0; Path=\//);
  assert.equal(out.headers.get("cache-control"), "no-store");
  assert.equal(await status(api(app, a)), 401, "a copy of the signed-out cookie is refused");
  assert.equal(await status(api(app, b)), 200, "another browser stays signed in");
  const everywhere = await api(app, b, "/api/auth/sign-out-everywhere", { method: "POST" });
  assert.deepEqual(await everywhere.json(), { signedOut: 2 });
  assert.match(everywhere.headers.get("set-cookie") ?? "", /Max-Age=0/);
  for (const cookie of [a, b, c]) assert.equal(await status(api(app, cookie)), 401);
  // The routes need a sign-in themselves: a revoked cookie cannot call them.
  assert.equal(await status(api(app, c, "/api/auth/sign-out", { method: "POST" })), 401);
  // The bearer token is not a sign-in: it keeps working, may end every sign-in, not "this" one.
  const bearer = { authorization: `Bearer ${TOKEN}` };
  const d = await signIn(app);
  const all = await app.request("/api/auth/sign-out-everywhere", {
    method: "POST",
    headers: bearer,
  });
  assert.deepEqual(await all.json(), { signedOut: 1 });
  assert.equal(all.headers.get("set-cookie"), null);
  assert.equal(await status(api(app, d)), 401);
  const mine = await app.request("/api/auth/sign-out", { method: "POST", headers: bearer });
  assert.equal(mine.status, 409);
  assert.equal((await mine.json()).error.code, "not_signed_in");
  assert.deepEqual(await (await app.request("/api/auth", { headers: bearer })).json(), {
    via: "bearer",
    signIns: 0,
  });
  assert.equal(await status(app.request("/api/auth/other", { headers: bearer })), 404);
  assert.equal(await status(app.request("/api/auth/sign-out", { method: "POST" })), 401);
  // Another origin cannot sign anyone out (the origin guard runs first).
  const e = await signIn(app);
  const forged = await api(app, e, "/api/auth/sign-out-everywhere", {
    method: "POST",
    headers: { origin: "http://127.0.0.1:9999", "sec-fetch-site": "same-site" },
  });
  assert.equal(forged.status, 403);
  assert.equal(await status(api(app, e)), 200);
});

Deno.test("without a token there is no sign-in: /api/auth says so, sign-outs are 409 not_signed_in", async () => {
  await using runtime = await testRuntime();
  const app = createApp(runtime, { assets: ASSETS });
  assert.deepEqual(await (await app.request("/api/auth")).json(), { via: "none", signIns: 0 });
  for (const path of ["/api/auth/sign-out", "/api/auth/sign-out-everywhere"]) {
    const response = await app.request(path, postJson({}));
    assert.equal(response.status, 409, path);
    assert.equal((await response.json()).error.code, "not_signed_in");
  }
  assert.equal(await status(app.request("/api/auth/other")), 404);
});

Deno.test("signing in again in the same browser replaces its sign-in; the oldest beyond the bound are dropped", async () => {
  let now = 1_000;
  await using runtime = await testRuntime();
  const signIns = await SignIns.open({ token: TOKEN, maxSignIns: 3, now: () => now++ });
  const app = appWith(runtime, signIns);
  const first = await signIn(app);
  const again = await signIn(app, first);
  assert.notEqual(again, first, "a new secret");
  assert.equal(await status(api(app, first)), 401, "the replaced one is revoked");
  assert.equal(signIns.size, 1);
  const more = [await signIn(app), await signIn(app), await signIn(app)];
  assert.equal(signIns.size, 3);
  assert.equal(await status(api(app, again)), 401, "the oldest was dropped");
  for (const cookie of more) assert.equal(await status(api(app, cookie)), 200);
});

Deno.test("sign-ins are stored as digests, mode 0600, and survive reopening; a changed token revokes them all", async () => {
  const dir = await Deno.makeTempDir();
  const path = join(dir, "sign-ins-1.json");
  await using runtime = await testRuntime();
  const open = (token: string) => SignIns.open({ token, path });
  const app = appWith(runtime, await open(TOKEN));
  const [a, b] = [await signIn(app), await signIn(app)];
  const text = await Deno.readTextFile(path);
  assert.equal((await Deno.stat(path)).mode! & 0o777, 0o600);
  for (const cookie of [a, b]) {
    assert.ok(!text.includes(cookie.split("=")[1]!), "never the secret itself");
  }
  assert.ok(!text.includes(TOKEN), "never the token");
  assert.equal(JSON.parse(text).signIns.length, 2);
  // A restart: a new store from the same file.
  const reopened = appWith(runtime, await open(TOKEN));
  assert.equal(await status(api(reopened, a)), 200);
  assert.equal(await status(api(reopened, b, "/api/auth/sign-out", { method: "POST" })), 200);
  const after = appWith(runtime, await open(TOKEN));
  assert.equal(await status(api(after, b)), 401, "a sign-out survives the restart");
  assert.equal(await status(api(after, a)), 200);
  // The host restarts with another token: every sign-in ends, and leaves the disk at once.
  const NEW = "another-token-of-24-chars";
  const changed = appWith(runtime, await open(NEW), NEW);
  assert.equal(await status(api(changed, a)), 401);
  assert.equal(JSON.parse(await Deno.readTextFile(path)).signIns.length, 0);
  assert.equal((await Deno.stat(path)).mode! & 0o777, 0o600);
  const leftovers = [...Deno.readDirSync(dir)].map((e) => e.name);
  assert.deepEqual(leftovers, ["sign-ins-1.json"], "no temporary file left behind");
  await Deno.remove(dir, { recursive: true });
});

Deno.test("a damaged sign-ins file signs everyone out; an unwritable one refuses sign-ins and sign-outs, changing nothing", async () => {
  const dir = await Deno.makeTempDir();
  const path = join(dir, "sign-ins.json");
  await Deno.writeTextFile(
    path,
    '{"format":1,"salt":"x","tokenCheck":"y","signIns":[{"digest":1}]}',
  );
  const damaged = await SignIns.open({ token: TOKEN, path });
  assert.equal(damaged.size, 0);
  const made = await damaged.create();
  assert.ok(await damaged.find(made.secret), "a sign-in after the damage replaces the file");
  assert.equal(JSON.parse(await Deno.readTextFile(path)).signIns.length, 1);
  // The file's directory is a regular file: every write fails (root included).
  await Deno.writeTextFile(join(dir, "blocker"), "");
  const stuck = await SignIns.open({ token: TOKEN, path: join(dir, "blocker", "sign-ins.json") });
  await using runtime = await testRuntime();
  const app = appWith(runtime, stuck);
  const refused = await app.request(`/?token=${TOKEN}`);
  assert.equal(refused.status, 503);
  assert.equal((await refused.json()).error.code, "sign_ins_unwritable");
  assert.equal(refused.headers.get("set-cookie"), null, "no cookie for a sign-in not stored");
  assert.equal(stuck.size, 0);
  await assert.rejects(stuck.revokeAll(), /sign_ins_unwritable|cannot be written/);
  await Deno.remove(dir, { recursive: true });
});

Deno.test("signIn in chime.jsonc: maxAgeDays 1..400 and maxSignIns 1..1000, 30 and 32 by default", async () => {
  const dir = await Deno.makeTempDir();
  const file = join(dir, "chime.jsonc");
  const load = async (signIn: unknown) => {
    await Deno.writeTextFile(
      file,
      JSON.stringify({ extends: join(ROOT, "config", "default.jsonc"), signIn }),
    );
    return (await loadConfig(file)).signIn;
  };
  assert.deepEqual(await load(undefined), { maxAgeDays: 30, maxSignIns: 32 });
  assert.deepEqual(await load({ maxAgeDays: 7, maxSignIns: 4 }), { maxAgeDays: 7, maxSignIns: 4 });
  for (const bad of [{ maxAgeDays: 0 }, { maxAgeDays: 401 }, { maxSignIns: 0 }, { days: 3 }, 5]) {
    await assert.rejects(load(bad), /config_invalid|signIn/, JSON.stringify(bad));
  }
  await Deno.remove(dir, { recursive: true });
});

Deno.test("a real host: the sign-in URL is on chime.localhost; sign-ins and sign-outs survive SIGKILL", async () => {
  const dataDir = await Deno.makeTempDir();
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (listener.addr as Deno.NetAddr).port;
  listener.close();
  const start = () =>
    spawnServer(dataDir, "config/default.jsonc", {
      args: ["--port", String(port)],
      env: { CHIME_TOKEN: TOKEN },
    });
  const base = `http://127.0.0.1:${port}`;
  const typed = { "sec-fetch-site": "none", "sec-fetch-user": "?1" };
  let cookies: string[];
  {
    await using server = await start();
    const printed = server.output().match(/open \(sets a cookie\): (\S+)/)?.[1];
    assert.equal(printed, `http://chime.localhost:${port}/?token=${TOKEN}`, server.output());
    assert.match(server.output(), new RegExp(`sign in at ${base}/login\\n`));
    cookies = [];
    for (let i = 0; i < 2; i++) {
      // Deno's fetch does not resolve *.localhost; the host answers that name on 127.0.0.1.
      const once = await fetch(`${base}/?token=${TOKEN}`, { redirect: "manual", headers: typed });
      await once.body?.cancel();
      cookies.push(once.headers.get("set-cookie")!.split(";", 1)[0]!);
    }
    assert.match(cookies[0]!, new RegExp(`^chime_auth_${port}=`));
    const stat = await Deno.stat(join(dataDir, `sign-ins-${port}.json`));
    assert.equal(stat.mode! & 0o777, 0o600);
    assert.equal(await server.stop("SIGKILL"), 137);
  }
  {
    await using server = await start();
    for (const cookie of cookies) {
      assert.equal(await status(fetch(`${base}/api/sessions`, { headers: { cookie } })), 200);
    }
    const out = await fetch(`${base}/api/auth/sign-out-everywhere`, {
      method: "POST",
      headers: { cookie: cookies[0]! },
    });
    assert.deepEqual(await out.json(), { signedOut: 2 });
    await server.stop("SIGKILL");
  }
  {
    await using _server = await start();
    for (const cookie of cookies) {
      assert.equal(
        await status(fetch(`${base}/api/sessions`, { headers: { cookie } })),
        401,
        "revoked before the SIGKILL, refused after the restart",
      );
    }
  }
  await Deno.remove(dataDir, { recursive: true });
});
