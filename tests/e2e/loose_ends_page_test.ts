/**
 * The page's loose ends against the fake API (`ui/testing/fake_api.ts`) in real Chromium
 * (README.md "The page"): a notification click scrolls only the transcript (no blank band under
 * the composer), a long message is collapsed with an accessible Show more / Show less, the
 * composer counts characters near the host's limit and refuses to send over it, the phone drawer
 * holds focus while open and gives it back to its toggle, and a stopped series' cards name no
 * next occurrence.
 */
import { deepEqual, equal, match, ok } from "node:assert/strict";
import type { Page } from "playwright-core";
import { startFakeApi } from "../../ui/testing/fake_api.ts";
import { shot, skipNote } from "./_browser.ts";
import { e2e, launch, newSession, openPage, recordAlerts, send, setHidden } from "./_page.ts";

skipNote("tests/e2e/loose_ends_page_test.ts");

/** The scrollTop of every ancestor of the transcript, and the composer's bottom edge (px). */
function layout(page: Page) {
  return page.evaluate(() => {
    const t = document.querySelector<HTMLElement>("[data-testid=transcript]")!;
    const scrolled: string[] = [];
    for (let el = t.parentElement; el; el = el.parentElement) {
      if (el.scrollTop !== 0) scrolled.push(`${el.tagName}.${el.className} ${el.scrollTop}`);
    }
    const composer = document.querySelector(".composer")!.getBoundingClientRect();
    return { scrolled, composerBottom: Math.round(composer.bottom), innerHeight };
  });
}

for (const [width, height] of [[1280, 720], [390, 760]] as const) {
  e2e(
    `a notification click on the newest card scrolls only the transcript (${width} px)`,
    async () => {
      await using api = startFakeApi();
      await using b = await launch();
      const { context, page, errors } = await openPage(b.browser, { width, height });
      await context.addInitScript(recordAlerts);
      await context.grantPermissions(["notifications"], { origin: api.url });
      await page.goto(api.url);
      // On a phone, New session is in the drawer.
      if (width < 700) await page.getByTestId("open-drawer").click();
      await newSession(page);
      const id = [...api.sessions.keys()][0]!;
      api.seed(id, 40);
      await send(page, "remind me in 20 minutes to stretch");
      await page.getByTestId("message-assistant").first().waitFor();
      const before = await layout(page);
      deepEqual(before.scrolled, []);
      await page.evaluate(setHidden, true);
      api.dispatch(id);
      await page.waitForFunction(() => document.title === "(1) chime");
      await page.getByTestId("transcript").evaluate((c) => (c.scrollTop = 0));
      await page.evaluate(() => {
        const n = (globalThis as unknown as { __notes: { n: Notification }[] }).__notes.at(-1)!.n;
        n.onclick?.(new Event("click"));
      });
      const seq = await page.getByTestId("reminder-card").last().evaluate((c) =>
        c.closest(".node")!.getAttribute("data-seq")
      );
      await page.waitForFunction(
        (s) => document.activeElement?.getAttribute("data-seq") === s,
        seq,
      );
      const after = await layout(page);
      deepEqual(after.scrolled, [], "no column outside the transcript scrolled");
      equal(after.composerBottom, before.composerBottom, "no blank band under the composer");
      ok(await page.getByTestId("reminder-card").last().isVisible());
      await page.evaluate(setHidden, false);
      equal(errors.length, 0, errors.join("\n"));
    },
  );
}

