/**
 * Edges of days, ends and counts, in New York and Shanghai, English and Chinese: February 29 of
 * "next year" when next year has none, and impossible dates in numbers ("2027-02-29"), are
 * refused as dates that do not exist; a repeat's end with a clock time ("until 5pm") says that
 * time in the reply; "1 time" / "once" / "只提醒一次" after a repeat is its count (COUNT=1), while
 * "once a week" / "每周一次" stay frequencies; a day without a clock time ("on the 15th",
 * "tomorrow", "2月29日") asks for just the time of that day, naming it.
 */
import assert from "node:assert/strict";
import { parseIntent } from "./parse.ts";
import { world } from "./_world_test.ts";
import { DEC_NOW as NOW, NY, SH } from "./_fixtures_test.ts";

// deno-fmt-ignore
const NONE: readonly (readonly [text: string, month: number, day: number, year: number])[] = [
  ["remind me on Feb 29 next year at 10 to leap", 2, 29, 2027],
  ["remind me on the 29th of February next year at 10 to leap", 2, 29, 2027],
  ["明年2月29日上午10点提醒我闰日", 2, 29, 2027],
  ["remind me on 2027-02-29 at 10 to leap", 2, 29, 2027],
  ["remind me on 2027/2/29 at 10 to leap", 2, 29, 2027],
  ["remind me on 2027-04-31 at 10 to pay", 4, 31, 2027],
  ["2027-02-30上午10点提醒我闰日", 2, 30, 2027],
];

for (const [text, month, day, year] of NONE) {
  for (const zone of [NY, SH]) {
    Deno.test(`"${text}" is a date that does not exist (${zone})`, () => {
      assert.deepEqual(parseIntent(text, { now: NOW, timeZone: zone }), {
        kind: "no-such-date",
        month,
        day,
        year,
      });
    });
  }
}

Deno.test("Feb 29 next year is set when next year is a leap year; valid ISO dates still work", () => {
  const now = Date.parse("2027-06-10T12:00:00Z");
  for (const zone of [NY, SH]) {
    for (
      const text of ["remind me on Feb 29 next year at 10 to leap", "明年2月29日上午10点提醒我leap"]
    ) {
      const intent = parseIntent(text, { now, timeZone: zone });
      assert.ok(intent.kind === "create" && "at" in intent.args, text);
      assert.deepEqual(intent.args.at, { date: "2028-02-29", time: "10:00" }, text);
    }
    const iso = parseIntent("remind me on 2028-02-29 at 10 to leap", { now, timeZone: zone });
    assert.ok(iso.kind === "create" && "at" in iso.args);
    assert.deepEqual(iso.args.at, { date: "2028-02-29", time: "10:00" });
  }
});

// A repeat's count of one; frequencies stay frequencies.
// deno-fmt-ignore
const COUNTS: readonly (readonly [text: string, prompt: string, rrule: RegExp])[] = [
  ["every day at 9 remind me to pills 1 time", "pills", /^FREQ=DAILY;BYHOUR=9;BYMINUTE=0;COUNT=1$/],
  ["every day at 9 remind me to pills one time", "pills", /^FREQ=DAILY;BYHOUR=9;BYMINUTE=0;COUNT=1$/],
  ["every day at 9 remind me to pills once", "pills", /^FREQ=DAILY;BYHOUR=9;BYMINUTE=0;COUNT=1$/],
  ["every day at 9 remind me to pills only once.", "pills", /^FREQ=DAILY;BYHOUR=9;BYMINUTE=0;COUNT=1$/],
  ["每天早上9点提醒我吃药，只提醒一次", "吃药", /^FREQ=DAILY;BYHOUR=9;BYMINUTE=0;COUNT=1$/],
  ["每天早上9点提醒我吃药，共一次", "吃药", /^FREQ=DAILY;BYHOUR=9;BYMINUTE=0;COUNT=1$/],
  ["once a week remind me to water the plants", "water the plants", /^FREQ=WEEKLY;BYDAY=\w\w;BYHOUR=9;BYMINUTE=0$/],
  ["每周一次提醒我浇花", "浇花", /^FREQ=WEEKLY;BYDAY=\w\w;BYHOUR=9;BYMINUTE=0$/],
  ["every day at 9 remind me to call once I'm home", "call once I'm home", /^FREQ=DAILY;BYHOUR=9;BYMINUTE=0$/],
];

for (const [text, prompt, rrule] of COUNTS) {
  for (const zone of [NY, SH]) {
    Deno.test(`"${text}" keeps its count out of the text (${zone})`, () => {
      const intent = parseIntent(text, { now: NOW, timeZone: zone });
      assert.ok(intent.kind === "create" && "repeat" in intent.args, JSON.stringify(intent));
      assert.equal(intent.args.prompt, prompt);
      assert.match(intent.args.repeat.rrule, rrule);
    });
  }
}

