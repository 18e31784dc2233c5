/**
 * The end of a repeat, as one table read at a fixed clock in New York and Shanghai (like
 * `recurring_phrases_test.ts`): "until Friday", "until the end of December", "到12月4日为止",
 * "直到周五", "直到月底" end the series on that local day (RRULE `UNTIL`, the last moment of the day
 * in the series' zone, so "until Friday" keeps Friday's reminder); "for 3 days", "for 2 weeks",
 * "连续3天", "共5次" count its reminders (`COUNT`: N days of a daily rule is N, N weeks of a weekly
 * one N × its days a week, N hours of an every-15-minutes one N × 4). An end that cannot be
 * said exactly ("every Monday for 10 days"), that cannot be read ("until whenever") or that
 * comes before the first reminder is refused: never an endless series, never the end words in
 * the reminder's text. Each expected rule is run by the schedule engine: its reminders are the
 * ones the table lists. End to end, the real schedule tools store the end and the reply says it.
 */
import assert from "node:assert/strict";
import { nextOccurrence } from "@chime/schedule";
import { assertStartIsFirst, DEC_NOW as NOW, NY, SH } from "./_fixtures_test.ts";
import { parseIntent } from "./parse.ts";
import type { CannotReason } from "./recurring.ts";
import { world } from "./_world_test.ts";

const D9 = "BYHOUR=9;BYMINUTE=0";
const WEEKDAYS = "FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR";

/** An expected rule, its first reminder and its last (local `YYYY-MM-DDTHH:MM`), and how many. */
type Want = readonly [rrule: string, first: string, last: string, count: number];
/** A phrase, its prompt and what it gives in New York and in Shanghai; or a refusal. */
type Row =
  | readonly [text: string, prompt: string, ny: Want, sh: Want]
  | readonly [text: string, cannot: CannotReason];

