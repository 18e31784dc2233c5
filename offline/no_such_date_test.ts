/**
 * Calendar dates that chrono-node does not read, in New York and Shanghai, English and Chinese:
 * February 29 without a year is the next February 29 (2028 from December 2026); a date no
 * calendar has ("Feb 30", "2月30日", "April 31", "Feb 29 2027") is refused with a reply that says
 * the date does not exist, and nothing is set.
 */
import assert from "node:assert/strict";
import { parseIntent } from "./parse.ts";
import { world } from "./_world_test.ts";
import { DEC_NOW as NOW, NY, SH } from "./_fixtures_test.ts";

// deno-fmt-ignore
const LEAP: readonly (readonly [text: string, prompt: string, date: string, time: string])[] = [
  ["remind me on Feb 29 at 9am to leap", "leap", "2028-02-29", "09:00"],
  ["remind me to leap on February 29th at 8pm", "leap", "2028-02-29", "20:00"],
  ["remind me on 29 Feb at 9 to leap", "leap", "2028-02-29", "09:00"],
  ["2月29日上午9点提醒我跳", "跳", "2028-02-29", "09:00"],
  ["二月二十九号晚上8点提醒我庆祝", "庆祝", "2028-02-29", "20:00"],
];

for (const [text, prompt, date, time] of LEAP) {
  for (const zone of [NY, SH]) {
    Deno.test(`"${text}" is the next February 29 (${zone})`, () => {
      assert.deepEqual(parseIntent(text, { now: NOW, timeZone: zone }), {
        kind: "create",
        args: { prompt, at: { date, time } },
      });
    });
  }
}

Deno.test("February 29 this leap year, while it is still to come, is this year's", () => {
  const now = Date.parse("2028-01-10T12:00:00Z");
  const intent = parseIntent("remind me on Feb 29 at 9am to leap", { now, timeZone: NY });
  assert.deepEqual(intent, {
    kind: "create",
    args: { prompt: "leap", at: { date: "2028-02-29", time: "09:00" } },
  });
});

// deno-fmt-ignore
const NONE: readonly (readonly [text: string, month: number, day: number, year?: number])[] = [
  ["remind me on Feb 30 at 9am to pay", 2, 30],
  ["remind me on April 31 at 9 to pay", 4, 31],
  ["remind me on 31st of June at 9 to pay", 6, 31],
  ["remind me on Feb 29 2027 at 9 to pay", 2, 29, 2027],
  ["2月30日上午9点提醒我开会", 2, 30],
  ["4月31号提醒我交房租", 4, 31],
];

for (const [text, month, day, year] of NONE) {
  for (const zone of [NY, SH]) {
    Deno.test(`"${text}" is a date that does not exist (${zone})`, () => {
      assert.deepEqual(parseIntent(text, { now: NOW, timeZone: zone }), {
        kind: "no-such-date",
        month,
        day,
        ...(year ? { year } : {}),
      });
    });
  }
}

for (const zone of [NY, SH]) {
  Deno.test(`Feb 29 is set for 2028 and Feb 30 is refused (${zone}, real schedule)`, async () => {
    await using w = await world(zone);
    const leap = await w.say("remind me on Feb 29 at 9am to leap");
    assert.match(leap, /I'll remind you to leap at 2028-02-29 09:00 /);
    assert.equal(w.records().length, 1);
    const en = await w.say("remind me on Feb 30 at 9am to pay");
    assert.match(en, /^February 30 doesn't exist, so I haven't set anything\./);
    const zh = await w.say("2月30日上午9点提醒我开会");
    assert.match(zh, /^没有2月30日这个日期，所以我没有设置任何提醒。/);
    const en27 = await w.say("remind me on Feb 29 2027 at 9 to pay");
    assert.match(en27, /^February 29, 2027 doesn't exist \(2027 is not a leap year\)/);
    assert.equal(w.records().length, 1, "nothing else was set");
  });
}
