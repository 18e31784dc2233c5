import assert from "node:assert/strict";
import { type OfflineIntent, parseIntent } from "./parse.ts";
import { findTimeOfDay } from "./time_of_day.ts";

// Fixed clock: Sunday 2026-11-29 08:15 UTC = 09:15 in Berlin = 16:15 in Shanghai.
const NOW = Date.parse("2026-11-29T08:15:00Z");
const BER = "Europe/Berlin";
const SHA = "Asia/Shanghai";

const repeat = (
  prompt: string,
  rrule: string,
  date: string,
  time: string,
  time_zone?: string,
): OfflineIntent => ({
  kind: "create",
  args: {
    prompt,
    repeat: { rrule, start: { date, time }, ...(time_zone === undefined ? {} : { time_zone }) },
  },
});

const WORKWEEK = "BYDAY=MO,TU,WE,TH,FR";

/** The core phrases (README "Configuration" lists them) first, then everyday variants. */
const PHRASES: readonly [string, string, OfflineIntent][] = [
  ["remind me every minute to blink", BER, repeat("blink", "FREQ=MINUTELY", "2026-11-29", "09:16")],
  [
    "remind me every 2 hours to drink water",
    BER,
    repeat("drink water", "FREQ=HOURLY;INTERVAL=2", "2026-11-29", "11:15"),
  ],
  [
    "every day at 9 remind me to take my vitamins",
    BER,
    repeat("take my vitamins", "FREQ=DAILY;BYHOUR=9;BYMINUTE=0", "2026-11-30", "09:00"),
  ],
  [
    "every weekday at 8:30 remind me to stand up",
    BER,
    repeat("stand up", `FREQ=WEEKLY;${WORKWEEK};BYHOUR=8;BYMINUTE=30`, "2026-11-30", "08:30"),
  ],
  [
    "remind me every Monday to send the report",
    BER,
    repeat("send the report", "FREQ=WEEKLY;BYDAY=MO;BYHOUR=9;BYMINUTE=0", "2026-11-30", "09:00"),
  ],
  [
    "每天早上8点提醒我吃药",
    SHA,
    repeat("吃药", "FREQ=DAILY;BYHOUR=8;BYMINUTE=0", "2026-11-30", "08:00"),
  ],
  ["每隔2小时提醒我喝水", SHA, repeat("喝水", "FREQ=HOURLY;INTERVAL=2", "2026-11-29", "18:15")],
  [
    "工作日早上9点提醒我打卡",
    SHA,
    repeat("打卡", `FREQ=WEEKLY;${WORKWEEK};BYHOUR=9;BYMINUTE=0`, "2026-11-30", "09:00"),
  ],
  [
    "每周一提醒我交周报",
    SHA,
    repeat("交周报", "FREQ=WEEKLY;BYDAY=MO;BYHOUR=9;BYMINUTE=0", "2026-11-30", "09:00"),
  ],
  // Variants.
  [
    "remind me daily at 7am to run",
    BER,
    repeat("run", "FREQ=DAILY;BYHOUR=7;BYMINUTE=0", "2026-11-30", "07:00"),
  ],
  [
    "remind me every day at 10 to stretch",
    BER,
    repeat("stretch", "FREQ=DAILY;BYHOUR=10;BYMINUTE=0", "2026-11-29", "10:00"),
  ],
  [
    "every evening at 7 remind me to read",
    BER,
    repeat("read", "FREQ=DAILY;BYHOUR=19;BYMINUTE=0", "2026-11-29", "19:00"),
  ],
  [
    "remind me every other day at 6pm to water the plants",
    BER,
    repeat("water the plants", "FREQ=DAILY;INTERVAL=2;BYHOUR=18;BYMINUTE=0", "2026-11-29", "18:00"),
  ],
  [
    "remind me every Monday and Friday at 5pm to file hours",
    BER,
    repeat("file hours", "FREQ=WEEKLY;BYDAY=MO,FR;BYHOUR=17;BYMINUTE=0", "2026-11-30", "17:00"),
  ],
  [
    "remind me every working day at 5pm to log off",
    BER,
    repeat("log off", `FREQ=WEEKLY;${WORKWEEK};BYHOUR=17;BYMINUTE=0`, "2026-11-30", "17:00"),
  ],
  [
    "remind me on weekends at 10 to call home",
    BER,
    repeat("call home", "FREQ=WEEKLY;BYDAY=SA,SU;BYHOUR=10;BYMINUTE=0", "2026-11-29", "10:00"),
  ],
  [
    "every month on the 15th remind me to pay rent",
    BER,
    repeat("pay rent", "FREQ=MONTHLY;BYMONTHDAY=15;BYHOUR=9;BYMINUTE=0", "2026-12-15", "09:00"),
  ],
  [
    "remind me every half hour to look away",
    BER,
    repeat("look away", "FREQ=MINUTELY;INTERVAL=30", "2026-11-29", "09:45"),
  ],
  [
    "every 120 seconds remind me to breathe",
    BER,
    repeat("breathe", "FREQ=MINUTELY;INTERVAL=2", "2026-11-29", "09:17"),
  ],
  [
    "remind me every day at 9 for 5 times to floss",
    BER,
    repeat("floss", "FREQ=DAILY;BYHOUR=9;BYMINUTE=0;COUNT=5", "2026-11-30", "09:00"),
  ],
  [
    "remind me every day at 9am Tokyo time to call Ken",
    BER,
    repeat("call Ken", "FREQ=DAILY;BYHOUR=9;BYMINUTE=0", "2026-11-30", "09:00", "Asia/Tokyo"),
  ],
  [
    "每周一三五晚上8点提醒我跑步",
    SHA,
    repeat("跑步", "FREQ=WEEKLY;BYDAY=MO,WE,FR;BYHOUR=20;BYMINUTE=0", "2026-11-30", "20:00"),
  ],
  [
    "每晚9点提醒我关灯",
    SHA,
    repeat("关灯", "FREQ=DAILY;BYHOUR=21;BYMINUTE=0", "2026-11-29", "21:00"),
  ],
  [
    "每月1号提醒我交房租",
    SHA,
    repeat("交房租", "FREQ=MONTHLY;BYMONTHDAY=1;BYHOUR=9;BYMINUTE=0", "2026-12-01", "09:00"),
  ],
  [
    "每个周末上午10点提醒我打扫",
    SHA,
    repeat("打扫", "FREQ=WEEKLY;BYDAY=SA,SU;BYHOUR=10;BYMINUTE=0", "2026-12-05", "10:00"),
  ],
  ["每分钟提醒我眨眼", SHA, repeat("眨眼", "FREQ=MINUTELY", "2026-11-29", "16:16")],
  [
    "每天下午3点半提醒我喝水",
    SHA,
    repeat("喝水", "FREQ=DAILY;BYHOUR=15;BYMINUTE=30", "2026-11-30", "15:30"),
  ],
  // Every other week (regression: "every fortnight on thursday" was "When should I remind you?").
  [
    "remind me every fortnight on thursday to water the orchid",
    BER,
    repeat(
      "water the orchid",
      "FREQ=WEEKLY;INTERVAL=2;BYDAY=TH;BYHOUR=9;BYMINUTE=0",
      "2026-12-03",
      "09:00",
    ),
  ],
  [
    "every fortnight remind me to pay the cleaner",
    BER,
    // No day named: today's weekday (Sunday), and 09:00 today has passed.
    repeat(
      "pay the cleaner",
      "FREQ=WEEKLY;INTERVAL=2;BYDAY=SU;BYHOUR=9;BYMINUTE=0",
      "2026-12-06",
      "09:00",
    ),
  ],
  [
    "remind me every other week on Thursday at 6pm to take out the bins",
    BER,
    repeat(
      "take out the bins",
      "FREQ=WEEKLY;INTERVAL=2;BYDAY=TH;BYHOUR=18;BYMINUTE=0",
      "2026-12-03",
      "18:00",
    ),
  ],
  [
    "remind me every 2 weeks on Monday and Friday to back up",
    BER,
    repeat(
      "back up",
      "FREQ=WEEKLY;INTERVAL=2;BYDAY=MO,FR;BYHOUR=9;BYMINUTE=0",
      "2026-11-30",
      "09:00",
    ),
  ],
  [
    "每两周提醒我交周报",
    SHA,
    repeat("交周报", "FREQ=WEEKLY;INTERVAL=2;BYDAY=SU;BYHOUR=9;BYMINUTE=0", "2026-12-06", "09:00"),
  ],
  [
    "每两周四提醒我浇花",
    SHA,
    repeat("浇花", "FREQ=WEEKLY;INTERVAL=2;BYDAY=TH;BYHOUR=9;BYMINUTE=0", "2026-12-03", "09:00"),
  ],
  [
    "每两周的周一和周四提醒我备份",
    SHA,
    repeat("备份", "FREQ=WEEKLY;INTERVAL=2;BYDAY=MO,TH;BYHOUR=9;BYMINUTE=0", "2026-11-30", "09:00"),
  ],
  [
    "隔周周五下午3点提醒我开会",
    SHA,
    repeat("开会", "FREQ=WEEKLY;INTERVAL=2;BYDAY=FR;BYHOUR=15;BYMINUTE=0", "2026-12-04", "15:00"),
  ],
  [
    "每两周一次提醒我打扫",
    SHA,
    repeat("打扫", "FREQ=WEEKLY;INTERVAL=2;BYDAY=SU;BYHOUR=9;BYMINUTE=0", "2026-12-06", "09:00"),
  ],
]; // deno-fmt-ignore

