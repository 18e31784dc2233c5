import assert from "node:assert/strict";
import { markText, STOPPED_NOTE, SUPERSEDED_NOTE } from "@chime/agent";
import { called, calls, complete, frame, result, TOOLS, TOOLS_V2, user } from "./_fixtures_test.ts";

const V2 = { tools: TOOLS_V2 };
const VITAMINS = "every day at 9 remind me to take my vitamins";
const repeatValue = {
  rrule: "FREQ=DAILY;BYHOUR=9;BYMINUTE=0",
  timeZone: "Europe/Berlin",
  dtstart: "2026-11-30T09:00:00",
  text: { en: "daily at 09:00 (Europe/Berlin)", zh: "每天 09:00（Europe/Berlin）" },
};
const recurring = {
  id: "sch_1",
  kind: "recurring",
  prompt: "take my vitamins",
  scheduledAt: "2026-11-30T08:00:00.000Z",
  status: "scheduled",
  deliveryMode: "session-local",
  repeat: repeatValue,
};

Deno.test("regression: every day at 9 is a repeat, never a silent one-shot", async () => {
  const reply = await complete([user(VITAMINS)], V2);
  assert.deepEqual(calls(reply), [{
    id: "call_1",
    name: "schedule_create",
    args: {
      prompt: "take my vitamins",
      repeat: {
        rrule: "FREQ=DAILY;BYHOUR=9;BYMINUTE=0",
        start: { date: "2026-11-30", time: "09:00" },
      },
    },
  }]);
  // Tools without `repeat` (schedule v1): an answer that says so, and no call at all.
  const v1 = await complete([user(VITAMINS)], { tools: TOOLS });
  assert.deepEqual(v1.toolCalls, []);
  assert.match(v1.text, /^Repeating reminders isn't available .* so I haven't changed anything\.$/);
}); // deno-fmt-ignore

Deno.test("complete() answers a repeat it cannot express, in the user's language", async () => {
  for (const text of ["remind me every 30 seconds to blink", "remind me every other leap year to party"]) {
    const reply = await complete([user(text)], V2);
    assert.deepEqual(reply.toolCalls, []);
    assert.match(reply.text, /^Sorry, I can't set that repeating reminder: .*I haven't set anything\./);
  }
  const zh = await complete([user("每30秒提醒我眨眼")], V2);
  assert.deepEqual(zh.toolCalls, []);
  assert.match(zh.text, /^抱歉，我不能设置这个重复提醒：.*所以没有设置任何提醒。/);
}); // deno-fmt-ignore

Deno.test("regression: every 90 seconds is refused for whole minutes, not as more than once a minute", async () => {
  const reply = await complete([user("remind me every 90 seconds to blink")], V2);
  assert.deepEqual(reply.toolCalls, []);
  assert.doesNotMatch(reply.text, /at most once a minute/);
  assert.match(reply.text, /whole minutes.*every 1 or every 2 minutes/);
  const zh = await complete([user("每90秒提醒我眨眼")], V2);
  assert.deepEqual(zh.toolCalls, []);
  assert.doesNotMatch(zh.text, /至少为 1 分钟/);
  assert.match(zh.text, /整分钟.*每1分钟或每2分钟/);
}); // deno-fmt-ignore

Deno.test("regression: a repeat at 25:00 sets nothing and asks for a valid time, like a one-off", async () => {
  const oneOff = await complete([user("remind me at 25:00 to x")], V2);
  assert.deepEqual(oneOff.toolCalls, []);
  for (const text of ["remind me every weekday at 25:00 to x", "remind me every day at 9:75 to y"]) {
    const reply = await complete([user(text)], V2);
    assert.deepEqual(reply.toolCalls, [], text);
    assert.equal(reply.text, oneOff.text, text);
  }
  const zhOneOff = await complete([user("25点提醒我z")], V2);
  const zh = await complete([user("每天25点提醒我z")], V2);
  assert.deepEqual(zh.toolCalls, []);
  assert.equal(zh.text, zhOneOff.text);
}); // deno-fmt-ignore

