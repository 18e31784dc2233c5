/**
 * Real browser, real host process (README "What it does"): reminders go through the whole tool
 * pipeline of the keyless offline model, render as durable cards from attached history, survive
 * reloads and SIGKILL restarts without a second delivery, and a deliberately missing model
 * adapter (`model: { kind: "none" }`) closes the follow-up turn with an error after the dispatch
 * while the card stays. A card's snooze and stop outcomes are read from the durable log, so they
 * survive a reload (docs/recurring.md "Host and page").
 */
import { deepEqual, equal, match, ok } from "node:assert/strict";
import { answered, changes, createResults, type Ev, history, until } from "./_api.ts";
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
import { reloadListed } from "./_page.ts";
import { freePort, type HostProcess, startHost, writeNoModelConfig } from "./_host.ts";

skipNote("tests/e2e/reminders_test.ts");

const dispatchesOf = (events: readonly Ev[], scheduleId: string) =>
  changes(events, "dispatch").filter((e) => e.data.id === scheduleId);
const followupsOf = (events: readonly Ev[], scheduleId: string) =>
  events.filter((e) => e.type === "followup" && String(e.data.frame).includes(scheduleId));

async function views(base: string, id: string): Promise<Record<string, unknown>> {
  const res = await fetch(`${base}/api/sessions/${id}/history?limit=500`);
  return (await res.json() as { views: Record<string, unknown> }).views;
}

Deno.test({
  name: "an `after` reminder becomes a durable card: reload, SIGKILL restart, missing model",
  ignore: !HAS_CHROMIUM,
  async fn() {
    const dataDir = await Deno.makeTempDir({ prefix: "chime-e2e-after-" });
    const port = freePort();
    let host: HostProcess | undefined = await startHost({ dataDir, port });
    try {
      await using b = await launchBrowser();
      const { page } = await b.open("Europe/Berlin");
      await page.goto(host.url);
      await page.getByTestId("new-session").click();
      const id = await sessionIdOf(page);
      await waitLive(page);

      // 1. The short `after` case through model → schedule_create → create → dispatch.
      await say(page, "remind me in 5 seconds to stretch");
      await page.getByTestId("active-reminder").waitFor();
      const card = page.getByTestId("reminder-card");
      await card.waitFor({ timeout: 20_000 });
      equal(await page.getByTestId("reminder-prompt").textContent(), "stretch");
      match(await card.textContent() ?? "", /UTC/);
      match(await card.textContent() ?? "", /Europe\/Berlin/);
      match(await card.textContent() ?? "", /Session-local reminder/);
      let events = await answered(host.url, id, "remind me in 5 seconds to stretch");
      const [result] = createResults(events, "stretch");
      equal(result?.data.result.ok, true);
      equal(result?.data.result.deliveryMode, "session-local");
      const stretch = result?.data.result.id as string;
      equal(await card.getAttribute("data-schedule-id"), stretch);
      events = await until("the stretch follow-up turn", async () => {
        const all = await history(host!.url, id);
        return all.some((e) => e.type === "turn/end" && e.seq > dispatchesOf(all, stretch)[0]!.seq)
          ? all
          : undefined;
      });
      equal(dispatchesOf(events, stretch).length, 1);
      equal(followupsOf(events, stretch).length, 1);
      await shot(page, "after-card-live");

      // 2. A reload renders the card from history with its attached view.
      const dispatchSeq = dispatchesOf(events, stretch)[0]!.seq;
      deepEqual((await views(host.url, id))[dispatchSeq], {
        type: "schedule/change",
        presentation: {
          scheduleId: stretch,
          prompt: "stretch",
          occurrenceAt: changes(events, "create")[0]!.data.record.scheduledAt,
        },
      });
      // The panel's list comes from its own request: judge "no active row" once it answered.
      await reloadListed(page);
      await waitLive(page);
      await card.waitFor();
      equal(await card.count(), 1);
      equal(await page.getByTestId("active-reminder").count(), 0);

      // 3. SIGKILL, restart on the same data: still there, not delivered again.
      await host.kill("SIGKILL");
      host = await startHost({ dataDir, port });
      await page.reload();
      await waitLive(page);
      await card.waitFor();
      await say(page, "what time is it");
      events = await answered(host.url, id, "what time is it");
      equal(dispatchesOf(events, stretch).length, 1, "not delivered again after the restart");
      equal(followupsOf(events, stretch).length, 1);
      // Counted once the page shows everything the host logged through the answer.
      await page.locator(`.node[data-seq='${events.at(-1)!.seq}']`).waitFor({ state: "attached" });
      equal(await card.count(), 1);

      // 4. A reminder due while the host is down; it restarts with no model adapter at all.
      await say(page, "remind me in 4 seconds to breathe");
      const breathe = await until("the breathe reminder", async () => {
        const r = createResults(await history(host!.url, id), "breathe")[0];
        return r?.data.result.ok === true ? r.data.result.id as string : undefined;
      });
      await host.kill("SIGKILL");
      host = await startHost({ dataDir, port, config: await writeNoModelConfig(dataDir) });
      // The open page reconnects by itself and resumes the session (no reload).
      await page.locator(`[data-testid=reminder-card][data-schedule-id="${breathe}"]`).waitFor({
        timeout: 30_000,
      });
      await page.getByTestId("turn-error").last().waitFor();
      events = await until("the failed follow-up turn", async () => {
        const all = await history(host!.url, id);
        const d = dispatchesOf(all, breathe)[0];
        return d && all.some((e) => e.type === "turn/end" && e.seq > d.seq) ? all : undefined;
      });
      const d = dispatchesOf(events, breathe)[0]!;
      const end = events.find((e) => e.type === "turn/end" && e.seq > d.seq)!;
      equal(end.data.outcome, "error");
      match(String(end.data.error), /^model_missing: /);
      ok(followupsOf(events, breathe).length === 1, "the follow-up was admitted into that turn");
      equal(dispatchesOf(events, breathe).length, 1);
      equal(dispatchesOf(events, stretch).length, 1);
      equal(await card.count(), 2, "both cards stay after the failed turn");
      await shot(page, "after-card-model-missing");
      equal(b.errors.length, 0, b.errors.join("\n"));
    } finally {
      await host?.kill();
      await Deno.remove(dataDir, { recursive: true });
    }
  },
});

