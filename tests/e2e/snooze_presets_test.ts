/**
 * Real browser against the real host: the reminders panel's snooze
 * presets "Tomorrow morning" (09:00 tomorrow in the session's zone) and "Pick a time" (a date
 * and a time in that zone) move a one-time reminder, in English and in Chinese; the listed
 * target is the instant the zone gives (docs/recurring.md "Host and page").
 */
import { equal } from "node:assert/strict";
import { until } from "./_api.ts";
import {
  HAS_CHROMIUM,
  launchBrowser,
  openNewSession,
  say,
  sessionIdOf,
  skipNote,
} from "./_browser.ts";
import { freePort, startHost } from "./_host.ts";

skipNote("tests/e2e/snooze_presets_test.ts");

const ZONE = "Asia/Shanghai";
const CASES = [
  { lang: "en", locale: "en-US", ask: "remind me in 2 hours to water the plants" },
  { lang: "zh", locale: "zh-CN", ask: "2小时后提醒我浇花" },
] as const;

/** `YYYY-MM-DD` of today + `days` in the zone. */
function dayIn(days: number): string {
  return Temporal.Now.zonedDateTimeISO(ZONE).toPlainDate().add({ days }).toString();
}

/** The instant of a local date and time in the zone, canonical UTC. */
function instant(date: string, time: string): string {
  return new Date(
    Temporal.PlainDateTime.from(`${date}T${time}`).toZonedDateTime(ZONE).epochMilliseconds,
  ).toISOString();
}

for (const c of CASES) {
  Deno.test({
    name: `snooze presets (${c.lang}): Tomorrow morning and Pick a time snooze a one-time reminder`,
    ignore: !HAS_CHROMIUM,
    async fn() {
      const dataDir = await Deno.makeTempDir({ prefix: `chime-e2e-presets-${c.lang}-` });
      const host = await startHost({ dataDir, port: freePort() });
      try {
        await using b = await launchBrowser();
        const { page } = await b.open(ZONE, c.locale);
        await openNewSession(page, host.url);
        const id = await sessionIdOf(page);
        await say(page, c.ask);
        const row = page.locator("[data-testid=active-reminder]").first();
        await row.waitFor();
        const target = async () => {
          const answer = await fetch(`${host.url}/api/sessions/${id}/reminders`);
          return ((await answer.json()).reminders[0] as { scheduledAt: string }).scheduledAt;
        };
        // Tomorrow morning: 09:00 tomorrow in the session's zone.
        const tomorrow = instant(dayIn(1), "09:00");
        await row.getByTestId("snooze-tomorrow").click();
        equal(
          await until(
            "the tomorrow-morning target",
            async () => (await target()) === tomorrow ? tomorrow : undefined,
          ),
          tomorrow,
        );
        // Pick a time: the day after tomorrow at 18:30.
        await row.getByTestId("snooze-pick-open").click();
        const form = row.getByTestId("snooze-pick-form");
        await form.locator("input[name=date]").fill(dayIn(2));
        await form.locator("input[name=time]").fill("18:30");
        await form.getByTestId("snooze-pick-save").click();
        const picked = instant(dayIn(2), "18:30");
        equal(
          await until(
            "the picked target",
            async () => (await target()) === picked ? picked : undefined,
          ),
          picked,
        );
        equal(await page.locator("[data-testid=reminder-outcome][data-state=failed]").count(), 0);
        equal(b.errors.length, 0, b.errors.join("\n"));
      } finally {
        await host.kill();
        await Deno.remove(dataDir, { recursive: true });
      }
    },
  });
}
