import assert from "node:assert/strict";
import { STOPPED_NOTE, SUPERSEDED_NOTE } from "@chime/agent";
import { gatedOffline } from "./testing/gated_offline.ts";
import { gate, harness, ofType, web } from "../agent/testing/harness.ts";
import { ScheduleFake } from "./testing/schedule_fake.ts";

const BER = "Europe/Berlin";
const SHA = "Asia/Shanghai";

/** The offline model behind a recorder, the in-memory v2 schedule tools, a live agent. */
async function offlineAgent(timeZone = BER, options: { gated?: boolean } = {}) {
  const { model, requests, hold, entered } = gatedOffline(options.gated);
  const h = await harness(model, { timeZone });
  const fake = new ScheduleFake({ timeZone, now: () => h.clock.now() });
  for (const tool of fake.tools()) h.agent.registerTool(tool);
  const say = async (text: string) => {
    const event = h.agent.submit({ text, source: web(timeZone) });
    await h.agent.whenIdle();
    return event.data.messageId;
  };
  return {
    h,
    fake,
    requests,
    say,
    hold,
    entered,
    [Symbol.asyncDispose]: () => h[Symbol.asyncDispose](),
  };
} // deno-fmt-ignore

function lastReply(h: { session: import("@chime/session").Session }): string {
  return String(ofType<{ text: string }>(h.session, "assistant/message").at(-1)?.data.text);
}

for (
  const [lang, zone, lines] of [
    ["English", BER, [
      "remind me in 1 hour to water the plants",
      "remind me in 3 hours to buy milk",
      "cancel the plants reminder",
      "cancel the milk reminder",
    ]],
    ["Chinese", SHA, [
      "1小时后提醒我浇花",
      "3小时后提醒我买牛奶",
      "取消浇花的提醒",
      "取消买牛奶的提醒",
    ]],
  ] as const
) {
  Deno.test(`cancel by words judges the current turn only: both reminders end (${lang})`, async () => {
    await using t = await offlineAgent(zone);
    for (const line of lines) await t.say(line);
    assert.equal(t.fake.active.size, 0);
    const deletes = t.fake.calls.filter((c) => c.name === "schedule_delete").map((c) => c.args.id);
    assert.deepEqual(deletes, ["sch_1", "sch_2"]);
    assert.match(lastReply(t.h), /sch_2/);
  });
}

Deno.test("Stop ends the running turn and stops the message queued behind it; later turns never run them", async () => {
  await using t = await offlineAgent(BER, { gated: true });
  const first = t.h.agent.submit({
    text: "remind me in 1 hour to water the plants",
    source: web(BER),
  });
  await t.entered.promise;
  const queued = t.h.agent.submit({ text: "remind me in 3 hours to buy milk", source: web(SHA) });
  const stopped = t.h.agent.cancel();
  assert.deepEqual(stopped.stoppedMessageIds, [first.data.messageId, queued.data.messageId]);
  t.hold.resolve();
  await t.h.agent.whenIdle();
  const ends = ofType<{ outcome: string; stoppedMessageIds?: string[] }>(t.h.session, "turn/end");
  assert.equal(ends.length, 1);
  assert.equal(ends[0]!.data.outcome, "cancelled");
  assert.deepEqual(ends[0]!.data.stoppedMessageIds, stopped.stoppedMessageIds);
  assert.equal(ofType(t.h.session, "turn/start").length, 1, "no turn ran for the queued message");
  // The next request sees both as stopped and carries out neither.
  await t.say("what reminders do I have");
  assert.deepEqual(t.fake.calls.map((c) => c.name), ["schedule_list"]);
  const seen = t.requests.at(-1)!.messages.filter((m) => m.role === "user").map((m) => m.content);
  assert.deepEqual(seen.slice(0, 2), [
    `${STOPPED_NOTE}\nremind me in 1 hour to water the plants`,
    `${STOPPED_NOTE}\nremind me in 3 hours to buy milk`,
  ]);
  assert.equal(t.fake.active.size, 0);
  // Retry asks again: the stopped message runs with its own provenance.
  const seenZones: (string | undefined)[] = [];
  t.h.agent.addPreStep((batch) => {
    seenZones.push(...batch.messages.map((m) => m.data.source.clientTimeZone));
  });
  await t.h.agent.retry(queued.data.messageId);
  await t.h.agent.whenIdle();
  assert.deepEqual(seenZones, [SHA]);
  assert.deepEqual([...t.fake.active.values()].map((r) => r.prompt), ["buy milk"]);
}); // deno-fmt-ignore

Deno.test("a Stop during the pre-step hooks names the claimed message and a queued one", async () => {
  await using t = await offlineAgent();
  const inHook = gate();
  t.h.agent.addPreStep(async () => {
    inHook.resolve();
    await new Promise(() => {});
  });
  const first = t.h.agent.submit({ text: "remind me in 1 hour to stretch", source: web(BER) });
  await inHook.promise;
  const second = t.h.agent.submit({ text: "remind me in 2 hours to eat", source: web(BER) });
  const { stoppedMessageIds } = t.h.agent.cancel();
  await t.h.agent.whenIdle();
  assert.deepEqual(stoppedMessageIds, [first.data.messageId, second.data.messageId]);
  assert.equal(ofType(t.h.session, "step/start").length, 0);
  assert.equal(t.fake.calls.length, 0);
});