Deno.test({
  name: "an absolute local `at` reminder in the tab's zone fires once as a card across a restart",
  ignore: !HAS_CHROMIUM,
  async fn() {
    const dataDir = await Deno.makeTempDir({ prefix: "chime-e2e-at-" });
    const port = freePort();
    const zone = "Asia/Kolkata"; // a half-hour offset: local and UTC minutes differ visibly
    let host: HostProcess | undefined = await startHost({ dataDir, port });
    try {
      await using b = await launchBrowser();
      const { page } = await b.open(zone);
      await page.goto(host.url);
      await page.getByTestId("new-session").click();
      const id = await sessionIdOf(page);
      await waitLive(page);

      // The next whole minute at least 8 s ahead, as a local clock time in the tab's zone.
      const now = Temporal.Now.instant().add({ seconds: 8 });
      const target = now.round({ smallestUnit: "minute", roundingMode: "ceil" })
        .toZonedDateTimeISO(zone);
      const hhmm = target.toPlainTime().toString().slice(0, 5);
      const ask = `remind me at ${hhmm} to drink water`;
      await say(page, ask);
      let events = await answered(host.url, id, ask);
      const call = events.find((e) => e.type === "tool/call" && e.data.name === "schedule_create");
      deepEqual(call?.data.args, {
        prompt: "drink water",
        at: { date: target.toPlainDate().toString(), time: hhmm },
      });
      const [result] = createResults(events, "drink water");
      equal(result?.data.result.ok, true, JSON.stringify(result?.data.result));
      const record = changes(events, "create")[0]!.data.record;
      equal(record.kind, "at");
      equal(Temporal.Instant.from(record.scheduledAt).equals(target.toInstant()), true);
      const water = record.id as string;
      await page.getByTestId("active-reminder").waitFor();
      await shot(page, "at-scheduled");

      const card = page.locator(`[data-testid=reminder-card][data-schedule-id="${water}"]`);
      await card.waitFor({ timeout: 80_000 });
      match(
        await card.textContent() ?? "",
        new RegExp(`${target.toInstant().toString().slice(11, 16)} UTC`),
      );
      await page.reload();
      await waitLive(page);
      await card.waitFor();

      await host.kill("SIGKILL");
      host = await startHost({ dataDir, port });
      await page.reload();
      await waitLive(page);
      await card.waitFor();
      await say(page, "list my reminders");
      events = await answered(host.url, id, "list my reminders");
      equal(dispatchesOf(events, water).length, 1, "delivered exactly once");
      equal(followupsOf(events, water).length, 1);
      // Counted once the page shows everything the host logged through the answer.
      await page.locator(`.node[data-seq='${events.at(-1)!.seq}']`).waitFor({ state: "attached" });
      equal(await card.count(), 1);
      await shot(page, "at-card-after-restart");
      equal(b.errors.length, 0, b.errors.join("\n"));
    } finally {
      await host?.kill();
      await Deno.remove(dataDir, { recursive: true });
    }
  },
});

