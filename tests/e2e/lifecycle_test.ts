/**
 * Real browser, real host process (docs/design.md "4. Session and request time-zone
 * ownership"): two tabs in different zones share one session. A message from the New York tab
 * steers the Berlin tab's running turn (queued, then steering on the page); every `user-rpc`
 * keeps its own tab's `clientTimeZone`; an implicit local `at` is accepted for the Berlin tab and
 * needs confirmation when New York's zone is involved; retry and edit from the other tab keep the
 * original message's zone; the stop button cancels a running turn; persisted history after a
 * SIGKILL restart still shows every zone.
 *
 * The model is a real OpenAI-compatible endpoint answering with the offline model behind a gate
 * (`_gated_model.ts`), so a turn can be held in its model call while the other tab acts.
 */
import { deepEqual, equal, ok } from "node:assert/strict";
import type { Page } from "playwright-core";
import { answered, createResults, type Ev, history, idle, until } from "./_api.ts";
import {
  HAS_CHROMIUM,
  launchBrowser,
  say,
  sessionIdOf,
  shot,
  skipNote,
  waitLive,
} from "./_browser.ts";
import { GatedModelServer } from "./_gated_model.ts";
import { freePort, type HostProcess, startHost } from "./_host.ts";

skipNote("tests/e2e/lifecycle_test.ts");

const BERLIN = "Europe/Berlin";
const NEW_YORK = "America/New_York";

const userRpc = (events: readonly Ev[], text: string): Ev => {
  const found = events.find((e) => e.type === "user-rpc" && e.data.text === text);
  if (found === undefined) throw new Error(`no user-rpc "${text}"`);
  return found;
};
const message = (page: Page, messageId: string) =>
  page.locator(`.node:has([data-message-id="${messageId}"])`).first();

