/**
 * The page's loose ends against the real host in real Chromium (README.md "The page"): an
 * unknown session URL is one final "not found" state with New session and no retry loop; a
 * session is renamed and deleted from the top bar (a deleted one's URL then shows the same
 * state); while the host is down the page says reminders cannot fire, and once it is back no
 * stale "Cannot reach the server" stays next to Live; a reminder delivered after its session
 * was closed says how late and why; a repeat's end keeps its clock time; Retry and Edit wait
 * for the turn to end; cancelling a reminder that already fired says it is gone and when.
 * Screenshots of the new states at 1280 and 390 px, light and dark, English and Chinese.
 */
import { equal, match, ok } from "node:assert/strict";
import { join } from "node:path";
import type { Page } from "playwright-core";
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
import { freePort, type HostProcess, ROOT, startHost } from "./_host.ts";
import { GatedModelServer } from "./_gated_model.ts";
import { waitText } from "./_page.ts";
import { eventLine, headerLine } from "../../session/jsonl/_jsonl_format.ts";
import type { SessionEvent } from "../../session/event.ts";
import type { SessionHeader } from "../../session/header.ts";

skipNote("tests/e2e/loose_ends_host_test.ts");

const BERLIN = "Europe/Berlin";
const e2e = (name: string, fn: () => Promise<void>) =>
  Deno.test({ name, ignore: !HAS_CHROMIUM, sanitizeOps: false, sanitizeResources: false, fn });

/** A config overlay with JSONL storage (its logs are plain files a restart lane can extend). */
async function jsonlConfig(dir: string): Promise<string> {
  const path = join(dir, "jsonl.jsonc");
  const base = join(ROOT, "examples", "web-schedule", "chime.jsonc");
  const storage = { kind: "jsonl", dir: join(dir, "sessions") };
  await Deno.writeTextFile(path, JSON.stringify({ extends: base, storage }));
  return path;
}

/** Screenshots of one state in the four looks (1280 / 390 px, light / dark). */
async function looks(
  open: (page: Page) => Promise<void>,
  name: string,
  b: Awaited<ReturnType<typeof launchBrowser>>,
  locale = "en-US",
): Promise<void> {
  for (const [width, height] of [[1280, 800], [390, 760]] as const) {
    for (const scheme of ["light", "dark"] as const) {
      const context = await b.browser.newContext({
        viewport: { width, height },
        colorScheme: scheme,
        locale,
        timezoneId: BERLIN,
      });
      context.setDefaultTimeout(20_000);
      const page = await context.newPage();
      await page.addInitScript((l) => localStorage.setItem("chime.lang", l), locale.slice(0, 2));
      await open(page);
      await shot(page, `${name}-${width}-${scheme}-${locale.slice(0, 2)}`);
      await context.close();
    }
  }
}

e2e(
  "an unknown session URL is one final state with New session; no stream, no retries",
  async () => {
    const dataDir = await Deno.makeTempDir({ prefix: "chime-e2e-loose-" });
    await using host = await startHost({ dataDir, port: freePort() });
    await using b = await launchBrowser();
    const { page } = await b.open(BERLIN);
    const asked: string[] = [];
    page.on("request", (r) => {
      const path = new URL(r.url()).pathname;
      if (path.includes("/api/sessions/ghost")) asked.push(path);
    });
    await page.goto(`${host.url}/#/s/ghost`);
    const state = page.getByTestId("session-missing");
    await state.waitFor();
    equal(await page.getByTestId("page-title").innerText(), "Session not found");
    equal(await page.getByTestId("composer-input").count(), 0, "no composer");
    equal(await page.getByTestId("fork-session").count(), 0, "no Fork");
    equal(await page.getByTestId("connection-status").count(), 0, "no Reconnecting…");
    equal(await page.getByTestId("error-banner").count(), 0, "the error is said once");
    equal(await page.getByTestId("window-error").count(), 0);
    // Still one request later: nothing retries (the old page retried about every 10 s).
    const settled = asked.length;
    await page.evaluate(() => new Promise((r) => setTimeout(r, 1500)));
    equal(asked.length, settled, asked.join("\n"));
    ok(!asked.some((p) => p.endsWith("/stream")), "no stream was opened");
    await page.getByTestId("missing-new-session").click();
    await page.waitForFunction(() =>
      /^#\/s\//.test(location.hash) && !location.hash.includes("ghost")
    );
    const id = await sessionIdOf(page);
    ok(id !== "ghost");
    await waitLive(page);
    equal(await page.getByTestId("session-missing").count(), 0);
    await looks(
      async (p) => {
        await p.goto(`${host.url}/#/s/ghost`);
        await p.getByTestId("session-missing").waitFor();
      },
      "loose-missing",
      b,
    );
    await looks(
      async (p) => {
        await p.goto(`${host.url}/#/s/ghost`);
        await p.getByTestId("session-missing").waitFor();
      },
      "loose-missing",
      b,
      "zh-CN",
    );
    equal(b.errors.length, 0, b.errors.join("\n"));
  },
);

