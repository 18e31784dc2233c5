/**
 * Series controls, real browser against the real host: a daily reminder made by words is
 * paused, resumed, has its next occurrence skipped (the preview shows it skipped) and its time
 * edited to 10:00 from the reminders panel (the preview follows), and its History lists what the
 * log says (created, paused, resumed, excluded, changed), in English and in Chinese
 * (docs/recurring.md "Host and page"). Then, at 390 px, the open Edit form fits the sheet.
 *
 * The first pair drives the host's own series routes (README "HTTP API": `…/pause`, `…/resume`,
 * `…/skip`, `…/update`, `…/history` and the listed `paused` and `preview`). The second pair
 * runs the same steps with those routes faked in the browser over the real host
 * (`_series_fake.ts`), so the page side is checked on its own, and adds a refused edit: its
 * sentence in the UI language, never the code.
 */
import { deepEqual, equal, ok } from "node:assert/strict";
import type { Locator, Page } from "playwright-core";
import { until } from "./_api.ts";
import { HAS_CHROMIUM, launchBrowser, openNewSession, say, shot, skipNote } from "./_browser.ts";
import { axeSerious, overflow, waitText } from "./_page.ts";
import { freePort, type HostProcess, startHost } from "./_host.ts";
import { fakeSeriesRoutes } from "./_series_fake.ts";

skipNote("tests/e2e/series_controls_test.ts");

interface Case {
  readonly lang: "en" | "zh";
  readonly locale: string;
  readonly ask: string;
  readonly prompt: string;
  readonly paused: string;
  readonly done: Readonly<Record<"paused" | "resumed" | "skipped" | "changed", string>>;
  readonly unsupported: string;
}

const CASES: readonly Case[] = [
  {
    lang: "en",
    locale: "en-US",
    ask: "remind me every day at 9am to stretch",
    prompt: "stretch",
    paused: "Paused",
    done: {
      paused: "Paused",
      resumed: "Resumed",
      skipped: "Skipped the next occurrence",
      changed: "Saved",
    },
    unsupported:
      "That repeat rule is not supported. Choose one of the common rules or check the RRULE.",
  },
  {
    lang: "zh",
    locale: "zh-CN",
    ask: "每天早上9点提醒我拉伸",
    prompt: "拉伸",
    paused: "已暂停",
    done: { paused: "已暂停", resumed: "已恢复", skipped: "已跳过下一次", changed: "已保存" },
    unsupported: "不支持该重复规则。请选择常用规则，或检查 RRULE。",
  },
];

/** Waits until the row's outcome line says `state`, and returns its sentence. */
async function outcome(row: Locator, state: string): Promise<string> {
  const line = row.locator(`[data-testid=reminder-outcome][data-state=${state}]`);
  await line.waitFor();
  return await line.innerText();
}

/** The `data-state` of each preview line, in order. */
function previewStates(row: Locator): Promise<(string | null)[]> {
  return row.getByTestId("preview-item").evaluateAll((items) =>
    items.map((i) => i.getAttribute("data-state"))
  );
}

async function runCase(page: Page, c: Case): Promise<void> {
  await say(page, c.ask);
  const row = page.locator("[data-testid=active-reminder][data-kind=recurring]");
  await row.waitFor();
  equal(await row.locator(".prompt").innerText().then((t) => t.trim()), c.prompt);
  // The preview: five occurrences at 09:00 in the session's zone, none skipped yet.
  await row.getByTestId("reminder-preview").waitFor();
  await waitText(row.getByTestId("reminder-preview"), /Asia\/Shanghai/);
  deepEqual(await previewStates(row), ["next", "next", "next", "next", "next"]);
  await waitText(row.locator("[data-testid=preview-item]").first(), /09:00/);

  // 1. Pause: the row says Paused and offers Resume.
  await row.getByTestId("pause").click();
  await page.locator("[data-testid=active-reminder][data-state=paused]").waitFor();
  equal(await row.getByTestId("reminder-paused").innerText(), c.paused);
  equal(await outcome(row, "paused"), c.done.paused);

  // 2. Resume: Paused goes, Pause is back.
  await row.getByTestId("resume").click();
  equal(await outcome(row, "resumed"), c.done.resumed);
  await row.getByTestId("pause").waitFor();
  equal(await row.getByTestId("reminder-paused").count(), 0);

  // 3. Skip next: the preview shows the first occurrence as skipped.
  await row.getByTestId("skip-next").click();
  equal(await outcome(row, "skipped"), c.done.skipped);
  await row.locator("[data-testid=preview-item][data-state=skipped]").first().waitFor();
  equal((await previewStates(row))[0], "skipped");

  // 4. Edit the time to 10:00: the preview's occurrences follow.
  await row.getByTestId("edit-open").click();
  const form = row.getByTestId("reminder-edit-form");
  await form.waitFor();
  await waitText(form.getByTestId("edit-zone"), /Asia\/Shanghai/);
  equal(await form.locator("input[name=time]").inputValue(), "09:00");
  await form.locator("input[name=time]").fill("10:00");
  await form.getByTestId("edit-save").click();
  equal(await outcome(row, "changed"), c.done.changed);
  await form.waitFor({ state: "hidden" });
  await waitText(row.locator("[data-testid=preview-item][data-state=next]").first(), /10:00/);

  // 5. History lists what the log says, each at its local time.
  await row.getByTestId("history-open").click();
  await row.locator("[data-testid=reminder-history][data-state=loaded]").waitFor();
  const kinds = await until("the history entries", async () => {
    const all = await row.getByTestId("history-entry").evaluateAll((items) =>
      items.map((i) => i.getAttribute("data-kind"))
    );
    return ["created", "paused", "resumed", "excluded", "changed"].every((k) => all.includes(k))
      ? all
      : undefined;
  });
  ok(kinds.indexOf("created") < kinds.indexOf("paused"), kinds.join());
  ok(kinds.indexOf("paused") < kinds.indexOf("resumed"), kinds.join());
  ok(kinds.indexOf("resumed") < kinds.indexOf("excluded"), kinds.join());
  ok(kinds.indexOf("excluded") < kinds.indexOf("changed"), kinds.join());
  // No refusal anywhere, and never a raw code.
  equal(await page.locator("[data-testid=reminder-outcome][data-state=failed]").count(), 0);
}

