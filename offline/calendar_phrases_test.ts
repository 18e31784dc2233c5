/**
 * Yearly and ordinal phrases of the keyless model (README "Configuration"), English and Chinese, as
 * one table read at a fixed clock in New York and Shanghai: "every year on March 3" / "每年3月3日",
 * birthdays, "every year on the last Sunday of March" / "每年三月的最后一个周日", "last Friday of
 * every month" / "每月最后一个周五", "first Monday of every month" / "每个月的第一个星期一" (once
 * misread as the 1st with a prompt "Monday of"), "every other Tuesday" / "隔周二" and "the last
 * weekday of the month" / "每月最后一个工作日" (`BYSETPOS`). Each row asserts the
 * `schedule_create` call the model makes (name and arguments, canonical part order FREQ,
 * INTERVAL, BYMONTH, BYDAY, BYMONTHDAY, BYHOUR, BYMINUTE, BYSETPOS).
 *
 * The engine check (the rule is canonical and its first occurrence after the clock is the
 * model's start) runs for every row, YEARLY and BYSETPOS included (docs/recurring.md "Records").
 */
import assert from "node:assert/strict";
import {
  assertStartIsFirst,
  called,
  calls,
  DEC_NOW,
  NY,
  result,
  SH,
  TOOLS_V2,
  user,
} from "./_fixtures_test.ts";
import type { ModelMessage } from "@chime/agent";
import { OfflineModel } from "./model.ts";
import { parseIntent } from "./parse.ts";
import type { CannotReason } from "./recurring.ts";

/** An expected rule and its first occurrence, local `YYYY-MM-DDTHH:MM` in the zone. */
type Want = readonly [rrule: string, first: string];
type Row =
  | readonly [text: string, prompt: string, ny: Want, sh?: Want]
  | readonly [text: string, cannot: CannotReason];

const D9 = "BYHOUR=9;BYMINUTE=0";
const E8 = "BYHOUR=20;BYMINUTE=0";
const LAST_WEEKDAY = "FREQ=MONTHLY;BYDAY=MO,TU,WE,TH,FR;BYHOUR=9;BYMINUTE=0;BYSETPOS=-1";