for (const [text, timeZone, expected] of PHRASES) {
  Deno.test(`parseIntent() reads the repeat "${text}"`, () => {
    assert.deepEqual(parseIntent(text, { now: NOW, timeZone }), expected);
  });
}

const CANNOT: readonly [string, string][] = [
  ["remind me every 30 seconds to blink", "seconds"],
  ["remind me every 90 seconds to blink", "seconds"],
  ["remind me every other leap year to celebrate", "yearly"],
  ["remind me every year on my birthday to celebrate", "yearly"],
  ["remind me every few hours to stretch", "unreadable"],
  ["remind me repeatedly to drink water", "unreadable"],
  ["每30秒提醒我眨眼", "seconds"],
  ["每年生日提醒我给妈妈打电话", "yearly"],
  ["remind me every March to do the taxes", "yearly"],
  ["每逢闰年提醒我庆祝", "yearly"],
  ["每隔几小时提醒我喝水", "unreadable"],
];

for (const [text, reason] of CANNOT) {
  Deno.test(`parseIntent() says it cannot repeat "${text}" (never a one-off)`, () => {
    assert.deepEqual(parseIntent(text, { now: NOW, timeZone: BER }), {
      kind: "cannot-repeat",
      reason,
    });
  });
}

// Regression: a bad clock time in a repeat silently became 09:00 ("at 25:00" kept in the prompt).
for (
  const text of [
    "remind me every weekday at 25:00 to x",
    "remind me every day at 9:75 to y",
    "remind me every day at 13pm to z",
    "每天25点提醒我z",
    "每天早上8点70分提醒我吃药",
    "change it to every day at 24:30",
  ]
) {
  Deno.test(`parseIntent() refuses the repeat "${text}" like a one-off's bad time`, () => {
    assert.deepEqual(parseIntent(text, { now: NOW, timeZone: SHA }), { kind: "missing-time" });
  });
}

