/**
 * The built page (README "The page") against the fake API (`ui/testing/fake_api.ts`) in real
 * Chromium: browser notifications, scrolling that follows the user, the phone layout,
 * accessibility (axe-core, skip link, Escape, reduced motion), safe Markdown, and recurring
 * cards with snooze / stop (against the contract in docs/recurring.md "Host and page").
 */
import { deepEqual, equal, match, ok } from "node:assert/strict";
import { startFakeApi } from "../../ui/testing/fake_api.ts";
import { skipNote } from "./_browser.ts";
import {
  axeSerious,
  e2e,
  gapToBottom,
  launch,
  newSession,
  openPage,
  overflow,
  recordAlerts,
  scrollToTop,
  send,
  setHidden,
  waitAtBottom,
  waitText,
} from "./_page.ts";

skipNote("tests/e2e/page_test.ts");

e2e(
  "notifications: asked from the control only; a hidden tab is notified, counted and chimed; a click reveals the card",
  async () => {
    await using api = startFakeApi();
    await using b = await launch();
    const { context, page, errors } = await openPage(b.browser);
    await context.addInitScript(recordAlerts);
    await page.goto(api.url);
    await newSession(page);
    // Judged once the control that would ask has rendered: the page is up and has not asked.
    await page.getByTestId("notify-enable").waitFor();
    equal(
      await page.evaluate(() => (globalThis as unknown as { __asked(): number }).__asked()),
      0,
      "never asked on load",
    );
    await context.grantPermissions(["notifications"], { origin: api.url });
    await page.getByTestId("notify-enable").click();
    await page.getByTestId("notify-on").waitFor();
    equal(await page.evaluate(() => (globalThis as unknown as { __asked(): number }).__asked()), 1);
    equal(await page.getByTestId("chime-toggle").isChecked(), false, "the chime is off by default");
    await page.getByTestId("chime-toggle").check();
    equal(await page.evaluate(() => localStorage.getItem("chime.sound")), "on");

    const id = [...api.sessions.keys()][0]!;
    await send(page, "remind me in 20 minutes to stretch");
    await page.getByTestId("active-reminder").waitFor();
    const tonesBefore = await page.evaluate(() =>
      (globalThis as unknown as { __tones(): number }).__tones()
    );
    await page.evaluate(setHidden, true);
    api.dispatch(id);
    await page.waitForFunction(() => document.title === "(1) chime");
    await send(page, "remind me in 20 minutes to drink water");
    await page.getByTestId("active-reminder").waitFor();
    api.dispatch(id);
    await page.waitForFunction(() => document.title === "(2) chime");
    const notes = await page.evaluate(() =>
      (globalThis as unknown as { __notes: { title: string; body: string }[] }).__notes.map((
        n,
      ) => [n.title, n.body])
    );
    deepEqual(notes, [["Reminder", "stretch"], ["Reminder", "drink water"]]);
    ok(
      await page.evaluate(() => (globalThis as unknown as { __tones(): number }).__tones()) >
        tonesBefore,
      "the chime played",
    );
    equal(await page.getByTestId("announcer").textContent(), "Reminder: drink water");
    // Scroll away, then click the first notification: the tab focuses its card.
    await page.getByTestId("transcript").evaluate((c) => (c.scrollTop = 0));
    await page.evaluate(() => {
      const n = (globalThis as unknown as { __notes: { n: Notification }[] }).__notes[0]!.n;
      n.onclick?.(new Event("click"));
    });
    const cardSeq = await page.getByTestId("reminder-card").first().evaluate((c) =>
      c.closest(".node")!.getAttribute("data-seq")
    );
    await page.waitForFunction(
      (seq) => document.activeElement?.getAttribute("data-seq") === seq,
      cardSeq,
    );
    ok(await page.getByTestId("reminder-card").first().isVisible());
    await page.evaluate(setHidden, false);
    await page.waitForFunction(() => document.title === "chime");
    // The chime setting persists across a reload.
    await page.reload();
    await page.getByTestId("reminder-card").first().waitFor();
    equal(await page.getByTestId("chime-toggle").isChecked(), true);
    equal(await page.evaluate(() => document.title), "chime");
    equal(errors.length, 0, errors.join("\n"));
  },
);

