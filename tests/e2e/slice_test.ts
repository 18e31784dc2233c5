/**
 * Schedule words arrive only with the schedule slice (docs/architecture.md "Plugins"), real
 * browser against the real host: a session that set, received and listed a reminder under the
 * web-schedule example shows the schedule's lines ("No active reminders", "Reminder delivered to
 * the agent"); reopened with `config/default.jsonc` (no plugins, no renderers) the same events
 * read as neutral lines ("Tool schedule_list: done", "Follow-up delivered to the agent"), in
 * English and Chinese, and the keyless model's help says reminders are not enabled.
 *
 * @module
 */
import { deepEqual, equal, match, ok } from "node:assert/strict";
import type { Page } from "playwright-core";
import { answered, history, until } from "./_api.ts";
import { HAS_CHROMIUM, launchBrowser, say, sessionIdOf, skipNote, waitLive } from "./_browser.ts";
import { freePort, type HostProcess, startHost } from "./_host.ts";

skipNote("tests/e2e/slice_test.ts");

/** The one line of each tool row and follow-up row, in transcript order. */
async function lines(page: Page): Promise<string[]> {
  const rows = page.locator(
    "[data-testid=tool-result] > summary, [data-testid=followup] > summary",
  );
  return (await rows.allInnerTexts()).map((t) => t.trim());
}

/** Waits for a tool row saying `text`. */
async function toolLine(page: Page, text: string): Promise<void> {
  await page.locator("[data-testid=tool-result] .tool-summary", { hasText: text }).waitFor();
}

Deno.test({
  name: "schedule lines with the schedule slice; neutral lines with config/default.jsonc",
  ignore: !HAS_CHROMIUM,
  async fn() {
    const dataDir = await Deno.makeTempDir({ prefix: "chime-e2e-slice-" });
    const port = freePort();
    let host: HostProcess | undefined = await startHost({ dataDir, port });
    try {
      await using b = await launchBrowser();
      const { page } = await b.open("Europe/Berlin");
      await page.goto(host.url);
      await page.getByTestId("new-session").click();
      const id = await sessionIdOf(page);
      await waitLive(page);

      // With the schedule slice: set a reminder, let it fire, then list (none left).
      await say(page, "remind me in 3 seconds to stretch");
      await until("the reminder's follow-up turn", async () => {
        const all = await history(host!.url, id);
        const dispatch = all.find((e) => e.type === "schedule/change" && e.data.op === "dispatch");
        return dispatch && all.some((e) => e.type === "turn/end" && e.seq > dispatch.seq);
      });
      await say(page, "list my reminders");
      await answered(host.url, id, "list my reminders");
      await toolLine(page, "No active reminders");
      deepEqual(await lines(page), ["Reminder delivered to the agent", "No active reminders"]);

      // The same session with the default web configuration.
      await host.kill("SIGTERM");
      host = await startHost({ dataDir, port, config: "config/default.jsonc" });
      await page.reload();
      await waitLive(page);
      await toolLine(page, "Tool schedule_list: done");
      const neutral = await lines(page);
      deepEqual(neutral, [
        "Tool schedule_create: done",
        "Follow-up delivered to the agent",
        "Tool schedule_list: done",
      ]);
      equal(await page.getByTestId("reminder-card").count(), 0, "no reminder card renderer");
      equal(await page.getByTestId("reminders-panel").count(), 0, "no panel");
      await say(page, "hello there");
      const events = await answered(host.url, id, "hello there");
      const reply = events.findLast((e) => e.type === "assistant/message")!;
      match(reply.data.text, /reminders are not enabled/, "the model's help is honest");
      ok(!/I can set reminders/.test(reply.data.text));

      const zh = await b.open("Asia/Shanghai", "zh-CN");
      await zh.page.goto(`${host.url}/#/s/${encodeURIComponent(id)}`);
      await waitLive(zh.page);
      await toolLine(zh.page, "工具 schedule_list：完成");
      deepEqual(await lines(zh.page), [
        "工具 schedule_create：完成",
        "后续消息已交给 Agent",
        "工具 schedule_list：完成",
      ]);
      for (const text of [...neutral, ...await lines(zh.page)]) {
        ok(!/remind|提醒/i.test(text), `no reminder wording: ${text}`);
      }
      deepEqual(b.errors, []);
    } finally {
      await host?.kill();
      await Deno.remove(dataDir, { recursive: true });
    }
  },
});
