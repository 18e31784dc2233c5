/**
 * The real page in real Chromium under the host's security rules (README "Security"): signed in
 * by the one-time URL or the login form, it creates a session, chats and streams with no Content
 * Security Policy violation and no refused request. Skips with a printed reason without
 * `/usr/bin/chromium`.
 *
 * @module
 */
import assert from "node:assert/strict";
import { HAS_CHROMIUM, launchBrowser, skipNote } from "../e2e/_browser.ts";
import { spawnServer } from "./_server.ts";

skipNote("tests/host/csp_browser_test.ts");

const TOKEN = "browser-token-0123456789";

Deno.test({
  name: "the page works under the CSP with a token: one-time URL and login form",
  ignore: !HAS_CHROMIUM,
  async fn() {
    const dataDir = await Deno.makeTempDir();
    await using server = await spawnServer(dataDir, "examples/web-schedule/chime.jsonc", {
      env: { CHIME_TOKEN: TOKEN },
    });
    await using browser = await launchBrowser();
    const problems: string[] = [];
    const watch = (page: import("playwright-core").Page) => {
      page.on("console", (m) => {
        if (m.type() === "error" || /Content Security Policy|Refused/i.test(m.text())) {
          problems.push(m.text());
        }
      });
      page.on("response", (r) => {
        if (r.status() >= 400) problems.push(`${r.status()} ${r.url()}`);
      });
    };
    const { page } = await browser.open("Europe/Berlin");
    watch(page);
    await page.goto(`${server.url}/?token=${TOKEN}`);
    assert.equal(new URL(page.url()).search, "", "the token left the address bar");
    await page.getByTestId("new-session").click();
    await page.getByTestId("composer-input").fill("hello under CSP");
    await page.getByTestId("composer-send").click();
    await page.locator(".msg.assistant").first().waitFor();
    // The login form, in a fresh context without the cookie.
    const other = (await browser.open("Asia/Tokyo")).page;
    await other.goto(server.url);
    assert.equal(new URL(other.url()).pathname, "/login");
    await other.locator('input[name="token"]').fill(TOKEN);
    await other.locator('button[type="submit"]').click();
    await other.getByTestId("new-session").waitFor();
    assert.equal(new URL(other.url()).pathname, "/");
    assert.deepEqual(problems, []);
    assert.deepEqual(browser.errors, []);
    assert.equal(await server.stop(), 0);
    await Deno.remove(dataDir, { recursive: true });
  },
});
