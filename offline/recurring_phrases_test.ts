/**
 * The recurring phrases of the keyless model as one table: each phrase, read at
 * a fixed clock in two zones, gives an RRULE and a first occurrence, or an honest refusal.
 * Frequency-only phrases ("once a week", "每周一次", "monthly", "每两周") anchor on today in the
 * session zone: weekly ones repeat on today's weekday (`BYDAY`), monthly ones on today's day of
 * the month (`BYMONTHDAY`), at the named time or 09:00, like "daily" (README "Configuration").
 * A named weekday ("every Friday", "每周五") keeps its day. "Twice a week" names no days (refused
 * with a hint to name them), "twice a day" no times, and "biweekly" means two things: each is
 * refused, never guessed. Yearly and ordinal repeats ("every year on March 3", "last Friday of
 * every month") have their own table, calendar_phrases_test.ts.
 *
 * Every expected rule is checked against the schedule engine too: it is canonical, and the
 * first occurrence the engine computes after the clock, from DTSTART = the model's `start`, is
 * that start (so the reminder the tools store fires when the table says).
 */
import assert from "node:assert/strict";
import { assertStartIsFirst, calls, complete, TOOLS_V2, user } from "./_fixtures_test.ts";
import { parseIntent } from "./parse.ts";
import type { CannotReason } from "./recurring.ts";

// Fixed clock, 2026-12-02T23:30Z: Wednesday 2 December 18:30 in New York (EST), Thursday
// 3 December 07:30 in Shanghai. The zones disagree on the weekday and the day of the month,
// 09:00 has passed in New York but not in Shanghai, 20:00 is still ahead in both, and 07:00 has
// passed in both.
const NOW = Date.parse("2026-12-02T23:30:00Z");
const NY = "America/New_York";
const SH = "Asia/Shanghai";

/** An expected rule and its first occurrence, local `YYYY-MM-DDTHH:MM` in the zone. */
type Want = readonly [rrule: string, first: string];
/** A phrase, its prompt and what it gives in New York and in Shanghai; or a refusal. */
type Row =
  | readonly [text: string, prompt: string, ny: Want, sh: Want]
  | readonly [text: string, cannot: CannotReason];

const D9 = "BYHOUR=9;BYMINUTE=0";
const E8 = "BYHOUR=20;BYMINUTE=0";