// The clock: Wednesday 2 December 18:30 in New York, Thursday 3 December 07:30 in Shanghai.
const ROWS: readonly Row[] = [
  // A date of the year.
  ["remind me every year on March 3 to pay taxes", "pay taxes", [
    `FREQ=YEARLY;BYMONTH=3;BYMONTHDAY=3;${D9}`,
    "2027-03-03T09:00",
  ]],
  ["每年3月3日提醒我交税", "交税", [
    `FREQ=YEARLY;BYMONTH=3;BYMONTHDAY=3;${D9}`,
    "2027-03-03T09:00",
  ]],
  ["remind me every year on June 5 to call mum", "call mum", [
    `FREQ=YEARLY;BYMONTH=6;BYMONTHDAY=5;${D9}`,
    "2027-06-05T09:00",
  ]],
  ["每年6月5日提醒我给妈妈打电话", "给妈妈打电话", [
    `FREQ=YEARLY;BYMONTH=6;BYMONTHDAY=5;${D9}`,
    "2027-06-05T09:00",
  ]],
  ["remind me every June 5th at 8pm to call mum", "call mum", [
    `FREQ=YEARLY;BYMONTH=6;BYMONTHDAY=5;${E8}`,
    "2027-06-05T20:00",
  ]],
  ["每年的六月五号晚上8点提醒我给妈妈打电话", "给妈妈打电话", [
    `FREQ=YEARLY;BYMONTH=6;BYMONTHDAY=5;${E8}`,
    "2027-06-05T20:00",
  ]],
  ["remind me yearly on the 24th of December to wrap presents", "wrap presents", [
    `FREQ=YEARLY;BYMONTH=12;BYMONTHDAY=24;${D9}`,
    "2026-12-24T09:00",
  ]],
  ["每年12月24日提醒我包礼物", "包礼物", [
    `FREQ=YEARLY;BYMONTH=12;BYMONTHDAY=24;${D9}`,
    "2026-12-24T09:00",
  ]],
  // February 29: only leap years have one (RFC 5545 skips the others).
  ["remind me every year on February 29 to celebrate", "celebrate", [
    `FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=29;${D9}`,
    "2028-02-29T09:00",
  ]],
  ["每年2月29日提醒我庆祝", "庆祝", [
    `FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=29;${D9}`,
    "2028-02-29T09:00",
  ]],
  // No date named: today's, in the zone (New York the 2nd, 09:00 passed; Shanghai the 3rd).
  ["remind me every year to renew the passport", "renew the passport", [
    `FREQ=YEARLY;BYMONTH=12;BYMONTHDAY=2;${D9}`,
    "2027-12-02T09:00",
  ], [`FREQ=YEARLY;BYMONTH=12;BYMONTHDAY=3;${D9}`, "2026-12-03T09:00"]],
  ["每年提醒我交税", "交税", [`FREQ=YEARLY;BYMONTH=12;BYMONTHDAY=2;${D9}`, "2027-12-02T09:00"], [
    `FREQ=YEARLY;BYMONTH=12;BYMONTHDAY=3;${D9}`,
    "2026-12-03T09:00",
  ]],
  ["remind me once a year to see the dentist", "see the dentist", [
    `FREQ=YEARLY;BYMONTH=12;BYMONTHDAY=2;${D9}`,
    "2027-12-02T09:00",
  ], [`FREQ=YEARLY;BYMONTH=12;BYMONTHDAY=3;${D9}`, "2026-12-03T09:00"]],
  [
    "每年一次提醒我体检",
    "体检",
    [`FREQ=YEARLY;BYMONTH=12;BYMONTHDAY=2;${D9}`, "2027-12-02T09:00"],
    [`FREQ=YEARLY;BYMONTH=12;BYMONTHDAY=3;${D9}`, "2026-12-03T09:00"],
  ],
  ["remind me every 2 years to renew the licence", "renew the licence", [
    `FREQ=YEARLY;INTERVAL=2;BYMONTH=12;BYMONTHDAY=2;${D9}`,
    "2027-12-02T09:00",
  ], [`FREQ=YEARLY;INTERVAL=2;BYMONTH=12;BYMONTHDAY=3;${D9}`, "2026-12-03T09:00"]],
  // An ordinal weekday of a month of the year.
  ["remind me every year on the last Sunday of March to change the clocks", "change the clocks", [
    `FREQ=YEARLY;BYMONTH=3;BYDAY=-1SU;${D9}`,
    "2027-03-28T09:00",
  ]],
  ["每年三月的最后一个周日提醒我调钟", "调钟", [
    `FREQ=YEARLY;BYMONTH=3;BYDAY=-1SU;${D9}`,
    "2027-03-28T09:00",
  ]],
  ["remind me on the second Sunday of May every year to call mum", "call mum", [
    `FREQ=YEARLY;BYMONTH=5;BYDAY=2SU;${D9}`,
    "2027-05-09T09:00",
  ]],
  ["每年5月第二个星期日提醒我给妈妈打电话", "给妈妈打电话", [
    `FREQ=YEARLY;BYMONTH=5;BYDAY=2SU;${D9}`,
    "2027-05-09T09:00",
  ]],
  // An ordinal weekday of every month.
  ["remind me on the last Friday of every month to submit expenses", "submit expenses", [
    `FREQ=MONTHLY;BYDAY=-1FR;${D9}`,
    "2026-12-25T09:00",
  ]],
  ["每月最后一个周五提醒我交报销", "交报销", [`FREQ=MONTHLY;BYDAY=-1FR;${D9}`, "2026-12-25T09:00"]],
  ["remind me on the first Monday of every month to pay rent", "pay rent", [
    `FREQ=MONTHLY;BYDAY=1MO;${D9}`,
    "2026-12-07T09:00",
  ]],
  ["remind me first Monday of every month to pay rent", "pay rent", [
    `FREQ=MONTHLY;BYDAY=1MO;${D9}`,
    "2026-12-07T09:00",
  ]],
  ["每个月的第一个星期一提醒我交房租", "交房租", [
    `FREQ=MONTHLY;BYDAY=1MO;${D9}`,
    "2026-12-07T09:00",
  ]],
  ["remind me every month on the third Wednesday at 8pm to go to book club", "go to book club", [
    `FREQ=MONTHLY;BYDAY=3WE;${E8}`,
    "2026-12-16T20:00",
  ]],
  ["每月第三个周三晚上8点提醒我去读书会", "去读书会", [
    `FREQ=MONTHLY;BYDAY=3WE;${E8}`,
    "2026-12-16T20:00",
  ]],
  ["remind me every first Monday to pay rent", "pay rent", [
    `FREQ=MONTHLY;BYDAY=1MO;${D9}`,
    "2026-12-07T09:00",
  ]],
  ["remind me every last Friday to submit expenses", "submit expenses", [
    `FREQ=MONTHLY;BYDAY=-1FR;${D9}`,
    "2026-12-25T09:00",
  ]],
  // The last day of the year.
  ["remind me on the last day of every year to reflect", "reflect", [
    `FREQ=YEARLY;BYMONTH=12;BYMONTHDAY=31;${D9}`,
    "2026-12-31T09:00",
  ]],
  ["每年的最后一天提醒我写总结", "写总结", [
    `FREQ=YEARLY;BYMONTH=12;BYMONTHDAY=31;${D9}`,
    "2026-12-31T09:00",
  ]],
  // Every other weekday.
  ["remind me every other Tuesday to water the plants", "water the plants", [
    `FREQ=WEEKLY;INTERVAL=2;BYDAY=TU;${D9}`,
    "2026-12-08T09:00",
  ]],
  ["隔周二提醒我浇花", "浇花", [`FREQ=WEEKLY;INTERVAL=2;BYDAY=TU;${D9}`, "2026-12-08T09:00"]],
  // The last (first) weekday of the month: BYSETPOS over Monday to Friday.
  ["remind me on the last weekday of the month to send invoices", "send invoices", [
    LAST_WEEKDAY,
    "2026-12-31T09:00",
  ]],
  ["每月最后一个工作日提醒我发工资", "发工资", [LAST_WEEKDAY, "2026-12-31T09:00"]],
  ["remind me on the first working day of every month to file the report", "file the report", [
    `FREQ=MONTHLY;BYDAY=MO,TU,WE,TH,FR;${D9};BYSETPOS=1`,
    "2027-01-01T09:00",
  ]],
  ["每个月的第一个工作日提醒我交报表", "交报表", [
    `FREQ=MONTHLY;BYDAY=MO,TU,WE,TH,FR;${D9};BYSETPOS=1`,
    "2027-01-01T09:00",
  ]],
  // Which day? Never a guess.
  ["remind me every March to do the taxes", "yearly"],
  ["remind me every year on my birthday to celebrate", "yearly"],
  ["每年生日提醒我给妈妈打电话", "yearly"],
  ["remind me every year on February 30 to party", "unreadable"],
  ["remind me every 2nd Tuesday to water the plants", "unreadable"],
  ["remind me every year on the 15th to renew", "yearly"],
  ["remind me every year on Monday to renew", "unreadable"], // the 2nd of the month, or every other?
  ["每年2月30日提醒我聚会", "unreadable"],
]; // deno-fmt-ignore