Deno.test("a Stop keeps queued follow-ups: the reminder frame still gets its turn", async () => {
  await using t = await offlineAgent(BER, { gated: true });
  t.h.agent.submit({ text: "tell me a joke", source: web(BER) });
  await t.entered.promise;
  t.h.agent.followup(
    '<schedule-reminder>\n{"id":"sch_9","prompt":"stretch","scheduledAt":"2026-01-15T08:00:00.000Z","status":"due","lateBySeconds":0}\n</schedule-reminder>',
  );
  assert.deepEqual(t.h.agent.cancel().stoppedMessageIds.length, 1);
  t.hold.resolve();
  await t.h.agent.whenIdle();
  assert.equal(ofType(t.h.session, "followup").length, 1);
  assert.equal(lastReply(t.h), "Reminder: stretch");
});

Deno.test("an edit replaces: one active call-Bob reminder at the edited time (schedule_update)", async () => {
  await using t = await offlineAgent();
  const original = await t.say("remind me at 3pm to call Bob");
  assert.equal([...t.fake.active.values()][0]?.scheduledAt, "2026-01-15T14:00:00Z");
  await t.h.agent.edit(original, "remind me at 4pm to call Bob");
  await t.h.agent.whenIdle();
  const active = [...t.fake.active.values()];
  assert.deepEqual(active.map((r) => [r.id, r.prompt, r.scheduledAt]), [
    ["sch_1", "call Bob", "2026-01-15T15:00:00Z"],
  ]);
  assert.deepEqual(t.fake.calls.map((c) => c.name), ["schedule_create", "schedule_update"]);
  const users = t.requests.at(-2)!.messages.filter((m) => m.role === "user").map((m) => m.content);
  assert.equal(users[0], `${SUPERSEDED_NOTE}\nremind me at 3pm to call Bob`);
  assert.match(
    users[1]!,
    /^\[Edit: this message replaces the user's earlier message "remind me at 3pm to call Bob"\./,
  );
  assert.match(users[1]!, /- schedule_create \{"prompt":"call Bob".*\} → \{"ok":true,"id":"sch_1"/);
  assert.match(users[1]!, /\nremind me at 4pm to call Bob$/);
  assert.match(
    lastReply(t.h),
    /^Updated — I'll remind you to call Bob at 16:00 \(Europe\/Berlin\)/,
  );
}); // deno-fmt-ignore

Deno.test("an edit to a repeat updates the same reminder; an edit to something else undoes it", async () => {
  await using t = await offlineAgent();
  const original = await t.say("remind me at 3pm to call Bob");
  const edit = await t.h.agent.edit(original, "remind me every day at 4pm to call Bob");
  await t.h.agent.whenIdle();
  const [record] = [...t.fake.active.values()];
  assert.equal(t.fake.active.size, 1);
  assert.equal(record?.kind, "recurring");
  assert.equal(record?.repeat?.rrule, "FREQ=DAILY;BYHOUR=16;BYMINUTE=0");
  // Editing again (the edit of the edit) to a question undoes the reminder.
  await t.h.agent.edit(edit.data.messageId, "what time is it");
  await t.h.agent.whenIdle();
  assert.equal(t.fake.active.size, 0);
  assert.match(lastReply(t.h), /cancelled/);
});

Deno.test("an edit of a reminder that already fired sets it anew", async () => {
  await using t = await offlineAgent();
  const original = await t.say("remind me in 10 minutes to stretch");
  t.h.agent.followup(t.fake.fire("sch_1"));
  await t.h.agent.whenIdle();
  await t.h.agent.edit(original, "remind me in 20 minutes to stretch");
  await t.h.agent.whenIdle();
  assert.deepEqual(t.fake.calls.map((c) => c.name), [
    "schedule_create",
    "schedule_update",
    "schedule_create",
  ]);
  assert.deepEqual([...t.fake.active.values()].map((r) => r.prompt), ["stretch"]);
});

Deno.test("snooze it and move it act on the reminder the conversation refers to", async () => {
  await using t = await offlineAgent();
  await t.say("remind me in 10 minutes to stretch");
  await t.say("remind me at 6pm to call Bob");
  t.h.agent.followup(t.fake.fire("sch_1"));
  await t.h.agent.whenIdle();
  await t.say("snooze it 10 minutes");
  const snooze = t.fake.calls.at(-1)!;
  assert.deepEqual(snooze, { name: "schedule_snooze", args: { id: "sch_1", after_seconds: 600 } });
  assert.match(lastReply(t.h), /^Snoozed — I'll remind you to stretch at 09:10 \(Europe\/Berlin\)/);
  await t.say("move the Bob reminder to 4pm");
  assert.deepEqual(t.fake.calls.slice(-2).map((c) => c.name), ["schedule_list", "schedule_update"]);
  assert.equal(t.fake.active.get("sch_2")?.scheduledAt, "2026-01-15T15:00:00Z");
  await t.say("推迟30分钟");
  assert.deepEqual(t.fake.calls.at(-1), {
    name: "schedule_snooze",
    args: { id: "sch_1", after_seconds: 1800 },
  });
});

Deno.test("stop the X reminder ends a repeating reminder; list shows the rule and the next time", async () => {
  await using t = await offlineAgent(SHA);
  await t.say("每天早上8点提醒我吃药");
  await t.say("every 2 hours remind me to drink water");
  await t.say("what reminders do I have");
  const listed = lastReply(t.h);
  assert.match(
    listed,
    /- 吃药 — repeating daily;byhour=8;byminute=0 \(Asia\/Shanghai\); next: 2026-01-16 08:00 \(Asia\/Shanghai\)/,
  );
  assert.match(
    listed,
    /- drink water — repeating hourly;interval=2 \(Asia\/Shanghai\); next: 18:00/,
  );
  await t.say("停止吃药提醒");
  assert.deepEqual([...t.fake.active.values()].map((r) => r.prompt), ["drink water"]);
  assert.match(lastReply(t.h), /重复提醒已停止/);
}); // deno-fmt-ignore