const ROWS: readonly Row[] = [
  // Weekly, no day named: today's weekday (New York Wednesday, Shanghai Thursday).
  ["remind me once a week to water the plants", "water the plants", [
    `FREQ=WEEKLY;BYDAY=WE;${D9}`,
    "2026-12-09T09:00",
  ], [`FREQ=WEEKLY;BYDAY=TH;${D9}`, "2026-12-03T09:00"]],
  ["remind me weekly to call mom", "call mom", [`FREQ=WEEKLY;BYDAY=WE;${D9}`, "2026-12-09T09:00"], [
    `FREQ=WEEKLY;BYDAY=TH;${D9}`,
    "2026-12-03T09:00",
  ]],
  ["remind me every week at 8pm to take out the trash", "take out the trash", [
    `FREQ=WEEKLY;BYDAY=WE;${E8}`,
    "2026-12-02T20:00",
  ], [`FREQ=WEEKLY;BYDAY=TH;${E8}`, "2026-12-03T20:00"]],
  ["each week at 7am remind me to plan", "plan", [
    "FREQ=WEEKLY;BYDAY=WE;BYHOUR=7;BYMINUTE=0",
    "2026-12-09T07:00",
  ], ["FREQ=WEEKLY;BYDAY=TH;BYHOUR=7;BYMINUTE=0", "2026-12-10T07:00"]],
  ["每周一次提醒我浇花", "浇花", [`FREQ=WEEKLY;BYDAY=WE;${D9}`, "2026-12-09T09:00"], [
    `FREQ=WEEKLY;BYDAY=TH;${D9}`,
    "2026-12-03T09:00",
  ]],
  ["每周提醒我打扫房间", "打扫房间", [`FREQ=WEEKLY;BYDAY=WE;${D9}`, "2026-12-09T09:00"], [
    `FREQ=WEEKLY;BYDAY=TH;${D9}`,
    "2026-12-03T09:00",
  ]],
  ["每星期一次提醒我给妈妈打电话", "给妈妈打电话", [
    `FREQ=WEEKLY;BYDAY=WE;${D9}`,
    "2026-12-09T09:00",
  ], [`FREQ=WEEKLY;BYDAY=TH;${D9}`, "2026-12-03T09:00"]],
  ["每礼拜一次提醒我洗车", "洗车", [`FREQ=WEEKLY;BYDAY=WE;${D9}`, "2026-12-09T09:00"], [
    `FREQ=WEEKLY;BYDAY=TH;${D9}`,
    "2026-12-03T09:00",
  ]],
  ["一周一次提醒我换床单", "换床单", [`FREQ=WEEKLY;BYDAY=WE;${D9}`, "2026-12-09T09:00"], [
    `FREQ=WEEKLY;BYDAY=TH;${D9}`,
    "2026-12-03T09:00",
  ]],
  ["每周晚上8点提醒我倒垃圾", "倒垃圾", [`FREQ=WEEKLY;BYDAY=WE;${E8}`, "2026-12-02T20:00"], [
    `FREQ=WEEKLY;BYDAY=TH;${E8}`,
    "2026-12-03T20:00",
  ]],
  // A named weekday keeps its day.
  ["remind me every Friday to submit the timesheet", "submit the timesheet", [
    `FREQ=WEEKLY;BYDAY=FR;${D9}`,
    "2026-12-04T09:00",
  ], [`FREQ=WEEKLY;BYDAY=FR;${D9}`, "2026-12-04T09:00"]],
  ["remind me every Monday at 8pm to plan the week", "plan the week", [
    `FREQ=WEEKLY;BYDAY=MO;${E8}`,
    "2026-12-07T20:00",
  ], [`FREQ=WEEKLY;BYDAY=MO;${E8}`, "2026-12-07T20:00"]],
  ["remind me once a week on Friday at 8pm to call grandma", "call grandma", [
    `FREQ=WEEKLY;BYDAY=FR;${E8}`,
    "2026-12-04T20:00",
  ], [`FREQ=WEEKLY;BYDAY=FR;${E8}`, "2026-12-04T20:00"]],
  ["每周五提醒我交周报", "交周报", [`FREQ=WEEKLY;BYDAY=FR;${D9}`, "2026-12-04T09:00"], [
    `FREQ=WEEKLY;BYDAY=FR;${D9}`,
    "2026-12-04T09:00",
  ]],
  ["每周一提醒我开会", "开会", [`FREQ=WEEKLY;BYDAY=MO;${D9}`, "2026-12-07T09:00"], [
    `FREQ=WEEKLY;BYDAY=MO;${D9}`,
    "2026-12-07T09:00",
  ]],
  ["每星期天提醒我去教堂", "去教堂", [`FREQ=WEEKLY;BYDAY=SU;${D9}`, "2026-12-06T09:00"], [
    `FREQ=WEEKLY;BYDAY=SU;${D9}`,
    "2026-12-06T09:00",
  ]],
  ["每礼拜三晚上8点提醒我上课", "上课", [`FREQ=WEEKLY;BYDAY=WE;${E8}`, "2026-12-02T20:00"], [
    `FREQ=WEEKLY;BYDAY=WE;${E8}`,
    "2026-12-09T20:00",
  ]],
  ["每周日一次提醒我去教堂", "去教堂", [`FREQ=WEEKLY;BYDAY=SU;${D9}`, "2026-12-06T09:00"], [
    `FREQ=WEEKLY;BYDAY=SU;${D9}`,
    "2026-12-06T09:00",
  ]],
  ["每周一次，周五晚上8点提醒我开会", "开会", [`FREQ=WEEKLY;BYDAY=FR;${E8}`, "2026-12-04T20:00"], [
    `FREQ=WEEKLY;BYDAY=FR;${E8}`,
    "2026-12-04T20:00",
  ]],
  // Every other week: today's weekday unless one is named.
  ["remind me every other week to pay the cleaner", "pay the cleaner", [
    `FREQ=WEEKLY;INTERVAL=2;BYDAY=WE;${D9}`,
    "2026-12-09T09:00",
  ], [`FREQ=WEEKLY;INTERVAL=2;BYDAY=TH;${D9}`, "2026-12-03T09:00"]],
  ["remind me every 2 weeks at 8pm to mow the lawn", "mow the lawn", [
    `FREQ=WEEKLY;INTERVAL=2;BYDAY=WE;${E8}`,
    "2026-12-02T20:00",
  ], [`FREQ=WEEKLY;INTERVAL=2;BYDAY=TH;${E8}`, "2026-12-03T20:00"]],
  ["remind me once every two weeks to change the filter", "change the filter", [
    `FREQ=WEEKLY;INTERVAL=2;BYDAY=WE;${D9}`,
    "2026-12-09T09:00",
  ], [`FREQ=WEEKLY;INTERVAL=2;BYDAY=TH;${D9}`, "2026-12-03T09:00"]],
  ["remind me every fortnight on Thursday to water the orchid", "water the orchid", [
    `FREQ=WEEKLY;INTERVAL=2;BYDAY=TH;${D9}`,
    "2026-12-03T09:00",
  ], [`FREQ=WEEKLY;INTERVAL=2;BYDAY=TH;${D9}`, "2026-12-03T09:00"]],
  ["隔周提醒我理发", "理发", [`FREQ=WEEKLY;INTERVAL=2;BYDAY=WE;${D9}`, "2026-12-09T09:00"], [
    `FREQ=WEEKLY;INTERVAL=2;BYDAY=TH;${D9}`,
    "2026-12-03T09:00",
  ]],
  ["每两周提醒我交报告", "交报告", [`FREQ=WEEKLY;INTERVAL=2;BYDAY=WE;${D9}`, "2026-12-09T09:00"], [
    `FREQ=WEEKLY;INTERVAL=2;BYDAY=TH;${D9}`,
    "2026-12-03T09:00",
  ]],
  ["每两周一次提醒我打扫", "打扫", [`FREQ=WEEKLY;INTERVAL=2;BYDAY=WE;${D9}`, "2026-12-09T09:00"], [
    `FREQ=WEEKLY;INTERVAL=2;BYDAY=TH;${D9}`,
    "2026-12-03T09:00",
  ]],
  // Several times a week: fine when the days are named, refused when they are not.
  ["remind me twice a week on Monday and Thursday to swim", "swim", [
    `FREQ=WEEKLY;BYDAY=MO,TH;${D9}`,
    "2026-12-03T09:00",
  ], [`FREQ=WEEKLY;BYDAY=MO,TH;${D9}`, "2026-12-03T09:00"]],
  [
    "每周两次，周一和周四提醒我游泳",
    "游泳",
    [`FREQ=WEEKLY;BYDAY=MO,TH;${D9}`, "2026-12-03T09:00"],
    [`FREQ=WEEKLY;BYDAY=MO,TH;${D9}`, "2026-12-03T09:00"],
  ],
  ["remind me twice a week to exercise", "which-days"],
  ["remind me 3 times a week to run", "which-days"],
  ["remind me biweekly to pay the bills", "unreadable"],
  ["每周两次提醒我锻炼", "which-days"],
  ["每周三次提醒我跑步", "which-days"],
  ["一周两次提醒我健身", "which-days"],
  ["每周一两次提醒我复盘", "which-days"],
  // Monthly, no day named: today's day of the month (New York the 2nd, Shanghai the 3rd).
  ["remind me once a month to pay rent", "pay rent", [
    `FREQ=MONTHLY;BYMONTHDAY=2;${D9}`,
    "2027-01-02T09:00",
  ], [`FREQ=MONTHLY;BYMONTHDAY=3;${D9}`, "2026-12-03T09:00"]],
  ["remind me monthly at 8pm to back up the photos", "back up the photos", [
    `FREQ=MONTHLY;BYMONTHDAY=2;${E8}`,
    "2026-12-02T20:00",
  ], [`FREQ=MONTHLY;BYMONTHDAY=3;${E8}`, "2026-12-03T20:00"]],
  ["remind me every month to read the meter", "read the meter", [
    `FREQ=MONTHLY;BYMONTHDAY=2;${D9}`,
    "2027-01-02T09:00",
  ], [`FREQ=MONTHLY;BYMONTHDAY=3;${D9}`, "2026-12-03T09:00"]],
  ["remind me every 2 months to check the smoke alarm", "check the smoke alarm", [
    `FREQ=MONTHLY;INTERVAL=2;BYMONTHDAY=2;${D9}`,
    "2027-01-02T09:00",
  ], [`FREQ=MONTHLY;INTERVAL=2;BYMONTHDAY=3;${D9}`, "2026-12-03T09:00"]],
  ["remind me every month on the 15th to pay the card", "pay the card", [
    `FREQ=MONTHLY;BYMONTHDAY=15;${D9}`,
    "2026-12-15T09:00",
  ], [`FREQ=MONTHLY;BYMONTHDAY=15;${D9}`, "2026-12-15T09:00"]],
  ["每月一次提醒我交房租", "交房租", [`FREQ=MONTHLY;BYMONTHDAY=2;${D9}`, "2027-01-02T09:00"], [
    `FREQ=MONTHLY;BYMONTHDAY=3;${D9}`,
    "2026-12-03T09:00",
  ]],
  ["每个月提醒我还信用卡", "还信用卡", [`FREQ=MONTHLY;BYMONTHDAY=2;${D9}`, "2027-01-02T09:00"], [
    `FREQ=MONTHLY;BYMONTHDAY=3;${D9}`,
    "2026-12-03T09:00",
  ]],
  ["每月15号提醒我交水电费", "交水电费", [`FREQ=MONTHLY;BYMONTHDAY=15;${D9}`, "2026-12-15T09:00"], [
    `FREQ=MONTHLY;BYMONTHDAY=15;${D9}`,
    "2026-12-15T09:00",
  ]],
  ["remind me every month on Monday to review", "unreadable"],
  // Yearly and ordinal phrases: calendar_phrases_test.ts.
  // Daily, for comparison: 09:00 when no time is named.
  ["remind me daily to stretch", "stretch", [`FREQ=DAILY;${D9}`, "2026-12-03T09:00"], [
    `FREQ=DAILY;${D9}`,
    "2026-12-03T09:00",
  ]],
  ["remind me every day to drink water", "drink water", [`FREQ=DAILY;${D9}`, "2026-12-03T09:00"], [
    `FREQ=DAILY;${D9}`,
    "2026-12-03T09:00",
  ]],
  ["remind me once a day to meditate", "meditate", [`FREQ=DAILY;${D9}`, "2026-12-03T09:00"], [
    `FREQ=DAILY;${D9}`,
    "2026-12-03T09:00",
  ]],
  ["每天一次提醒我吃维生素", "吃维生素", [`FREQ=DAILY;${D9}`, "2026-12-03T09:00"], [
    `FREQ=DAILY;${D9}`,
    "2026-12-03T09:00",
  ]],
  ["每天早上8点提醒我吃药", "吃药", ["FREQ=DAILY;BYHOUR=8;BYMINUTE=0", "2026-12-03T08:00"], [
    "FREQ=DAILY;BYHOUR=8;BYMINUTE=0",
    "2026-12-03T08:00",
  ]],
  ["remind me every weekday at 8:30 to stand up", "stand up", [
    "FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR;BYHOUR=8;BYMINUTE=30",
    "2026-12-03T08:30",
  ], ["FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR;BYHOUR=8;BYMINUTE=30", "2026-12-03T08:30"]],
  ["remind me every other day at 8pm to water the fern", "water the fern", [
    `FREQ=DAILY;INTERVAL=2;${E8}`,
    "2026-12-02T20:00",
  ], [`FREQ=DAILY;INTERVAL=2;${E8}`, "2026-12-03T20:00"]],
  ["remind me once an hour to look away", "look away", ["FREQ=HOURLY", "2026-12-02T19:30"], [
    "FREQ=HOURLY",
    "2026-12-03T08:30",
  ]],
  ["remind me twice a day to take the pills", "which-times"],
  ["每天两次提醒我吃药", "which-times"],
  ["一天两次提醒我滴眼药水", "which-times"],
]; // deno-fmt-ignore

