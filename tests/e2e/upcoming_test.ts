/**
 * The Upcoming view (README.md "Upcoming, late causes and the calendar feed"; docs/upcoming.md),
 * real Chromium against the real host, in English and in Chinese, at 1280 px and 390 px: it
 * lists the reminders of two sessions in order of their next time, a reminder of a cold session
 * says it fires when the session is opened, Open resumes that session at the reminder (its row in
 * the reminders panel is highlighted and focused), a snooze from the view goes through that
 * session's own route and is recorded in its log, and the calendar feed's link is issued, serves
 * the calendar and is revoked in one click. Screenshots of each state, light and dark, go to
 * `tests/e2e/screenshots/`.
 */
import { deepEqual, equal, match, ok } from "node:assert/strict";
import type { Page } from "playwright-core";
import { history, until } from "./_api.ts";
import { HAS_CHROMIUM, launchBrowser, shot, skipNote } from "./_browser.ts";
import { axeSerious, overflow, waitText } from "./_page.ts";
import { freePort, type HostProcess, startHost } from "./_host.ts";

skipNote("tests/e2e/upcoming_test.ts");

interface Case {
  readonly lang: "en" | "zh";
  readonly locale: string;
  /** Session A (Europe/Paris): the later one-shot reminder. */
  readonly later: { readonly ask: string; readonly prompt: string };
  /** Session B (Asia/Shanghai): the sooner one-shot and a daily series. */
  readonly sooner: { readonly ask: string; readonly prompt: string };
  readonly daily: { readonly ask: string; readonly prompt: string };
  readonly cold: string;
  readonly live: string;
  readonly snoozed: RegExp;
  readonly heading: string;
}

const CASES: readonly Case[] = [
  {
    lang: "en",
    locale: "en-US",
    later: { ask: "remind me in 3 hours to call mom", prompt: "call mom" },
    sooner: { ask: "remind me in 40 minutes to drink water", prompt: "drink water" },
    daily: { ask: "remind me every day at 9am to stretch", prompt: "stretch" },
    cold: "cold: fires when you open this session",
    live: "live",
    snoozed: /^Snoozed until /,
    heading: "Upcoming",
  },
  {
    lang: "zh",
    locale: "zh-CN",
    later: { ask: "3小时后提醒我给妈妈打电话", prompt: "给妈妈打电话" },
    sooner: { ask: "40分钟后提醒我喝水", prompt: "喝水" },
    daily: { ask: "每天早上9点提醒我拉伸", prompt: "拉伸" },
    cold: "未打开：打开此会话后才会送达",
    live: "在线",
    snoozed: /^已推迟至 /,
    heading: "即将到来",
  },
];