e2e(
  "scrolling follows the user: send, retry, edit, jump to latest, fork, switch and reload open at the latest",
  async () => {
    await using api = startFakeApi();
    await using b = await launch();
    const { page, errors } = await openPage(b.browser, { height: 700 });
    await page.goto(api.url);
    await newSession(page);
    const first = [...api.sessions.keys()][0]!;
    await send(page, "hello there");
    await page.getByTestId("message-assistant").waitFor();
    api.seed(first, 80);
    await page.locator(`.node[data-seq='${api.sessions.get(first)!.events.length - 1}']`).waitFor();
    await waitAtBottom(page);
    // Scrolled up: "jump to latest" appears; new content does not pull the reader down.
    await scrollToTop(page);
    await page.getByTestId("jump-latest").waitFor();
    await page.getByTestId("jump-latest").click();
    await waitAtBottom(page);
    await page.getByTestId("jump-latest").waitFor({ state: "detached" });
    // Sending from far up brings the new turn into view.
    await scrollToTop(page);
    await page.getByTestId("jump-latest").waitFor();
    const count = await page.getByTestId("message-assistant").count();
    await send(page, "hello again");
    await page.getByTestId("message-assistant").nth(count).waitFor();
    await waitAtBottom(page);
    // Retry from far up (the page has taken the scroll before the click).
    await scrollToTop(page);
    await page.getByTestId("retry-message").first().click();
    await page.getByTestId("message-assistant").nth(count + 1).waitFor();
    await waitAtBottom(page);
    // Edit: Escape closes the form and gives focus back; saving follows the new turn.
    const firstUser = page.locator(".node:has([data-testid=message-user])").first();
    await scrollToTop(page);
    await firstUser.getByTestId("edit-message").click();
    await firstUser.getByTestId("edit-input").waitFor();
    // Focus moves in an effect after render: wait on the state, not a moment.
    await page.waitForFunction(() =>
      document.activeElement?.getAttribute("data-testid") === "edit-input"
    );
    await page.keyboard.press("Escape");
    await firstUser.getByTestId("edit-form").waitFor({ state: "detached" });
    await page.waitForFunction(() =>
      document.activeElement?.getAttribute("data-testid") === "edit-message"
    );
    await firstUser.getByTestId("edit-message").click();
    await firstUser.getByTestId("edit-input").fill("hello, edited");
    await firstUser.getByTestId("edit-save").click();
    await page.locator("[data-edits]").waitFor();
    await waitAtBottom(page);
    // Fork opens the child at its latest message.
    await scrollToTop(page);
    await page.getByTestId("fork-session").click();
    await page.waitForURL((u) => !u.hash.endsWith(`/${first}`));
    await page.locator("[data-testid=connection-status][data-state=live]").waitFor();
    await page.locator(".divider").waitFor();
    await waitAtBottom(page);
    // Switching back opens the parent at its latest, and so does a reload.
    await scrollToTop(page);
    await page.locator(`[data-testid=session-item][data-session-id="${first}"]`).click();
    await page.waitForURL((u) => u.hash.endsWith(`/${first}`));
    await page.locator("[data-edits]").waitFor();
    await waitAtBottom(page);
    await page.reload();
    await page.locator("[data-edits]").waitFor();
    await waitAtBottom(page);
    ok(await gapToBottom(page) <= 2);
    equal(errors.length, 0, errors.join("\n"));
  },
);

