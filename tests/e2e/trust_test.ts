/**
 * Stop, Edit and cancel that mean what they say (README "What it does") in real Chromium against
 * a real host process, each lane asserted through the page and the durable API
 * (`GET /api/sessions/:id/reminders`, `GET /history`):
 *
 * 1. Cancel twice, English and Chinese: two reminders, two cancels by words ⇒ none active; each
 *    cancel deleted its own reminder in its own turn (keyless offline model in the host).
 * 2. Stop stops: a message queued behind a turn held in its model call (`_gated_model.ts`) is
 *    stopped with it; no later turn carries either out; Retry runs only the retried one.
 * 3. Edit replaces: "remind me at 3pm to call Bob" edited to 4pm ⇒ one reminder at 4pm (the
 *    same id, `schedule_update`); Escape closes the edit form without saving.
 *
 * Every wait is on state (page selectors, `history` / `reminders` polls), never on time.
 */
import { deepEqual, equal, match, ok } from "node:assert/strict";
import type { Page } from "playwright-core";
import { answered, type Ev, history, idle, until } from "./_api.ts";
import {
  type E2EBrowser,
  HAS_CHROMIUM,
  launchBrowser,
  say,
  sessionIdOf,
  shot,
  skipNote,
  waitLive,
} from "./_browser.ts";
import { GatedModelServer } from "./_gated_model.ts";
import { reloadListed } from "./_page.ts";
import { freePort, type HostProcess, startHost } from "./_host.ts";

skipNote("tests/e2e/trust_test.ts");

/** One row of `GET /api/sessions/:id/reminders`. */
interface Reminder {
  readonly id: string;
  readonly kind: string;
  readonly prompt: string;
  readonly scheduledAt: string;
}

async function reminders(base: string, id: string): Promise<Reminder[]> {
  const res = await fetch(`${base}/api/sessions/${encodeURIComponent(id)}/reminders`);
  if (!res.ok) throw new Error(`reminders ${res.status}: ${await res.text()}`);
  return (await res.json() as { reminders: Reminder[] }).reminders;
}

/** Polls the reminders route until `accept` holds for the list. */
function remindersUntil(
  base: string,
  id: string,
  what: string,
  accept: (list: readonly Reminder[]) => boolean,
): Promise<Reminder[]> {
  return until(what, async () => {
    const list = await reminders(base, id);
    return accept(list) ? list : undefined;
  });
}

const userRpc = (events: readonly Ev[], text: string): Ev => {
  const found = events.findLast((e) => e.type === "user-rpc" && e.data.text === text);
  if (found === undefined) throw new Error(`no user-rpc "${text}"`);
  return found;
};

/** The turns whose steps claimed `messageId`, in order. */
const turnsOf = (events: readonly Ev[], messageId: string): string[] => [
  ...new Set(
    events.filter((e) => e.type === "step/start" && e.data.messageIds.includes(messageId))
      .map((e) => e.data.turnId as string),
  ),
];

/** Tool calls named `name` (any turn when `turnId` is omitted). */
const calls = (events: readonly Ev[], name: string, turnId?: string): Ev[] =>
  events.filter((e) =>
    e.type === "tool/call" && e.data.name === name &&
    (turnId === undefined || e.data.turnId === turnId)
  );

/** The recorded result of a tool call event. */
const resultOf = (events: readonly Ev[], call: Ev): unknown =>
  events.find((e) =>
    e.type === "tool/result" && e.data.turnId === call.data.turnId &&
    e.data.callId === call.data.callId
  )?.data.result;

/** The node of the user message `messageId` on the page. */
const message = (page: Page, messageId: string) =>
  page.locator(`.node:has([data-message-id="${messageId}"])`).first();

/** Waits until the reminders panel lists exactly `n` rows. */
async function rowsAre(page: Page, n: number): Promise<void> {
  await page.waitForFunction(
    (n) => document.querySelectorAll("[data-testid=active-reminder]").length === n,
    n,
  );
}

/** Opens a fresh session in a new tab of `zone` / `locale`; returns the page and session id. */
async function openSession(
  b: E2EBrowser,
  host: HostProcess,
  zone: string,
  locale = "en-US",
): Promise<{ page: Page; id: string }> {
  const { page } = await b.open(zone, locale);
  await page.goto(host.url);
  await page.getByTestId("new-session").click();
  const id = await sessionIdOf(page);
  await waitLive(page);
  return { page, id };
}