/** A compact form of what `parseIntent()` read, so a failure shows the whole reading. */
function reading(text: string, timeZone: string): string {
  const intent = parseIntent(text, { now: NOW, timeZone });
  if (intent.kind === "cannot-repeat") return `cannot: ${intent.reason}`;
  if (intent.kind !== "create") return intent.kind;
  const args = intent.args;
  if (!("repeat" in args) || args.repeat === undefined) {
    return `one-off ${JSON.stringify(args)}`;
  }
  const { rrule, start } = args.repeat;
  return `${args.prompt} | ${rrule} | ${start?.date}T${start?.time}`;
}

for (const row of ROWS) {
  if (row.length === 2) {
    const [text, reason] = row;
    Deno.test(`"${text}" is refused (${reason}), never a one-off or a guess`, () => {
      for (const zone of [NY, SH]) assert.equal(reading(text, zone), `cannot: ${reason}`, zone);
    });
    continue;
  }
  const [text, prompt, ny, sh] = row;
  for (const [zone, [rrule, first]] of [[NY, ny], [SH, sh]] as const) {
    Deno.test(`"${text}" in ${zone} is ${rrule} from ${first}`, () => {
      assert.equal(reading(text, zone), `${prompt} | ${rrule} | ${first}`);
      assertStartIsFirst(rrule, first, zone, NOW);
    });
  }
}