Deno.test("complete() confirms a repeat with its rule in words and its first occurrence", async () => {
  const reply = await complete([
    user(VITAMINS),
    called("call_1", "schedule_create", {}),
    result("call_1", { ok: true, ...recurring }),
  ], V2);
  assert.equal(
    reply.text,
    "OK — I'll remind you to take your vitamins, repeating daily at 09:00 (Europe/Berlin); first at 2026-11-30 09:00 (Europe/Berlin). This reminder is session-local: it only fires while this session is open. (id: sch_1)",
  );
  const zh = await complete([
    user("每天早上9点提醒我吃维生素"),
    called("call_1", "schedule_create", {}),
    result("call_1", { ok: true, ...recurring, prompt: "吃维生素" }),
  ], V2);
  assert.match(zh.text, /^好的——我会提醒你：吃维生素（重复：每天 09:00（Europe\/Berlin），首次：2026-11-30 09:00（Europe\/Berlin））。/);
}); // deno-fmt-ignore

Deno.test("complete() lists a repeat with its rule in words and its next occurrence", async () => {
  const reply = await complete([
    user("list my reminders"),
    called("call_1", "schedule_list", {}),
    result("call_1", { ok: true, schedules: [recurring], deliveryMode: "session-local" }),
  ], V2);
  assert.equal(
    reply.text,
    "Your reminders (session-local):\n- take my vitamins — repeating daily at 09:00 (Europe/Berlin); next: 2026-11-30 09:00 (Europe/Berlin), scheduled [sch_1]",
  );
});

Deno.test("complete() confirms an update and a snooze", async () => {
  const moved = await complete([
    user("move it to 4pm"),
    called("call_1", "schedule_update", {}),
    result("call_1", {
      ok: true,
      id: "sch_2",
      kind: "at",
      prompt: "call Bob",
      scheduledAt: "2026-11-29T15:00:00.000Z",
      status: "scheduled",
      deliveryMode: "session-local",
    }),
  ], V2);
  assert.match(moved.text, /^Updated — I'll remind you to call Bob at 16:00 \(Europe\/Berlin\)\. /);
  const snoozed = await complete([
    user("推迟10分钟"),
    called("call_1", "schedule_snooze", {}),
    result("call_1", {
      ok: true,
      id: "sch_3",
      kind: "at",
      prompt: "喝水",
      scheduledAt: "2026-11-29T08:25:00.000Z",
      status: "scheduled",
      snoozeOf: { id: "sch_1", occurrenceAt: "2026-11-29T08:15:00.000Z" },
      deliveryMode: "session-local",
    }),
  ], { ...V2, timeZone: "Asia/Shanghai" });
  assert.match(snoozed.text, /^已推迟——我会在 16:25（Asia\/Shanghai） 提醒你：喝水。/);
}); // deno-fmt-ignore

Deno.test("complete() tells a repeating frame's rule, next time, missed and coalesced occurrences", async () => {
  const reply = await complete([user(frame({
    id: "sch_1",
    prompt: "take my vitamins",
    scheduledAt: "2026-11-30T08:00:00.000Z",
    occurrenceAt: "2026-11-29T08:00:00.000Z",
    status: "due",
    lateBySeconds: 0,
    missed: 3,
    coalesced: true,
    recurring: { ...repeatValue, nextAt: "2026-11-30T08:00:00.000Z" },
  }))], V2);
  assert.equal(
    reply.text,
    "Reminder: take my vitamins (repeats daily at 09:00 (Europe/Berlin), next: 2026-11-30 09:00 (Europe/Berlin); the hourly reminder limit held it back, so 3 earlier occurrences were combined into this one)",
  );
  const last = await complete([user(frame({
    id: "sch_1", prompt: "喝水", scheduledAt: "2026-11-29T08:00:00.000Z", status: "due", lateBySeconds: 0,
    missed: 1, recurring: { ...repeatValue, nextAt: null },
  }))], V2);
  assert.equal(last.text, "提醒：喝水（重复：每天 09:00（Europe/Berlin），这是最后一次；错过的 1 次不再补发）");
  const snoozed = await complete([user(frame({
    id: "sch_4", prompt: "stretch", scheduledAt: "2026-11-29T08:15:00.000Z", status: "due", lateBySeconds: 0,
    snoozeOf: { id: "sch_1", occurrenceAt: "2026-11-29T08:05:00.000Z" },
  }))], V2);
  assert.equal(snoozed.text, "Reminder (snoozed): stretch");
}); // deno-fmt-ignore

Deno.test("regression: a catch-up after downtime never blames the hourly limit; a budget wait does", async () => {
  const overdue = {
    id: "sch_1", prompt: "blink", scheduledAt: "2026-11-29T07:15:00.000Z", occurrenceAt: "2026-11-29T07:15:00.000Z",
    status: "overdue", lateBySeconds: 3600, missed: 5, recurring: { ...repeatValue, nextAt: "2026-11-29T08:16:00.000Z" },
  };
  for (const [frameData, zh] of [[overdue, false], [{ ...overdue, prompt: "眨眼" }, true]] as const) {
    const downtime = (await complete([user(frame(frameData))], V2)).text;
    assert.doesNotMatch(downtime, zh ? /上限/ : /limit/);
    assert.match(downtime, zh ? /错过的 5 次不再补发/ : /5 earlier occurrences were missed/);
    assert.match(downtime, zh ? /会话处于关闭状态/ : /while the session was closed/);
    const budget = (await complete([user(frame({ ...frameData, coalesced: true }))], V2)).text;
    assert.match(budget, zh ? /每小时提醒上限，之前的 5 次合并为这一次/ : /hourly reminder limit held it back, so 5 earlier/);
    assert.doesNotMatch(budget, zh ? /会话处于关闭状态/ : /session was closed/);
    const late = (await complete([user(frame({ ...frameData, missed: 0, coalesced: true }))], V2)).text;
    assert.match(late, zh ? /因每小时提醒上限而推迟发送/ : /the hourly reminder limit held it back\)/);
  }
}); // deno-fmt-ignore

