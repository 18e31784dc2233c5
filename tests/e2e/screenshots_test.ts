/**
 * Screenshots of the page's states (README "The page") into `tests/e2e/screenshots/`: desktop and
 * 390 px, light and dark, English and Chinese, over one chat with a one-shot card, a recurring
 * card after a snooze, Markdown and a failed turn; plus the phone drawer and reminders sheet.
 */
import { equal } from "node:assert/strict";
import { chromium } from "playwright-core";
import { startFakeApi } from "../../ui/testing/fake_api.ts";
import { CHROMIUM, HAS_CHROMIUM, SHOTS, skipNote } from "./_browser.ts";
import { newSession, openPage, send, waitAtBottom } from "./_page.ts";

skipNote("tests/e2e/screenshots_test.ts");

Deno.test({
  name: "screenshots: desktop and 390 px, light and dark, en and zh",
  ignore: !HAS_CHROMIUM,
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    await using api = startFakeApi();
    const browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run"],
    });
    try {
      await Deno.mkdir(SHOTS, { recursive: true });
      const setup = await openPage(browser);
      await setup.page.goto(api.url);
      await newSession(setup.page);
      const id = [...api.sessions.keys()][0]!;
      await send(setup.page, "remind me in 20 minutes to stretch");
      await send(setup.page, "remind me every minute to blink");
      await setup.page.locator("[data-testid=active-reminder]").nth(1).waitFor();
      const records = api.sessions.get(id)!.events.flatMap((e) => {
        const r = (e.data as { record?: { id: string; kind: string } }).record;
        return r ? [r] : [];
      });
      api.dispatch(id, records.find((r) => r.kind === "after")!.id);
      api.dispatch(id, records.find((r) => r.kind === "recurring")!.id);
      const recurring = setup.page.locator("[data-testid=reminder-card][data-recurring]");
      await recurring.getByTestId("snooze-600").click();
      await recurring.locator("[data-testid=reminder-outcome][data-state=snoozed]").waitFor();
      await setup.page.screenshot({ path: new URL("page-snoozed-outcome.png", SHOTS).pathname });
      await send(setup.page, "show me markdown");
      await setup.page.locator(".md a").first().waitFor();
      await setup.page.context().close();
      const shots: string[] = [];
      for (const device of ["desktop", "phone"] as const) {
        for (const colorScheme of ["light", "dark"] as const) {
          for (const lang of ["en", "zh"] as const) {
            const { page, errors, context } = await openPage(browser, {
              ...(device === "phone" ? { width: 390, height: 844 } : { width: 1280, height: 820 }),
              colorScheme,
              locale: lang === "zh" ? "zh-CN" : "en-US",
              timezoneId: lang === "zh" ? "Asia/Shanghai" : "America/New_York",
            });
            await page.goto(`${api.url}/#/s/${id}`);
            await page.getByTestId("reminder-card").first().waitFor();
            await page.locator(".md a").first().waitFor();
            await waitAtBottom(page);
            const name = `page-${device}-${colorScheme}-${lang}`;
            await page.screenshot({ path: new URL(`${name}.png`, SHOTS).pathname });
            shots.push(name);
            if (device === "phone" && colorScheme === "light") {
              await page.getByTestId("reminders-chip").click();
              await page.getByTestId("active-reminder").first().waitFor();
              await page.waitForFunction(() =>
                document.getAnimations().every((a) => a.playState !== "running")
              );
              await page.screenshot({ path: new URL(`${name}-reminders.png`, SHOTS).pathname });
              await page.keyboard.press("Escape");
              await page.getByTestId("open-drawer").click();
              await page.getByTestId("session-title").first().waitFor();
              await page.waitForFunction(() =>
                document.getAnimations().every((a) => a.playState !== "running")
              );
              await page.screenshot({ path: new URL(`${name}-drawer.png`, SHOTS).pathname });
            }
            equal(errors.length, 0, errors.join("\n"));
            await context.close();
          }
        }
      }
      equal(shots.length, 8);
    } finally {
      await browser.close();
    }
  },
});