Deno.test("a weekly phrase with no day anchors on today in the zone the rule runs in", () => {
  // 2026-12-02T23:30Z is still Wednesday in Los Angeles but already Thursday in Tokyo.
  const read = (text: string) => reading(text, "America/Los_Angeles");
  assert.equal(
    read("remind me weekly at 9am Tokyo time to call Ken"),
    `call Ken | FREQ=WEEKLY;BYDAY=TH;${D9} | 2026-12-03T09:00`,
  );
  assert.equal(
    read("remind me weekly to call Ken"),
    `call Ken | FREQ=WEEKLY;BYDAY=WE;${D9} | 2026-12-09T09:00`,
  );
}); // deno-fmt-ignore

Deno.test("a monthly phrase on the 31st keeps the 31st (months without one are skipped)", () => {
  const now = Date.parse("2026-12-31T12:00:00Z"); // Thursday 31 December 20:00 in Shanghai
  const intent = parseIntent("每月一次提醒我对账", { now, timeZone: SH });
  assert.deepEqual(intent, {
    kind: "create",
    args: {
      prompt: "对账",
      repeat: {
        rrule: `FREQ=MONTHLY;BYMONTHDAY=31;${D9}`,
        start: { date: "2027-01-31", time: "09:00" },
      },
    },
  });
});

