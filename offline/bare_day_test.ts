/**
 * A day of the month said without a repeat word ("remind me on the 15th at 9 to pay the card",
 * "15号上午9点提醒我还信用卡") is one reminder at the next such day, never a silent monthly
 * repeat: this month when that moment is still to come in the session's zone, else the next
 * month that has the day. Without a clock time it asks for the time of that day, like "remind
 * me tomorrow to x".
 * Each row has its own clock and is read in New York and Shanghai; then the real schedule tools
 * store a one-off and the reply says when, in English and Chinese.
 */
import assert from "node:assert/strict";
import { parseIntent } from "./parse.ts";
import { world } from "./_world_test.ts";

const NY = "America/New_York" as const;
const SH = "Asia/Shanghai" as const;
// Wednesday 2 December: 18:30 in New York, Thursday 3 December 07:30 in Shanghai.
const DEC2 = "2026-12-02T23:30:00Z";

/** A one-off's local `date time`, or `ask` (no reminder: the model asks for a clock time). */
type Want = string;
/** A phrase, the clock (UTC), its task text and what it gives in New York and in Shanghai. */
type Row = readonly [text: string, now: string, prompt: string, ny: Want, sh?: Want];

const ROWS: readonly Row[] = [
  ["remind me on the 15th at 9 to pay the card", DEC2, "pay the card", "2026-12-15 09:00"],
  ["on the 3rd at 10am remind me to call mom", DEC2, "call mom", "2026-12-03 10:00"],
  ["remind me to pay the card on the fifteenth at 9pm", DEC2, "pay the card", "2026-12-15 21:00"],
  ["remind me on 15th at 9 to pay the card", DEC2, "pay the card", "2026-12-15 09:00"],
  ["remind me at 9 on the 15th to pay the card", DEC2, "pay the card", "2026-12-15 09:00"],
  // The day already passed this month: the next month that has it.
  ["remind me on the 2nd at 9 to check the meter", DEC2, "check the meter", "2027-01-02 09:00"],
  // Today, the time still to come in New York (18:30) but gone in Shanghai (the 3rd, 07:30).
  [
    "remind me on the 3rd at 7am to call mom",
    DEC2,
    "call mom",
    "2026-12-03 07:00",
    "2027-01-03 07:00",
  ],
  // The same instant is the 14th in New York and the 15th (04:00) in Shanghai.
  [
    "remind me on the 15th at 3am to pay the card",
    "2026-12-14T20:00:00Z",
    "pay the card",
    "2026-12-15 03:00",
    "2027-01-15 03:00",
  ],
  // The 31st from a 30-day month, and over February.
  ["remind me on the 31st at 9 to back up", "2026-11-20T12:00:00Z", "back up", "2026-12-31 09:00"],
  [
    "remind me on the thirty-first at 9 to back up",
    "2027-01-31T20:00:00Z",
    "back up",
    "2027-03-31 09:00",
  ],
  ["三十一号上午9点提醒我对账", "2026-04-10T00:00:00Z", "对账", "2026-05-31 09:00"],
  [
    "remind me on the last day at 6pm to file expenses",
    "2026-11-20T12:00:00Z",
    "file expenses",
    "2026-11-30 18:00",
  ],
  [
    "remind me on the 15th of next month at 9 to pay the card",
    DEC2,
    "pay the card",
    "2027-01-15 09:00",
  ],
  // Chinese.
  ["15号上午9点提醒我还信用卡", DEC2, "还信用卡", "2026-12-15 09:00"],
  ["十五号上午9点提醒我还信用卡", DEC2, "还信用卡", "2026-12-15 09:00"],
  ["提醒我15日晚上8点交水电费", DEC2, "交水电费", "2026-12-15 20:00"],
  ["2号上午9点提醒我抄电表", DEC2, "抄电表", "2027-01-02 09:00"],
  ["3号早上7点提醒我给妈妈打电话", DEC2, "给妈妈打电话", "2026-12-03 07:00", "2027-01-03 07:00"],
  ["下个月3号晚上8点提醒我交房租", DEC2, "交房租", "2027-01-03 20:00"],
  // No clock time: the same answer as "tomorrow" without one.
  ["remind me on the 15th to pay the card", DEC2, "", "ask"],
  ["3号提醒我交房租", DEC2, "", "ask"],
  // No day of the month: a building, a floor.
  ["提醒我下午3点去3号楼开会", DEC2, "去3号楼开会", "2026-12-03 15:00"],
  [
    "remind me at 9 to check the lights on the second floor",
    DEC2,
    "check the lights on the second floor",
    "2026-12-03 09:00",
  ],
]; // deno-fmt-ignore

