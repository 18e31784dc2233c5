/**
 * Real Chromium against a real host (examples/web-schedule, with the push plugin): a reminder
 * that fires in a session not shown alerts through the page alert stream with the tab hidden and
 * with the window unfocused (notification tagged per occurrence, title count, the row's mark and
 * its pending count; clicking opens that session at the card); the push service worker receives
 * a push (CDP `ServiceWorker.deliverPushMessage`), shows the notification, and its actions snooze
 * and stop the series through the log. Screenshots of the new states at 1280 and 390 px, light
 * and dark, English and Chinese (README "The page", docs/push.md).
 */
import { equal, match, ok } from "node:assert/strict";
import type { Page } from "playwright-core";
import { reminderMessage } from "@chime/push";
import { createResults, type Ev, history, until } from "./_api.ts";
import {
  HAS_CHROMIUM,
  launchBrowser,
  say,
  sessionIdOf,
  shot,
  skipNote,
  waitLive,
} from "./_browser.ts";
import { freePort, startHost } from "./_host.ts";
import { setHidden } from "./_page.ts";

skipNote("tests/e2e/alerts_push_test.ts");

/** Records every page Notification (title, body, tag) and lets the test emulate focus. */
function recordNotes() {
  const w = globalThis as unknown as Record<string, unknown>;
  const Real = w.Notification as typeof Notification;
  const notes: { title: string; body: string; tag: string; n: Notification }[] = [];
  class Recorded extends Real {
    constructor(title: string, init?: NotificationOptions) {
      super(title, init);
      notes.push({ title, body: init?.body ?? "", tag: init?.tag ?? "", n: this });
    }
    static override get permission() {
      return Real.permission;
    }
  }
  w.Notification = Recorded;
  w.__notes = notes;
  let focused = true;
  Document.prototype.hasFocus = () => focused;
  w.__focus = (on: boolean) => {
    focused = on;
    globalThis.dispatchEvent(new Event(on ? "focus" : "blur"));
  };
}

/**
 * Records the tags of every `acknowledged` message the page's alert stream receives (`__acks`),
 * in the same dispatch as the page's own handler.
 */
function recordAcks() {
  const w = globalThis as unknown as Record<string, unknown>;
  const acks: string[] = [];
  /** Every alert stream the page opened, with the tags it was told were acknowledged. */
  const streams: { source: EventSource; acks: string[] }[] = [];
  class Recorded extends EventSource {
    constructor(url: string | URL, init?: EventSourceInit) {
      super(url, init);
      const seen: string[] = [];
      streams.push({ source: this, acks: seen });
      this.addEventListener("acknowledged", (e) => {
        const tag = (JSON.parse((e as MessageEvent<string>).data) as { tag: string }).tag;
        acks.push(tag);
        seen.push(tag);
      });
    }
  }
  w.EventSource = Recorded;
  w.__acks = acks;
  const alertStreams = () =>
    streams.filter(({ source }) =>
      source.readyState !== EventSource.CLOSED && source.url.includes("/api/alerts")
    );
  const count = (list: string[], tag: string) => list.filter((t) => t === tag).length;
  /** Per open alert stream, how many acknowledgements of a tag it had when marked. */
  let marked: { stream: (typeof streams)[number]; n: number }[] = [];
  // A tag can be acknowledged more than once (the page acknowledges a card it shows as it
  // arrives, the worker again after a click): count from a mark, not "was it ever".
  w.__markAcks = (tag: string) => {
    marked = alertStreams().map((stream) => ({ stream, n: count(stream.acks, tag) }));
  };
  // Every alert stream open at the mark (and still open) has delivered one more acknowledgement
  // of `tag`: none is left to close the tag's notifications late (a stream opened since carries
  // none of the earlier ones).
  w.__ackedSinceMark = (tag: string) =>
    marked.length > 0 &&
    marked.every(({ stream, n }) =>
      stream.source.readyState === EventSource.CLOSED || count(stream.acks, tag) > n
    );
}