for (const width of [360, 390]) {
  e2e(
    `phone layout at ${width} px: drawer, reminders chip, tall transcript, nothing overflows`,
    async () => {
      await using api = startFakeApi();
      await using b = await launch();
      const { page, errors } = await openPage(b.browser, { width, height: 780 });
      await page.goto(api.url);
      // Judged once the phone layout has rendered (its menu button shows), not before.
      await page.getByTestId("open-drawer").waitFor();
      equal(
        await page.getByTestId("sidebar").isVisible(),
        false,
        "sessions are in a closed drawer",
      );
      await page.getByTestId("open-drawer").click();
      await page.getByTestId("new-session").click();
      await page.locator("[data-testid=connection-status][data-state=live]").waitFor();
      await page.getByTestId("sidebar").waitFor({ state: "hidden" }); // opening a session closes it
      await send(
        page,
        "remind me in 20 minutes to stretch my back and shoulders after this long call",
      );
      await send(page, "remind me every minute to blink");
      await page.locator("[data-testid=reminders-count]", { hasText: "2" }).waitFor();
      equal(
        await page.getByTestId("reminders-panel").isVisible(),
        false,
        "reminders wait behind the chip",
      );
      const id = [...api.sessions.keys()][0]!;
      api.dispatch(id);
      await page.getByTestId("reminder-card").waitFor();
      deepEqual(await overflow(page), { doc: false, wide: [] });
      const heights = await page.evaluate(() => ({
        t: document.querySelector("[data-testid=transcript]")!.getBoundingClientRect().height,
        v: innerHeight,
      }));
      ok(
        heights.t / heights.v > 0.6,
        `the transcript gets most of the height (${heights.t}/${heights.v})`,
      );
      const fork = await page.getByTestId("fork-session").boundingBox();
      ok(fork && fork.height < 48, "Fork stays one line");
      await page.getByTestId("reminders-chip").click();
      await page.getByTestId("active-reminder").first().waitFor();
      deepEqual(await overflow(page), { doc: false, wide: [] });
      await page.keyboard.press("Escape");
      await page.getByTestId("reminders-panel").waitFor({ state: "hidden" });
      await page.getByTestId("open-drawer").click();
      await page.getByTestId("session-title").first().waitFor();
      const title = await page.getByTestId("session-title").first().boundingBox();
      ok(title && title.width > 150, `the session title is readable (${title?.width} px)`);
      deepEqual(await overflow(page), { doc: false, wide: [] });
      await page.getByTestId("backdrop").click({ position: { x: width - 10, y: 300 } });
      await page.getByTestId("sidebar").waitFor({ state: "hidden" });
      equal(errors.length, 0, errors.join("\n"));
    },
  );
}

e2e(
  "accessibility: axe finds nothing serious (empty, chat with cards; light, dark); h1, skip link, labels, reduced motion",
  async () => {
    await using api = startFakeApi();
    await using b = await launch();
    for (const colorScheme of ["light", "dark"] as const) {
      const { page, errors, context } = await openPage(b.browser, {
        colorScheme,
        reducedMotion: "reduce",
      });
      await page.goto(api.url);
      await page.getByTestId("new-session").waitFor();
      const empty = await axeSerious(page);
      deepEqual(empty, [], `empty page, ${colorScheme}: ${JSON.stringify(empty)}`);
      equal(await page.locator("h1").count(), 1);
      await newSession(page);
      const id = [...api.sessions.keys()].at(-1)!;
      await send(page, "remind me in 20 minutes to stretch");
      await send(page, "remind me every minute to blink");
      await send(page, "show me markdown");
      await send(page, "this one will fail");
      await page.getByTestId("turn-error").waitFor();
      api.dispatch(id);
      api.dispatch(id);
      await page.getByTestId("reminder-card").nth(1).waitFor();
      const chat = await axeSerious(page);
      deepEqual(chat, [], `chat with cards, ${colorScheme}: ${JSON.stringify(chat)}`);
      // Speaker labels; the transcript is no live region, one polite announcer is.
      match(await page.getByTestId("message-user").first().innerText(), /^You/);
      equal(await page.locator("[data-testid=transcript][aria-live]").count(), 0);
      equal(await page.locator("[aria-live=polite]").count(), 1);
      // A reload lands at the top of the tab order: the skip link reaches the labelled composer.
      await page.reload();
      await page.getByTestId("reminder-card").first().waitFor();
      await page.keyboard.press("Tab");
      await page.waitForFunction(() =>
        document.activeElement?.getAttribute("data-testid") === "skip-link"
      );
      await page.keyboard.press("Enter");
      await page.waitForFunction(() => document.activeElement?.id === "composer-input");
      equal(await page.getByLabel("Message", { exact: true }).count(), 1);
      // prefers-reduced-motion: no animation runs.
      const spin = await page.evaluate(() => {
        const el = document.createElement("span");
        el.className = "spinner";
        document.body.append(el);
        const d = getComputedStyle(el).animationDuration;
        el.remove();
        return parseFloat(d);
      });
      ok(spin < 0.01, `animations are off (${spin}s)`);
      equal(errors.length, 0, errors.join("\n"));
      await context.close();
    }
  },
);