Deno.test({
  name: "two tabs in two zones: steering, retry, edit and cancel keep each message's own zone",
  ignore: !HAS_CHROMIUM,
  async fn() {
    const dataDir = await Deno.makeTempDir({ prefix: "chime-e2e-lifecycle-" });
    const port = freePort();
    await using model = new GatedModelServer({ timeZone: BERLIN });
    const env = {
      CHIME_MODEL_BASE_URL: model.baseURL,
      CHIME_MODEL: "offline-behind-http",
      CHIME_MODEL_API_KEY: "e2e-not-a-secret",
    };
    let host: HostProcess | undefined = await startHost({ dataDir, port, env });
    try {
      await using b = await launchBrowser();
      const berlin = (await b.open(BERLIN)).page;
      const ny = (await b.open(NEW_YORK)).page;
      await berlin.goto(host.url);
      await berlin.getByTestId("new-session").click();
      const id = await sessionIdOf(berlin);
      await waitLive(berlin);
      await ny.goto(`${host.url}/#/s/${encodeURIComponent(id)}`);
      await waitLive(ny);
      const base = host.url;

      // 1. Berlin's turn is held in its model call; New York's message queues, then steers.
      const berlinAsk = "remind me at 18:00 to water the plants";
      const nyAsk = "remind me at 19:00 to call mom";
      model.hold();
      await say(berlin, berlinAsk);
      await model.waiting();
      await berlin.getByTestId("stop-turn").waitFor();
      await ny.getByTestId("stop-turn").waitFor();
      await say(ny, nyAsk);
      await ny.getByTestId("message-queued").waitFor();
      await berlin.getByTestId("message-queued").waitFor();
      await shot(ny, "lifecycle-queued-ny");
      model.release();
      await ny.getByTestId("message-steering").waitFor();
      await berlin.getByTestId("message-steering").waitFor();
      equal(await ny.getByTestId("message-queued").count(), 0);
      let events = await answered(base, id, nyAsk);
      const b1 = userRpc(events, berlinAsk);
      const n1 = userRpc(events, nyAsk);
      equal(b1.data.source.clientTimeZone, BERLIN);
      equal(n1.data.source.clientTimeZone, NEW_YORK);
      const steered = events.find((e) =>
        e.type === "step/start" && e.data.messageIds.includes(n1.data.messageId)
      );
      ok(steered && steered.data.step > 0, "New York's message joined a later step");
      equal(
        events.filter((e) => e.type === "turn/start" && e.seq > b1.seq).length,
        1,
        "both messages ran in Berlin's single turn",
      );
      equal(createResults(events, "water the plants")[0]?.data.result.ok, true);
      equal(
        createResults(events, "call mom")[0]?.data.result.error?.code,
        "timezone_confirmation_required",
      );
      await shot(berlin, "lifecycle-steering-berlin");

      // 2. New York retries Berlin's message: a new turn judged in Berlin's zone (accepted).
      await message(ny, b1.data.messageId).getByTestId("retry-message").click();
      events = await until("the retried turn", async () => {
        const all = await idle(base, id);
        return createResults(all, "water the plants").length >= 2 ? all : undefined;
      });
      const retried = events.filter((e) =>
        e.type === "step/start" && e.data.messageIds.includes(b1.data.messageId)
      );
      equal(retried.length, 2, "the retry claimed the original message again");
      equal(retried[1]!.data.step, 0);
      equal(createResults(events, "water the plants")[1]?.data.result.ok, true);
      equal(
        events.filter((e) => e.type === "user-rpc").length,
        2,
        "a retry appends no new user-rpc",
      );

      // 3. Berlin edits New York's message: the edit keeps New York's zone.
      const nyNode = message(berlin, n1.data.messageId);
      await nyNode.getByTestId("edit-message").click();
      const editText = "remind me at 20:00 to call dad";
      await nyNode.getByTestId("edit-input").fill(editText);
      await nyNode.getByTestId("edit-save").click();
      events = await answered(base, id, editText);
      const edit = userRpc(events, editText);
      equal(edit.data.edits, n1.data.messageId);
      equal(edit.data.source.clientTimeZone, NEW_YORK);
      equal(
        createResults(events, "call dad")[0]?.data.result.error?.code,
        "timezone_confirmation_required",
      );
      await berlin.locator(`[data-message-id="${edit.data.messageId}"] .edited`).waitFor();

      // 4. The stop button cancels a turn held in its model call.
      const stopAsk = "remind me in 2 hours to stand up";
      model.hold();
      await say(berlin, stopAsk);
      await model.waiting();
      await ny.getByTestId("stop-turn").click();
      events = await answered(base, id, stopAsk);
      model.release();
      const stopped = events.findLast((e) => e.type === "turn/end")!;
      equal(stopped.data.outcome, "cancelled");
      equal(createResults(events, "stand up").length, 0, "no tool ran after the cancel");
      await berlin.getByText("Turn cancelled").waitFor();
      await berlin.getByTestId("stop-turn").waitFor({ state: "detached" });
      await shot(berlin, "lifecycle-cancelled-berlin");

      // 5. SIGKILL and restart on the same data: persisted zones are unchanged.
      const zonesBefore = events.filter((e) => e.type === "user-rpc").map((e) => [
        e.data.text,
        e.data.source.clientTimeZone,
      ]);
      deepEqual(zonesBefore, [
        [berlinAsk, BERLIN],
        [nyAsk, NEW_YORK],
        [editText, NEW_YORK],
        [stopAsk, BERLIN],
      ]);
      await host.kill("SIGKILL");
      host = await startHost({ dataDir, port, env });
      const after = await history(host.url, id);
      deepEqual(
        after.filter((e) => e.type === "user-rpc").map((e) => [
          e.data.text,
          e.data.source.clientTimeZone,
        ]),
        zonesBefore,
      );
      await ny.reload();
      await waitLive(ny);
      await ny.getByTestId("message-zone").nth(3).waitFor();
      deepEqual(
        await ny.getByTestId("message-zone").allTextContents(),
        zonesBefore.map(([, zone]) => ` · ${zone}`),
      );
      await shot(ny, "lifecycle-restarted-ny");
      // A long transcript scrolls inside its column; the page itself never scrolls.
      equal(
        await ny.evaluate(() => document.scrollingElement!.scrollHeight <= innerHeight),
        true,
      );
      equal(b.errors.length, 0, b.errors.join("\n"));
    } finally {
      await host?.kill();
      await Deno.remove(dataDir, { recursive: true });
    }
  },
});
