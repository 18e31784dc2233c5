import assert from "node:assert/strict";
import { OfflineModel } from "./model.ts";
import { calls, complete, frame, NOW, TOOLS, user } from "./_fixtures_test.ts";

Deno.test("complete() answers a due reminder frame without calling tools", async () => {
  const reply = await complete([user(frame({
    id: "sch_x",
    prompt: "stretch",
    scheduledAt: "2026-11-29T08:15:00.000Z",
    status: "due",
    lateBySeconds: 0,
  }))]);
  assert.deepEqual(reply, { text: "Reminder: stretch", toolCalls: [] });
});

Deno.test("complete() says when an overdue frame was due and how late it is", async () => {
  const late = frame({
    id: "sch_x",
    prompt: "stretch",
    scheduledAt: "2026-11-29T07:40:00.000Z",
    status: "overdue",
    lateBySeconds: 2100,
  });
  assert.equal(
    (await complete([user(late)])).text,
    "Reminder: stretch (this was due at 08:40 (Europe/Berlin) — 35 minutes ago, while the session was closed)",
  );
  const zh = frame({
    id: "sch_y",
    prompt: "喝水",
    scheduledAt: "2026-11-29T06:00:00Z",
    status: "overdue",
    lateBySeconds: 8100,
  });
  assert.equal(
    (await complete([user(zh)], { timeZone: "Asia/Shanghai" })).text,
    "提醒：喝水（原定于 14:00（Asia/Shanghai），已晚了 2小时15分钟，当时会话处于关闭状态）",
  );
});

Deno.test("complete() says reminders are not enabled when the schedule tools are missing", async () => {
  for (
    const text of [
      "remind me in 20 minutes to stretch",
      "list my reminders",
      "cancel reminder sch_1",
    ]
  ) {
    const reply = await complete([user(text)], { tools: [] });
    assert.deepEqual(reply.toolCalls, []);
    assert.match(reply.text, /aren't enabled/);
  }
  const zh = await complete([user("20分钟后提醒我喝水")], { tools: TOOLS.slice(1) });
  assert.match(zh.text, /未启用提醒/);
});

Deno.test("complete() answers other messages with help, in the user's language", async () => {
  const en = await complete([user("tell me a joke")]);
  assert.deepEqual(en.toolCalls, []);
  assert.match(en.text, /DEEPSEEK_API_KEY/);
  const zh = await complete([user("你好")]);
  assert.match(zh.text, /离线模型/);
  const when = await complete([user("remind me to stretch")]);
  assert.match(when.text, /^When should I remind you\?/);
  const time = await complete([user("what time is it")]);
  assert.equal(time.text, "It's 09:15 on 2026-11-29 (Europe/Berlin).");
});

Deno.test("complete() rejects when the signal is already aborted", async () => {
  const controller = new AbortController();
  controller.abort(new Error("cancelled"));
  await assert.rejects(
    new OfflineModel().complete({
      messages: [user("hi")],
      tools: TOOLS,
      signal: controller.signal,
      context: { now: NOW },
    }),
    /cancelled/,
  );
});

Deno.test("complete() answers a reminder frame and a request sharing its batch", async () => {
  const due = frame({
    id: "sch_x",
    prompt: "stretch",
    scheduledAt: "2026-11-29T08:15:00Z",
    status: "due",
  });
  const reply = await complete([user(due), user("list my reminders")]);
  assert.equal(reply.text, "Reminder: stretch");
  assert.deepEqual(calls(reply), [{ id: "call_1", name: "schedule_list", args: {} }]);
  assert.match((await complete([])).text, /offline model/);
});