/** Starts a host, opens a session in the case's locale at Asia/Shanghai and runs `body`. */
async function withPage(
  c: Case,
  body: (page: Page, host: HostProcess) => Promise<void>,
): Promise<void> {
  const dataDir = await Deno.makeTempDir({ prefix: `chime-e2e-series-${c.lang}-` });
  const host = await startHost({ dataDir, port: freePort() });
  try {
    await using b = await launchBrowser();
    const { page } = await b.open("Asia/Shanghai", c.locale);
    await body(page, host);
    equal(b.errors.length, 0, b.errors.join("\n"));
  } finally {
    await host.kill();
    await Deno.remove(dataDir, { recursive: true });
  }
}

/** Opens a new session and waits until the page speaks the case's language. */
async function open(page: Page, host: HostProcess, c: Case): Promise<void> {
  await openNewSession(page, host.url);
  await page.waitForFunction(
    (lang) => document.documentElement.lang === (lang === "zh" ? "zh-CN" : "en"),
    c.lang,
  );
}

/** At 390 px the panel is a sheet behind its chip; the open Edit form fits it. */
async function narrow(page: Page, name: string): Promise<void> {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.getByTestId("reminders-chip").click();
  const row = page.locator("[data-testid=active-reminder][data-kind=recurring]");
  const form = row.getByTestId("reminder-edit-form");
  if (!(await form.isVisible())) await row.getByTestId("edit-open").click();
  await form.waitFor();
  const box = await row.getByTestId("edit-save").boundingBox();
  ok(box && box.height >= 44, `Save is a 44 px target (${box?.height})`);
  const { doc, wide } = await overflow(page);
  ok(!doc && wide.length === 0, wide.join("\n"));
  await shot(page, name);
}

for (const c of CASES) {
  Deno.test({
    name:
      `series controls (${c.lang}): pause, resume, skip next, edit to 10:00 and history from the panel`,
    ignore: !HAS_CHROMIUM,
    fn: () =>
      withPage(c, async (page, host) => {
        await open(page, host, c);
        await runCase(page, c);
        await shot(page, `series-controls-${c.lang}`);
        await narrow(page, `series-controls-${c.lang}-390`);
      }),
  });
}

for (const c of CASES) {
  Deno.test({
    name:
      `series controls, page side (${c.lang}, routes faked in the browser): the same steps; a refused edit reads as a sentence`,
    ignore: !HAS_CHROMIUM,
    fn: () =>
      withPage(c, async (page, host) => {
        const fake = await fakeSeriesRoutes(page, 8);
        await open(page, host, c);
        await runCase(page, c);
        equal(fake.calls.filter((x) => x.startsWith("POST update")).length, 1);
        // A refused rule: the sentence in the UI language, the code only as data.
        fake.refuseNextUpdate("unsupported_rule");
        const row = page.locator("[data-testid=active-reminder][data-kind=recurring]");
        await row.getByTestId("edit-open").click();
        const form = row.getByTestId("reminder-edit-form");
        await form.locator("select[name=repeat]").selectOption("custom");
        await form.locator("input[name=rrule]").fill("FREQ=SECONDLY");
        await form.getByTestId("edit-save").click();
        equal(await outcome(row, "failed"), c.unsupported);
        equal(
          await row.getByTestId("reminder-outcome").getAttribute("data-code"),
          "unsupported_rule",
        );
        ok(await form.isVisible(), "a refused edit leaves the form open");
        // The open Edit form, the preview and the History list pass axe (WCAG 2.2 AA).
        const violations = await axeSerious(page);
        deepEqual(violations, [], JSON.stringify(violations, null, 2));
        // Escape closes the form and gives the focus back to Edit.
        await form.locator("input[name=rrule]").press("Escape");
        await form.waitFor({ state: "hidden" });
        await page.waitForFunction(() =>
          document.activeElement?.getAttribute("data-testid") === "edit-open"
        );
        await shot(page, `series-controls-faked-${c.lang}`);
        await narrow(page, `series-controls-faked-${c.lang}-390`);
      }),
  });
}
