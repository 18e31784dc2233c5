/**
 * Days of the month and the task text of repeating requests, as one table read at a fixed clock
 * in New York and Shanghai (like `recurring_phrases_test.ts`): "on the first of every month",
 * "every month on the 1st", "on the fifteenth of each month", "每月1号", "每月十五号", "每月第一天"
 * name their day (`BYMONTHDAY`), "the last day of every month" / "每月最后一天" the last day
 * (`BYMONTHDAY=-1`), and none of their words stay in the reminder's text; a day of the month on its
 * own ("on the 15th") is a one-off (`bare_day_test.ts`). Only schedule words
 * leave the text: "the daily report" keeps "daily". Every expected rule is canonical and its first
 * occurrence, computed by the schedule engine from the model's `start`, is that start.
 */
import assert from "node:assert/strict";
import { assertStartIsFirst } from "./_fixtures_test.ts";
import { parseIntent } from "./parse.ts";

// Wednesday 2 December 18:30 in New York, Thursday 3 December 07:30 in Shanghai.
const NOW = Date.parse("2026-12-02T23:30:00Z");
const NY = "America/New_York";
const SH = "Asia/Shanghai";
const D9 = "BYHOUR=9;BYMINUTE=0";

/** A rule and its first occurrence (local), or a one-off's local `date time`. */
type Want = readonly [rrule: string, first: string] | readonly ["one-off", at: string];
/** A phrase, its prompt and what it gives in New York and in Shanghai. */
type Row = readonly [text: string, prompt: string, ny: Want, sh?: Want];

const daily = (first: string): Want => [`FREQ=DAILY;${D9}`, first];
const monthly = (day: number, first: string, at = D9): Want => [
  `FREQ=MONTHLY;BYMONTHDAY=${day};${at}`,
  first,
];

