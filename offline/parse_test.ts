import assert from "node:assert/strict";
import { type OfflineIntent, parseIntent } from "./parse.ts";
import { parseDuration, zhNumber } from "./duration.ts";
import { findExplicitZone } from "./zone.ts";

// Fixed clock: Sunday 2026-11-29 08:15 UTC = 09:15 in Berlin = 16:15 in Shanghai.
const NOW = Date.parse("2026-11-29T08:15:00Z");
const BER = "Europe/Berlin";
const SHA = "Asia/Shanghai";

const after = (prompt: string, after_seconds: number): OfflineIntent => ({
  kind: "create",
  args: { prompt, after_seconds },
});
const at = (prompt: string, date: string, time: string, time_zone?: string): OfflineIntent => ({
  kind: "create",
  args: { prompt, at: time_zone === undefined ? { date, time } : { date, time, time_zone } },
});

const REMINDERS: readonly [string, string | undefined, OfflineIntent][] = [
  ["remind me in 20 minutes to stretch", BER, after("stretch", 1200)],
  ["in 2 hours remind me to call mom", BER, after("call mom", 7200)],
  ["remind me to drink water in 10 seconds", BER, after("drink water", 10)],
  ["Remind me in an hour and a half to check the oven", BER, after("check the oven", 5400)],
  ["remind me in half an hour to take a break", BER, after("take a break", 1800)],
  ["please remind me in 1h30m to deploy", BER, after("deploy", 5400)],
  ["remind me in twenty-five minutes to flip the steak", BER, after("flip the steak", 1500)],
  ["set a reminder to water the plants 5 minutes from now", BER, after("water the plants", 300)],
  [
    "remind me in 1 hour and 30 minutes that the laundry is done",
    BER,
    after("the laundry is done", 5400),
  ],
  ["20分钟后提醒我喝水", SHA, after("喝水", 1200)],
  ["十分钟后提醒我站起来", SHA, after("站起来", 600)],
  ["一个半小时后提醒我吃药", SHA, after("吃药", 5400)],
  ["半小时后提醒我出门", SHA, after("出门", 1800)],
  ["过十五分钟提醒我看一下邮件", SHA, after("看一下邮件", 900)],
  ["喝水，两个小时后提醒我", SHA, after("喝水", 7200)],
  ["30秒后提醒我关火", SHA, after("关火", 30)],
  [
    "remind me tomorrow at 9 to join the meeting",
    BER,
    at("join the meeting", "2026-11-30", "09:00"),
  ],
  ["remind me at 5pm to leave", BER, at("leave", "2026-11-29", "17:00")],
  ["remind me at 9 to check mail", BER, at("check mail", "2026-11-30", "09:00")],
  ["remind me on Dec 24 at 18:00 to call grandma", BER, at("call grandma", "2026-12-24", "18:00")],
  ["can you remind me to buy milk at 6:30pm please", BER, at("buy milk", "2026-11-29", "18:30")],
  ["remind me Monday at 10am to pay rent", BER, at("pay rent", "2026-11-30", "10:00")],
  ["remind me tonight at 8 to call Anna", BER, at("call Anna", "2026-11-29", "20:00")],
  ["明天上午9点提醒我开会", SHA, at("开会", "2026-11-30", "09:00")],
  ["提醒我明天下午三点开会", SHA, at("开会", "2026-11-30", "15:00")],
  ["今晚8点提醒我看电视", SHA, at("看电视", "2026-11-29", "20:00")],
  ["下午3点半提醒我交报告", SHA, at("交报告", "2026-11-30", "15:30")],
  ["后天早上7点提醒我跑步", SHA, at("跑步", "2026-12-01", "07:00")],
  ["请在12月24日18:00提醒我打电话给奶奶", SHA, at("打电话给奶奶", "2026-12-24", "18:00")],
  [
    "remind me at 9am New York time to call Bob",
    BER,
    at("call Bob", "2026-11-29", "09:00", "America/New_York"),
  ],
  [
    "remind me at 2026-12-01 09:00 Europe/Paris to board",
    BER,
    at("board", "2026-12-01", "09:00", "Europe/Paris"),
  ],
  ["remind me at 9:00 UTC to deploy", BER, at("deploy", "2026-11-29", "09:00", "UTC")],
  ["北京时间明天上午9点提醒我开会", BER, at("开会", "2026-11-30", "09:00", SHA)],
  [
    "remind me at 8 in Asia/Tokyo to stretch",
    BER,
    at("stretch", "2026-11-30", "08:00", "Asia/Tokyo"),
  ],
  ["remind me at 9am to stand up", undefined, at("stand up", "2026-11-29", "09:00")],
  // Zone phrases before and after the task text are blanked whole, never left in the prompt.
  [
    "remind me tomorrow at 9am Europe/Paris time to call sis",
    BER,
    at("call sis", "2026-11-30", "09:00", "Europe/Paris"),
  ],
  [
    "remind me to call sis tomorrow at 9am Europe/Paris time",
    BER,
    at("call sis", "2026-11-30", "09:00", "Europe/Paris"),
  ],
  [
    "remind me to call sis tomorrow at 9am Paris time",
    BER,
    at("call sis", "2026-11-30", "09:00", "Europe/Paris"),
  ],
  [
    "remind me tomorrow at 9am in the Paris time zone to call sis",
    BER,
    at("call sis", "2026-11-30", "09:00", "Europe/Paris"),
  ],
  [
    "remind me tomorrow at 9am (Europe/Paris) to call sis",
    BER,
    at("call sis", "2026-11-30", "09:00", "Europe/Paris"),
  ],
  [
    "Tokyo time tomorrow 9am remind me to call sis",
    BER,
    at("call sis", "2026-11-30", "09:00", "Asia/Tokyo"),
  ],
  ["remind me at 9:00 UTC time to deploy", BER, at("deploy", "2026-11-29", "09:00", "UTC")],
  ["remind me to deploy at 9:00 UTC", BER, at("deploy", "2026-11-29", "09:00", "UTC")],
  [
    "remind me at 9am New York time tomorrow to call Bob",
    BER,
    at("call Bob", "2026-11-30", "09:00", "America/New_York"),
  ],
  ["remind me tomorrow at 9am my time to call sis", BER, at("call sis", "2026-11-30", "09:00")],
  ["提醒我北京时间明天上午9点给妹妹打电话", BER, at("给妹妹打电话", "2026-11-30", "09:00", SHA)],
  ["提醒我明天上午9点给妹妹打电话，北京时间", BER, at("给妹妹打电话", "2026-11-30", "09:00", SHA)],
  ["明天上午9点（北京时间）提醒我开会", BER, at("开会", "2026-11-30", "09:00", SHA)],
  ["按东京时间明天9点提醒我开会", BER, at("开会", "2026-11-30", "09:00", "Asia/Tokyo")],
  [
    "提醒我明天上午9点开会 Europe/Paris时间",
    SHA,
    at("开会", "2026-11-30", "09:00", "Europe/Paris"),
  ],
  ["明天上午9点提醒我开会（UTC）", SHA, at("开会", "2026-11-30", "09:00", "UTC")],
  // Other everyday wordings.
  ["set a reminder for 5pm to leave", BER, at("leave", "2026-11-29", "17:00")],
  ["set a reminder for tomorrow at 5pm to leave", BER, at("leave", "2026-11-30", "17:00")],
  ["in half an hour remind me to stretch", BER, after("stretch", 1800)],
  ["remind me in 1h 30m to deploy", BER, after("deploy", 5400)],
  ["remind me in 90 min to deploy", BER, after("deploy", 5400)],
  ["1小时30分钟后提醒我吃药", SHA, after("吃药", 5400)],
  ["提醒我下午3点半交报告", SHA, at("交报告", "2026-11-30", "15:30")],
  ["下午三点半提醒我交报告", SHA, at("交报告", "2026-11-30", "15:30")],
  ["remind me at 2026-12-01T09:00:00+02:00 to fly", BER, {
    kind: "create",
    args: { prompt: "fly", at: "2026-12-01T07:00:00Z" },
  }],
  ["what reminders do I have", BER, { kind: "list" }],
  ["list my reminders", BER, { kind: "list" }],
  ["show reminders", BER, { kind: "list" }],
  ["我有哪些提醒", SHA, { kind: "list" }],
  ["查看提醒", SHA, { kind: "list" }],
  ["cancel reminder sch_abc", BER, { kind: "delete", ids: ["sch_abc"] }],
  ["delete the reminder sch_abc", BER, { kind: "delete", ids: ["sch_abc"] }],
  ["取消提醒 sch_abc", SHA, { kind: "delete", ids: ["sch_abc"] }],
  ["cancel my stretch reminder", BER, { kind: "cancel-match", words: ["stretch"] }],
  ["取消喝水的提醒", SHA, { kind: "cancel-match", words: ["喝水"] }],
  ["remind me to cancel netflix in 10 minutes", BER, after("cancel netflix", 600)],
]; // deno-fmt-ignore