Deno.test("complete() treats a series and its pending snooze as one reminder when matched by words", async () => {
  const snoozeRecord = {
    id: "sch_2", kind: "at", prompt: "take my vitamins", scheduledAt: "2026-11-29T08:25:00.000Z", status: "scheduled",
    snoozeOf: { id: "sch_1", occurrenceAt: "2026-11-29T08:00:00.000Z" },
  };
  const other = { ...recurring, id: "sch_3", prompt: "take my vitamins D" };
  const listed = (text: string, schedules: unknown[]) => complete([
    user(text),
    called("call_1", "schedule_list", {}),
    result("call_1", { ok: true, schedules, deliveryMode: "session-local" }),
  ], V2);
  const stop = await listed("stop the vitamins reminder", [recurring, snoozeRecord]);
  assert.deepEqual(calls(stop).map((c) => [c.name, c.args]), [
    ["schedule_delete", { id: "sch_1" }],
    ["schedule_delete", { id: "sch_2" }],
  ]);
  const zh = await listed("取消vitamins提醒", [recurring, snoozeRecord]);
  assert.deepEqual(calls(zh).map((c) => c.args.id), ["sch_1", "sch_2"]);
  // Snoozing it by words snoozes the series (the tool moves its pending snooze).
  const snoozed = await listed("snooze the vitamins reminder for an hour", [recurring, snoozeRecord]);
  assert.deepEqual(calls(snoozed).map((c) => [c.name, c.args]), [["schedule_snooze", { id: "sch_1", after_seconds: 3600 }]]);
  // Only the snooze left (the series ended): that one reminder.
  const alone = await listed("stop the vitamins reminder", [snoozeRecord]);
  assert.deepEqual(calls(alone).map((c) => c.args.id), ["sch_2"]);
  // Two reminders of their own still ask which.
  const two = await listed("stop the vitamins reminder", [recurring, snoozeRecord, other]);
  assert.deepEqual(two.toolCalls, []);
  assert.match(two.text, /^Which reminder should I cancel/);
  const moveBoth = await listed("move the vitamins reminder to 4pm", [recurring, snoozeRecord]);
  assert.deepEqual(moveBoth.toolCalls, [], "a move of one of the two asks which");
}); // deno-fmt-ignore

