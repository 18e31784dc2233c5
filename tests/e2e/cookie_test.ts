/**
 * The sign-in cookie in real Chromium against a real host process with a token (README
 * "Security"): signed in at the printed `http://chime.localhost:PORT/?token=…`, the browser never
 * sends the cookie to a second server on another port of `127.0.0.1` or `localhost` (a tiny
 * `Deno.serve` that records every `Cookie` header it receives), nor with that server's requests
 * to the host (SameSite); the remainder the README names, another port of `chime.localhost`
 * itself, does receive it. A copy of the cookie replays until the page signs out: "退出登录" (sign
 * out, in Chinese) ends that browser's sign-in only; "Sign out everywhere" (by keyboard) ends every
 * one, and its copies stay refused after a restart of the host.
 *
 * Every wait is on state (locators, responses), never on time.
 */
import { deepEqual, equal, ok } from "node:assert/strict";
import { HAS_CHROMIUM, launchBrowser, skipNote } from "./_browser.ts";
import { freePort, startHost } from "./_host.ts";

skipNote("tests/e2e/cookie_test.ts");

const TOKEN = "cookie-lane-token-0123456789";

/** A server on another port that records the `Cookie` header of every request it gets. */
function recorder() {
  const seen: { url: string; cookie: string }[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (req) => {
    seen.push({ url: req.url, cookie: req.headers.get("cookie") ?? "" });
    const url = new URL(req.url);
    if (url.pathname === "/probe") return new Response("ok");
    // A page that calls itself and the host, as any local page could.
    const host = url.searchParams.get("host") ?? "";
    return new Response(
      `<!doctype html><title>other</title><p id="cookie"></p>
<script>
  document.getElementById("cookie").textContent = "document.cookie=" + document.cookie;
  Promise.all([
    fetch("/probe", { credentials: "include" }),
    ${host ? `fetch(${JSON.stringify(host)}, { credentials: "include", mode: "no-cors" })` : "0"},
  ]).finally(() => { document.title = "done"; });
</script>`,
      { headers: { "content-type": "text/html; charset=utf-8" } },
    );
  });
  return { seen, port: server.addr.port, [Symbol.asyncDispose]: () => server.shutdown() };
}

