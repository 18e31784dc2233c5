/**
 * When a new reminder first fires, and how the reply says it, in New York and Shanghai, English
 * and Chinese. A repeat of minutes or hours ("every 2 minutes", "每隔2小时", "every half hour")
 * first fires one interval from now, on the next whole minute at or after that (never sooner),
 * unless a clock time is named ("every 2 hours from 8pm"); the reply says when ("first at
 * 10:33"). A delay ("in 1 minute", "1分钟后") fires that long from now to the second, and the reply
 * says that second when it is not on a whole minute ("at 03:01:58").
 */
import assert from "node:assert/strict";
import { assertStartIsFirst } from "./_fixtures_test.ts";
import { parseIntent } from "./parse.ts";
import { world } from "./_world_test.ts";

// Wednesday 2 December 18:30:45 in New York, Thursday 3 December 07:30:45 in Shanghai.
const NOW = Date.parse("2026-12-02T23:30:45Z");
const NY = "America/New_York";
const SH = "Asia/Shanghai";

// deno-fmt-ignore
const ROWS: readonly (readonly [text: string, prompt: string, rrule: string, ny: string, sh: string])[] = [
  ["remind me every minute to blink", "blink", "FREQ=MINUTELY", "2026-12-02T18:32", "2026-12-03T07:32"],
  ["every 2 minutes remind me to blink", "blink", "FREQ=MINUTELY;INTERVAL=2", "2026-12-02T18:33", "2026-12-03T07:33"],
  ["每隔2分钟提醒我眨眼", "眨眼", "FREQ=MINUTELY;INTERVAL=2", "2026-12-02T18:33", "2026-12-03T07:33"],
  ["every half hour remind me to stretch", "stretch", "FREQ=MINUTELY;INTERVAL=30", "2026-12-02T19:01", "2026-12-03T08:01"],
  ["every 2 hours remind me to drink water", "drink water", "FREQ=HOURLY;INTERVAL=2", "2026-12-02T20:31", "2026-12-03T09:31"],
  ["每隔2小时提醒我喝水", "喝水", "FREQ=HOURLY;INTERVAL=2", "2026-12-02T20:31", "2026-12-03T09:31"],
  ["每小时提醒我站起来", "站起来", "FREQ=HOURLY", "2026-12-02T19:31", "2026-12-03T08:31"],
  // A clock time named: the first reminder is then.
  ["every 2 hours from 8pm remind me to drink water", "drink water", "FREQ=HOURLY;INTERVAL=2", "2026-12-02T20:00", "2026-12-03T20:00"],
];

for (const [text, prompt, rrule, ny, sh] of ROWS) {
  for (const [zone, first] of [[NY, ny], [SH, sh]] as const) {
    Deno.test(`"${text}" in ${zone} first fires at ${first}`, () => {
      const intent = parseIntent(text, { now: NOW, timeZone: zone });
      assert.ok(intent.kind === "create" && "repeat" in intent.args, JSON.stringify(intent));
      const { repeat } = intent.args;
      assert.equal(intent.args.prompt, prompt);
      assert.equal(repeat.rrule, rrule);
      assert.equal(`${repeat.start?.date}T${repeat.start?.time}`, first);
      assertStartIsFirst(rrule, first, zone, NOW);
      const wait = Temporal.PlainDateTime.from(first).toZonedDateTime(zone).epochMilliseconds - NOW;
      if (!/from 8pm/.test(text)) {
        const interval = (rrule.includes("HOURLY") ? 3_600_000 : 60_000) *
          Number(/INTERVAL=(\d+)/.exec(rrule)?.[1] ?? 1);
        assert.ok(wait >= interval && wait < interval + 60_000, `${wait} ms`);
      }
    });
  }
}

// The harness clock: 2026-01-15T08:00:00Z, Thursday 03:00 in New York, 16:00 in Shanghai.
// deno-fmt-ignore
const SAID: readonly (readonly [text: string, at: string, ny: RegExp, sh: RegExp])[] = [
  ["every 2 minutes remind me to blink", "2026-01-15T08:03:00.000Z",
    /repeating every 2 minutes; first at 03:03 \(America\/New_York\)\./, /repeating every 2 minutes; first at 16:03 \(Asia\/Shanghai\)\./],
  ["每隔2小时提醒我喝水", "2026-01-15T10:01:00.000Z",
    /（重复：每隔2小时，首次：05:01（America\/New_York））/, /（重复：每隔2小时，首次：18:01（Asia\/Shanghai））/],
  ["remind me in 1 minute to stretch", "2026-01-15T08:01:45.000Z",
    /I'll remind you to stretch at 03:01:45 \(America\/New_York\)\./, /I'll remind you to stretch at 16:01:45 \(Asia\/Shanghai\)\./],
  ["1分钟后提醒我喝水", "2026-01-15T08:01:45.000Z",
    /我会在 03:01:45（America\/New_York） 提醒你：喝水。/, /我会在 16:01:45（Asia\/Shanghai） 提醒你：喝水。/],
  ["remind me in 30 seconds to look up", "2026-01-15T08:01:15.000Z",
    /at 03:01:15 \(America\/New_York\)/, /at 16:01:15 \(Asia\/Shanghai\)/],
];

for (const [text, at, ny, sh] of SAID) {
  for (const [zone, reply] of [[NY, ny], [SH, sh]] as const) {
    Deno.test(`"${text}" 45 s past the minute fires at ${at} and says so (${zone}, real schedule)`, async () => {
      await using w = await world(zone);
      await w.h.clock.advance(45_000);
      const said = await w.say(text);
      assert.equal(w.records()[0]?.scheduledAt, at);
      assert.match(said, reply);
    });
  }
}

Deno.test("a delay that lands on a whole minute is said without seconds (real schedule)", async () => {
  await using w = await world(NY);
  assert.match(
    await w.say("remind me in 2 minutes to stretch"),
    /at 03:02 \(America\/New_York\)\./,
  );
  assert.match(await w.say("2分钟后提醒我喝水"), /我会在 03:02（America\/New_York） 提醒你/);
});