function complete(text: string | readonly ModelMessage[], timeZone: string) {
  return new OfflineModel().complete({
    messages: typeof text === "string" ? [user(text)] : text,
    tools: TOOLS_V2,
    signal: new AbortController().signal,
    context: { now: DEC_NOW, timeZone },
  });
}

for (const row of ROWS) {
  if (row.length === 2) {
    const [text, reason] = row;
    Deno.test(`"${text}" is refused (${reason}) and sets nothing`, async () => {
      for (const zone of [NY, SH]) {
        assert.deepEqual(parseIntent(text, { now: DEC_NOW, timeZone: zone }), {
          kind: "cannot-repeat",
          reason,
        });
        const reply = await complete(text, zone);
        assert.deepEqual(reply.toolCalls, [], zone);
        assert.match(reply.text, /haven't set anything|没有设置任何提醒/);
      }
    });
    continue;
  }
  const [text, prompt, ny, sh = ny] = row;
  for (const [zone, [rrule, first]] of [[NY, ny], [SH, sh]] as const) {
    Deno.test(`"${text}" in ${zone}: schedule_create ${rrule} from ${first}`, async () => {
      const [date, time] = first.split("T");
      assert.deepEqual(calls(await complete(text, zone)), [{
        id: "call_1",
        name: "schedule_create",
        args: { prompt, repeat: { rrule, start: { date, time } } },
      }]);
    });
    Deno.test({
      name: `"${text}" in ${zone}: the engine's first occurrence is the model's start`,
      fn: () => assertStartIsFirst(rrule, first, zone, DEC_NOW),
    });
  }
} // deno-fmt-ignore

Deno.test("a yearly reminder's help names the date to say, in both languages", async () => {
  const en = await complete("remind me every March to do the taxes", NY);
  assert.match(en.text, /"every year on March 3"/);
  const zh = await complete("每年生日提醒我给妈妈打电话", SH);
  assert.match(zh.text, /“每年3月3日提醒我交税”/);
  // The hint's examples are phrases the model sets.
  for (const said of ["remind me every year on March 3 to pay taxes", "每年3月3日提醒我交税"]) {
    const intent = parseIntent(said, { now: DEC_NOW, timeZone: SH });
    assert.equal(intent.kind, "create", said);
  }
});

Deno.test("a yearly reminder on February 29 says the years without one are skipped (en, zh)", async () => {
  const value = {
    ok: true,
    id: "sch_1",
    kind: "recurring",
    prompt: "celebrate",
    scheduledAt: "2028-02-29T08:00:00.000Z",
    status: "scheduled",
    deliveryMode: "session-local",
    repeat: {
      rrule: `FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=29;${D9}`,
      timeZone: "Europe/Berlin",
      dtstart: "2028-02-29T09:00:00",
    },
  };
  for (
    const [text, words] of [
      [
        "remind me every year on February 29 to celebrate",
        /\. Years without a February 29 are skipped\. This reminder is session-local/,
      ],
      ["每年2月29日提醒我庆祝", /。没有2月29日的年份会跳过。这个提醒仅在本会话内有效/],
    ] as const
  ) {
    const messages = [user(text), called("call_1", "schedule_create", {}), result("call_1", value)];
    const reply = await complete(messages, "Europe/Berlin");
    assert.match(reply.text, words);
  }
}); // deno-fmt-ignore