e2e(
  "assistant Markdown renders safely: emphasis and safe links, javascript: refused, raw HTML as text",
  async () => {
    await using api = startFakeApi();
    await using b = await launch();
    const { page, errors } = await openPage(b.browser);
    await page.goto(api.url);
    await newSession(page);
    await send(page, "show me markdown");
    const bubble = page.getByTestId("message-assistant").locator(".bubble");
    await bubble.locator("strong").waitFor();
    const link = bubble.locator("a");
    equal(await link.count(), 1, "only the safe link is a link");
    equal(await link.getAttribute("href"), "https://example.com/docs");
    equal(await link.getAttribute("rel"), "noopener noreferrer");
    equal(await link.getAttribute("target"), "_blank");
    equal(await bubble.locator("b").count(), 0);
    match(await bubble.innerText(), /<b>raw html stays text<\/b>/);
    match(await bubble.innerText(), /\[a bad link\]\(javascript:alert\(1\)\)/);
    equal(
      await page.locator("[style]").count(),
      0,
      "no style attributes anywhere (CSP style-src 'self')",
    );
    // One human line per tool action: no raw tool call rows, no ids on the reminder line.
    equal(await page.getByTestId("tool-call").count(), 0);
    equal(await page.locator("text=🔧").count(), 0);
    equal(errors.length, 0, errors.join("\n"));
  },
);

e2e(
  "recurring reminder: repeats line on cards and panel, snooze posts and shows the outcome, stop ends it",
  async () => {
    await using api = startFakeApi();
    await using b = await launch();
    const { page, errors } = await openPage(b.browser);
    await page.goto(api.url);
    await newSession(page);
    const id = [...api.sessions.keys()][0]!;
    await send(page, "remind me every minute to blink");
    const row = page.locator("[data-testid=active-reminder][data-kind=recurring]");
    await row.waitFor();
    match(
      await row.getByTestId("reminder-repeat").innerText(),
      /^repeats every minute \(Europe\/Berlin\) · next /,
    );
    match(await page.getByTestId("schedule-create").innerText(), /Repeating reminder set: “?blink/);
    api.dispatch(id);
    api.dispatch(id);
    const cards = page.getByTestId("reminder-card");
    await cards.nth(1).waitFor();
    for (const i of [0, 1]) {
      match(
        await cards.nth(i).getByTestId("reminder-repeat").innerText(),
        /repeats every minute \(Europe\/Berlin\) · next /,
      );
    }
    await cards.nth(1).getByTestId("snooze-600").click();
    await cards.nth(1).locator("[data-testid=reminder-outcome][data-state=snoozed]").waitFor();
    match(await cards.nth(1).getByTestId("reminder-outcome").innerText(), /^Snoozed until /);
    equal(
      api.requests[0],
      `POST snooze ${(await cards.nth(1).getAttribute("data-schedule-id"))} {"seconds":600}`,
    );
    await page.locator("[data-testid=active-reminder][data-kind=at]").waitFor();
    await cards.nth(1).getByTestId("stop-repeating").click();
    await cards.nth(1).locator("[data-testid=reminder-outcome][data-state=stopped]").waitFor();
    match(api.requests[1] ?? "", /^POST stop sch_\d+ \{\}$/);
    await row.waitFor({ state: "detached" });
    await page.getByTestId("schedule-stop").waitFor();
    // No stop once the series ended: the button goes with the panel's refetched list.
    await cards.nth(0).getByTestId("stop-repeating").waitFor({ state: "detached" });
    // The older card offers nothing (the host snoozes the latest delivered occurrence); the
    // Chinese card words the rule, and says the series stopped (no next occurrence).
    equal(await cards.nth(0).locator("button").count(), 0);
    await page.getByRole("button", { name: "中文" }).click();
    await waitText(
      cards.nth(0).getByTestId("reminder-repeat"),
      /重复：每分钟（Europe\/Berlin）· 已停止，不再重复/,
    );
    equal(errors.length, 0, errors.join("\n"));
  },
);