e2e(
  "rename and delete from the top bar; a deleted session's URL shows the not-found state",
  async () => {
    const dataDir = await Deno.makeTempDir({ prefix: "chime-e2e-loose-" });
    await using host = await startHost({ dataDir, port: freePort() });
    await using b = await launchBrowser();
    const { page } = await b.open(BERLIN);
    const id = await openNewSession(page, host.url);
    await say(page, "remind me in 20 minutes to stretch");
    await page.getByTestId("active-reminder").waitFor();
    // Rename: the title becomes a labelled text box; Enter saves; the list follows.
    await page.getByTestId("rename-session").click();
    const input = page.getByTestId("rename-input");
    await page.waitForFunction(() =>
      document.activeElement?.getAttribute("data-testid") === "rename-input"
    );
    await input.fill("Morning routine");
    await input.press("Enter");
    await waitText(page.getByTestId("page-title"), /^Morning routine$/);
    const row = page.locator(`[data-testid=session-item][data-session-id="${id}"]`);
    await waitText(row.getByTestId("session-title"), /Morning routine/);
    await page.waitForFunction(() =>
      document.activeElement?.getAttribute("data-testid") === "rename-session"
    );
    await page.reload();
    await waitText(page.getByTestId("page-title"), /^Morning routine$/);
    // Escape leaves the rename form without a change.
    await page.getByTestId("rename-session").click();
    await page.getByTestId("rename-input").fill("nope");
    await page.keyboard.press("Escape");
    await waitText(page.getByTestId("page-title"), /^Morning routine$/);
    // Delete asks once, saying what ends; Cancel keeps it.
    await page.getByTestId("delete-session").click();
    const dialog = page.getByTestId("delete-confirm");
    await dialog.waitFor();
    match(await dialog.innerText(), /Delete “Morning routine”\?/);
    match(await dialog.innerText(), /Its reminders stop/);
    await shot(page, "loose-delete-confirm-1280-light-en");
    await page.getByTestId("delete-cancel").click();
    await dialog.waitFor({ state: "detached" });
    for (const locale of ["en-US", "zh-CN"]) {
      await looks(
        async (p) => {
          await p.goto(`${host.url}/#/s/${encodeURIComponent(id)}`);
          await waitLive(p);
          await p.getByTestId("delete-session").click();
          await p.getByTestId("delete-confirm").waitFor();
        },
        "loose-delete-confirm",
        b,
        locale,
      );
      await looks(
        async (p) => {
          await p.goto(`${host.url}/#/s/${encodeURIComponent(id)}`);
          await waitLive(p);
          await p.getByTestId("rename-session").click();
          await p.getByTestId("rename-input").waitFor();
        },
        "loose-rename",
        b,
        locale,
      );
    }
    await page.getByTestId("delete-session").click();
    await page.getByTestId("delete-confirm-button").click();
    await page.waitForURL((u) => !u.hash.includes(id));
    await row.waitFor({ state: "detached" });
    const gone = await fetch(`${host.url}/api/sessions/${id}/reminders`);
    equal(gone.status, 404);
    await gone.body?.cancel();
    await page.goto(`${host.url}/#/s/${encodeURIComponent(id)}`);
    await page.getByTestId("session-missing").waitFor();
    equal(b.errors.length, 0, b.errors.join("\n"));
  },
);