const NOT_REMINDERS: readonly [string, OfflineIntent["kind"]][] = [
  ["what time is it", "time"],
  ["现在几点", "time"],
  ["tell me a joke", "none"],
  ["remind me", "missing-time"],
  ["提醒我喝水", "missing-time"],
  ["remind me tomorrow to call mom", "missing-time"],
  ["明天提醒我开会", "missing-time"],
  ["remind me in 0 minutes to blink", "missing-time"],
  ["I was reminded yesterday", "none"],
  ["我昨天被提醒过了", "none"],
  ["meet me at 5pm", "none"],
  ["in 20 minutes the pizza arrives", "none"],
  ["你好", "none"],
];

for (const [text, timeZone, expected] of REMINDERS) {
  Deno.test(`parseIntent() reads "${text}" in ${timeZone ?? "no zone"}`, () => {
    assert.deepEqual(parseIntent(text, { now: NOW, timeZone }), expected);
  });
}

for (const [text, kind] of NOT_REMINDERS) {
  Deno.test(`parseIntent() does not create a reminder for "${text}"`, () => {
    assert.equal(parseIntent(text, { now: NOW, timeZone: BER }).kind, kind);
  });
}

Deno.test("parseIntent() picks the next day for a clock time that already passed today", () => {
  const lateEvening = Date.parse("2026-11-29T22:30:00Z"); // 23:30 in Berlin
  assert.deepEqual(
    parseIntent("remind me at 23:00 to sleep", { now: lateEvening, timeZone: BER }),
    at("sleep", "2026-11-30", "23:00"),
  );
  // 06:30 in Shanghai is already Monday: "tomorrow" is Tuesday there, not in UTC.
  assert.deepEqual(
    parseIntent("明天上午9点提醒我开会", { now: lateEvening, timeZone: SHA }),
    at("开会", "2026-12-01", "09:00"),
  );
});