Deno.test("complete() cancels by words after an earlier turn already deleted one (current turn only)", async () => {
  const schedules = [
    { id: "sch_2", prompt: "buy milk", scheduledAt: "2026-11-29T11:15:00Z", status: "scheduled" },
  ];
  const earlier = [
    user("cancel the plants reminder"),
    called("call_1", "schedule_list", {}),
    result("call_1", { ok: true, schedules: [{ id: "sch_1", prompt: "water the plants", scheduledAt: "2026-11-29T09:15:00Z", status: "scheduled" }, ...schedules] }),
    called("call_2", "schedule_delete", { id: "sch_1" }),
    result("call_2", { ok: true, deleted: { id: "sch_1", prompt: "water the plants" } }),
    { role: "assistant" as const, content: "Done" },
    user("cancel the milk reminder"),
    called("call_3", "schedule_list", {}),
    result("call_3", { ok: true, schedules }),
  ];
  assert.deepEqual(calls(await complete(earlier, V2)), [
    { id: "call_4", name: "schedule_delete", args: { id: "sch_2" } },
  ]);
}); // deno-fmt-ignore

Deno.test("complete() never acts on a stopped or superseded message", async () => {
  const stopped = await complete([
    user(`${STOPPED_NOTE}\nremind me in 3 hours to buy milk`),
    user("what time is it"),
  ], V2);
  assert.deepEqual(stopped.toolCalls, []);
  assert.match(stopped.text, /^It's 09:15 on 2026-11-29/);
  const superseded = await complete([user(`${SUPERSEDED_NOTE}\nremind me in 3 hours to buy milk`)], V2);
  assert.deepEqual(superseded.toolCalls, []);
}); // deno-fmt-ignore

Deno.test("complete() reconciles an edit: update the reminder the original created", async () => {
  const edit = markText({
    stopped: false,
    superseded: false,
    edit: {
      original: "remind me at 3pm to call Bob",
      actions: [{ name: "schedule_create", args: { prompt: "call Bob" }, result: { ok: true, id: "sch_7" } }],
    },
    text: "remind me at 4pm to call Bob",
  });
  assert.deepEqual(calls(await complete([user(edit)], V2)), [{
    id: "call_1",
    name: "schedule_update",
    args: { id: "sch_7", prompt: "call Bob", at: { date: "2026-11-29", time: "16:00" } },
  }]);
  // Without schedule_update (v1 tools): delete, then create.
  assert.deepEqual(calls(await complete([user(edit)])).map((c) => [c.name, c.args]), [
    ["schedule_delete", { id: "sch_7" }],
    ["schedule_create", { prompt: "call Bob", at: { date: "2026-11-29", time: "16:00" } }],
  ]);
  // An original whose create failed left nothing: the edit simply creates.
  const failed = markText({
    stopped: false,
    superseded: false,
    edit: { original: "x", actions: [{ name: "schedule_create", args: {}, result: { ok: false, error: { code: "not_in_future" } } }] },
    text: "remind me at 4pm to call Bob",
  });
  assert.deepEqual(calls(await complete([user(failed)], V2)).map((c) => c.name), ["schedule_create"]);
});

Deno.test("complete() reconciles the reminder the edited request named when its step had others", async () => {
  const edit = markText({
    stopped: false,
    superseded: false,
    edit: {
      original: "remind me at 7pm to call mom",
      actions: [
        {
          name: "schedule_create",
          args: { prompt: "water the plants" },
          result: { ok: true, id: "sch_1" },
        },
        {
          name: "schedule_create",
          args: { prompt: "call mom" },
          result: { ok: true, id: "sch_2" },
        },
        { name: "schedule_create", args: { prompt: "stretch" }, result: { ok: true, id: "sch_3" } },
      ],
    },
    text: "remind me at 8pm to call dad",
  });
  assert.deepEqual(calls(await complete([user(edit)], V2)).map((c) => c.args.id), ["sch_2"]);
}); // deno-fmt-ignore
