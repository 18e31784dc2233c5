/**
 * A late card says why from the same log facts as the reminder's history (docs/upcoming.md "Why
 * it was late"): its presentation's `late.cause` is `lateCause` (`./late.ts`) over the events
 * before the dispatch, the logs here written to and read back from real JSONL files; the view
 * context keeps that window, so the sparse view equals the dense one.
 */
import assert from "node:assert/strict";
import { SessionStore } from "@chime/session";
import type { SessionEvent, SessionHeader } from "@chime/session";
import { JsonlBackend } from "@chime/session/jsonl";
import { FakeClock } from "@chime/session/testing";
import { reminderHistory } from "./history.ts";
import { LATE_CONTEXT_BEFORE, lateCause } from "./late.ts";
import { LATE_AFTER_MS, scheduleReminderPresentations } from "./presentation.ts";
import { scheduleViews } from "./views.ts";

const T0 = Date.UTC(2030, 0, 1, 2, 0);
const ID = "sch_AbCd12345678";
const min = (n: number) => n * 60_000;
const iso = (ms: number) => new Date(ms).toISOString();

type Step = readonly [atMs: number, type: string, data?: unknown];

/** Writes `steps` to a real JSONL session (the store stamps each `at`) and reads the log back. */
async function stored(steps: readonly Step[]): Promise<[SessionHeader, SessionEvent[]]> {
  const dir = await Deno.makeTempDir({ prefix: "chime-late-card-" });
  try {
    using clock = new FakeClock(T0);
    {
      await using backend = await JsonlBackend.open({ dir });
      await using store = new SessionStore({ backend, clock });
      const session = await store.create({ cwd: "/", timeZone: "UTC" });
      for (const [at, type, data] of steps) {
        await clock.advance(at - clock.now());
        store.append(session, type, data ?? {});
      }
      assert.equal(await store.flush(session), true);
    }
    await using backend = await JsonlBackend.open({ dir });
    const [header] = await backend.list();
    const loaded = (await backend.load(header!.id))!;
    return [loaded.header, [...loaded.events]];
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

const record = { id: ID, kind: "at", prompt: "tea", scheduledAt: iso(T0 + min(30)) };
const create: Step = [T0, "schedule/change", { version: 1, op: "create", record }];
const dispatch = (at: number): Step => [at, "schedule/change", {
  version: 1,
  op: "dispatch",
  id: ID,
}];

/** The card's lateness and the history's cause of the log's one delivery. */
function both(header: SessionHeader, events: SessionEvent[]) {
  const seq = events.findLast((e) => e.type === "schedule/change")!.seq;
  const card = scheduleReminderPresentations(header, events).get(seq)?.late;
  const entry = reminderHistory(header, events, ID)!.find((e) => e.kind === "delivered")!;
  return { card, history: lateCause(entry, ID, events, "UTC") };
}

Deno.test("a card of a delivery made when a closed session reopened says it was closed, as the history does", async () => {
  const [header, events] = await stored([
    create,
    [T0 + min(10), "assistant/message", { turnId: "t", text: "ok" }],
    dispatch(T0 + min(340)),
  ]);
  const { card, history } = both(header, events);
  assert.equal(card?.ms, min(310));
  assert.equal(card?.cause?.kind, "closed");
  assert.equal(card?.cause?.text.en, "the session was closed from 02:10 to 07:40");
  assert.deepEqual(card?.cause, history);
});

Deno.test("a card of a delivery a running turn held says the agent was busy, as the history does", async () => {
  const [header, events] = await stored([
    create,
    [T0 + min(28), "turn/start", { turnId: "t" }],
    [T0 + min(29), "assistant/message", { turnId: "t", text: "…" }],
    [T0 + min(33), "turn/end", { turnId: "t", outcome: "completed" }],
    dispatch(T0 + min(33) + 500),
  ]);
  const { card, history } = both(header, events);
  assert.equal(card?.cause?.kind, "busy");
  assert.equal(card?.cause?.text.en, "the agent was busy for 3 min");
  assert.deepEqual(card?.cause, history);
});

Deno.test("a card of a delivery after the host went down mid-turn says the host was down, as the history does", async () => {
  const [header, events] = await stored([
    create,
    [T0 + min(20), "turn/start", { turnId: "t" }],
    [T0 + min(25), "assistant/message", { turnId: "t", text: "…" }],
    [T0 + min(240), "turn/end", { turnId: "t", outcome: "error", error: "interrupted: stopped" }],
    dispatch(T0 + min(240) + 1000),
  ]);
  const { card, history } = both(header, events);
  assert.equal(card?.cause?.kind, "host-down");
  assert.equal(card?.cause?.text.en, "the host was down from 02:25 to 06:00");
  assert.deepEqual(card?.cause, history);
});

Deno.test("a held dispatch names the hourly limit on the card as in the history", async () => {
  const held: Step = [T0 + min(60), "schedule/change", {
    version: 2,
    op: "dispatch",
    id: ID,
    held: true,
  }];
  const [header, events] = await stored([
    create,
    [T0 + min(10), "assistant/message", { turnId: "t", text: "ok" }],
    held,
  ]);
  const { card, history } = both(header, events);
  assert.equal(card?.cause?.kind, "hourly-limit");
  assert.equal(card?.cause?.text.en, "the hourly limit held it");
  assert.deepEqual(card?.cause, history);
});

Deno.test("in a log from before `held`, the history names the hourly limit from the frame; the card stays as built", async () => {
  const frame = `<schedule-reminder>\n${JSON.stringify({ id: ID, coalesced: true })}`;
  const [header, events] = await stored([
    create,
    [T0 + min(10), "assistant/message", { turnId: "t", text: "ok" }],
    dispatch(T0 + min(60)),
    [T0 + min(60) + 100, "followup", { frame }],
  ]);
  const seq = events.findLast((e) => e.type === "schedule/change")!.seq;
  const entry = reminderHistory(header, events, ID)!.find((e) => e.kind === "delivered")!;
  assert.equal(lateCause(entry, ID, events, "UTC")?.kind, "hourly-limit");
  // The card reads only the events up to its dispatch: the same as when it was first built.
  const card = scheduleReminderPresentations(header, events).get(seq)?.late;
  const atBuild = scheduleReminderPresentations(header, events.slice(0, -1)).get(seq)?.late;
  assert.deepEqual(card, atBuild);
  assert.notEqual(card?.cause?.kind, "hourly-limit");
});

Deno.test("an on-time card, or one under a minute late, carries no lateness", async () => {
  const [header, events] = await stored([create, dispatch(T0 + min(30) + 900)]);
  const receipt = scheduleReminderPresentations(header, events).get(events.at(-1)!.seq);
  assert.equal(receipt?.prompt, "tea");
  assert.equal(receipt?.late, undefined);
  const [h2, e2] = await stored([create, dispatch(T0 + min(30) + LATE_AFTER_MS - 1)]);
  const under = scheduleReminderPresentations(h2, e2).get(e2.at(-1)!.seq);
  assert.equal(under?.prompt, "tea");
  assert.equal(under?.late, undefined);
});

Deno.test("a card with no fact in its window says only how late it was", async () => {
  // The create is the only event before the due time and lies outside the window.
  const chatter: Step[] = Array.from(
    { length: LATE_CONTEXT_BEFORE },
    (_, i) => [T0 + min(31) + i, "assistant/message", { turnId: "t", text: `${i}` }] as const,
  );
  const [header, events] = await stored([create, ...chatter, dispatch(T0 + min(40))]);
  const seq = events.at(-1)!.seq;
  assert.deepEqual(scheduleReminderPresentations(header, events).get(seq)?.late, {
    ms: min(10),
  });
});

Deno.test("the view context keeps the window before a late dispatch (sparse = dense)", async () => {
  const chatter: Step[] = Array.from(
    { length: LATE_CONTEXT_BEFORE + 20 },
    (_, i) => [T0 + min(1) + i, "assistant/message", { turnId: "t", text: `${i}` }] as const,
  );
  const [header, events] = await stored([
    create,
    ...chatter,
    [T0 + min(28), "turn/start", { turnId: "t2" }],
    [T0 + min(33), "turn/end", { turnId: "t2", outcome: "completed" }],
    dispatch(T0 + min(33) + 500),
  ]);
  const last = events.at(-1)!;
  const scan = scheduleViews.context!(header, [last]);
  const kept: SessionEvent[] = [];
  for (const e of events.slice(0, -1).reverse()) {
    if (scan.done) break;
    if (scan.offer(e)) kept.unshift(e);
  }
  assert.equal(scan.done, true);
  // The create (seq 0) and the window; nothing else of the chatter.
  assert.equal(kept.length, LATE_CONTEXT_BEFORE + 1);
  assert.equal(kept[0]!.seq, 0);
  const sparse = scheduleViews.build(header, [...kept, last], [last.seq]).get(last.seq);
  const dense = scheduleViews.build(header, events, [last.seq]).get(last.seq);
  assert.deepEqual(sparse, dense);
  assert.equal(
    (sparse as { presentation: { late?: { cause?: { kind: string } } } }).presentation.late?.cause
      ?.kind,
    "busy",
  );
});

Deno.test("the view context of an on-time one-shot ends at its create, not a late window below it", async () => {
  const before: Step[] = Array.from(
    { length: LATE_CONTEXT_BEFORE + 20 },
    (_, i) => [T0 + i, "assistant/message", { turnId: "t", text: `${i}` }] as const,
  );
  const between: Step[] = Array.from(
    { length: 5 },
    (_, i) => [T0 + min(1) + i, "assistant/message", { turnId: "t", text: `${i}` }] as const,
  );
  const [header, events] = await stored([
    ...before,
    [T0 + min(1), "schedule/change", { version: 1, op: "create", record }],
    ...between,
    dispatch(T0 + min(30) + 500),
  ]);
  const last = events.at(-1)!;
  const scan = scheduleViews.context!(header, [last]);
  let offered = 0;
  for (const e of events.slice(0, -1).reverse()) {
    if (scan.done) break;
    offered++;
    scan.offer(e);
  }
  assert.equal(scan.done, true);
  assert.equal(offered, between.length + 1, "the events back to the create, none below it");
});