/** Waits until the host's output (read as it arrives) matches `pattern`; 60 s at most. */
async function logged(output: () => string, pattern: RegExp): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (!pattern.test(output())) {
    if (Date.now() > deadline) throw new Error(`no ${pattern} in the host's output:\n${output()}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

Deno.test({
  name:
    "the cookie never reaches another port of 127.0.0.1; a copy is refused after sign out everywhere",
  ignore: !HAS_CHROMIUM,
  async fn() {
    const dataDir = await Deno.makeTempDir();
    const port = freePort();
    const start = () =>
      startHost({ dataDir, port, config: "config/default.jsonc", env: { CHIME_TOKEN: TOKEN } });
    let host = await start();
    await using other = recorder();
    await using b = await launchBrowser();
    try {
      const signInUrl = host.output().match(/open \(sets a cookie\): (\S+)/)?.[1];
      equal(signInUrl, `http://chime.localhost:${port}/?token=${TOKEN}`, host.output());
      const { context, page } = await b.open("Europe/Berlin");
      await page.goto(signInUrl!);
      await page.getByTestId("new-session").waitFor();
      equal(page.url(), `http://chime.localhost:${port}/`, "the token left the address bar");
      const name = `chime_auth_${port}`;
      const jar = await context.cookies();
      const cookie = jar.find((c) => c.name === name);
      ok(cookie, JSON.stringify(jar));
      equal(cookie.domain, "chime.localhost");
      equal(cookie.httpOnly, true);
      equal(cookie.sameSite, "Strict");
      ok(cookie.expires > Date.now() / 1000 + 29 * 86_400, "about 30 days");
      await page.getByTestId("signed-in-until").waitFor();

      // A second server on another port, in the same browser: no request of it carries the
      // cookie, and its page cannot read it either.
      const hostApi = `http://chime.localhost:${port}/api/sessions`;
      for (const origin of [`http://127.0.0.1:${other.port}`, `http://localhost:${other.port}`]) {
        const tab = await context.newPage();
        await tab.goto(`${origin}/?host=${encodeURIComponent(hostApi)}`);
        await tab.waitForFunction(() => document.title === "done");
        equal(await tab.locator("#cookie").textContent(), "document.cookie=");
        await tab.close();
      }
      const probes = other.seen.filter((s) => new URL(s.url).pathname === "/probe");
      equal(probes.length, 2, JSON.stringify(other.seen));
      deepEqual(other.seen.filter((s) => s.cookie.includes("chime_auth")), []);
      // Their requests to the host go without the cookie too (another site: SameSite=Strict):
      // one from the page on 127.0.0.1, one from the page on localhost.
      await logged(() => host.output(), /GET \/api\/sessions 401[\s\S]*GET \/api\/sessions 401/);
      // What remains (README "Security"): cookies are not port-scoped, so another port of the
      // sign-in name itself receives it.
      const same = await context.newPage();
      await same.goto(`http://chime.localhost:${other.port}/`);
      await same.waitForFunction(() => document.title === "done");
      ok(other.seen.at(-1)!.cookie.includes(name), "documented: chime.localhost:OTHER gets it");
      await same.close();

      // A copy of the cookie replays against the host (any of its names) until signed out.
      const copy = `${name}=${cookie.value}`;
      const replay = async () => {
        const r = await fetch(`http://127.0.0.1:${port}/api/sessions`, {
          headers: { cookie: copy },
        });
        await r.body?.cancel();
        return r.status;
      };
      equal(await replay(), 200);
      // A second browser, in Chinese, signed in by the login form on 127.0.0.1 (still accepted):
      // "退出登录" (sign out) ends its own sign-in only.
      const second = await b.open("Asia/Tokyo", "zh-CN");
      const loginForm = async () => {
        await second.page.goto(`http://127.0.0.1:${port}/`);
        await second.page.locator('input[name="token"]').fill(TOKEN);
        await second.page.locator('button[type="submit"]').click();
        await second.page.getByTestId("sign-out-everywhere").waitFor();
      };
      await loginForm();
      equal(await second.page.getByTestId("sign-out-everywhere").textContent(), "在所有浏览器退出");
      const secondCopy = (await second.context.cookies()).find((c) => c.name === name)!;
      await second.page.getByTestId("sign-out").click();
      await second.page.waitForURL(/\/login$/);
      const refused = await fetch(`http://127.0.0.1:${port}/api/sessions`, {
        headers: { cookie: `${name}=${secondCopy.value}` },
      });
      await refused.body?.cancel();
      equal(refused.status, 401, "a copy of the signed-out cookie is refused");
      equal(await replay(), 200, "the other browser stays signed in");
      await loginForm();

      // "Sign out everywhere", by keyboard, in the first browser.
      await page.getByTestId("sign-out-everywhere").focus();
      const answered = page.waitForResponse((r) =>
        r.url().endsWith("/api/auth/sign-out-everywhere")
      );
      await page.keyboard.press("Enter");
      equal((await answered).status(), 200);
      await page.waitForURL(/\/login$/);
      equal(await replay(), 401, "the copied cookie is refused");
      await second.page.reload();
      await second.page.waitForURL(/\/login$/);
      equal(
        (await context.cookies()).some((c) => c.name === name),
        false,
        "the host cleared this browser's cookie",
      );

      // Still refused after a restart (the revocation was durable before the answer).
      await host.kill("SIGKILL");
      host = await start();
      equal(await replay(), 401);
      deepEqual(b.errors, []);
    } finally {
      await host.kill();
      await Deno.remove(dataDir, { recursive: true });
    }
  },
});