Deno.test("the offline model sets 每周一次 on today's weekday and asks about twice a week", async () => {
  // The fixtures' clock: Sunday 2026-11-29 09:15 in Berlin, 09:00 already passed.
  const weekly = await complete([user("每周一次提醒我浇花")], { tools: TOOLS_V2 });
  assert.deepEqual(calls(weekly), [{
    id: "call_1",
    name: "schedule_create",
    args: {
      prompt: "浇花",
      repeat: { rrule: `FREQ=WEEKLY;BYDAY=SU;${D9}`, start: { date: "2026-12-06", time: "09:00" } },
    },
  }]);
  for (const text of ["remind me twice a week to exercise", "每周两次提醒我锻炼"]) {
    const reply = await complete([user(text)], { tools: TOOLS_V2 });
    assert.deepEqual(reply.toolCalls, [], text);
    assert.match(reply.text, /doesn't say which days of the week|没有说是星期几/, text);
    assert.match(reply.text, /haven't set anything|没有设置任何提醒/, text);
    // The hint names the days, in a phrase the model reads as that repeat.
    const hint = /e\.g\. "(every Monday and Thursday at 9)"|例如“(每周一和周四早上9点)提醒我游泳”/
      .exec(reply.text);
    assert.ok(hint, reply.text);
    const said = hint[1] ? `remind me ${hint[1]} to swim` : `${hint[2]}提醒我游泳`;
    const repeat = parseIntent(said, { now: NOW, timeZone: SH });
    assert.equal(
      repeat.kind === "create" && "repeat" in repeat.args && repeat.args.repeat.rrule,
      `FREQ=WEEKLY;BYDAY=MO,TH;${D9}`,
    );
  }
}); // deno-fmt-ignore