/** Sends `text` from the page and waits until its turn has ended (durable history). */
async function ask(page: Page, base: string, id: string, text: string): Promise<Ev[]> {
  await say(page, text);
  return await answered(base, id, text);
}

/** A gated OpenAI-compatible endpoint for the host, answering with the offline model in `zone`. */
function gatedEnv(model: GatedModelServer): Record<string, string> {
  return {
    CHIME_MODEL_BASE_URL: model.baseURL,
    CHIME_MODEL: "offline-behind-http",
    CHIME_MODEL_API_KEY: "e2e-not-a-secret",
  };
}

/** Runs `body` against a fresh host on a fresh data directory; cleans both up. */
async function withHost(
  prefix: string,
  env: Record<string, string> | undefined,
  body: (host: HostProcess) => Promise<void>,
): Promise<void> {
  const dataDir = await Deno.makeTempDir({ prefix });
  const host = await startHost({ dataDir, port: freePort(), ...(env ? { env } : {}) });
  try {
    await body(host);
  } finally {
    await host.kill();
    await Deno.remove(dataDir, { recursive: true });
  }
}

interface CancelCase {
  readonly zone: string;
  readonly locale: string;
  /** [create 1, create 2, cancel 1, cancel 2]. */
  readonly asks: readonly [string, string, string, string];
  /** The prompts the two creates set. */
  readonly prompts: readonly [string, string];
  /** The empty reminders panel's text. */
  readonly empty: string;
  readonly shot: string;
}

async function cancelTwice(b: E2EBrowser, host: HostProcess, c: CancelCase): Promise<void> {
  const base = host.url;
  const { page, id } = await openSession(b, host, c.zone, c.locale);
  const [create1, create2, cancel1, cancel2] = c.asks;
  await ask(page, base, id, create1);
  await ask(page, base, id, create2);
  const two = await remindersUntil(base, id, "two reminders", (l) => l.length === 2);
  deepEqual(two.map((r) => r.prompt).sort(), [...c.prompts].sort());
  const idOf = (prompt: string) => two.find((r) => r.prompt === prompt)!.id;
  await rowsAre(page, 2);

  // First cancel: only the first reminder goes.
  await ask(page, base, id, cancel1);
  const one = await reminders(base, id);
  deepEqual(one.map((r) => r.prompt), [c.prompts[1]], `after "${cancel1}"`);
  await rowsAre(page, 1);
  match(await page.getByTestId("active-reminder").innerText(), new RegExp(c.prompts[1]));

  // Second cancel, judged on its own turn: the second reminder goes too.
  const events = await ask(page, base, id, cancel2);
  deepEqual(await reminders(base, id), [], `no active reminder after "${cancel2}"`);
  for (const [text, prompt] of [[cancel1, c.prompts[0]], [cancel2, c.prompts[1]]] as const) {
    const turns = turnsOf(events, userRpc(events, text).data.messageId);
    equal(turns.length, 1, `"${text}" ran in one turn`);
    const deletes = calls(events, "schedule_delete", turns[0]);
    deepEqual(deletes.map((d) => d.data.args.id), [idOf(prompt)], `"${text}" deleted "${prompt}"`);
    equal((resultOf(events, deletes[0]!) as { ok?: unknown }).ok, true);
  }
  equal(calls(events, "schedule_delete").length, 2, "two deletes in the whole session");
  await rowsAre(page, 0);
  await page.getByTestId("reminders-panel").getByText(c.empty).waitFor();
  await shot(page, c.shot);
}

Deno.test({
  name: "cancel twice (en, zh): each cancel by words deletes its own reminder ⇒ none active",
  ignore: !HAS_CHROMIUM,
  async fn() {
    await withHost("chime-e2e-trust-cancel-", undefined, async (host) => {
      await using b = await launchBrowser();
      await cancelTwice(b, host, {
        zone: "America/New_York",
        locale: "en-US",
        asks: [
          "remind me in 1 hour to water the plants",
          "remind me in 3 hours to buy milk",
          "cancel the plants reminder",
          "cancel the milk reminder",
        ],
        prompts: ["water the plants", "buy milk"],
        empty: "No active reminders",
        shot: "trust-cancel-twice-en",
      });
      await cancelTwice(b, host, {
        zone: "Asia/Shanghai",
        locale: "zh-CN",
        asks: ["1小时后提醒我浇花", "3小时后提醒我买牛奶", "取消浇花的提醒", "取消买牛奶的提醒"],
        prompts: ["浇花", "买牛奶"],
        empty: "暂无活动提醒",
        shot: "trust-cancel-twice-zh",
      });
      equal(b.errors.length, 0, b.errors.join("\n"));
    });
  },
});

