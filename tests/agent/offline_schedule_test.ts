// The keyless offline model through the real agent loop with the real schedule and
// time-context plugins: cancel twice, Stop and Edit (README "What it does") and repeats. The
// schedule speaks protocol v2 (docs/recurring.md): an edit reconciles with schedule_update.
import assert from "node:assert/strict";
import { Loader } from "@chime/agent";
import { foldSession, schedulePlugin } from "@chime/schedule";
import { flushMicrotasks } from "@chime/session/testing";
import { timeContextPlugin } from "@chime/timecontext";
import { gatedOffline } from "../../offline/testing/gated_offline.ts";
import { harness, ofType, web } from "../../agent/testing/harness.ts";

async function offlineWorld(timeZone: string, options: { gated?: boolean } = {}) {
  const { model, hold, entered } = gatedOffline(options.gated);
  const loader = new Loader();
  const plugins = [
    await loader.load(timeContextPlugin()),
    await loader.load(schedulePlugin({ logger: { warn() {}, error() {} } })),
  ];
  const h = await harness(model, { timeZone });
  await loader.publish(h.agent);
  const say = async (text: string) => {
    const event = h.agent.submit({ text, source: web(timeZone) });
    await h.agent.whenIdle();
    return event.data.messageId;
  };
  const records = () => [...foldSession(h.session.header, h.session.events()).active.values()];
  const active = () => records().map((r) => ({ prompt: r.prompt, scheduledAt: r.scheduledAt }));
  return {
    h,
    say,
    active,
    records,
    hold,
    entered,
    async [Symbol.asyncDispose]() {
      await h[Symbol.asyncDispose]();
      for (const p of plugins) await p[Symbol.asyncDispose]();
      await loader[Symbol.asyncDispose]();
    },
  };
}

for (
  const [lang, zone, lines] of [
    ["English", "Europe/Berlin", [
      "remind me in 1 hour to water the plants",
      "remind me in 3 hours to buy milk",
      "cancel the plants reminder",
      "cancel the milk reminder",
    ]],
    ["Chinese", "Asia/Shanghai", [
      "1小时后提醒我浇花",
      "3小时后提醒我买牛奶",
      "取消浇花的提醒",
      "取消买牛奶的提醒",
    ]],
  ] as const
) {
  Deno.test(`cancel twice by words leaves no active reminder (${lang}, real schedule)`, async () => {
    await using w = await offlineWorld(zone);
    await w.say(lines[0]);
    await w.say(lines[1]);
    assert.equal(w.active().length, 2);
    await w.say(lines[2]);
    assert.equal(w.active().length, 1);
    await w.say(lines[3]);
    assert.deepEqual(w.active(), []);
  });
}

Deno.test("Stop with a queued request: neither is carried out, not even by the next turn (real schedule)", async () => {
  await using w = await offlineWorld("Europe/Berlin", { gated: true });
  w.h.agent.submit({
    text: "remind me in 1 hour to water the plants",
    source: web("Europe/Berlin"),
  });
  await w.entered.promise;
  w.h.agent.submit({ text: "remind me in 3 hours to buy milk", source: web("Europe/Berlin") });
  assert.equal(w.h.agent.cancel().stoppedMessageIds.length, 2);
  w.hold.resolve();
  await w.h.agent.whenIdle();
  await w.say("what time is it");
  await w.say("hello");
  assert.deepEqual(w.active(), []);
  assert.equal(ofType(w.h.session, "tool/call").length, 0);
}); // deno-fmt-ignore

Deno.test("an edit leaves one active call-Bob reminder at the edited time (real schedule, v1 tools)", async () => {
  await using w = await offlineWorld("Europe/Berlin");
  const original = await w.say("remind me at 3pm to call Bob");
  assert.deepEqual(w.active(), [{ prompt: "call Bob", scheduledAt: "2026-01-15T14:00:00.000Z" }]);
  await w.h.agent.edit(original, "remind me at 4pm to call Bob");
  await w.h.agent.whenIdle();
  assert.deepEqual(w.active(), [{ prompt: "call Bob", scheduledAt: "2026-01-15T15:00:00.000Z" }]);
}); // deno-fmt-ignore