Deno.test("parseIntent() gives a bad time the same answer with or without a repeat", () => {
  const options = { now: NOW, timeZone: BER };
  assert.deepEqual(
    parseIntent("remind me every weekday at 25:00 to x", options),
    parseIntent("remind me at 25:00 to x", options),
  );
  // No time named at all is still the default 09:00.
  assert.deepEqual(
    parseIntent("remind me every weekday to x", options),
    repeat("x", `FREQ=WEEKLY;${WORKWEEK};BYHOUR=9;BYMINUTE=0`, "2026-11-30", "09:00"),
  );
});

Deno.test("parseIntent() keeps one-offs that only mention a word like every", () => {
  assert.deepEqual(
    parseIntent("remind me in 10 minutes to check every door", { now: NOW, timeZone: BER }),
    {
      kind: "create",
      args: { prompt: "check every door", after_seconds: 600 },
    },
  );
}); // deno-fmt-ignore

const MANAGE: readonly [string, string, OfflineIntent][] = [
  ["stop the vitamins reminder", BER, { kind: "cancel-match", words: ["vitamins"] }],
  ["stop reminding me to drink water", BER, { kind: "cancel-match", words: ["drink", "water"] }],
  ["停止吃药提醒", SHA, { kind: "cancel-match", words: ["吃药"] }],
  ["不要再提醒我喝水了", SHA, { kind: "cancel-match", words: ["喝水"] }],
  ["snooze it 10 minutes", BER, { kind: "snooze", target: { kind: "latest" }, seconds: 600 }],
  ["snooze", BER, { kind: "snooze", target: { kind: "latest" }, seconds: 600 }],
  ["snooze the vitamins reminder for an hour", BER, { kind: "snooze", target: { kind: "words", words: ["vitamins"] }, seconds: 3600 }],
  ["snooze sch_abc 5 minutes", BER, { kind: "snooze", target: { kind: "id", id: "sch_abc" }, seconds: 300 }],
  ["推迟10分钟", SHA, { kind: "snooze", target: { kind: "latest" }, seconds: 600 }],
  ["把喝水提醒推迟半小时", SHA, { kind: "snooze", target: { kind: "words", words: ["喝水"] }, seconds: 1800 }],
  ["move it to 4pm", BER, { kind: "update", target: { kind: "latest" }, selector: { at: { date: "2026-11-29", time: "16:00" } } }],
  ["move the Bob reminder to 4pm", BER, { kind: "update", target: { kind: "words", words: ["bob"] }, selector: { at: { date: "2026-11-29", time: "16:00" } } }],
  ["change it to every day at 9", BER, { kind: "update", target: { kind: "latest" }, selector: { repeat: { rrule: "FREQ=DAILY;BYHOUR=9;BYMINUTE=0", start: { date: "2026-11-30", time: "09:00" } } } }],
  ["改到下午4点", SHA, { kind: "update", target: { kind: "latest" }, selector: { at: { date: "2026-11-30", time: "16:00" } } }],
  ["把喝水提醒改到明天早上9点", SHA, { kind: "update", target: { kind: "words", words: ["喝水"] }, selector: { at: { date: "2026-11-30", time: "09:00" } }, dated: true }],
  ["move it to Friday at 10", BER, { kind: "update", target: { kind: "latest" }, selector: { at: { date: "2026-12-04", time: "10:00" } }, dated: true }],
  ["remind me again in 10 minutes", BER, { kind: "snooze", target: { kind: "latest" }, seconds: 600 }],
  ["remind me about it again later please", BER, { kind: "snooze", target: { kind: "latest" }, seconds: 600 }],
  ["remind me again in 20 minutes to drink water", BER, { kind: "create", args: { prompt: "drink water", after_seconds: 1200 } }],
  ["再提醒我一次 10分钟后", SHA, { kind: "snooze", target: { kind: "latest" }, seconds: 600 }],
  ["半小时后再提醒我一下吧", SHA, { kind: "snooze", target: { kind: "latest" }, seconds: 1800 }],
  ["10分钟后再提醒我一次喝水", SHA, { kind: "create", args: { prompt: "喝水", after_seconds: 600 } }],
  ["不要再提醒我喝水了", SHA, { kind: "cancel-match", words: ["喝水"] }],
  ["remind me every day at 9 to stop smoking", BER, repeat("stop smoking", "FREQ=DAILY;BYHOUR=9;BYMINUTE=0", "2026-11-30", "09:00")],
]; // deno-fmt-ignore