async function post(base: string, path: string, body: unknown): Promise<Response> {
  return await fetch(`${base}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
}

/** Creates a session in `timeZone` and asks the offline model for each reminder. */
async function sessionWith(base: string, timeZone: string, asks: string[]): Promise<string> {
  const created = await post(base, "/api/sessions", { timeZone });
  const id = (await created.json()).header.id as string;
  for (const [i, text] of asks.entries()) {
    const sent = await post(base, `/api/sessions/${id}/messages`, {
      text,
      clientTimeZone: timeZone,
    });
    ok(sent.ok, await sent.text());
    await until(`the reminder for ${text}`, async () => {
      const events = await history(base, id);
      return events.filter((e) => e.type === "schedule/change").length >= i + 1 &&
        events.filter((e) => e.type === "turn/end").length >= i + 1;
    });
  }
  return id;
}

/** The rows' `[sessionId, prompt, state]` in page order. */
function rowsOf(page: Page): Promise<[string, string, string][]> {
  return page.getByTestId("upcoming-row").evaluateAll((rows) =>
    rows.map((r) => [
      r.getAttribute("data-session-id") ?? "",
      r.querySelector("h3")?.textContent?.trim() ?? "",
      r.getAttribute("data-state") ?? "",
    ])
  );
}

/** Opens the Upcoming view and waits until it answered. */
async function openUpcoming(page: Page, base: string, c: Case): Promise<void> {
  await page.goto(`${base}/#/v/upcoming`);
  await page.locator("[data-testid=upcoming-view][data-status=ready]").waitFor();
  await page.waitForFunction(
    (lang) => document.documentElement.lang === (lang === "zh" ? "zh-CN" : "en"),
    c.lang,
  );
  await waitText(page.getByTestId("page-title"), new RegExp(`^${c.heading}$`));
}

async function shots(page: Page, name: string): Promise<void> {
  await page.emulateMedia({ colorScheme: "light" });
  await shot(page, `${name}-light`);
  await page.emulateMedia({ colorScheme: "dark" });
  await shot(page, `${name}-dark`);
  await page.emulateMedia({ colorScheme: "light" });
}

async function run(c: Case): Promise<void> {
  const dataDir = await Deno.makeTempDir({ prefix: `chime-e2e-upcoming-${c.lang}-` });
  const port = freePort();
  let host: HostProcess = await startHost({ dataDir, port });
  try {
    const a = await sessionWith(host.url, "Europe/Paris", [c.later.ask]);
    const b = await sessionWith(host.url, "Asia/Shanghai", [c.sooner.ask, c.daily.ask]);
    // A restart leaves every session cold: listing them must not make one live.
    await host.kill();
    host = await startHost({ dataDir, port });

    await using browser = await launchBrowser();
    const { page } = await browser.open("Asia/Shanghai", c.locale);
    await openUpcoming(page, host.url, c);

    // 1. Both sessions' reminders, by next time; every one is cold and says so.
    const rows = await rowsOf(page);
    equal(rows.length, 3, JSON.stringify(rows));
    deepEqual(new Set(rows.map((r) => r[0])), new Set([a, b]));
    const times = await page.getByTestId("upcoming-next").evaluateAll((ts) =>
      ts.map((t) => Date.parse(t.getAttribute("datetime") ?? ""))
    );
    deepEqual(times, [...times].sort((x, y) => x - y), "ordered by next occurrence");
    const order = rows.map((r) => r[1]);
    ok(order.indexOf(c.sooner.prompt) < order.indexOf(c.later.prompt), order.join());
    deepEqual(rows.map((r) => r[2]), ["cold", "cold", "cold"]);
    for (const state of await page.getByTestId("upcoming-state").allInnerTexts()) {
      equal(state.trim(), c.cold);
    }
    const laterRow = page.locator(`[data-testid=upcoming-row][data-session-id="${a}"]`);
    await waitText(laterRow.getByTestId("upcoming-zone"), /Europe\/Paris/);
    await waitText(laterRow.getByTestId("upcoming-session"), new RegExp(c.later.ask.slice(0, 6)));
    const dailyRow = page.locator("[data-testid=upcoming-row]", {
      has: page.getByTestId("upcoming-repeat"),
    });
    await waitText(dailyRow.getByTestId("upcoming-repeat"), /09:00/);
    deepEqual(await axeSerious(page), [], "the view passes axe");
    await shots(page, `upcoming-${c.lang}-1280`);

    // 2. Open resumes B at the reminder: its panel row is highlighted and focused.
    const soonerRow = page.locator("[data-testid=upcoming-row]", {
      has: page.locator("h3", { hasText: c.sooner.prompt }),
    });
    const soonerId = await soonerRow.getAttribute("data-schedule-id");
    await soonerRow.getByTestId("upcoming-open").click();
    await page.waitForURL(new RegExp(`#/s/${b}$`));
    await page.locator("[data-testid=connection-status][data-state=live]").waitFor();
    const focused = page.locator(
      `#reminders [data-testid=active-reminder][data-schedule-id="${soonerId}"][data-focused=true]`,
    );
    await focused.waitFor();
    await page.waitForFunction(
      (id) => document.activeElement?.getAttribute("data-schedule-id") === id,
      soonerId,
    );
    await shot(page, `upcoming-open-${c.lang}-1280`);

    // 3. Back in the view: B's reminders are live now, A's still cold.
    await page.getByTestId("view-link-upcoming").click();
    await page.locator("[data-testid=upcoming-view][data-status=ready]").waitFor();
    await until("B live in the list", async () => {
      const now = await rowsOf(page);
      return now.every((r) => r[2] === (r[0] === b ? "live" : "cold")) && now.length === 3;
    });
    equal(
      (await page.locator(`[data-testid=upcoming-row][data-session-id="${b}"]`).first()
        .getByTestId("upcoming-state").innerText()).trim(),
      c.live,
    );

    // 4. Snooze A's reminder from the view: A's own route, recorded in A's log.
    const before = (await history(host.url, a)).filter((e) => e.type === "schedule/change").length;
    await laterRow.getByTestId("snooze-3600").click();
    const said = laterRow.locator("[data-testid=reminder-outcome][data-state=snoozed]");
    await said.waitFor();
    match(await said.innerText(), c.snoozed);
    const changes = await until("the snooze in A's log", async () => {
      const all = (await history(host.url, a)).filter((e) => e.type === "schedule/change");
      return all.length > before ? all : undefined;
    });
    ok(changes.length > before, "a schedule/change was appended to A's log");
    const bChanges = (await history(host.url, b)).filter((e) => e.type === "schedule/change");
    ok(bChanges.every((e) => e.data?.op !== "delete"), "B's log has no snooze of A's reminder");

    // 5. The feed: issued, serves the calendar, revoked in one click.
    await page.getByTestId("feed-issue").click();
    const input = page.getByTestId("feed-url");
    await input.waitFor();
    const url = await input.inputValue();
    match(url, /\/api\/reminders\.ics\?key=/);
    const served = await fetch(url);
    equal(served.status, 200);
    match(await served.text(), /BEGIN:VCALENDAR/);
    deepEqual(await axeSerious(page), [], "the view with its feed link passes axe");
    await shots(page, `upcoming-feed-${c.lang}-1280`);
    await page.getByTestId("feed-revoke").click();
    await page.locator("[data-testid=upcoming-feed][data-feed=none]").waitFor();
    const gone = await fetch(url);
    equal(gone.status, 404);
    await gone.body?.cancel();

    // 6. A phone: the view fills the width, nothing overflows, the drawer links to it.
    await page.setViewportSize({ width: 390, height: 844 });
    await openUpcoming(page, host.url, c);
    await until("three rows", async () => (await rowsOf(page)).length === 3);
    const { doc, wide } = await overflow(page);
    ok(!doc && wide.length === 0, wide.join("\n"));
    const open = await page.getByTestId("upcoming-open").first().boundingBox();
    ok(open && open.height >= 44, `Open is a 44 px target (${open?.height})`);
    deepEqual(await axeSerious(page), [], "the phone view passes axe");
    await shots(page, `upcoming-${c.lang}-390`);
    await page.getByTestId("open-drawer").click();
    await page.locator("#sessions.open [data-testid=view-link-upcoming]").waitFor();
    await shots(page, `upcoming-drawer-${c.lang}-390`);
    // Open from the phone: the reminders sheet opens at the reminder.
    await page.getByTestId("close-drawer").click();
    await page.getByTestId("upcoming-open").first().click();
    await page.locator("#reminders.open [data-focused=true]").waitFor();
    const sheet = await overflow(page);
    ok(!sheet.doc && sheet.wide.length === 0, sheet.wide.join("\n"));
    await shots(page, `upcoming-open-${c.lang}-390`);
    equal(browser.errors.length, 0, browser.errors.join("\n"));
  } finally {
    await host.kill();
    await Deno.remove(dataDir, { recursive: true });
  }
}

for (const c of CASES) {
  Deno.test({
    name:
      `Upcoming (${c.lang}): two sessions in order, cold says so, Open resumes at the reminder, a snooze lands in that session's log, the feed link; 1280 and 390 px`,
    ignore: !HAS_CHROMIUM,
    sanitizeResources: false,
    fn: () => run(c),
  });
}
