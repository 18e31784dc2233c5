/**
 * The default web configuration has nothing schedule-shaped (docs/architecture.md "Plugins"):
 * against the real host with `config/default.jsonc` (no plugins, no renderers) the page shows no
 * reminders panel or chip at any width, never asks for `/reminders`, renders no reminder text,
 * and still chats. The web-schedule example, with the panel, is covered by the other e2e files.
 *
 * @module
 */
import { deepEqual, equal, ok } from "node:assert/strict";
import { HAS_CHROMIUM, launchBrowser, say, skipNote, waitLive } from "./_browser.ts";
import { freePort, startHost } from "./_host.ts";

skipNote("tests/e2e/default_config_test.ts");

Deno.test({
  name: "config/default.jsonc: no reminders panel, chip or request; the chat still works",
  ignore: !HAS_CHROMIUM,
  async fn() {
    const dataDir = await Deno.makeTempDir({ prefix: "chime-e2e-default-" });
    try {
      await using host = await startHost({
        dataDir,
        port: freePort(),
        config: "config/default.jsonc",
      });
      await using b = await launchBrowser();
      const { page } = await b.open("Europe/Berlin");
      const asked: string[] = [];
      page.on("request", (r) => asked.push(new URL(r.url()).pathname));
      const config = page.waitForResponse((r) => r.url().endsWith("/api/client-config"));
      await page.goto(host.url);
      deepEqual(await (await config).json(), { renderers: [], panels: [], alerts: true });
      await page.getByTestId("new-session").click();
      await waitLive(page);
      // The page's own texts (the model's answers are the model's business).
      const placeholder = await page.getByTestId("composer-input").getAttribute("placeholder");
      const shown = `${await page.locator("body").innerText()} ${placeholder}`;
      ok(!/remind|提醒/i.test(shown), `no schedule text on the page: ${shown}`);
      equal(await page.getByTestId("notify-control").count(), 0, "no reminder notifications");
      await say(page, "hello there");
      await page.getByTestId("message-assistant").first().waitFor();
      for (const width of [1280, 390]) {
        await page.setViewportSize({ width, height: 844 });
        equal(await page.getByTestId("reminders-panel").count(), 0, `no panel at ${width} px`);
        equal(await page.getByTestId("reminders-chip").count(), 0, `no chip at ${width} px`);
      }
      deepEqual(asked.filter((p) => p.includes("/reminders")), [], "no reminders request");
      deepEqual(asked.filter((p) => p === "/api/alerts"), [], "nothing alerts: no alert stream");
      ok(asked.includes("/api/client-config"));
      deepEqual(b.errors, []);
    } finally {
      await Deno.remove(dataDir, { recursive: true });
    }
  },
});
