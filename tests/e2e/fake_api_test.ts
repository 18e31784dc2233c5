/**
 * The built page against the in-process fake API of `ui/testing/fake_api.ts` (no host): chat,
 * the active reminder, the dispatch upgraded to a card, language switch, a narrow viewport.
 */
import { equal, match, ok } from "node:assert/strict";
import { chromium } from "playwright-core";
import { startFakeApi } from "../../ui/testing/fake_api.ts";
import { CHROMIUM, HAS_CHROMIUM as hasChromium, SHOTS, skipNote } from "./_browser.ts";
import { frames, scrollToTop, waitAtBottom, waitText } from "./_page.ts";

skipNote("tests/e2e/fake_api_test.ts");

Deno.test({
  name: "the built page chats, lists the reminder and upgrades the dispatch to a card",
  ignore: !hasChromium,
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    await using api = startFakeApi();
    const userDataDir = await Deno.makeTempDir();
    const context = await chromium.launchPersistentContext(userDataDir, {
      executablePath: CHROMIUM,
      locale: "en-US",
      timezoneId: "Europe/Berlin",
      viewport: { width: 1280, height: 820 },
      args: [
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
      ],
    });
    try {
      const page = await context.newPage();
      const errors: string[] = [];
      page.on("pageerror", (e) => errors.push(e.message));
      await page.goto(api.url);
      await page.getByTestId("new-session").click();
      await page.getByTestId("connection-status").and(page.locator("[data-state=live]")).waitFor();
      equal([...api.sessions.values()][0]?.header.timeZone, "Europe/Berlin");
      await page.getByTestId("composer-input").fill("remind me in 20 minutes to <b>stretch</b>");
      await page.getByTestId("composer-send").click();
      await page.getByTestId("message-assistant").waitFor();
      await page.getByTestId("active-reminder").waitFor();
      equal(await page.getByTestId("message-user").count(), 1);
      const id = [...api.sessions.keys()][0]!;
      api.dispatch(id);
      const card = page.getByTestId("reminder-card");
      await card.waitFor();
      equal(await card.count(), 1);
      equal(await page.getByTestId("reminder-prompt").textContent(), "<b>stretch</b>");
      match(await card.textContent() ?? "", /Session-local reminder — fires only while/);
      match(await card.textContent() ?? "", /UTC/);
      // The panel refetches its list once the dispatch is durable: wait for the row to go.
      await page.getByTestId("active-reminder").waitFor({ state: "detached" });
      await page.getByTestId("composer-input").fill("this one will fail");
      await page.getByTestId("composer-send").press("Enter");
      await page.getByTestId("turn-error").waitFor();
      await Deno.mkdir(SHOTS, { recursive: true });
      await page.screenshot({ path: new URL("ui-chat-en.png", SHOTS).pathname });
      await page.getByRole("button", { name: "中文" }).click();
      await waitText(card, /仅限本会话的提醒/);
      await page.reload();
      await page.getByTestId("reminder-card").waitFor();
      await page.setViewportSize({ width: 420, height: 860 });
      await page.screenshot({ path: new URL("ui-chat-narrow.png", SHOTS).pathname });
      ok(errors.length === 0, errors.join("\n"));
    } finally {
      await context.close();
      await Deno.remove(userDataDir, { recursive: true });
    }
  },
});

async function launch() {
  const userDataDir = await Deno.makeTempDir();
  const context = await chromium.launchPersistentContext(userDataDir, {
    executablePath: CHROMIUM,
    locale: "en-US",
    timezoneId: "Europe/Berlin",
    viewport: { width: 1100, height: 700 },
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run"],
  });
  return {
    context,
    async [Symbol.asyncDispose]() {
      await context.close();
      await Deno.remove(userDataDir, { recursive: true });
    },
  };
}

Deno.test({
  name: "the transcript keeps its place on older pages and follows a row growing into a card",
  ignore: !hasChromium,
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    await using api = startFakeApi();
    await using b = await launch();
    const page = await b.context.newPage();
    const errors: string[] = [];
    const missing: string[] = [];
    page.on("pageerror", (e) => errors.push(e.message));
    page.on("response", (r) => r.status() === 404 && missing.push(r.url()));
    await page.goto(api.url);
    await page.getByTestId("new-session").click();
    await page.getByTestId("connection-status").and(page.locator("[data-state=live]")).waitFor();
    const id = [...api.sessions.keys()][0]!;
    // Seeded while no page listens, then opened afresh: the page loads the history as a window.
    // Seeded live, the open page renders 260 stream events one by one, and a reload waits for
    // that backlog (7–12 s on a busy machine, past the 30 s navigation timeout when throttled).
    await page.goto("about:blank");
    api.seed(id, 260);
    await page.goto(`${api.url}/#/s/${id}`);
    await page.locator(".node[data-seq='259']").waitFor();
    const box = page.getByTestId("transcript");
    const gap = () => box.evaluate((c) => c.scrollHeight - c.scrollTop - c.clientHeight);
    await waitAtBottom(page); // opens at the bottom
    // Older page: the first visible message stays where it was. The page must have taken the
    // scroll first: a render before its scroll event would snap it back to the bottom.
    await scrollToTop(page);
    const firstSeq = await page.locator(".node").first().getAttribute("data-seq");
    const topOf = (seq: string) =>
      page.locator(`.node[data-seq='${seq}']`).evaluate((n) =>
        n.getBoundingClientRect().top - n.parentElement!.getBoundingClientRect().top
      );
    const before = await topOf(firstSeq!);
    await page.getByTestId("load-older").click();
    await page.locator(".node[data-seq='0']").waitFor({ state: "attached" });
    // Keyed on state, not time: the page is in and its spinner is gone, then two frames.
    await page.getByTestId("older-loading").waitFor({ state: "detached" });
    await frames(page);
    ok(Math.abs(await topOf(firstSeq!) - before) <= 2, "anchored to the first visible message");
    ok(await gap() > 500, "not scrolled to the bottom");
    // Back at the bottom: a dispatch row growing into a card (count unchanged) stays visible.
    await box.evaluate((c) => (c.scrollTop = c.scrollHeight));
    await page.getByTestId("composer-input").fill("remind me in 20 minutes to stretch");
    await page.getByTestId("composer-send").click();
    await page.getByTestId("active-reminder").waitFor();
    api.dispatchRaw(id);
    await page.getByTestId("schedule-dispatch-pending").waitFor();
    await waitAtBottom(page); // follows the new row
    api.attachView(id);
    await page.getByTestId("reminder-card").waitFor();
    await waitAtBottom(page); // follows the card that replaced the row
    ok(await gap() <= 2, `follows the card that replaced the row (gap ${await gap()})`);
    await page.getByTestId("active-reminder").waitFor({ state: "detached" });
    // Language persists across a reload; no request 404s (the favicon is inline).
    await page.getByRole("button", { name: "中文" }).click();
    await page.reload();
    await page.getByRole("button", { name: "中文", pressed: true }).waitFor();
    // `<html lang>` is set by an effect after the render.
    await page.waitForFunction(() => document.documentElement.lang === "zh-CN");
    equal(missing.length, 0, missing.join("\n"));
    ok(errors.length === 0, errors.join("\n"));
  },
});
