/**
 * Changing a repeating reminder by words, with the real schedule tools, in New York and
 * Shanghai, in English and Chinese: "move it to 8am" / "改到早上8点" keeps the series repeating at
 * the new time of day (a `schedule_update` with a new `repeat`, docs/recurring.md "Tools") and
 * the reply says it still repeats; a move the words cannot say for a series is refused with how
 * to say it, never a silent one-off. A snooze of a series that has not fired yet is answered with
 * what the tool said (update it instead), and "再提醒我一次 10分钟后" / "remind me again in 10
 * minutes" snooze a reminder that did fire. A monthly rule on the 29th–31st says that months
 * without that day are skipped.
 *
 * The harness clock is 2026-01-15T08:00Z: Thursday 03:00 in New York, Thursday 16:00 in Shanghai.
 */
import assert from "node:assert/strict";
import type { RecurringRecord } from "@chime/schedule";
import { world } from "./_world_test.ts";
import { called, calls, complete, result, TOOLS_V2, user } from "./_fixtures_test.ts";

const NY = "America/New_York";
const SH = "Asia/Shanghai";

function series(records: readonly unknown[]): RecurringRecord {
  assert.equal(records.length, 1, JSON.stringify(records));
  const [record] = records as RecurringRecord[];
  assert.equal(record?.kind, "recurring", "still a repeating reminder");
  return record!;
}

/**
 * A move: its name, what is said, the rule after, the next occurrence (UTC) in New York and in
 * Shanghai, and the reply (or the reply per zone).
 */
type MoveRow = readonly [
  name: string,
  create: string,
  move: string,
  rrule: string,
  next: readonly [ny: string, sh: string],
  reply: RegExp | Readonly<Record<string, RegExp>>,
];

// deno-fmt-ignore
const MOVES: readonly MoveRow[] = [
  ["daily, English", "every day at 9 remind me to take my vitamins", "move it to 8am", "FREQ=DAILY;BYHOUR=8;BYMINUTE=0", ["2026-01-15T13:00:00.000Z", "2026-01-16T00:00:00.000Z"], {
    [NY]: /^Updated — it still repeats: I'll remind you to take your vitamins, repeating daily at 08:00 \(America\/New_York\); next: 08:00 \(America\/New_York\)\.$/,
    [SH]: /^Updated — it still repeats: I'll remind you to take your vitamins, repeating daily at 08:00 \(Asia\/Shanghai\); next: 2026-01-16 08:00 \(Asia\/Shanghai\)\.$/,
  }],
  ["daily, Chinese", "每天早上9点提醒我吃维生素", "改到早上8点", "FREQ=DAILY;BYHOUR=8;BYMINUTE=0", ["2026-01-15T13:00:00.000Z", "2026-01-16T00:00:00.000Z"], {
    [NY]: /^已更新——仍会重复：我会提醒你：吃维生素（重复：每天 08:00（America\/New_York），下次：08:00（America\/New_York））。/,
    [SH]: /^已更新——仍会重复：我会提醒你：吃维生素（重复：每天 08:00（Asia\/Shanghai），下次：2026-01-16 08:00（Asia\/Shanghai））。/,
  }],
  ["every weekday keeps its days", "every weekday at 8:30 remind me to stand up", "move it to 9:15", "FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR;BYHOUR=9;BYMINUTE=15", ["2026-01-15T14:15:00.000Z", "2026-01-16T01:15:00.000Z"], /still repeats: .*every weekday at 09:15/],
  ["工作日 keeps its days", "工作日早上8点半提醒我站起来", "改到9点15分", "FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR;BYHOUR=9;BYMINUTE=15", ["2026-01-15T14:15:00.000Z", "2026-01-16T01:15:00.000Z"], /仍会重复：.*工作日 09:15/],
  ["a weekly day moves to the day named", "every Monday at 9 remind me to plan the week", "move it to Friday at 10", "FREQ=WEEKLY;BYDAY=FR;BYHOUR=10;BYMINUTE=0", ["2026-01-16T15:00:00.000Z", "2026-01-16T02:00:00.000Z"], /still repeats: .*every Friday at 10:00/],
  ["每周一 moves to 周五", "每周一早上9点提醒我做计划", "改到周五上午10点", "FREQ=WEEKLY;BYDAY=FR;BYHOUR=10;BYMINUTE=0", ["2026-01-16T15:00:00.000Z", "2026-01-16T02:00:00.000Z"], /仍会重复：.*每周五 10:00/],
  ["every 2 hours starts again at the time named", "every 2 hours remind me to drink water", "move it to 8pm", "FREQ=HOURLY;INTERVAL=2", ["2026-01-16T01:00:00.000Z", "2026-01-15T12:00:00.000Z"], /still repeats: .*every 2 hours; next: 20:00/],
  ["monthly, by words", "remind me on the first of every month to pay rent", "move the rent reminder to 8pm", "FREQ=MONTHLY;BYMONTHDAY=1;BYHOUR=20;BYMINUTE=0", ["2026-02-02T01:00:00.000Z", "2026-02-01T12:00:00.000Z"], /still repeats: .*monthly on day 1 at 20:00/],
  ["每月1号, by words", "每月1号提醒我交房租", "把交房租的提醒改到晚上8点", "FREQ=MONTHLY;BYMONTHDAY=1;BYHOUR=20;BYMINUTE=0", ["2026-02-02T01:00:00.000Z", "2026-02-01T12:00:00.000Z"], /仍会重复：.*每月1日 20:00/],
];