type Note = { title: string; body: string; tag: string };
const notes = (page: Page) =>
  page.evaluate(() =>
    (globalThis as unknown as { __notes: Note[] }).__notes.map(({ title, body, tag }) => ({
      title,
      body,
      tag,
    }))
  );

async function post(base: string, path: string, body: unknown): Promise<Response> {
  const res = await fetch(`${base}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: base },
    body: JSON.stringify(body),
  });
  await res.body?.cancel();
  return res;
}

const dispatches = (events: readonly Ev[]) =>
  events.filter((e) => e.type === "schedule/change" && e.data.op === "dispatch");

Deno.test({
  name:
    "a reminder in the session not shown alerts: hidden tab, unfocused window, row mark, click opens it",
  ignore: !HAS_CHROMIUM,
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    const dataDir = await Deno.makeTempDir({ prefix: "chime-e2e-alerts-" });
    await using host = await startHost({ dataDir, port: freePort() });
    await using b = await launchBrowser();
    const { context, page } = await b.open("UTC");
    await context.addInitScript(recordNotes);
    await context.grantPermissions(["notifications"], { origin: host.url });
    await page.goto(host.url);
    await page.getByTestId("new-session").click();
    const a = await sessionIdOf(page);
    await waitLive(page);
    // Granted before load (the control's click is covered by tests/e2e/page_test.ts).
    await page.getByTestId("notify-on").waitFor();
    await say(page, "remind me in 6 seconds to feed the cat");
    await page.getByTestId("active-reminder").waitFor();
    // Session B is shown; A's row counts its pending reminder.
    await page.getByTestId("new-session").click();
    await page.waitForURL((url) => !url.hash.includes(a));
    await waitLive(page);
    const rowA = page.locator(`[data-testid=session-item][data-session-id="${a}"]`);
    await rowA.getByTestId("session-counts").waitFor();
    match(await rowA.getByTestId("session-counts").textContent() ?? "", /1 pending/);

    // 1. The tab is hidden: A's card notifies, counts in the title and marks A's row.
    await page.evaluate(setHidden, true);
    await page.waitForFunction(() => document.title === "(1) chime", null, { timeout: 30_000 });
    let got = await notes(page);
    equal(got.length, 1);
    equal(got[0]!.body, "feed the cat");
    match(got[0]!.title, /^Reminder — remind me in 6 seconds to feed the cat/);
    const events = await history(host.url, a);
    const [created] = createResults(events, "feed the cat");
    const cat = created!.data.result as { id: string; scheduledAt: string };
    equal(got[0]!.tag, `chime:${a}:${cat.id}@${cat.scheduledAt}`, "one tag per occurrence");
    await rowA.getByTestId("session-unread").waitFor();
    match(await rowA.getByTestId("session-unread").textContent() ?? "", /1/);
    await page.evaluate(setHidden, false);

    // 2. Visible but unfocused (behind another window): still away. A keeps one reminder for
    // later, which its row counts once the next alert refreshes the list.
    await post(host.url, `/api/sessions/${a}/messages`, {
      text: "remind me in 20 minutes to stretch",
      clientTimeZone: "UTC",
    });
    await until(
      "the stretch reminder",
      async () => createResults(await history(host.url, a), "stretch")[0]?.data.result.ok === true,
    );
    await post(host.url, `/api/sessions/${a}/messages`, {
      text: "remind me in 5 seconds to water the plants",
      clientTimeZone: "UTC",
    });
    await until(
      "the plants reminder",
      async () =>
        createResults(await history(host.url, a), "water the plants")[0]?.data.result.ok === true,
    );
    await page.evaluate(() =>
      (globalThis as unknown as { __focus(on: boolean): void }).__focus(false)
    );
    await page.waitForFunction(() => document.title === "(2) chime", null, { timeout: 30_000 });
    got = await notes(page);
    equal(got.at(-1)!.body, "water the plants");
    match(await rowA.getByTestId("session-unread").textContent() ?? "", /2/);
    await page.waitForFunction(
      (id) =>
        document.querySelector(`[data-session-id="${id}"] [data-testid=session-counts]`)
          ?.textContent === "1 pending",
      a,
    );
    // The new states (row mark, pending count, push switch) in both languages and themes.
    for (const l of ["en", "zh"] as const) {
      await page.locator(`.lang button[lang=${l === "zh" ? "zh-CN" : "en"}]`).first().click();
      for (const width of [1280, 390]) {
        for (const scheme of ["light", "dark"] as const) {
          await page.setViewportSize({ width, height: 860 });
          await page.emulateMedia({ colorScheme: scheme });
          if (width < 600) {
            await page.getByTestId("open-drawer").click();
            await page.locator(".sidebar.open").waitFor();
            // The drawer has slid in (no transition running, its left edge on screen).
            await page.waitForFunction(() => {
              const bar = document.querySelector(".sidebar")!;
              return bar.getAnimations().length === 0 && bar.getBoundingClientRect().left >= 0;
            });
          }
          await rowA.getByTestId("session-unread").waitFor();
          await shot(page, `alerts-row-mark-${width}-${scheme}-${l}`);
          if (width < 600) await page.getByTestId("close-drawer").click();
        }
      }
    }
    await page.locator(".lang button[lang=en]").first().click();
    await page.setViewportSize({ width: 1280, height: 860 });
    await page.emulateMedia({ colorScheme: "light" });

    // 3. Focus back, click the first notification: A opens at its card, marks and count clear.
    await page.evaluate(() =>
      (globalThis as unknown as { __focus(on: boolean): void }).__focus(true)
    );
    equal(await page.title(), "(2) chime", "focus on another session clears nothing of A");
    await page.evaluate(() => {
      const n = (globalThis as unknown as { __notes: { n: Notification }[] }).__notes[0]!.n;
      n.onclick?.(new Event("click"));
    });
    await page.waitForURL((url) => url.hash.includes(a));
    const seq = dispatches(await history(host.url, a))[0]!.seq;
    await page.waitForFunction(
      (s) => document.activeElement?.closest(".node")?.getAttribute("data-seq") === String(s),
      seq,
    );
    await page.waitForFunction(() => document.title === "chime");
    equal(await rowA.getByTestId("session-unread").count(), 0);
    ok(b.errors.length === 0, b.errors.join("\n"));
  },
});

Deno.test({
  name:
    "the service worker shows a pushed card, and its actions snooze and stop the series through the log",
  ignore: !HAS_CHROMIUM,
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    const dataDir = await Deno.makeTempDir({ prefix: "chime-e2e-push-" });
    await using host = await startHost({ dataDir, port: freePort() });
    await using b = await launchBrowser();
    const { context, page } = await b.open("UTC");
    await context.grantPermissions(["notifications"], { origin: host.url });
    await context.addInitScript(recordAcks);
    await page.goto(host.url);
    await page.getByTestId("new-session").click();
    const id = await sessionIdOf(page);
    await waitLive(page);
    await say(page, "remind me every minute to blink");
    const series = await until("the series", async () => {
      const r = createResults(await history(host.url, id), "blink")[0];
      return r?.data.result.ok === true ? r.data.result as { id: string } : undefined;
    });
    // Its first occurrence is delivered (within a minute): the card the push is about.
    const seq = await until(
      "the first delivery",
      async () => dispatches(await history(host.url, id))[0]?.seq,
      180_000, // a minute at most, and generous for a loaded machine (a deadline, not a wait)
    );
    const page1 = await (await fetch(`${host.url}/api/sessions/${id}/history?limit=500`)).json();
    const presentation = page1.views[seq].presentation;
    // Granted before load (the control's click is covered by tests/e2e/page_test.ts).
    await page.getByTestId("notify-on").waitFor();
    // The push module's worker is registered for the whole origin.
    const scope = await page.evaluate(async () => (await navigator.serviceWorker.ready).scope);
    equal(scope, `${host.url}/`);
    const cdp = await context.newCDPSession(page);
    const registration = new Promise<string>((resolve) => {
      cdp.on(
        "ServiceWorker.workerRegistrationUpdated",
        (e: { registrations: { registrationId: string; scopeURL: string }[] }) => {
          const r = e.registrations.find((x) => x.scopeURL === `${host.url}/`);
          if (r) resolve(r.registrationId);
        },
      );
    });
    await cdp.send("ServiceWorker.enable");
    const registrationId = await registration;
    // Another session is shown, so the worker does not hold the notification back.
    await page.getByTestId("new-session").click();
    await page.waitForURL((url) => !url.hash.includes(id));
    // Exactly what the host pushes for that card (push/payload.ts; its encryption is checked
    // by tests/host/push_test.ts): this browser has no push service to subscribe to.
    const message = reminderMessage(id, "Blink", seq, presentation, "en");
    await cdp.send("ServiceWorker.deliverPushMessage", {
      origin: host.url,
      registrationId,
      data: JSON.stringify(message),
    });
    const shown = await until("the pushed notification", () =>
      page.evaluate(async (tag) => {
        const list = await (await navigator.serviceWorker.ready).getNotifications({ tag });
        return list.length === 0 ? undefined : list.map((n) => ({
          title: n.title,
          body: n.body,
          tag: n.tag,
          actions: (n as unknown as { actions: { action: string; title: string }[] }).actions,
        }));
      }, message.tag));
    equal(shown.length, 1);
    equal(shown[0]!.title, "Reminder — Blink");
    equal(shown[0]!.body, "blink");
    equal(shown[0]!.actions.map((a) => a.action).join(), "snooze,stop");
    // The worker's own click handler, with the Snooze button, then with Stop repeating.
    const worker = context.serviceWorkers().find((w) => w.url().endsWith(".sw.js"))!;
    ok(worker, "the worker runs");
    const click = (action: string) =>
      worker.evaluate(async ([tag, act]) => {
        const g = globalThis as unknown as {
          registration: ServiceWorkerRegistration;
          act(n: Notification, action: string): Promise<void>;
        };
        const [n] = await g.registration.getNotifications({ tag });
        await g.act(n!, act);
      }, [message.tag, action] as const);
    await page.evaluate(
      (tag) => (globalThis as unknown as { __markAcks(t: string): void }).__markAcks(tag),
      message.tag,
    );
    await click("snooze");
    const snoozed = await until(
      "the snooze record",
      async () =>
        (await history(host.url, id)).find((e) =>
          e.type === "schedule/change" && e.data.op === "create" &&
          (e.data.record as { snoozeOf?: { id: string } }).snoozeOf?.id === series.id
        ),
    );
    ok(snoozed, "Snooze 10 min recorded a snooze of the series in the log");
    equal(
      await page.evaluate(
        async (tag) =>
          (await (await navigator.serviceWorker.ready).getNotifications({ tag })).length,
        message.tag,
      ),
      0,
      "the notification closed",
    );
    // The worker's acknowledgement reaches the page's alert stream, and the page then closes the
    // tag's notifications (ui/client/browser_env.ts): a second push shown before that would be
    // closed under the test. Wait for the page to have handled it, then for one more round trip
    // to the worker's notifications behind the page's own.
    await until("the page's acknowledgement", () =>
      page.evaluate(
        (tag) =>
          (globalThis as unknown as { __ackedSinceMark(t: string): boolean })
            .__ackedSinceMark(tag) || undefined,
        message.tag,
      ));
    await page.evaluate(async (tag) => {
      await (await navigator.serviceWorker.ready).getNotifications({ tag });
    }, message.tag);
    await cdp.send("ServiceWorker.deliverPushMessage", {
      origin: host.url,
      registrationId,
      data: JSON.stringify(message),
    });
    await until(
      "the second notification",
      () =>
        page.evaluate(
          async (tag) =>
            (await (await navigator.serviceWorker.ready).getNotifications({ tag })).length > 0 ||
            undefined,
          message.tag,
        ),
    );
    await click("stop");
    await until(
      "the stop",
      async () =>
        (await history(host.url, id)).some((e) =>
          e.type === "schedule/change" && e.data.op === "stop" && e.data.id === series.id
        ),
    );
    ok(b.errors.length === 0, b.errors.join("\n"));
  },
});