Deno.test({
  name: "stop stops: the running and the queued request are never carried out unless retried",
  ignore: !HAS_CHROMIUM,
  async fn() {
    const zone = "Europe/Berlin";
    await using model = new GatedModelServer({ timeZone: zone });
    await withHost("chime-e2e-trust-stop-", gatedEnv(model), async (host) => {
      const base = host.url;
      await using b = await launchBrowser();
      const { page, id } = await openSession(b, host, zone);
      const first = "remind me in 1 hour to stretch";
      const second = "remind me in 2 hours to call mom";

      // The first turn is held in its model call; the second message queues behind it.
      model.hold();
      await say(page, first);
      await model.waiting();
      await page.getByTestId("stop-turn").waitFor();
      await say(page, second);
      const queued = await until("the second message", async () => {
        const events = await history(base, id);
        return events.find((e) => e.type === "user-rpc" && e.data.text === second);
      });
      const firstId = userRpc(await history(base, id), first).data.messageId as string;
      const secondId = queued.data.messageId as string;
      await message(page, secondId).getByTestId("message-queued").waitFor();

      // Stop: the turn ends cancelled and names both messages.
      await page.getByTestId("stop-turn").click();
      await page.getByText("Turn cancelled").waitFor();
      await message(page, firstId).getByTestId("message-stopped").waitFor();
      await message(page, secondId).getByTestId("message-stopped").waitFor();
      await page.getByTestId("stop-turn").waitFor({ state: "detached" });
      model.release();
      let events = await idle(base, id);
      const end = events.findLast((e) => e.type === "turn/end")!;
      equal(end.data.outcome, "cancelled");
      deepEqual([...end.data.stoppedMessageIds].sort(), [firstId, secondId].sort());
      deepEqual(await reminders(base, id), []);

      // A later turn does not carry out either stopped request.
      const later = "what reminders do I have?";
      events = await ask(page, base, id, later);
      const laterTurns = turnsOf(events, userRpc(events, later).data.messageId);
      equal(laterTurns.length, 1);
      const laterSteps = events.filter((e) =>
        e.type === "step/start" && e.data.turnId === laterTurns[0]
      );
      ok(laterSteps.every((s) => !s.data.messageIds.includes(firstId)));
      ok(laterSteps.every((s) => !s.data.messageIds.includes(secondId)));
      equal(calls(events, "schedule_list", laterTurns[0]).length, 1, "the later turn only lists");
      deepEqual(calls(events, "schedule_create"), [], "no turn created a stopped reminder");
      deepEqual(await reminders(base, id), []);
      // The badges come from the durable log: a reload shows them again; no row once the
      // panel's own list answered.
      await reloadListed(page);
      await waitLive(page);
      await message(page, firstId).getByTestId("message-stopped").waitFor();
      await message(page, secondId).getByTestId("message-stopped").waitFor();
      await rowsAre(page, 0);

      // Retry of the second message runs it, and only it.
      await message(page, secondId).getByTestId("retry-message").click();
      const active = await remindersUntil(base, id, "the retried reminder", (l) => l.length > 0);
      events = await idle(base, id, 3);
      deepEqual(active.map((r) => r.prompt), ["call mom"]);
      deepEqual(
        (await reminders(base, id)).map((r) => r.prompt),
        ["call mom"],
        "exactly one active reminder",
      );
      const creates = calls(events, "schedule_create");
      deepEqual(creates.map((c) => c.data.args), [{ prompt: "call mom", after_seconds: 7200 }]);
      deepEqual(turnsOf(events, secondId).slice(-1), [creates[0]!.data.turnId]);
      await rowsAre(page, 1);
      match(await page.getByTestId("active-reminder").innerText(), /call mom/);
      await message(page, secondId).getByTestId("message-stopped").waitFor({ state: "detached" });
      await message(page, firstId).getByTestId("message-stopped").waitFor();
      await shot(page, "trust-stopped");
      equal(b.errors.length, 0, b.errors.join("\n"));
    });
  },
});