for (const [name, create, move, rrule, [ny, sh], reply] of MOVES) {
  for (const [zone, next] of [[NY, ny], [SH, sh]] as const) {
    Deno.test(`a move keeps a series repeating at the new time: ${name} (${zone}, real schedule)`, async () => {
      await using w = await world(zone);
      await w.say(create);
      const before = series(w.records());
      const from = w.h.session.events().length;
      const said = await w.say(move);
      const updates = w.callsSince(from).filter((c) => c.name === "schedule_update");
      assert.equal(updates.length, 1, "one schedule_update");
      assert.ok(
        !("at" in updates[0]!.args) && "repeat" in updates[0]!.args,
        JSON.stringify(updates[0]),
      );
      const after = series(w.records());
      assert.equal(after.id, before.id, "the same reminder");
      assert.equal(after.prompt, before.prompt);
      assert.equal(after.rrule, rrule);
      assert.equal(after.timeZone, zone, "the series keeps its zone");
      assert.equal(after.scheduledAt, next);
      assert.match(said, reply instanceof RegExp ? reply : reply[zone]!);
    });
  }
} // deno-fmt-ignore

for (
  const [lang, create, move, words] of [
    ["English", "every weekday at 8:30 remind me to stand up", "move it to tomorrow at 9", /^That reminder repeats every weekday at 08:30 \(.+\), so I haven't changed it: /],
    ["Chinese", "工作日早上8点半提醒我站起来", "改到明天早上9点", /^这个提醒按“工作日 08:30（.+）”重复，我没有修改：/],
  ] as const
) {
  for (const zone of [NY, SH]) {
    Deno.test(`a dated move of a series on several days is refused with how to say it (${lang}, ${zone})`, async () => {
      await using w = await world(zone);
      await w.say(create);
      const before = series(w.records());
      const from = w.h.session.events().length;
      const reply = await w.say(move);
      assert.deepEqual(w.callsSince(from), [], "no call: nothing changed");
      assert.deepEqual(series(w.records()), before);
      assert.match(reply, words);
      assert.match(reply, lang === "English" ? /"move it to 8am".*"change it to every Friday at 10"/ : /“改到早上8点”.*“改成每周五上午10点”/);
    });
  }
} // deno-fmt-ignore

Deno.test("the refusal's examples are moves the model makes", async () => {
  await using w = await world(NY);
  await w.say("every weekday at 8:30 remind me to stand up");
  await w.say("change it to every Friday at 10");
  assert.equal(series(w.records()).rrule, "FREQ=WEEKLY;BYDAY=FR;BYHOUR=10;BYMINUTE=0");
  await w.say("改成每周五上午11点");
  assert.equal(series(w.records()).rrule, "FREQ=WEEKLY;BYDAY=FR;BYHOUR=11;BYMINUTE=0");
});

Deno.test("an update that changes the kind says so, both ways", async () => {
  const recurring = {
    ok: true,
    id: "sch_1",
    kind: "recurring",
    prompt: "stretch",
    scheduledAt: "2026-11-30T08:00:00.000Z",
    status: "scheduled",
    deliveryMode: "session-local",
    repeat: {
      rrule: "FREQ=DAILY;BYHOUR=9;BYMINUTE=0",
      timeZone: "Europe/Berlin",
      dtstart: "2026-11-30T09:00:00",
      text: { en: "daily at 09:00 (Europe/Berlin)", zh: "每天 09:00（Europe/Berlin）" },
    },
  };
  const oneOff = {
    ok: true,
    id: "sch_1",
    kind: "at",
    prompt: "stretch",
    scheduledAt: "2026-11-29T15:00:00.000Z",
    status: "scheduled",
    deliveryMode: "session-local",
  };
  const turn = (first: unknown, second: unknown, text: string) =>
    complete([
      user("x"),
      called("call_1", "schedule_create", {}),
      result("call_1", first),
      { role: "assistant", content: "ok" },
      user(text),
      called("call_2", "schedule_update", { id: "sch_1" }),
      result("call_2", second),
    ], { tools: TOOLS_V2 });
  assert.match(
    (await turn(recurring, oneOff, "remind me at 4pm to stretch")).text,
    /^Updated — it no longer repeats: I'll remind you to stretch at 16:00 \(Europe\/Berlin\)\./,
  );
  assert.match(
    (await turn(recurring, oneOff, "下午4点提醒我伸展")).text,
    /^已更新——不再重复：我会在 16:00（Europe\/Berlin） 提醒你：stretch。/,
  );
  assert.match(
    (await turn(oneOff, recurring, "every day at 9 remind me to stretch")).text,
    /^Updated — it now repeats: I'll remind you to stretch, repeating daily at 09:00/,
  );
  assert.match(
    (await turn(oneOff, recurring, "每天早上9点提醒我伸展")).text,
    /^已更新——改为重复：我会提醒你：stretch（重复：每天 09:00/,
  );
}); // deno-fmt-ignore

Deno.test("a move of a reminder known only by id lists first, so a series is never sent a one-off time", async () => {
  const listed = {
    ok: true, deliveryMode: "session-local", schedules: [{
      id: "sch_9", kind: "recurring", prompt: "stretch", scheduledAt: "2026-11-30T08:00:00.000Z", status: "scheduled",
      repeat: { rrule: "FREQ=DAILY;BYHOUR=9;BYMINUTE=0", timeZone: "Europe/Berlin", dtstart: "2026-11-30T09:00:00" },
    }],
  };
  const first = await complete([user("move sch_9 to 4pm")], { tools: TOOLS_V2 });
  assert.deepEqual(calls(first).map((c) => c.name), ["schedule_list"]);
  const second = await complete([user("move sch_9 to 4pm"), called("call_1", "schedule_list", {}), result("call_1", listed)], { tools: TOOLS_V2 });
  assert.deepEqual(calls(second).map((c) => [c.name, c.args]), [["schedule_update", {
    id: "sch_9",
    repeat: { rrule: "FREQ=DAILY;BYHOUR=16;BYMINUTE=0", start: { date: "2026-11-29", time: "16:00" }, time_zone: "Europe/Berlin" },
  }]]);
  // An id the list does not hold: the update goes ahead, and the tool says what became of it.
  const gone = await complete([user("move sch_8 to 4pm"), called("call_1", "schedule_list", {}), result("call_1", listed)], { tools: TOOLS_V2 });
  assert.deepEqual(calls(gone).map((c) => [c.name, c.args]), [["schedule_update", { id: "sch_8", at: { date: "2026-11-29", time: "16:00" } }]]);
}); // deno-fmt-ignore

// Snooze of a series: what the tool answers.

for (
  const [lang, create, snooze, words, not] of [
    ["English", "every day at 9 remind me to take my vitamins", "snooze it 10 minutes", /^That repeating reminder hasn't fired yet, so there's nothing to snooze; it still repeats as before\. To change when it fires, say e\.g\. "move it to 8am"\.$/, /no longer active/],
    ["English", "every day at 9 remind me to take my vitamins", "remind me again in 10 minutes", /^That repeating reminder hasn't fired yet/, /no longer active/],
    ["Chinese", "每天早上9点提醒我吃维生素", "再提醒我一次 10分钟后", /^这个重复提醒还没有触发过，没有可以推迟的那一次；它仍按原来的时间重复。要改时间，可以说“改到早上8点”。$/, /已不再有效/],
    ["Chinese", "每天早上9点提醒我吃维生素", "推迟10分钟", /^这个重复提醒还没有触发过/, /已不再有效/],
  ] as const
) {
  for (const zone of [NY, SH]) {
    Deno.test(`a snooze of a series that has not fired says so, not "no longer active": "${snooze}" (${lang}, ${zone})`, async () => {
      await using w = await world(zone);
      await w.say(create);
      const before = series(w.records());
      const from = w.h.session.events().length;
      const reply = await w.say(snooze);
      assert.deepEqual(w.callsSince(from).map((c) => c.name), ["schedule_snooze"]);
      const results = w.h.session.events(from).filter((e) => e.type === "tool/result");
      assert.match(JSON.stringify(results.at(-1)?.data), /schedule_not_active.*has not fired yet/);
      assert.deepEqual(series(w.records()), before, "nothing changed");
      assert.match(reply, words);
      assert.doesNotMatch(reply, not);
    });
  }
} // deno-fmt-ignore

for (
  const [lang, create, again, words] of [
    ["English", "remind me every minute to blink", "remind me again in 10 minutes", /^Snoozed — I'll remind you to blink at /],
    ["Chinese", "每分钟提醒我眨眼", "再提醒我一次 10分钟后", /^已推迟——我会在 .+ 提醒你：眨眼。/],
    ["Chinese", "每分钟提醒我眨眼", "10分钟后再提醒我一次", /^已推迟——我会在 .+ 提醒你：眨眼。/],
  ] as const
) {
  for (const zone of [NY, SH]) {
    Deno.test(`"${again}" snoozes the occurrence just delivered (${lang}, ${zone}, real schedule)`, async () => {
      await using w = await world(zone);
      await w.say(create);
      const [blink] = w.records();
      await w.fireOnce();
      const reply = await w.say(again);
      const snooze = w.records().find((r) => r.kind !== "recurring");
      assert.equal(snooze?.snoozeOf?.id, blink!.id, "a snooze of the series");
      assert.equal(Date.parse(snooze!.scheduledAt) - w.h.clock.now(), 600_000, "in 10 minutes");
      assert.equal(w.records().length, 2, "no new reminder");
      assert.match(reply, words);
    });
  }
} // deno-fmt-ignore

// Monthly on the 29th–31st: months without that day are skipped, and the reply says so.

for (
  const [create, note] of [
    ["remind me on the 31st of every month to back up", / Months without a 31st are skipped; say "on the last day of every month" to be reminded every month\. /],
    ["remind me on the thirtieth of every month to back up", / Months without a 30th are skipped; /],
    ["每月31号提醒我备份", /没有31号的月份会跳过；想每个月都提醒，可以说“每月最后一天”。/],
  ] as const
) {
  for (const zone of [NY, SH]) {
    Deno.test(`"${create}" says months without that day are skipped (${zone}, real schedule)`, async () => {
      await using w = await world(zone);
      const reply = await w.say(create);
      assert.match(series(w.records()).rrule, /BYMONTHDAY=3[01]/);
      assert.match(reply, note);
    });
  }
} // deno-fmt-ignore

for (
  const [create, words] of [
    ["remind me on the last day of every month to file expenses", /repeating monthly on the last day at 09:00 \(/],
    ["每月最后一天提醒我对账", /重复：每月最后一天 09:00（/],
    ["remind me on the 15th of every month to pay the card", /repeating monthly on day 15 at 09:00 \(/],
  ] as const
) {
  for (const zone of [NY, SH]) {
    Deno.test(`"${create}" fires every month and says no skip (${zone}, real schedule)`, async () => {
      await using w = await world(zone);
      const reply = await w.say(create);
      series(w.records());
      assert.match(reply, words);
      assert.doesNotMatch(reply, /skipped|跳过|day -1|-1日/);
    });
  }
} // deno-fmt-ignore

Deno.test("monthly started on the 29th sets the 29th and says short months are skipped", async () => {
  // The fixtures' clock: Sunday 29 November 2026 in Berlin.
  const create = await complete([user("remind me monthly to pay rent")], { tools: TOOLS_V2 });
  const args = calls(create)[0]?.args;
  assert.equal(args?.repeat.rrule, "FREQ=MONTHLY;BYMONTHDAY=29;BYHOUR=9;BYMINUTE=0");
  const value = {
    ok: true, id: "sch_1", kind: "recurring", prompt: "pay rent", scheduledAt: "2026-12-29T08:00:00.000Z", status: "scheduled",
    deliveryMode: "session-local",
    repeat: { rrule: args.repeat.rrule, timeZone: "Europe/Berlin", dtstart: "2026-12-29T09:00:00",
      text: { en: "monthly on day 29 at 09:00 (Europe/Berlin)", zh: "每月29日 09:00（Europe/Berlin）" } },
  };
  const en = await complete([user("remind me monthly to pay rent"), called("call_1", "schedule_create", {}), result("call_1", value)], { tools: TOOLS_V2 });
  assert.match(en.text, /repeating monthly on day 29 at 09:00 \(Europe\/Berlin\); first at 2026-12-29 09:00 \(Europe\/Berlin\)\. Months without a 29th are skipped; say "on the last day of every month" to be reminded every month\. This reminder is session-local/);
  const zh = await complete([user("每月一次提醒我交房租"), called("call_1", "schedule_create", {}), result("call_1", { ...value, prompt: "交房租" })], { tools: TOOLS_V2 });
  assert.match(zh.text, /首次：2026-12-29 09:00（Europe\/Berlin））。没有29号的月份会跳过；想每个月都提醒，可以说“每月最后一天”。这个提醒仅在本会话内有效/);
});