Deno.test("'once' without a repeat is no count: one reminder, the word kept", () => {
  for (const zone of [NY, SH]) {
    const intent = parseIntent("remind me at 9 to call mom once", { now: NOW, timeZone: zone });
    assert.ok(intent.kind === "create" && "at" in intent.args);
    assert.equal(intent.args.prompt, "call mom once");
  }
});

// A day said without a clock time: the day it names and the words that named it.
// deno-fmt-ignore
const DAYS: readonly (readonly [text: string, ny: string, sh: string, phrase: string])[] = [
  ["on the 15th remind me to pay rent", "2026-12-15", "2026-12-15", "on the 15th"],
  ["remind me tomorrow to pay rent", "2026-12-03", "2026-12-04", "tomorrow"],
  ["remind me on Feb 29 to leap", "2028-02-29", "2028-02-29", "Feb 29"],
  ["2月29日提醒我闰日", "2028-02-29", "2028-02-29", "2月29日"],
  ["15号提醒我交房租", "2026-12-15", "2026-12-15", "15号"],
  ["明天提醒我开会", "2026-12-03", "2026-12-04", "明天"],
];

for (const [text, ny, sh, phrase] of DAYS) {
  for (const [zone, date] of [[NY, ny], [SH, sh]] as const) {
    Deno.test(`"${text}" asks for the time on ${date} (${zone})`, () => {
      assert.deepEqual(parseIntent(text, { now: NOW, timeZone: zone }), {
        kind: "missing-time",
        date,
        phrase,
      });
    });
  }
}

// The harness clock: Thursday 2026-01-15, 03:00 in New York and 16:00 in Shanghai.
// deno-fmt-ignore
const SAID: readonly (readonly [text: string, reply: RegExp])[] = [
  ["remind me on the 20th to pay rent", /^What time on Tue 2026-01-20\? For example "on the 20th at 9:00"\.$/],
  ["remind me tomorrow to pay rent", /^What time on Fri 2026-01-16\? For example "tomorrow at 9:00"\.$/],
  ["remind me on Feb 29 to leap", /^What time on Tue 2028-02-29\? For example "Feb 29 at 9:00"\.$/],
  ["20号提醒我交房租", /^2026年1月20日（周二）几点提醒你？例如“20号上午9点”。$/],
  ["2月29日提醒我闰日", /^2028年2月29日（周二）几点提醒你？例如“2月29日上午9点”。$/],
  ["remind me to pay rent", /^When should I remind you\?/],
  ["remind me on Feb 29 next year at 10 to leap", /^February 29, 2027 doesn't exist \(2027 is not a leap year\)/],
  ["明年2月29日上午10点提醒我闰日", /^没有2027年2月29日这个日期/],
  ["remind me on 2027-02-29 at 10 to leap", /^February 29, 2027 doesn't exist/],
];

for (const [text, reply] of SAID) {
  for (const zone of [NY, SH]) {
    Deno.test(`"${text}" sets nothing and says so (${zone}, real schedule)`, async () => {
      await using w = await world(zone);
      const said = await w.say(text);
      assert.match(said, reply);
      assert.deepEqual(w.records(), []);
    });
  }
}

// deno-fmt-ignore
const ENDS: readonly (readonly [text: string, ny: RegExp, sh: RegExp])[] = [
  ["every hour remind me to drink until 5pm",
    /, until Thu 2026-01-15 17:00; first at /, /, until Thu 2026-01-15 17:00; first at 17:00 /],
  ["every day at 9 remind me to stretch until Jan 20 at 5pm",
    /, until Tue 2026-01-20 17:00; first at /, /, until Tue 2026-01-20 17:00; first at /],
  ["每天早上9点提醒我拉伸，直到1月20日下午5点",
    /，直到2026-01-20（周二）17:00，首次：/, /，直到2026-01-20（周二）17:00，首次：/],
  // An end without a clock time names the day alone.
  ["every day at 9 remind me to stretch until Jan 20",
    /, until Tue 2026-01-20; first at /, /, until Tue 2026-01-20; first at /],
];

for (const [text, ny, sh] of ENDS) {
  for (const [zone, reply] of [[NY, ny], [SH, sh]] as const) {
    Deno.test(`"${text}" says its end's clock time (${zone}, real schedule)`, async () => {
      await using w = await world(zone);
      const said = await w.say(text);
      assert.equal(w.records().length, 1, said);
      assert.match(said, reply);
    });
  }
}

for (const zone of [NY, SH]) {
  Deno.test(`"every day at 9 remind me to pills 1 time" stores one reminder (${zone}, real schedule)`, async () => {
    await using w = await world(zone);
    const said = await w.say("every day at 9 remind me to pills 1 time");
    const [record] = w.records();
    assert.equal(record?.kind, "recurring", said);
    assert.equal(record.prompt, "pills");
    assert.match(record.kind === "recurring" ? record.rrule : "", /;COUNT=1$/);
    assert.match(said, /, 1 time; first at /);
  });
}