const ROWS: readonly Row[] = [
  // Ordinal words and numbers, with the month phrase before or after.
  ["remind me on the first of every month to pay rent", "pay rent", monthly(1, "2027-01-01T09:00")],
  ["remind me every month on the 1st to pay rent", "pay rent", monthly(1, "2027-01-01T09:00")],
  ["remind me every month on the first to pay rent", "pay rent", monthly(1, "2027-01-01T09:00")],
  ["remind me to pay rent on the first of each month", "pay rent", monthly(1, "2027-01-01T09:00")],
  [
    "remind me to pay rent on the 1st of every month at 8pm",
    "pay rent",
    monthly(1, "2027-01-01T20:00", "BYHOUR=20;BYMINUTE=0"),
  ],
  [
    "on the first of the month, every month, remind me to pay rent",
    "pay rent",
    monthly(1, "2027-01-01T09:00"),
  ],
  [
    "remind me on the 15th of every month to pay the card",
    "pay the card",
    monthly(15, "2026-12-15T09:00"),
  ],
  [
    "remind me to pay the card on the fifteenth of every month",
    "pay the card",
    monthly(15, "2026-12-15T09:00"),
  ],
  [
    "remind me monthly on the fifteenth to pay the card",
    "pay the card",
    monthly(15, "2026-12-15T09:00"),
  ],
  [
    "remind me on the third of every month to water the cactus",
    "water the cactus",
    monthly(3, "2026-12-03T09:00"),
  ],
  [
    "remind me every month on the 2nd to check the meter",
    "check the meter",
    monthly(2, "2027-01-02T09:00"),
  ],
  [
    "remind me on the twenty-first of every month to call the bank",
    "call the bank",
    monthly(21, "2026-12-21T09:00"),
  ],
  [
    "remind me every month on the twenty second to pay the nanny",
    "pay the nanny",
    monthly(22, "2026-12-22T09:00"),
  ],
  [
    "remind me on the thirty-first of every month to back up",
    "back up",
    monthly(31, "2026-12-31T09:00"),
  ],
  [
    "remind me on the 23rd of each month to order coffee",
    "order coffee",
    monthly(23, "2026-12-23T09:00"),
  ],
  // The last day.
  [
    "remind me on the last day of every month to file expenses",
    "file expenses",
    monthly(-1, "2026-12-31T09:00"),
  ],
  [
    "remind me to file expenses on the last day of each month",
    "file expenses",
    monthly(-1, "2026-12-31T09:00"),
  ],
  [
    "remind me every month on the last day to file expenses",
    "file expenses",
    monthly(-1, "2026-12-31T09:00"),
  ],
  // Chinese: digits, numerals, 第一天, 最后一天.
  ["每月1号提醒我交房租", "交房租", monthly(1, "2027-01-01T09:00")],
  ["每月十五号提醒我交水电费", "交水电费", monthly(15, "2026-12-15T09:00")],
  ["每个月的1号提醒我交房租", "交房租", monthly(1, "2027-01-01T09:00")],
  ["每月的二十一日提醒我还贷款", "还贷款", monthly(21, "2026-12-21T09:00")],
  ["每月三十一号提醒我对账", "对账", monthly(31, "2026-12-31T09:00")],
  ["每月第一天提醒我交房租", "交房租", monthly(1, "2027-01-01T09:00")],
  ["每月最后一天提醒我对账", "对账", monthly(-1, "2026-12-31T09:00")],
  [
    "每个月最后一天晚上8点提醒我对账",
    "对账",
    monthly(-1, "2026-12-31T20:00", "BYHOUR=20;BYMINUTE=0"),
  ],
  ["提醒我每月1号交房租", "交房租", monthly(1, "2027-01-01T09:00")],
  // Only schedule words leave the task text.
  ["remind me daily at 9 to water plants", "water plants", daily("2026-12-03T09:00")],
  [
    "remind me at 9 every day to read the daily report",
    "read the daily report",
    daily("2026-12-03T09:00"),
  ],
  ["remind me every day to read the daily news", "read the daily news", daily("2026-12-03T09:00")],
  ["remind me to water the plants daily", "water the plants", daily("2026-12-03T09:00")],
  ["remind me daily to read my daily digest", "read my daily digest", daily("2026-12-03T09:00")],
  ["remind me every Friday to send the weekly report", "send the weekly report", [
    `FREQ=WEEKLY;BYDAY=FR;${D9}`,
    "2026-12-04T09:00",
  ]],
  [
    "remind me monthly to check the monthly budget",
    "check the monthly budget",
    monthly(2, "2027-01-02T09:00"),
    monthly(3, "2026-12-03T09:00"),
  ],
  // No repeat: an adjective, or a day of the month on its own.
  ["remind me at 9 to read the daily report", "read the daily report", [
    "one-off",
    "2026-12-03 09:00",
  ]],
  ["remind me tomorrow at 10 to send the weekly update", "send the weekly update", [
    "one-off",
    "2026-12-03 10:00",
  ], ["one-off", "2026-12-04 10:00"]],
  // A day of the month on its own is one time, the next 15th (more in bare_day_test.ts).
  ["remind me on the 15th at 9 to pay the card", "pay the card", ["one-off", "2026-12-15 09:00"]],
]; // deno-fmt-ignore

/** A compact form of what `parseIntent()` read, so a failure shows the whole reading. */
function reading(text: string, timeZone: string): string {
  const intent = parseIntent(text, { now: NOW, timeZone });
  if (intent.kind !== "create") return JSON.stringify(intent);
  const args = intent.args;
  if ("at" in args && typeof args.at === "object") {
    return `${args.prompt} | one-off | ${args.at.date} ${args.at.time}`;
  }
  if (!("repeat" in args)) return `one-off ${JSON.stringify(args)}`;
  const { rrule, start } = args.repeat;
  return `${args.prompt} | ${rrule} | ${start?.date}T${start?.time}`;
}

for (const [text, prompt, ny, sh = ny] of ROWS) {
  for (const [zone, [rrule, first]] of [[NY, ny], [SH, sh]] as const) {
    Deno.test(`"${text}" in ${zone} is ${rrule} ${first}, text "${prompt}"`, () => {
      if (rrule === "one-off") {
        assert.equal(reading(text, zone), `${prompt} | one-off | ${first}`);
        return;
      }
      assert.equal(reading(text, zone), `${prompt} | ${rrule} | ${first}`);
      assertStartIsFirst(rrule, first, zone, NOW);
    });
  }
}

Deno.test("an ordinal that is no day of the month is refused, never read as today", () => {
  for (const zone of [NY, SH]) {
    for (const text of ["remind me on the 32nd of every month to x", "每月32号提醒我x"]) {
      assert.deepEqual(parseIntent(text, { now: NOW, timeZone: zone }), {
        kind: "cannot-repeat",
        reason: "unreadable",
      }, text);
    }
  }
});
