/**
 * The Upcoming view over a damaged store (README.md "How it behaves on failure";
 * docs/upcoming.md), real Chromium against the real host: after one session's reminder row is
 * damaged on disk, the view still lists the other session's reminders and names the damaged
 * session in a status line (English and Chinese, 1280 and 390 px, light and dark), with no
 * serious accessibility violation.
 *
 * @module
 */
import { deepEqual, equal, ok } from "node:assert/strict";
import { join } from "node:path";
import { createClient } from "@libsql/client";
import { history, until } from "./_api.ts";
import { HAS_CHROMIUM, launchBrowser, shot, skipNote } from "./_browser.ts";
import { axeSerious, overflow, waitText } from "./_page.ts";
import { freePort, type HostProcess, startHost } from "./_host.ts";

skipNote("tests/e2e/upcoming_damage_test.ts");

async function post(base: string, path: string, body: unknown): Promise<Response> {
  return await fetch(`${base}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
}

/** A session in `timeZone` whose offline model set one reminder for `text`. */
async function sessionWith(base: string, timeZone: string, text: string): Promise<string> {
  const created = await post(base, "/api/sessions", { timeZone });
  const id = (await created.json()).header.id as string;
  const sent = await post(base, `/api/sessions/${id}/messages`, { text, clientTimeZone: timeZone });
  ok(sent.ok, await sent.text());
  await until(`the reminder for ${text}`, async () => {
    const events = await history(base, id);
    return events.some((e) => e.type === "schedule/change") &&
      events.some((e) => e.type === "turn/end");
  });
  return id;
}

/** The one database file under `dir`. */
async function databaseIn(dir: string): Promise<string> {
  for await (const entry of Deno.readDir(dir)) {
    if (entry.isFile && entry.name.endsWith(".db")) return join(dir, entry.name);
    if (entry.isDirectory) {
      const found = await databaseIn(join(dir, entry.name)).catch(() => undefined);
      if (found !== undefined) return found;
    }
  }
  throw new Error(`no database under ${dir}`);
}

Deno.test({
  name: "the Upcoming view lists the sound sessions and names the one whose log is damaged",
  ignore: !HAS_CHROMIUM,
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    const dataDir = await Deno.makeTempDir({ prefix: "chime-e2e-upcoming-damage-" });
    const port = freePort();
    let host: HostProcess = await startHost({ dataDir, port });
    try {
      const good = await sessionWith(host.url, "Europe/Paris", "remind me in 3 hours to call mom");
      const bad = await sessionWith(
        host.url,
        "Asia/Shanghai",
        "remind me in 40 minutes to drink water",
      );
      await host.kill();
      // The reminder row's bytes change under its checksum; the start-up cache is removed, so
      // the next start reads every log (a cached part is used while its length is unchanged).
      const path = await databaseIn(dataDir);
      const client = createClient({ url: `file:${path}` });
      await client.execute({
        sql: "UPDATE events SET data = replace(data, 'drink', 'drank') WHERE session_id = ? " +
          "AND type = 'schedule/change'",
        args: [bad],
      });
      client.close();
      await Deno.remove(join(dataDir, "schedule"), { recursive: true }).catch(() => {});
      host = await startHost({ dataDir, port });
      const answer = await (await fetch(`${host.url}/api/reminders`)).json();
      deepEqual(answer.damaged.map((d: { sessionId: string }) => d.sessionId), [bad]);
      deepEqual(answer.reminders.map((r: { sessionId: string }) => r.sessionId), [good]);

      await using browser = await launchBrowser();
      for (
        const [locale, words] of [
          ["en-US", /These sessions could not be read/],
          ["zh-CN", /以下会话无法读取/],
        ] as const
      ) {
        const { page } = await browser.open("Europe/Paris", locale);
        const lang = locale.slice(0, 2);
        for (const width of [1280, 390]) {
          // Each width loaded afresh, so no drawer is still moving when the shot is taken.
          await page.setViewportSize({ width, height: width === 390 ? 844 : 800 });
          await page.goto(`${host.url}/#/v/upcoming`);
          await page.locator("[data-testid=upcoming-view][data-status=ready]").waitFor();
          const line = page.getByTestId("upcoming-damaged");
          await waitText(line, words);
          ok((await line.innerText()).includes(bad), "the damaged session is named");
          const rows = await page.getByTestId("upcoming-row").evaluateAll((rs) =>
            rs.map((r) => r.getAttribute("data-session-id"))
          );
          deepEqual(rows, [good]);
          const { doc, wide } = await overflow(page);
          ok(!doc && wide.length === 0, wide.join("\n"));
          for (const colorScheme of ["light", "dark"] as const) {
            await page.emulateMedia({ colorScheme });
            equal((await axeSerious(page)).length, 0, `${lang} ${width} ${colorScheme}`);
            await shot(page, `upcoming-damaged-${lang}-${width}-${colorScheme}`);
          }
        }
        await page.close();
      }
    } finally {
      await host.kill();
      await Deno.remove(dataDir, { recursive: true });
    }
  },
});