Deno.test("zhNumber() reads Chinese and full-width numerals", () => {
  assert.deepEqual(
    ["十", "二十五", "两", "一百二十", "１２", "十五", "零"].map(zhNumber),
    [10, 25, 2, 120, 12, 15, 0],
  );
  assert.ok(Number.isNaN(zhNumber("几")));
});

Deno.test("parseDuration() never reads 'and' as a unit", () => {
  assert.equal(parseDuration("in 1 hour and 30 minutes")?.seconds, 5400);
  assert.equal(parseDuration("bread and butter"), undefined);
});

Deno.test("findExplicitZone() ignores lower-case abbreviations and unknown zones", () => {
  assert.equal(findExplicitZone("see you at 9 et al"), undefined);
  assert.equal(findExplicitZone("and/or at 5"), undefined);
  assert.equal(findExplicitZone("at 9 america/new_york")?.zone, "America/New_York");
});

Deno.test("findExplicitZone() spans the whole zone phrase", () => {
  const phrase = (text: string) => {
    const m = findExplicitZone(text);
    return m && text.slice(m.index, m.index + m.length);
  };
  assert.equal(phrase("at 9am Europe/Paris time to call"), "Europe/Paris time");
  assert.equal(phrase("at 9am in the Paris time zone"), "the Paris time zone");
  assert.equal(phrase("at 9am (Europe/Paris) to call"), "(Europe/Paris)");
  assert.equal(phrase("at 9 UTC timezone"), "UTC timezone");
  assert.equal(phrase("按北京时间9点"), "按北京时间");
  assert.equal(phrase("9点（UTC时间）开会"), "（UTC时间）");
  assert.equal(phrase("call Paris office at 9"), undefined);
});