function reading(text: string, now: string, timeZone: string): string {
  const intent = parseIntent(text, { now: Date.parse(now), timeZone });
  if (intent.kind === "missing-time") return "ask";
  if (intent.kind !== "create" || !("at" in intent.args) || typeof intent.args.at !== "object") {
    return JSON.stringify(intent);
  }
  return `${intent.args.prompt} | ${intent.args.at.date} ${intent.args.at.time}`;
}

for (const [text, now, prompt, ny, sh = ny] of ROWS) {
  for (const [zone, want] of [[NY, ny], [SH, sh]] as const) {
    Deno.test(`"${text}" at ${now} in ${zone} is one reminder: ${want}`, () => {
      assert.equal(reading(text, now, zone), want === "ask" ? "ask" : `${prompt} | ${want}`);
    });
  }
}

Deno.test("a day without a clock time is answered like tomorrow without one: its time is asked", () => {
  for (const zone of [NY, SH]) {
    const options = { now: Date.parse(DEC2), timeZone: zone };
    const tomorrow = zone === NY ? "2026-12-03" : "2026-12-04";
    for (
      const [text, date, phrase] of [
        ["remind me on the 15th to pay the card", "2026-12-15", "on the 15th"],
        ["remind me tomorrow to pay the card", tomorrow, "tomorrow"],
        ["15号提醒我还信用卡", "2026-12-15", "15号"],
        ["明天提醒我还信用卡", tomorrow, "明天"],
      ] as const
    ) {
      assert.deepEqual(parseIntent(text, options), { kind: "missing-time", date, phrase }, text);
    }
  }
});

Deno.test("repeat words still make a day of the month monthly", () => {
  for (const zone of [NY, SH]) {
    const options = { now: Date.parse(DEC2), timeZone: zone };
    for (
      const text of [
        "remind me every month on the 15th at 9 to pay the card",
        "remind me on the 15th of every month at 9 to pay the card",
        "remind me monthly on the 15th at 9 to pay the card",
        "每月15号上午9点提醒我还信用卡",
      ]
    ) {
      const intent = parseIntent(text, options);
      assert.ok(intent.kind === "create" && "repeat" in intent.args, text);
      assert.equal(intent.args.repeat.rrule, "FREQ=MONTHLY;BYMONTHDAY=15;BYHOUR=9;BYMINUTE=0");
    }
  }
});

// The harness clock is 2026-01-15T08:00Z: the 15th, 03:00 in New York and 16:00 in Shanghai.
const STORED = [
  ["remind me on the 15th at 9 to pay the card", "pay the card", {
    [NY]: [
      "2026-01-15T14:00:00.000Z",
      /^OK — I'll remind you to pay the card at 09:00 \(America\/New_York\)\. /,
    ],
    [SH]: [
      "2026-02-15T01:00:00.000Z",
      /^OK — I'll remind you to pay the card at 2026-02-15 09:00 \(Asia\/Shanghai\)\. /,
    ],
  }],
  ["十五号上午9点提醒我还信用卡", "还信用卡", {
    [NY]: [
      "2026-01-15T14:00:00.000Z",
      /^好的——我会在 09:00（America\/New_York） 提醒你：还信用卡。/,
    ],
    [SH]: [
      "2026-02-15T01:00:00.000Z",
      /^好的——我会在 2026-02-15 09:00（Asia\/Shanghai） 提醒你：还信用卡。/,
    ],
  }],
] as const; // deno-fmt-ignore

for (const [text, prompt, byZone] of STORED) {
  for (const zone of [NY, SH] as const) {
    Deno.test(`"${text}" stores one one-off reminder and says when (${zone}, real schedule)`, async () => {
      await using w = await world(zone);
      const reply = await w.say(text);
      const [at, words] = byZone[zone];
      const creates = w.callsSince(0).filter((c) => c.name === "schedule_create");
      assert.equal(creates.length, 1);
      assert.ok(!("repeat" in creates[0]!.args), JSON.stringify(creates[0]));
      const records = w.records();
      assert.equal(records.length, 1);
      assert.equal(records[0]!.kind, "at", "a one-off, not a series");
      assert.equal(records[0]!.prompt, prompt);
      assert.equal(records[0]!.scheduledAt, at);
      assert.match(reply, words);
      assert.doesNotMatch(reply, /repeat|重复|monthly|每月/i);
    });
  }
}
