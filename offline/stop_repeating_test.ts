/**
 * "Stop repeating …" (the page's own button is labelled "Stop repeating"), "停止重复…",
 * "不要再重复…" end the series they name, with the real schedule tools, in New York and Shanghai:
 * the repeat words are not read as words of the reminder's text. A reminder that does not repeat
 * is not removed by a "stop repeating" request: the reply says it does not repeat.
 *
 * The harness clock is 2026-01-15T08:00Z: Thursday 03:00 in New York, 16:00 in Shanghai.
 */
import assert from "node:assert/strict";
import { world } from "./_world_test.ts";

const NY = "America/New_York";
const SH = "Asia/Shanghai";

// deno-fmt-ignore
const ROWS: readonly (readonly [create: string, stop: string, reply: RegExp])[] = [
  ["every Friday at 5pm remind me to submit timesheet", "stop repeating the timesheet reminder",
    /^Done — reminder "submit timesheet" \(sch_[\w-]+\) is cancelled \(the repeats are stopped\)\.$/],
  ["every Friday at 5pm remind me to submit timesheet", "Stop repeating the timesheet",
    /is cancelled \(the repeats are stopped\)/],
  ["every day at 9 remind me to stretch", "please stop the recurring stretch reminder",
    /is cancelled \(the repeats are stopped\)/],
  ["每周五下午5点提醒我交工时表", "停止重复交工时表的提醒",
    /^好的，已取消提醒“交工时表”（sch_[\w-]+）（重复提醒已停止）。$/],
  ["每周五下午5点提醒我交工时表", "不要再重复交工时表了", /（重复提醒已停止）/],
  ["每天早上9点提醒我拉伸", "别再重复提醒我拉伸了", /（重复提醒已停止）/],
  ["every day at 9 remind me to stretch", "stop repeating it", /is cancelled \(the repeats are stopped\)/],
  ["每天早上9点提醒我拉伸", "别再重复了", /（重复提醒已停止）/],
];

for (const [create, stop, reply] of ROWS) {
  for (const zone of [NY, SH]) {
    Deno.test(`"${stop}" ends the series (${zone}, real schedule)`, async () => {
      await using w = await world(zone);
      await w.say(create);
      await w.say("remind me tomorrow at 10 to buy milk");
      assert.equal(w.records().length, 2);
      const said = await w.say(stop);
      assert.match(said, reply);
      assert.deepEqual(w.records().map((r) => r.prompt), ["buy milk"], "only the series ended");
    });
  }
}

for (
  const [create, stop] of [
    ["remind me tomorrow at 9 to submit timesheet", "stop repeating the timesheet reminder"],
    ["明天上午9点提醒我交工时表", "停止重复交工时表的提醒"],
  ] as const
) {
  for (const zone of [NY, SH]) {
    Deno.test(`"${stop}" leaves a reminder that does not repeat (${zone}, real schedule)`, async () => {
      await using w = await world(zone);
      await w.say(create);
      const said = await w.say(stop);
      assert.equal(w.records().length, 1, "not removed");
      assert.match(
        said,
        /doesn't repeat, so there's no repeat to stop|不是重复提醒，没有可停止的重复/,
      );
    });
  }
}

Deno.test("stop repeating picks the series when a one-off has the same words (real schedule)", async () => {
  await using w = await world(NY);
  await w.say("remind me tomorrow at 9 to submit timesheet");
  await w.say("every Friday at 5pm remind me to submit timesheet");
  const said = await w.say("stop repeating the timesheet reminder");
  assert.match(said, /the repeats are stopped/);
  const left = w.records();
  assert.equal(left.length, 1);
  assert.equal(left[0]?.kind, "at", "the one-off stays");
});