for (const [text, timeZone, expected] of MANAGE) {
  Deno.test(`parseIntent() reads "${text}"`, () => {
    assert.deepEqual(parseIntent(text, { now: NOW, timeZone }), expected);
  });
}

Deno.test("findTimeOfDay() reads clock times and day parts", () => {
  const read = (t: string) => {
    const found = findTimeOfDay(t);
    return found && ("invalid" in found ? "invalid" : [found.hour, found.minute]);
  };
  assert.deepEqual(
    ["at 9", "at 8:30", "5pm", "at noon", "at midnight", "at 7 in the evening", "18:45"].map(read),
    [[9, 0], [8, 30], [17, 0], [12, 0], [0, 0], [19, 0], [18, 45]],
  );
  assert.deepEqual(
    ["早上8点", "下午4点半", "晚上8点一刻", "中午1点", "凌晨12点", "9:05"].map(read),
    [[8, 0], [16, 30], [20, 15], [13, 0], [0, 0], [9, 5]],
  );
  assert.equal(read("at 5 minutes past"), undefined);
  assert.equal(read("every day"), undefined);
});

Deno.test("findTimeOfDay() reports a named clock time that is no time of day as invalid", () => {
  for (const text of ["at 25", "at 25:00", "9:75", "at 13pm", "at 0am", "25点", "8点70分"]) {
    const found = findTimeOfDay(text);
    assert.ok(found !== undefined && "invalid" in found, text);
  }
  assert.deepEqual(findTimeOfDay("every day at 24:30"), { invalid: true, index: 10, length: 8 });
});
