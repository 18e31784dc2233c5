/**
 * The page against the real host process (README "The page"): session titles derived
 * server-side from the log (forks name their parent) readable at 390 px, and the recurring
 * reminder lane ("remind me every minute to blink" fires twice as cards, snooze works, stop
 * ends it) over the schedule v2 server side (docs/recurring.md "Host and page").
 */
import { equal, match, ok } from "node:assert/strict";
import { until } from "./_api.ts";
import {
  HAS_CHROMIUM,
  launchBrowser,
  openNewSession,
  say,
  sessionIdOf,
  shot,
  skipNote,
  waitLive,
} from "./_browser.ts";
import { waitText } from "./_page.ts";
import { freePort, type HostProcess, startHost } from "./_host.ts";

skipNote("tests/e2e/host_page_test.ts");

Deno.test({
  name:
    "session titles come from the first user message; a fork names its parent; readable at 390 px",
  ignore: !HAS_CHROMIUM,
  async fn() {
    const dataDir = await Deno.makeTempDir({ prefix: "chime-e2e-titles-" });
    let host: HostProcess | undefined = await startHost({ dataDir, port: freePort() });
    try {
      await using b = await launchBrowser();
      const { page } = await b.open("Europe/Berlin");
      await page.setViewportSize({ width: 390, height: 844 });
      await page.goto(host.url);
      await page.getByTestId("open-drawer").click();
      await page.getByTestId("new-session").click();
      const parent = await sessionIdOf(page);
      await waitLive(page);
      await say(page, "remind me in 2 hours to water the plants");
      await page.locator("[data-testid=page-title]", { hasText: "water the plants" }).waitFor();
      await page.getByTestId("fork-session").click();
      await page.waitForURL((u) => !u.hash.endsWith(parent));
      await waitLive(page);
      // The header names the parent by its id until the session list brings its title.
      await waitText(
        page.getByTestId("header-fork-of"),
        /fork of remind me in 2 hours to water the plants/,
      );
      await page.getByTestId("open-drawer").click();
      await page.getByTestId("sidebar").waitFor({ state: "visible" });
      const rows = page.getByTestId("session-item");
      await until("two rows", async () => (await rows.count()) === 2);
      const fork = rows.filter({ has: page.getByTestId("session-fork-of") });
      await waitText(fork.getByTestId("session-fork-of"), /fork of remind me in 2 hours/);
      for (const i of [0, 1]) {
        // A row reads "Untitled" until the list is refreshed with its server-side title.
        await waitText(rows.nth(i).getByTestId("session-title"), /water the plants/);
        const box = await rows.nth(i).getByTestId("session-title").boundingBox();
        ok(box && box.width > 150, `row ${i} title is readable (${box?.width} px)`);
      }
      const list = await (await fetch(`${host.url}/api/sessions?limit=1`)).json();
      equal(list.sessions.length, 1);
      equal(typeof list.nextBefore, "string");
      await shot(page, "host-titles-phone");
      equal(b.errors.length, 0, b.errors.join("\n"));
    } finally {
      await host?.kill();
      host = undefined;
      await Deno.remove(dataDir, { recursive: true });
    }
  },
});

Deno.test({
  name:
    "recurring: “remind me every minute to blink” fires twice as cards, snooze works, stop ends it",
  ignore: !HAS_CHROMIUM,
  async fn() {
    const dataDir = await Deno.makeTempDir({ prefix: "chime-e2e-recurring-" });
    const host = await startHost({ dataDir, port: freePort() });
    try {
      await using b = await launchBrowser();
      const { page } = await b.open("Asia/Shanghai");
      await openNewSession(page, host.url);
      await say(page, "remind me every minute to blink");
      const row = page.locator("[data-testid=active-reminder][data-kind=recurring]");
      await row.waitFor();
      match(
        await row.getByTestId("reminder-repeat").innerText(),
        /^repeats .*minute.* \(Asia\/Shanghai\) · next /,
      );
      const cards = page.locator("[data-testid=reminder-card][data-recurring]");
      // The first occurrence is one interval from now rounded up to a whole minute (60–120 s),
      // the second a minute later.
      await cards.nth(1).waitFor({ timeout: 210_000 });
      match(await cards.nth(1).getByTestId("reminder-repeat").innerText(), /· next /);
      // Only the latest card acts: the host snoozes the series' latest delivered occurrence.
      equal(await cards.nth(0).locator("button").count(), 0);
      await cards.nth(1).getByTestId("snooze-600").click();
      await cards.nth(1).locator("[data-testid=reminder-outcome][data-state=snoozed]").waitFor();
      await page.locator("[data-testid=active-reminder][data-kind=at]").waitFor();
      await cards.nth(1).getByTestId("stop-repeating").click();
      await cards.nth(1).locator("[data-testid=reminder-outcome][data-state=stopped]").waitFor();
      await row.waitFor({ state: "detached" });
      await page.getByTestId("schedule-stop").waitFor();
      await shot(page, "host-recurring-stopped");
      equal(b.errors.length, 0, b.errors.join("\n"));
    } finally {
      await host.kill();
      await Deno.remove(dataDir, { recursive: true });
    }
  },
});