e2e(
  "a long message collapses with Show more / Show less; the composer counts near the limit",
  async () => {
    await using api = startFakeApi();
    await using b = await launch();
    const { page, errors } = await openPage(b.browser, { height: 800 });
    await page.goto(api.url);
    await newSession(page);
    const input = page.getByTestId("composer-input");
    // Below 90 % of the limit nothing is counted.
    await input.fill("a".repeat(1000));
    equal(await page.getByTestId("composer-count").count(), 0);
    await input.fill("a".repeat(29_600));
    match(await page.getByTestId("composer-count").innerText(), /^29,600 \/ 32,768$/);
    equal(await input.getAttribute("aria-describedby"), "composer-count");
    ok(await page.getByTestId("composer-send").isEnabled());
    await input.fill("a".repeat(32_800));
    await page.locator("[data-testid=composer-count][data-state=over]").waitFor();
    equal(await page.getByTestId("composer-count").innerText(), "32 characters too many");
    ok(await page.getByTestId("composer-send").isDisabled(), "over the limit: no Send");
    equal(await input.getAttribute("aria-invalid"), "true");
    // A long message sent: its bubble is collapsed to a few lines.
    const long = Array.from({ length: 400 }, (_, i) => `line ${i} of a long paste`).join("\n");
    await send(page, long);
    const user = page.getByTestId("message-user").last();
    const box = user.getByTestId("long-message");
    await box.waitFor();
    const toggle = box.getByTestId("long-toggle");
    equal(await toggle.getAttribute("aria-expanded"), "false");
    equal(await toggle.innerText(), "Show more");
    const folded = (await user.locator(".bubble").boundingBox())!.height;
    ok(folded < 400, `collapsed bubble ${folded} px`);
    const controls = await toggle.getAttribute("aria-controls");
    ok(controls && (await page.locator(`#${controls}`).count()) === 1, "aria-controls names it");
    await shot(page, "loose-long-collapsed");
    await toggle.click();
    equal(await toggle.getAttribute("aria-expanded"), "true");
    equal(await toggle.innerText(), "Show less");
    const open = (await user.locator(".bubble").boundingBox())!.height;
    ok(open > folded * 4, `expanded bubble ${open} px`);
    await toggle.click();
    equal(await toggle.getAttribute("aria-expanded"), "false");
    // A short message has no toggle.
    await send(page, "short one");
    equal(await page.getByTestId("message-user").last().getByTestId("long-toggle").count(), 0);
    equal(errors.length, 0, errors.join("\n"));
  },
);

e2e(
  "the phone drawer takes focus, keeps Tab inside, and gives focus back to its toggle",
  async () => {
    await using api = startFakeApi();
    await using b = await launch();
    const { page, errors } = await openPage(b.browser, { width: 390, height: 760 });
    await page.goto(api.url);
    await page.getByTestId("open-drawer").click();
    await page.waitForFunction(() =>
      document.querySelector("[data-testid=sidebar]")!.contains(document.activeElement)
    );
    for (let i = 0; i < 8; i++) {
      await page.keyboard.press(i % 3 === 2 ? "Shift+Tab" : "Tab");
      ok(
        await page.evaluate(() =>
          document.querySelector("[data-testid=sidebar]")!.contains(document.activeElement)
        ),
        `focus stays in the drawer (press ${i})`,
      );
    }
    await page.keyboard.press("Escape");
    await page.waitForFunction(() =>
      document.activeElement?.getAttribute("data-testid") === "open-drawer"
    );
    // Closing by its own button gives focus back too.
    await page.getByTestId("open-drawer").click();
    await page.getByTestId("close-drawer").click();
    await page.waitForFunction(() =>
      document.activeElement?.getAttribute("data-testid") === "open-drawer"
    );
    equal(errors.length, 0, errors.join("\n"));
  },
);

e2e("a stopped series' cards name no next occurrence and no preview", async () => {
  await using api = startFakeApi();
  await using b = await launch();
  const { page, errors } = await openPage(b.browser);
  await page.goto(api.url);
  await newSession(page);
  const id = [...api.sessions.keys()][0]!;
  await send(page, "remind me every minute to blink");
  await page.locator("[data-testid=active-reminder][data-kind=recurring]").waitFor();
  api.dispatch(id);
  api.dispatch(id);
  const cards = page.getByTestId("reminder-card");
  await cards.nth(1).waitFor();
  match(await cards.nth(1).getByTestId("reminder-repeat").innerText(), / · next /);
  await cards.nth(1).getByTestId("stop-repeating").click();
  await cards.nth(1).locator("[data-testid=reminder-outcome][data-state=stopped]").waitFor();
  for (const i of [0, 1]) {
    await page.waitForFunction(
      (n) =>
        document.querySelectorAll("[data-testid=reminder-card]")[n]
          ?.querySelector("[data-testid=reminder-repeat]")?.textContent?.includes("stopped"),
      i,
    );
    const line = await cards.nth(i).getByTestId("reminder-repeat").innerText();
    match(line, /· stopped, no further occurrences$/);
    equal(await cards.nth(i).getByTestId("reminder-preview").count(), 0);
  }
  await shot(page, "loose-stopped-series");
  equal(errors.length, 0, errors.join("\n"));
});
