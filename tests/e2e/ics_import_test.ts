/**
 * Import from a calendar in real Chromium against the real host (docs/upcoming.md "Import from a
 * calendar"): a pasted weekly VEVENT becomes a listed repeating reminder; a VEVENT chime cannot
 * keep (EXDATE) says which event and why, in English and Chinese, and adds nothing; axe finds no
 * serious violation in the open control. Screenshots at 1280 and 390 px, light and dark.
 */
import { equal, match } from "node:assert/strict";
import type { Page } from "playwright-core";
import { HAS_CHROMIUM, launchBrowser, openNewSession, shot, skipNote } from "./_browser.ts";
import { freePort, startHost } from "./_host.ts";
import { axeSerious } from "./_page.ts";

skipNote("tests/e2e/ics_import_test.ts");

const vevent = (...lines: string[]) =>
  ["BEGIN:VCALENDAR", "VERSION:2.0", "BEGIN:VEVENT", ...lines, "END:VEVENT", "END:VCALENDAR"]
    .join("\n");

/** Waits until the import control's outcome is `state` (keyed on the page's state, not time). */
function importState(page: Page, state: "done" | "failed"): Promise<unknown> {
  return page.waitForFunction(
    (want) =>
      document.querySelector("[data-testid=ics-import-status]")?.getAttribute("data-state") ===
        want,
    state,
  );
}

Deno.test({
  name: "a pasted weekly VEVENT becomes a repeating reminder; one chime cannot keep says why",
  ignore: !HAS_CHROMIUM,
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    const dataDir = await Deno.makeTempDir({ prefix: "chime-e2e-ics-" });
    await using host = await startHost({ dataDir, port: freePort() });
    await using b = await launchBrowser();
    const { page } = await b.open("Europe/Berlin");
    await page.setViewportSize({ width: 1280, height: 900 });
    const id = await openNewSession(page, host.url);
    const control = page.getByTestId("ics-import");
    await control.locator("summary").click();
    const status = page.getByTestId("ics-import-status");

    await page.getByLabel("Paste an .ics event (VEVENT)").fill(vevent(
      "UID:yoga@example.com",
      "SUMMARY:Yoga",
      "DTSTART;TZID=Europe/Berlin:20301202T073000",
      "RRULE:FREQ=WEEKLY;BYDAY=MO,TH",
    ));
    await control.getByRole("button", { name: "Import" }).click();
    await importState(page, "done");
    equal(await status.innerText(), "Imported 1 reminder");
    const row = page.getByTestId("active-reminder").filter({ hasText: "Yoga" });
    await row.waitFor();
    equal(await row.getAttribute("data-kind"), "recurring");
    match(await row.getByTestId("reminder-repeat").innerText(), /Monday|Mon/);
    equal(await page.getByLabel("Paste an .ics event (VEVENT)").inputValue(), "", "cleared");
    equal(await axeSerious(page).then((v) => v.length), 0, "axe: no serious violation");
    await shot(page, "ics-import-done-1280");

    await page.getByLabel("Paste an .ics event (VEVENT)").fill(vevent(
      "SUMMARY:Gym",
      "DTSTART;TZID=Europe/Berlin:20301202T180000",
      "RRULE:FREQ=DAILY",
      "EXDATE;TZID=Europe/Berlin:20301203T180000",
    ));
    await control.getByRole("button", { name: "Import" }).click();
    await importState(page, "failed");
    match(await status.innerText(), /^event 1: chime cannot keep this/);
    await shot(page, "ics-import-refused-1280");
    await page.emulateMedia({ colorScheme: "dark" });
    await shot(page, "ics-import-refused-1280-dark");
    await page.emulateMedia({ colorScheme: "light" });
    await page.setViewportSize({ width: 390, height: 844 });
    await page.getByTestId("reminders-chip").click();
    await page.getByTestId("ics-import-status").scrollIntoViewIfNeeded();
    await shot(page, "ics-import-refused-390");
    const listed = await (await fetch(`${host.url}/api/sessions/${id}/reminders`)).json();
    equal(listed.reminders.length, 1, "the refused text added nothing");

    // The same refusal in Chinese, on a phone in dark mode (the panel is a sheet behind its chip).
    const zh = await b.open("Asia/Shanghai", "zh-CN");
    await zh.page.setViewportSize({ width: 390, height: 844 });
    await zh.page.emulateMedia({ colorScheme: "dark" });
    await zh.page.goto(`${host.url}/#/s/${encodeURIComponent(id)}`);
    await zh.page.waitForFunction(() =>
      document.querySelector("[data-testid=reminders-count]")?.textContent === "1"
    );
    await zh.page.getByTestId("reminders-chip").click();
    const zhControl = zh.page.getByTestId("ics-import");
    await zhControl.locator("summary").click();
    await zh.page.getByLabel("粘贴 .ics 事件（VEVENT）").fill(
      vevent("SUMMARY:x", "DTSTART;VALUE=DATE:20301202"),
    );
    await zhControl.getByRole("button", { name: "导入" }).click();
    await importState(zh.page, "failed");
    match(
      await zh.page.getByTestId("ics-import-status").innerText(),
      /^第 1 个事件：chime 无法保留它/,
    );
    await zh.page.getByTestId("ics-import-status").scrollIntoViewIfNeeded();
    await shot(zh.page, "ics-import-refused-390-zh-dark");
    equal(b.errors.length, 0, b.errors.join("\n"));
  },
});