Deno.test({
  name:
    "regression: a card's snooze and stop outcomes come from the log and survive a reload; the panel offers a series no Snooze",
  ignore: !HAS_CHROMIUM,
  async fn() {
    const dataDir = await Deno.makeTempDir({ prefix: "chime-e2e-outcomes-" });
    const host = await startHost({ dataDir, port: freePort() });
    try {
      await using b = await launchBrowser();
      const { page } = await b.open("Asia/Shanghai");
      const id = await openNewSession(page, host.url);
      // Every 2 minutes: the first occurrence within about 2 min, the next 2 min after it, so the
      // card stays the series' latest while the test works on it.
      await say(page, "remind me every 2 minutes to blink");
      const row = page.locator("[data-testid=active-reminder][data-kind=recurring]");
      await row.waitFor();
      // A series that has not fired cannot be snoozed (409): its row offers Stop repeating only.
      await row.getByTestId("stop-repeating").waitFor();
      equal(await row.getByTestId("snooze-600").count(), 0);
      match(
        await row.getByTestId("reminder-repeat").innerText(),
        /^repeats every 2 minutes \(Asia\/Shanghai\) · next /,
      );

      const card = page.locator("[data-testid=reminder-card][data-recurring]").first();
      await card.waitFor({ timeout: 200_000 });
      const outcome = card.getByTestId("reminder-outcome");
      await card.getByTestId("snooze-600").click();
      await card.locator("[data-testid=reminder-outcome][data-state=snoozed]").waitFor();
      const snoozed = await outcome.innerText();
      match(snoozed, /^Snoozed until /);
      await page.locator("[data-testid=active-reminder][data-kind=at]").waitFor();

      // 1. Reload: the card reads its outcome from the durable log.
      await reloadListed(page);
      await waitLive(page);
      await card.locator("[data-testid=reminder-outcome][data-state=snoozed]").waitFor();
      equal(await outcome.innerText(), snoozed);
      const events = await history(host.url, id);
      const snooze = changes(events, "create").find((e) => e.data.record.snoozeOf);
      equal(snooze?.data.record.snoozeOf.id, await card.getAttribute("data-schedule-id"));
      await shot(page, "outcome-snoozed-after-reload");

      // 2. Stop, reload: "Stopped repeating" stays and Stop (now a 409) is not offered.
      await card.getByTestId("stop-repeating").click();
      await card.locator("[data-testid=reminder-outcome][data-state=stopped]").waitFor();
      await row.waitFor({ state: "detached" });
      // The series went with its pending snooze (README.md), in the stop's batch.
      await page.locator("[data-testid=active-reminder][data-kind=at]").waitFor({
        state: "detached",
      });
      const deleted = changes(await history(host.url, id), "delete").map((e) => e.data.id);
      deepEqual(deleted, [snooze?.data.record.id]);
      await reloadListed(page);
      await waitLive(page);
      await card.locator("[data-testid=reminder-outcome][data-state=stopped]").waitFor();
      equal(await outcome.innerText(), "Stopped repeating");
      // Judged once the panel's list answered (reloadListed): the series is no longer active.
      equal(await row.count(), 0);
      equal(await card.getByTestId("stop-repeating").count(), 0);
      equal(await page.locator("[data-testid=reminder-outcome][data-state=failed]").count(), 0);
      await shot(page, "outcome-stopped-after-reload");
      equal(b.errors.length, 0, b.errors.join("\n"));
    } finally {
      await host.kill();
      await Deno.remove(dataDir, { recursive: true });
    }
  },
});