e2e(
  "host down: reminders cannot fire until it is back; once back, no stale error next to Live",
  async () => {
    const dataDir = await Deno.makeTempDir({ prefix: "chime-e2e-loose-" });
    const port = freePort();
    let host: HostProcess = await startHost({ dataDir, port });
    try {
      await using b = await launchBrowser();
      const { page } = await b.open(BERLIN);
      await openNewSession(page, host.url);
      await say(page, "remind me in 20 minutes to stretch");
      await page.getByTestId("active-reminder").waitFor();
      await host.kill();
      const down = page.getByTestId("host-down");
      await down.waitFor();
      equal(
        await down.innerText(),
        "Cannot reach the server. Reminders cannot fire until it is back.",
      );
      // A request made while it is away fails with "Cannot reach the server" (said once, by the
      // host-down line).
      await page.getByTestId("composer-input").fill("hello?");
      await page.getByTestId("composer-send").click();
      await page.waitForFunction(() =>
        (document.querySelector("[data-testid=composer-input]") as HTMLTextAreaElement).value ===
          "hello?" && !(document.querySelector("[data-testid=composer-send]") as HTMLButtonElement)
          .disabled
      );
      equal(await page.getByTestId("error-banner").count(), 0, "not said twice");
      await shot(page, "loose-host-down-1280-light-en");
      await page.getByRole("button", { name: "中文" }).click();
      await waitText(down, /^无法连接服务器。服务器恢复之前，提醒无法触发。$/);
      await shot(page, "loose-host-down-1280-light-zh");
      await page.getByRole("button", { name: "EN" }).click();
      host = await startHost({ dataDir, port });
      await waitLive(page);
      await down.waitFor({ state: "detached" });
      equal(await page.getByTestId("error-banner").count(), 0, "no stale banner next to Live");
      equal(b.errors.length, 0, b.errors.join("\n"));
    } finally {
      await host.kill();
    }
  },
);

