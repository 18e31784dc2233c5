import assert from "node:assert/strict";
import { OfflineModel } from "./model.ts";
import { called, calls, complete, result, user } from "./_fixtures_test.ts";

Deno.test("OfflineModel is named offline", () => {
  assert.equal(new OfflineModel().name, "offline");
});

Deno.test("complete() calls schedule_create and ignores time-context lines", async () => {
  const reply = await complete([
    user("remind me in 20 minutes to stretch"),
    user("[time-context] now 2026-11-29T09:15:00+01:00[Europe/Berlin]; help me"),
  ]);
  assert.equal(reply.text, "");
  assert.deepEqual(calls(reply), [
    { id: "call_1", name: "schedule_create", args: { prompt: "stretch", after_seconds: 1200 } },
  ]);
});

Deno.test("complete() never reads the [schedule-activity] note as a request", async () => {
  const reply = await complete([
    user("[schedule-activity] The user snoozed the reminder to remind me in 20 minutes to stretch"),
    user("what reminders do I have"),
  ]);
  assert.deepEqual(calls(reply), [{ id: "call_1", name: "schedule_list", args: {} }]);
  const alone = await complete([
    user("[schedule-activity] The user stopped the repeating reminder to take vitamins"),
  ]);
  assert.deepEqual(calls(alone), []);
});

Deno.test("complete() numbers call ids after the calls already in the conversation", async () => {
  const reply = await complete([
    user("what reminders do I have"),
    called("call_1", "schedule_list", {}),
    result("call_1", { ok: true, schedules: [], deliveryMode: "session-local" }),
    { role: "assistant", content: "You have no active reminders in this session." },
    user("明天上午9点提醒我开会"),
  ], { timeZone: "Asia/Shanghai" });
  assert.deepEqual(calls(reply), [{
    id: "call_2",
    name: "schedule_create",
    args: { prompt: "开会", at: { date: "2026-11-30", time: "09:00" } },
  }]);
});

Deno.test("complete() emits the local form without time_zone when the session has no zone", async () => {
  const reply = await complete([user("remind me at 5pm to leave")], { timeZone: undefined });
  assert.deepEqual(calls(reply)[0]?.args, {
    prompt: "leave",
    at: { date: "2026-11-29", time: "17:00" },
  });
});

Deno.test("complete() answers a create result with time, zone, id and the session-local note", async () => {
  const schedule = {
    id: "sch_1",
    prompt: "stretch",
    scheduledAt: "2026-11-29T09:32:00.000Z",
    status: "scheduled",
    deliveryMode: "session-local",
    kind: "after",
  };
  const reply = await complete([
    user("remind me in 77 minutes to stretch"),
    called("call_1", "schedule_create", { prompt: "stretch", after_seconds: 4620 }),
    result("call_1", { ok: true, schedule }),
  ]);
  assert.equal(
    reply.text,
    "OK — I'll remind you to stretch at 10:32 (Europe/Berlin). This reminder is session-local: it only fires while this session is open. (id: sch_1)",
  );
  assert.deepEqual(reply.toolCalls, []);
});

Deno.test("complete() answers in Chinese and dates a reminder that is not today", async () => {
  const flat = { id: "sch_2", kind: "at", prompt: "开会", scheduledAt: "2026-11-30T01:00:00.000Z" };
  const reply = await complete([
    user("明天上午9点提醒我开会"),
    called("call_1", "schedule_create", {}),
    result("call_1", { ok: true, ...flat, status: "scheduled", deliveryMode: "session-local" }),
  ], { timeZone: "Asia/Shanghai" });
  assert.match(reply.text, /2026-11-30 09:00（Asia\/Shanghai）/);
  assert.match(reply.text, /开会/);
  assert.match(reply.text, /sch_2/);
});

Deno.test("complete() asks to confirm the zone on timezone_confirmation_required", async () => {
  const reply = await complete([
    user("remind me at 5pm to leave"),
    called("call_1", "schedule_create", {}),
    result("call_1", {
      ok: false,
      error: {
        code: "timezone_confirmation_required",
        message: "Cannot create: zone unconfirmed",
        knownTimeZones: ["Europe/Berlin", "America/New_York"],
      },
    }),
  ]);
  assert.match(reply.text, /confirm your time zone/);
  assert.match(reply.text, /Europe\/Berlin, America\/New_York/);
});