// deno-fmt-ignore
const ROWS: readonly Row[] = [
  // "until <day>": that day's reminder is the last one.
  ["every weekday at 9am remind me to stand up until Friday", "stand up",
    [`${WEEKDAYS};${D9};UNTIL=20261205T045959Z`, "2026-12-03T09:00", "2026-12-04T09:00", 2],
    [`${WEEKDAYS};${D9};UNTIL=20261204T155959Z`, "2026-12-03T09:00", "2026-12-04T09:00", 2]],
  ["remind me every day at 8pm to water the plants until the end of December", "water the plants",
    ["FREQ=DAILY;BYHOUR=20;BYMINUTE=0;UNTIL=20270101T045959Z", "2026-12-02T20:00", "2026-12-31T20:00", 30],
    ["FREQ=DAILY;BYHOUR=20;BYMINUTE=0;UNTIL=20261231T155959Z", "2026-12-03T20:00", "2026-12-31T20:00", 29]],
  ["remind me every day at 9 to stretch till the end of the month", "stretch",
    [`FREQ=DAILY;${D9};UNTIL=20270101T045959Z`, "2026-12-03T09:00", "2026-12-31T09:00", 29],
    [`FREQ=DAILY;${D9};UNTIL=20261231T155959Z`, "2026-12-03T09:00", "2026-12-31T09:00", 29]],
  ["every Monday at 9 until Dec 21 remind me to plan the week", "plan the week",
    [`FREQ=WEEKLY;BYDAY=MO;${D9};UNTIL=20261222T045959Z`, "2026-12-07T09:00", "2026-12-21T09:00", 3],
    [`FREQ=WEEKLY;BYDAY=MO;${D9};UNTIL=20261221T155959Z`, "2026-12-07T09:00", "2026-12-21T09:00", 3]],
  ["每天早上9点提醒我吃药，到12月4日为止", "吃药",
    [`FREQ=DAILY;${D9};UNTIL=20261205T045959Z`, "2026-12-03T09:00", "2026-12-04T09:00", 2],
    [`FREQ=DAILY;${D9};UNTIL=20261204T155959Z`, "2026-12-03T09:00", "2026-12-04T09:00", 2]],
  ["工作日早上9点提醒我打卡，直到周五", "打卡",
    [`${WEEKDAYS};${D9};UNTIL=20261205T045959Z`, "2026-12-03T09:00", "2026-12-04T09:00", 2],
    [`${WEEKDAYS};${D9};UNTIL=20261204T155959Z`, "2026-12-03T09:00", "2026-12-04T09:00", 2]],
  ["每天晚上8点直到月底提醒我记账", "记账",
    ["FREQ=DAILY;BYHOUR=20;BYMINUTE=0;UNTIL=20270101T045959Z", "2026-12-02T20:00", "2026-12-31T20:00", 30],
    ["FREQ=DAILY;BYHOUR=20;BYMINUTE=0;UNTIL=20261231T155959Z", "2026-12-03T20:00", "2026-12-31T20:00", 29]],
  // "for N days/weeks", "N times", "连续N天", "共N次": a count.
  ["every day at 9 for 3 days remind me to take medicine", "take medicine",
    [`FREQ=DAILY;${D9};COUNT=3`, "2026-12-03T09:00", "2026-12-05T09:00", 3],
    [`FREQ=DAILY;${D9};COUNT=3`, "2026-12-03T09:00", "2026-12-05T09:00", 3]],
  ["every weekday at 9 for 2 weeks remind me to stand up", "stand up",
    [`${WEEKDAYS};${D9};COUNT=10`, "2026-12-03T09:00", "2026-12-16T09:00", 10],
    [`${WEEKDAYS};${D9};COUNT=10`, "2026-12-03T09:00", "2026-12-16T09:00", 10]],
  ["every 15 minutes for 2 hours remind me to stretch", "stretch",
    ["FREQ=MINUTELY;INTERVAL=15;COUNT=8", "2026-12-02T18:45", "2026-12-02T20:30", 8],
    ["FREQ=MINUTELY;INTERVAL=15;COUNT=8", "2026-12-03T07:45", "2026-12-03T09:30", 8]],
  ["每天早上8点提醒我吃药，连续3天", "吃药",
    ["FREQ=DAILY;BYHOUR=8;BYMINUTE=0;COUNT=3", "2026-12-03T08:00", "2026-12-05T08:00", 3],
    ["FREQ=DAILY;BYHOUR=8;BYMINUTE=0;COUNT=3", "2026-12-03T08:00", "2026-12-05T08:00", 3]],
  ["每周一和周四提醒我游泳，连续2周", "游泳",
    [`FREQ=WEEKLY;BYDAY=MO,TH;${D9};COUNT=4`, "2026-12-03T09:00", "2026-12-14T09:00", 4],
    [`FREQ=WEEKLY;BYDAY=MO,TH;${D9};COUNT=4`, "2026-12-03T09:00", "2026-12-14T09:00", 4]],
  ["每天提醒我喝水，共5次", "喝水",
    [`FREQ=DAILY;${D9};COUNT=5`, "2026-12-03T09:00", "2026-12-07T09:00", 5],
    [`FREQ=DAILY;${D9};COUNT=5`, "2026-12-03T09:00", "2026-12-07T09:00", 5]],
  // Said to run on: no end, and the words leave the text.
  ["every day at 9 until further notice remind me to stretch", "stretch",
    [`FREQ=DAILY;${D9}`, "2026-12-03T09:00", "", 0], [`FREQ=DAILY;${D9}`, "2026-12-03T09:00", "", 0]],
  // A length shorter than the repeat is part of the task, not an end.
  ["every Monday remind me to book the room for 2 hours", "book the room for 2 hours",
    [`FREQ=WEEKLY;BYDAY=MO;${D9}`, "2026-12-07T09:00", "", 0],
    [`FREQ=WEEKLY;BYDAY=MO;${D9}`, "2026-12-07T09:00", "", 0]],
  // Ends that cannot be said exactly, read, or that come before the first reminder.
  ["every Monday at 9 for 10 days remind me to plan", "end-count"],
  ["every day at 9 for a month remind me to floss", "end-count"],
  ["每周一提醒我开会，连续10天", "end-count"],
  ["every day at 9 remind me to stretch until whenever", "end"],
  ["每天提醒我喝水直到我说停", "end"],
  ["every day at 9 for a few days remind me to rest", "end"],
  ["every day at 9 until yesterday remind me to rest", "end-before"],
];

