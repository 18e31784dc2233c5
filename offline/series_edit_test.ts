/**
 * Editing a repeating reminder by words (README "Configuration"), English and Chinese: its time
 * ("change my standup reminder to 10:00" / "把站会提醒改到10点"), its text ("rename the standup
 * reminder to daily sync" / "把站会提醒的内容改成每日同步") and its rule ("change my standup
 * reminder to every Tuesday at 10" / "把站会提醒改成每周二上午10点"), each one `schedule_update`
 * of the same id, through the real schedule tools. Yearly series are tested on the call the
 * model makes. Pause, resume and skip run through the real tools too.
 *
 * The harness clock is 2026-01-15T08:00Z: Thursday 03:00 in New York, Thursday 16:00 in Shanghai.
 */
import assert from "node:assert/strict";
import { world } from "./_world_test.ts";
import { called, calls, complete, result, TOOLS_V2, user } from "./_fixtures_test.ts";

const NY = "America/New_York";
const SH = "Asia/Shanghai";

type Row = readonly [
  lang: string,
  create: string,
  edit: string,
  prompt: string,
  rrule: string,
  reply: RegExp,
];

// deno-fmt-ignore
const EDITS: readonly Row[] = [
  ["English, time", "every weekday at 9 remind me to join the standup", "change my standup reminder to 10:00", "join the standup", "FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR;BYHOUR=10;BYMINUTE=0", /^Updated — it still repeats: I'll remind you to join the standup, repeating every weekday at 10:00/],
  ["Chinese, time", "工作日早上9点提醒我参加站会", "把站会提醒改到10点", "参加站会", "FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR;BYHOUR=10;BYMINUTE=0", /^已更新——仍会重复：我会提醒你：参加站会（重复：工作日 10:00/],
  ["English, text", "every weekday at 9 remind me to join the standup", "rename the standup reminder to daily sync", "daily sync", "FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR;BYHOUR=9;BYMINUTE=0", /^Updated — it still repeats: I'll remind you to daily sync, repeating every weekday at 09:00/],
  ["English, text (say)", "every weekday at 9 remind me to join the standup", "change my standup reminder to say “daily sync”", "daily sync", "FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR;BYHOUR=9;BYMINUTE=0", /^Updated — it still repeats: I'll remind you to daily sync/],
  ["Chinese, text", "工作日早上9点提醒我参加站会", "把站会提醒的内容改成每日同步", "每日同步", "FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR;BYHOUR=9;BYMINUTE=0", /^已更新——仍会重复：我会提醒你：每日同步（重复：工作日 09:00/],
  ["Chinese, text (rename)", "工作日早上9点提醒我参加站会", "把站会提醒改名为每日同步", "每日同步", "FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR;BYHOUR=9;BYMINUTE=0", /^已更新——仍会重复：我会提醒你：每日同步/],
  ["English, rule", "every weekday at 9 remind me to join the standup", "change my standup reminder to every Tuesday at 10", "join the standup", "FREQ=WEEKLY;BYDAY=TU;BYHOUR=10;BYMINUTE=0", /^Updated — it still repeats: I'll remind you to join the standup, repeating every Tuesday at 10:00/],
  ["Chinese, rule", "工作日早上9点提醒我参加站会", "把站会提醒改成每周二上午10点", "参加站会", "FREQ=WEEKLY;BYDAY=TU;BYHOUR=10;BYMINUTE=0", /^已更新——仍会重复：我会提醒你：参加站会（重复：每周二 10:00/],
  ["English, rule (ordinal)", "every weekday at 9 remind me to join the standup", "change my standup reminder to the first Monday of every month at 9", "join the standup", "FREQ=MONTHLY;BYDAY=1MO;BYHOUR=9;BYMINUTE=0", /^Updated — it still repeats: I'll remind you to join the standup, repeating/],
  ["Chinese, rule (ordinal)", "工作日早上9点提醒我参加站会", "把站会提醒改成每月最后一个周五上午9点", "参加站会", "FREQ=MONTHLY;BYDAY=-1FR;BYHOUR=9;BYMINUTE=0", /^已更新——仍会重复：我会提醒你：参加站会（重复：/],
];

for (const [lang, create, edit, prompt, rrule, reply] of EDITS) {
  for (const zone of [NY, SH]) {
    Deno.test(`an edit is one schedule_update of the same series: ${lang} (${zone}, real schedule)`, async () => {
      await using w = await world(zone);
      await w.say(create);
      const [before] = w.records();
      const from = w.h.session.events().length;
      const said = await w.say(edit);
      const updates = w.callsSince(from).filter((c) => c.name === "schedule_update");
      assert.equal(updates.length, 1, JSON.stringify(w.callsSince(from)));
      const records = w.records();
      assert.equal(records.length, 1);
      const after = records[0]!;
      assert.equal(after.id, before!.id, "the same reminder");
      assert.equal(after.kind, "recurring");
      assert.equal(after.prompt, prompt);
      assert.equal(after.kind === "recurring" && after.rrule, rrule);
      assert.match(said, reply);
    });
  }
} // deno-fmt-ignore

const BIRTHDAY = {
  id: "sch_4",
  kind: "recurring",
  prompt: "call mum",
  scheduledAt: "2027-06-05T07:00:00.000Z",
  status: "scheduled",
  repeat: { rrule: "FREQ=YEARLY;BYMONTH=6;BYMONTHDAY=5;BYHOUR=9;BYMINUTE=0", timeZone: "Europe/Berlin", dtstart: "2027-06-05T09:00:00" },
}; // deno-fmt-ignore

for (
  const [text, repeat] of [
    ["move the call mum reminder to 8pm", { rrule: "FREQ=YEARLY;BYMONTH=6;BYMONTHDAY=5;BYHOUR=20;BYMINUTE=0", start: { date: "2026-11-29", time: "20:00" }, time_zone: "Europe/Berlin" }],
    ["把call mum的提醒改到晚上8点", { rrule: "FREQ=YEARLY;BYMONTH=6;BYMONTHDAY=5;BYHOUR=20;BYMINUTE=0", start: { date: "2026-11-29", time: "20:00" }, time_zone: "Europe/Berlin" }],
    ["change the call mum reminder to every year on June 6", { rrule: "FREQ=YEARLY;BYMONTH=6;BYMONTHDAY=6;BYHOUR=9;BYMINUTE=0", start: { date: "2027-06-06", time: "09:00" } }],
    ["把call mum的提醒改成每年6月6日", { rrule: "FREQ=YEARLY;BYMONTH=6;BYMONTHDAY=6;BYHOUR=9;BYMINUTE=0", start: { date: "2027-06-06", time: "09:00" } }],
    ["move the call mum reminder to June 6 at 10", { rrule: "FREQ=YEARLY;BYMONTH=6;BYMONTHDAY=6;BYHOUR=10;BYMINUTE=0", start: { date: "2027-06-06", time: "10:00" }, time_zone: "Europe/Berlin" }],
  ] as const
) {
  Deno.test(`a yearly series keeps its rule in a move or an edit: "${text}" (the call only)`, async () => {
    const messages = [
      user(text),
      called("call_1", "schedule_list", {}),
      result("call_1", { ok: true, schedules: [BIRTHDAY] }),
    ];
    assert.deepEqual(calls(await complete(messages, { tools: TOOLS_V2 })).map((c) => [c.name, c.args]), [
      ["schedule_update", { id: "sch_4", repeat }],
    ]);
  });
}

for (
  const [lang, create, pause, resume, skip] of [
    [
      "English",
      "every weekday at 9 remind me to join the standup",
      "pause my standup reminder",
      "resume my standup reminder",
      "skip the standup",
    ],
    ["Chinese", "工作日早上9点提醒我参加站会", "暂停站会提醒", "恢复站会提醒", "跳过下一次站会"],
  ] as const
) {
  Deno.test({
    name: `pause, resume and skip by words through the real schedule tools (${lang})`,
    fn: async () => {
      await using w = await world(SH);
      await w.say(create);
      const [series] = w.records();
      for (
        const [text, tool, words] of [[pause, "schedule_pause", /Paused|已暂停/], [
          resume,
          "schedule_resume",
          /Resumed|已恢复/,
        ], [skip, "schedule_skip", /Skipped|已跳过/]] as const
      ) {
        const from = w.h.session.events().length;
        const said = await w.say(text);
        assert.deepEqual(w.callsSince(from).filter((c) => c.name === tool).map((c) => c.args), [{
          id: series!.id,
        }], text);
        assert.match(said, words, text);
      }
    },
  });
} // deno-fmt-ignore