Deno.test("complete() explains other tool errors, including non-JSON content", async () => {
  const notFuture = await complete([
    user("remind me at 9 to x"),
    called("call_1", "schedule_create", {}),
    result("call_1", { ok: false, error: { code: "not_in_future", message: "past" } }),
  ]);
  assert.match(notFuture.text, /already passed/);
  const broken = await complete([
    user("list my reminders"),
    called("call_1", "schedule_list", {}),
    { role: "tool", toolCallId: "call_1", content: "boom" },
  ]);
  assert.match(broken.text, /schedule_list call failed: boom/);
});

Deno.test("complete() lists reminders with their status", async () => {
  const schedules = [
    { id: "sch_1", prompt: "stretch", scheduledAt: "2026-11-29T09:32:00Z", status: "scheduled" },
    { id: "sch_2", prompt: "call mom", scheduledAt: "2026-11-29T07:00:00Z", status: "overdue" },
  ];
  const reply = await complete([
    user("what reminders do I have"),
    called("call_1", "schedule_list", {}),
    result("call_1", { ok: true, schedules, deliveryMode: "session-local" }),
  ]);
  assert.equal(
    reply.text,
    "Your reminders (session-local):\n- stretch — 10:32 (Europe/Berlin), scheduled [sch_1]\n" +
      "- call mom — 08:00 (Europe/Berlin), overdue, fires while the session is open [sch_2]",
  );
});

Deno.test("complete() deletes by id and confirms", async () => {
  const first = await complete([user("取消提醒 sch_abc")]);
  assert.deepEqual(calls(first), [{
    id: "call_1",
    name: "schedule_delete",
    args: { id: "sch_abc" },
  }]);
  const done = await complete([
    user("取消提醒 sch_abc"),
    called("call_1", "schedule_delete", { id: "sch_abc" }),
    result("call_1", {
      ok: true,
      deleted: {
        id: "sch_abc",
        kind: "after",
        prompt: "喝水",
        scheduledAt: "2026-11-29T09:00:00Z",
      },
      deliveryMode: "session-local",
    }),
  ]);
  assert.equal(done.text, "好的，已取消提醒“喝水”（sch_abc）。");
});

Deno.test("complete() cancels by words: list, then delete the single match", async () => {
  const schedules = [
    { id: "sch_1", prompt: "stretch", scheduledAt: "2026-11-29T09:32:00Z", status: "scheduled" },
    { id: "sch_2", prompt: "call mom", scheduledAt: "2026-11-29T10:00:00Z", status: "scheduled" },
  ];
  const ask = [user("cancel my stretch reminder")];
  assert.deepEqual(calls(await complete(ask)), [{ id: "call_1", name: "schedule_list", args: {} }]);
  const listed = [
    ...ask,
    called("call_1", "schedule_list", {}),
    result("call_1", { ok: true, schedules }),
  ];
  assert.deepEqual(calls(await complete(listed)), [
    { id: "call_2", name: "schedule_delete", args: { id: "sch_1" } },
  ]);
  const deleted = [
    ...listed,
    called("call_2", "schedule_delete", { id: "sch_1" }),
    result("call_2", { ok: true, deleted: "sch_1" }), // a bare id is tolerated,
  ];
  assert.equal((await complete(deleted)).text, "Done — reminder (sch_1) is cancelled.");
});

Deno.test("complete() asks which reminder when words match none or several", async () => {
  const schedules = [
    { id: "sch_1", prompt: "call mom", scheduledAt: "2026-11-29T09:32:00Z", status: "scheduled" },
    { id: "sch_2", prompt: "call dad", scheduledAt: "2026-11-29T10:00:00Z", status: "scheduled" },
  ];
  const reply = await complete([
    user("cancel my call reminder"),
    called("call_1", "schedule_list", {}),
    result("call_1", { ok: true, schedules }),
  ]);
  assert.deepEqual(reply.toolCalls, []);
  assert.match(reply.text, /^Which reminder should I cancel \("call"\)\?/);
  assert.match(reply.text, /\[sch_1\][\s\S]*\[sch_2\]/);
});