function reading(text: string, timeZone: string): string {
  const intent = parseIntent(text, { now: NOW, timeZone });
  if (intent.kind === "cannot-repeat") return `cannot: ${intent.reason}`;
  if (intent.kind !== "create") return intent.kind;
  const args = intent.args;
  if (!("repeat" in args)) return `one-off ${JSON.stringify(args)}`;
  const { rrule, start } = args.repeat;
  return `${args.prompt} | ${rrule} | ${start?.date}T${start?.time}`;
}

/** The engine's reminders of a finite rule, local `YYYY-MM-DDTHH:MM` in `zone` (at most 100). */
function reminders(rrule: string, first: string, zone: string): string[] {
  const series = { rrule, dtstart: `${first}:00`, timeZone: zone };
  const out: string[] = [];
  for (let at = nextOccurrence(series, NOW); at !== undefined && out.length < 100;) {
    out.push(
      Temporal.Instant.fromEpochMilliseconds(at).toZonedDateTimeISO(zone).toPlainDateTime()
        .toString().slice(0, 16),
    );
    at = nextOccurrence(series, at);
  }
  return out;
}

for (const row of ROWS) {
  if (row.length === 2) {
    const [text, reason] = row;
    Deno.test(`"${text}" is refused (${reason}), never an endless series`, () => {
      for (const zone of [NY, SH]) assert.equal(reading(text, zone), `cannot: ${reason}`, zone);
    });
    continue;
  }
  const [text, prompt, ny, sh] = row;
  for (const [zone, [rrule, first, last, count]] of [[NY, ny], [SH, sh]] as const) {
    Deno.test(`"${text}" in ${zone} is ${rrule} from ${first}`, () => {
      assert.equal(reading(text, zone), `${prompt} | ${rrule} | ${first}`);
      assertStartIsFirst(rrule, first, zone, NOW);
      if (count === 0) return;
      const all = reminders(rrule, first, zone);
      assert.equal(all.length, count, all.join(" "));
      assert.equal(all.at(-1), last);
    });
  }
}

// The harness clock: Thursday 2026-01-15, 03:00 in New York and 16:00 in Shanghai.
// deno-fmt-ignore
const SAID: readonly (readonly [text: string, prompt: string, end: RegExp, reply: RegExp])[] = [
  ["every weekday at 9am remind me to stand up until Friday", "stand up", /;UNTIL=2026011\dT\d{6}Z$/,
    /^OK — I'll remind you to stand up, repeating every weekday at 09:00 \([^)]+\), until Fri 2026-01-16; first at /],
  ["every day at 9 for 3 days remind me to take medicine", "take medicine", /;COUNT=3$/,
    /^OK — I'll remind you to take medicine, repeating daily at 09:00 \([^)]+\), 3 times; first at /],
  ["工作日早上9点提醒我打卡，直到周五", "打卡", /;UNTIL=2026011\dT\d{6}Z$/,
    /^好的——我会提醒你：打卡（重复：工作日 09:00（[^）]+），直到2026-01-16（周五），首次：/],
  ["每天早上8点提醒我吃药，连续3天", "吃药", /;COUNT=3$/,
    /^好的——我会提醒你：吃药（重复：每天 08:00（[^）]+），共3次，首次：/],
];

for (const [text, prompt, end, reply] of SAID) {
  for (const zone of [NY, SH]) {
    Deno.test(`"${text}" stores its end and says it (${zone}, real schedule)`, async () => {
      await using w = await world(zone);
      const said = await w.say(text);
      const [record] = w.records();
      assert.equal(record?.kind, "recurring", said);
      assert.equal(record.prompt, prompt);
      assert.match(record.kind === "recurring" ? record.rrule : "", end);
      assert.match(said, reply);
    });
  }
}

for (
  const text of ["every Monday at 9 for 10 days remind me to plan", "每天提醒我喝水直到我说停"]
) {
  for (const zone of [NY, SH]) {
    Deno.test(`"${text}" sets nothing and says why (${zone}, real schedule)`, async () => {
      await using w = await world(zone);
      const said = await w.say(text);
      assert.deepEqual(w.records(), []);
      assert.deepEqual(w.callsSince(0), []);
      assert.match(said, /haven't set anything|没有设置任何提醒/);
      assert.match(said, /until Friday|直到周五/, "says how to give an end");
    });
  }
}