Deno.test("every day at 9 with the real schedule tools: one daily series, never a one-shot", async () => {
  await using w = await offlineWorld("Europe/Berlin");
  await w.say("every day at 9 remind me to take my vitamins");
  const [record, ...more] = w.records();
  assert.deepEqual(more, []);
  assert.equal(record?.kind, "recurring");
  assert.equal(record.kind === "recurring" && record.rrule, "FREQ=DAILY;BYHOUR=9;BYMINUTE=0");
  assert.equal(record.kind === "recurring" && record.timeZone, "Europe/Berlin");
  assert.equal(record.scheduledAt, "2026-01-16T08:00:00.000Z");
});

/** Lets the series' first minute pass and waits until the offline model has told the user. */
async function fireOnce(w: Awaited<ReturnType<typeof offlineWorld>>): Promise<void> {
  const replies = () => ofType(w.h.session, "assistant/message").length;
  const before = replies();
  await w.h.clock.advance(60_000);
  for (let i = 0; i < 100 && (replies() === before || w.h.agent.phase !== "idle"); i++) {
    await w.h.clock.advance(0);
    await flushMicrotasks(10);
  }
  assert.equal(replies(), before + 1, "the reminder was delivered and answered");
  await w.h.agent.whenIdle();
}

for (
  const [lang, zone, lines] of [
    ["English", "Europe/Berlin", [
      "remind me every minute to blink",
      "snooze it 10 minutes",
      "stop the blink reminder",
    ]],
    ["Chinese", "Asia/Shanghai", ["每分钟提醒我眨眼", "推迟10分钟", "停止眨眼的提醒"]],
  ] as const
) {
  Deno.test(`regression: stop by words after a snooze ends the series and its snooze (${lang}, real schedule)`, async () => {
    await using w = await offlineWorld(zone);
    await w.say(lines[0]);
    const [series] = w.records();
    assert.equal(series?.kind, "recurring");
    await fireOnce(w);
    await w.say(lines[1]);
    const snooze = w.records().find((r) => r.kind !== "recurring");
    assert.equal(snooze?.snoozeOf?.id, series!.id, "the snooze record of the series");
    assert.equal(w.records().length, 2);
    const from = w.h.session.events().length;
    await w.say(lines[2]);
    assert.deepEqual(w.records(), [], "the series and its snooze both ended");
    const calls = w.h.session.events(from).filter((e) => e.type === "tool/call")
      .map((e) => e.data as { name: string; args: { id?: string } })
      .map((call) => [call.name, call.args.id]);
    assert.deepEqual(calls, [
      ["schedule_list", undefined],
      ["schedule_delete", series!.id],
      ["schedule_delete", snooze!.id],
    ]);
    const turns = w.h.session.events(from).filter((e) => e.type === "turn/start");
    assert.equal(turns.length, 1, "one turn");
  });
}

for (
  const [lang, zone, lines] of [
    ["English", "Europe/Berlin", [
      "remind me every hour to drink water",
      "snooze it 10 minutes",
      "move it to 4pm",
      "stop the drink water reminder",
    ]],
    ["Chinese", "Asia/Shanghai", [
      "每小时提醒我喝水",
      "推迟10分钟",
      "改到下午4点",
      "停止喝水的提醒",
    ]],
  ] as const
) {
  Deno.test(`regression: a snooze moved to another time stays the series' snooze; stop by words ends both (${lang}, real schedule)`, async () => {
    await using w = await offlineWorld(zone);
    await w.say(lines[0]);
    const [series] = w.records();
    assert.equal(series?.kind, "recurring");
    await w.h.clock.advance(60 * 60_000 - 60_000);
    await fireOnce(w);
    await w.say(lines[1]);
    const snooze = w.records().find((r) => r.kind !== "recurring");
    assert.equal(snooze?.snoozeOf?.id, series!.id);
    await w.say(lines[2]);
    const moved = w.records().find((r) => r.id === snooze!.id);
    assert.ok(moved && moved.kind !== "recurring", JSON.stringify(w.records()));
    assert.notEqual(moved.scheduledAt, snooze!.scheduledAt, "the snooze moved");
    assert.deepEqual(moved.snoozeOf, snooze!.snoozeOf, "still the series' snooze");
    await w.say(lines[3]);
    assert.deepEqual(w.records(), [], "the series and its moved snooze both ended");
  });
}