/** A zone whose wall clock is before 14:00 now, so "at 3pm" and "at 4pm" are later today. */
function morningZone(): string {
  const zones = [
    "America/New_York",
    "Europe/Berlin",
    "Asia/Shanghai",
    "Pacific/Auckland",
    "America/Los_Angeles",
    "Pacific/Honolulu",
    "Asia/Kolkata",
  ];
  const zone = zones.find((z) => Temporal.Now.zonedDateTimeISO(z).hour < 14);
  if (zone === undefined) throw new Error("no zone is before 14:00 now");
  return zone;
}

/** `iso` as `YYYY-MM-DDTHH:MM` on the wall clock of `zone`. */
const wall = (iso: string, zone: string): string =>
  Temporal.Instant.from(iso).toZonedDateTimeISO(zone).toPlainDateTime().toString()
    .slice(0, 16);

Deno.test({
  name: "edit replaces: 3pm edited to 4pm leaves one reminder at 4pm; Escape saves nothing",
  ignore: !HAS_CHROMIUM,
  async fn() {
    const zone = morningZone();
    const today = Temporal.Now.plainDateISO(zone).toString();
    await using model = new GatedModelServer({ timeZone: zone });
    await withHost("chime-e2e-trust-edit-", gatedEnv(model), async (host) => {
      const base = host.url;
      await using b = await launchBrowser();
      const { page, id } = await openSession(b, host, zone);
      const original = "remind me at 3pm to call Bob";
      let events = await ask(page, base, id, original);
      const [before] = await remindersUntil(base, id, "the 3pm reminder", (l) => l.length === 1);
      equal(before!.prompt, "call Bob");
      equal(wall(before!.scheduledAt, zone), `${today}T15:00`);
      await rowsAre(page, 1);
      const originalId = userRpc(events, original).data.messageId as string;
      const node = message(page, originalId);

      // Escape closes the form without saving; the next edit starts from the original text.
      await node.getByTestId("edit-message").click();
      const input = node.getByTestId("edit-input");
      equal(await input.inputValue(), original);
      await input.fill("remind me at 5pm to call Bob");
      await input.press("Escape");
      await node.getByTestId("edit-form").waitFor({ state: "detached" });
      // Focus returns to the Edit button (set by an effect after the form is gone).
      await page.waitForFunction(() =>
        document.activeElement?.getAttribute("data-testid") === "edit-message"
      );
      await node.getByTestId("edit-message").click();
      equal(await input.inputValue(), original, "the abandoned draft was not kept");

      // The real edit.
      const edited = "remind me at 4pm to call Bob";
      await input.fill(edited);
      await node.getByTestId("edit-save").click();
      events = await answered(base, id, edited);
      deepEqual(
        events.filter((e) => e.type === "user-rpc").map((e) => e.data.text),
        [original, edited],
        "Escape sent nothing; the edit is one message",
      );
      const edit = userRpc(events, edited);
      equal(edit.data.edits, originalId);
      const editTurns = turnsOf(events, edit.data.messageId);
      equal(editTurns.length, 1);
      const updates = calls(events, "schedule_update", editTurns[0]);
      equal(updates.length, 1, "the edit reconciled with schedule_update");
      equal(updates[0]!.data.args.id, before!.id);
      equal((resultOf(events, updates[0]!) as { ok?: unknown }).ok, true);
      equal(calls(events, "schedule_create").length, 1, "the edit created nothing new");

      const after = await remindersUntil(
        base,
        id,
        "the reminder moved to 4pm",
        (l) => l.length === 1 && wall(l[0]!.scheduledAt, zone) === `${today}T16:00`,
      );
      equal(after[0]!.id, before!.id);
      equal(after[0]!.prompt, "call Bob");
      deepEqual(await reminders(base, id), after, "exactly one active reminder");

      await page.waitForFunction(
        (at) =>
          document.querySelector("[data-testid=active-reminder] time")?.getAttribute(
            "datetime",
          ) === at,
        after[0]!.scheduledAt,
      );
      await rowsAre(page, 1);
      await message(page, originalId).getByTestId("message-replaced").waitFor();
      const row = page.getByTestId("active-reminder");
      match(await row.innerText(), /call Bob/);
      match(await row.locator("time").innerText(), /16:00/);
      await page.locator(`[data-message-id="${edit.data.messageId}"] .edited`).waitFor();
      await shot(page, "trust-edit");
      equal(b.errors.length, 0, b.errors.join("\n"));
    });
  },
});