e2e("a reminder delivered after its session was closed says how late, and why", async () => {
  const dir = await Deno.makeTempDir({ prefix: "chime-e2e-loose-" });
  const port = freePort();
  const config = await jsonlConfig(dir);
  let host: HostProcess = await startHost({ dataDir: dir, port, config });
  try {
    await using b = await launchBrowser();
    const { page } = await b.open(BERLIN);
    const id = await openNewSession(page, host.url);
    await say(page, "hello");
    await page.getByTestId("message-assistant").waitFor();
    await host.kill();
    // While the host is down, the session's log is made ten minutes older, and a reminder
    // that was set to fire 3 minutes ago (as if "in 1 minute" had been said just before the
    // session closed) is added to it.
    const file = join(dir, "sessions", `${id}.jsonl`);
    const now = Date.now();
    const older = (await Deno.readTextFile(file)).trimEnd().split("\n").map((line, index) => {
      const { crc: _, ...row } = JSON.parse(line) as {
        at?: string;
        createdAt?: string;
        crc?: number;
      };
      for (const key of ["at", "createdAt"] as const) {
        if (typeof row[key] === "string") {
          row[key] = new Date(Date.parse(row[key]) - 10 * 60_000).toISOString();
        }
      }
      // Every line carries its checksum (JSONL format 3: the header line too): a deliberate edit
      // writes a new one.
      return (index === 0
        ? headerLine(row as unknown as SessionHeader)
        : eventLine(id, row as unknown as SessionEvent)).trimEnd();
    });
    await Deno.writeTextFile(file, `${older.join("\n")}\n`);
    const last = JSON.parse(older.at(-1)!) as { seq: number };
    const record = {
      id: "sch_LateLate1234",
      kind: "at",
      prompt: "feed the cat",
      scheduledAt: new Date(now - 3 * 60_000).toISOString(),
    };
    const create = {
      seq: last.seq + 1,
      type: "schedule/change",
      at: new Date(now - 4 * 60_000).toISOString(),
      data: { version: 1, op: "create", record },
    };
    await Deno.writeTextFile(file, eventLine(id, create), { append: true });
    host = await startHost({ dataDir: dir, port, config });
    await waitLive(page);
    const late = page.getByTestId("reminder-late");
    await late.waitFor();
    // Why, from the log: nothing was recorded from the create (its last event before the due
    // time) until the session was opened again.
    equal(await late.getAttribute("data-cause"), "closed");
    const from = new Intl.DateTimeFormat("en-GB", {
      timeZone: BERLIN,
      hour: "2-digit",
      minute: "2-digit",
      hourCycle: "h23",
    }).format(new Date(create.at));
    match(
      await late.innerText(),
      new RegExp(
        `^Delivered 3 minutes late: the session was closed from ${from} to \\d\\d:\\d\\d$`,
      ),
    );
    await shot(page, "loose-late-1280-light-en");
    await page.getByRole("button", { name: "中文" }).click();
    await waitText(
      late,
      new RegExp(`^晚了 3 分钟送达：会话在 ${from} 到 \\d\\d:\\d\\d 之间处于关闭状态$`),
    );
    await shot(page, "loose-late-1280-light-zh");
    await page.getByRole("button", { name: "EN" }).click();
    // Cancelling it now: the agent says it is gone and when, instead of asking for an id.
    await say(page, "cancel the feed the cat reminder");
    await waitText(
      page.getByTestId("message-assistant").last().locator(".bubble"),
      /^The “feed the cat” reminder is already gone: it fired at \d\d:\d\d(:\d\d)? \(Europe\/Berlin\), so there is nothing to cancel\.$/,
    );
    await looks(
      async (p) => {
        await p.goto(`${host.url}/#/s/${encodeURIComponent(id)}`);
        await p.getByTestId("reminder-late").waitFor();
        await p.getByTestId("reminder-card").scrollIntoViewIfNeeded();
      },
      "loose-late",
      b,
    );
    equal(b.errors.length, 0, b.errors.join("\n"));
  } finally {
    await host.kill();
  }
});

e2e(
  "a repeat's end keeps its clock time in the panel; Retry and Edit wait for the turn to end",
  async () => {
    const dataDir = await Deno.makeTempDir({ prefix: "chime-e2e-loose-" });
    await using model = new GatedModelServer({ timeZone: BERLIN });
    const env = {
      CHIME_MODEL_BASE_URL: model.baseURL,
      CHIME_MODEL: "offline-behind-http",
      CHIME_MODEL_API_KEY: "e2e-not-a-secret",
    };
    await using host = await startHost({ dataDir, port: freePort(), env });
    await using b = await launchBrowser();
    const { page } = await b.open(BERLIN);
    await openNewSession(page, host.url);
    await say(page, "remind me every day at 9am to stretch until Dec 20 at 6pm");
    const row = page.locator("[data-testid=active-reminder][data-kind=recurring]");
    await row.waitFor();
    await waitText(row.getByTestId("reminder-repeat"), /until 20\d\d-12-20 18:00/);
    // A held turn: its message offers neither Retry nor Edit until the turn ends.
    model.hold();
    await say(page, "remind me in 2 hours to call mom");
    await model.waiting();
    await page.getByTestId("stop-turn").waitFor();
    const held = page.getByTestId("message-user").last().locator("..");
    equal(await held.getByTestId("retry-message").count(), 0, "no Retry while it runs");
    equal(await held.getByTestId("edit-message").count(), 0, "no Edit while it runs");
    await shot(page, "loose-running-1280-light-en");
    model.release();
    await page.getByTestId("stop-turn").waitFor({ state: "detached" });
    await held.getByTestId("retry-message").waitFor();
    await held.getByTestId("edit-message").waitFor();
    equal(b.errors.length, 0, b.errors.join("\n"));
  },
);
