/**
 * A session deleted elsewhere (another tab, another device, the API) in real Chromium against a
 * real host (README.md "The page"): the page that shows it hears it on its session stream
 * (`event: session-deleted`) and shows the final "Session not found" state at once, with no
 * reconnect; a page that only watches it for alerts hears it on its alert stream
 * (`event: deleted`), drops it from the sessions it watches and reopens the stream without it.
 */
import { equal, ok } from "node:assert/strict";
import { HAS_CHROMIUM, launchBrowser, openNewSession, skipNote, waitLive } from "./_browser.ts";
import { freePort, startHost } from "./_host.ts";

skipNote("tests/e2e/deleted_elsewhere_test.ts");

Deno.test({
  name:
    "a session deleted elsewhere: its page shows not-found at once, other pages stop watching it",
  ignore: !HAS_CHROMIUM,
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    const dataDir = await Deno.makeTempDir({ prefix: "chime-e2e-deleted-" });
    await using host = await startHost({ dataDir, port: freePort() });
    await using b = await launchBrowser();
    // Page 1 opens the doomed session, then another one: it watches both for alerts.
    const one = await b.open("UTC");
    const doomed = await openNewSession(one.page, host.url);
    await one.page.getByTestId("new-session").click();
    await one.page.waitForFunction((id) => !location.hash.includes(id), doomed);
    await waitLive(one.page);
    const kept = decodeURIComponent((await one.page.evaluate(() => location.hash)).slice(4));
    const watched = () =>
      one.page.evaluate(() => JSON.parse(localStorage.getItem("chime.watched") ?? "[]"));
    ok((await watched()).includes(doomed));
    const alertStreams: string[] = [];
    one.page.on("request", (r) => {
      const url = new URL(r.url());
      if (url.pathname === "/api/alerts") alertStreams.push(url.searchParams.get("sessions")!);
    });
    // Page 2 (another browser) shows the doomed session.
    const two = await b.open("UTC");
    await two.page.goto(`${host.url}/#/s/${encodeURIComponent(doomed)}`);
    await waitLive(two.page);
    const asked: string[] = [];
    two.page.on("request", (r) => {
      const path = new URL(r.url()).pathname;
      if (path.startsWith(`/api/sessions/${doomed}`)) asked.push(path);
    });

    const res = await fetch(`${host.url}/api/sessions/${doomed}`, { method: "DELETE" });
    equal(res.status, 200, await res.text());

    // Page 2: the final state without a reload, and the stream is not reopened.
    await two.page.getByTestId("session-missing").waitFor();
    equal(await two.page.getByTestId("page-title").innerText(), "Session not found");
    equal(await two.page.getByTestId("composer-input").count(), 0);
    equal(await two.page.getByTestId("connection-status").count(), 0, "no Reconnecting…");
    ok(!asked.some((p) => p.endsWith("/stream")), asked.join("\n"));
    // Page 1: the doomed session leaves what it watches; the alert stream names only the other.
    await one.page.waitForFunction(
      (id) => !JSON.parse(localStorage.getItem("chime.watched") ?? "[]").includes(id),
      doomed,
    );
    await one.page.waitForFunction(
      (id) => !document.querySelector(`[data-testid=session-item][data-session-id="${id}"]`),
      doomed,
    );
    const deadline = Date.now() + 20_000;
    while (!alertStreams.includes(kept) && Date.now() < deadline) {
      await one.page.evaluate(() => new Promise((r) => setTimeout(r, 100)));
    }
    ok(alertStreams.includes(kept), `alert streams opened: ${alertStreams.join(" | ")}`);
    ok(!alertStreams.some((s) => s.split(",").includes(doomed)), "none names the deleted one");
    equal(b.errors.length, 0, b.errors.join("\n"));
  },
});
