// The repeat selector's own shape check (docs/recurring.md "Tools"): rules.ts runs it after the
// schema, so every malformed selector that reaches it directly is refused with a code, never
// read in part.
import assert from "node:assert/strict";
import { code } from "./_fixtures_test.ts";
import { validateRepeat } from "./_repeat.ts";

const RRULE = "FREQ=DAILY;BYHOUR=9;BYMINUTE=0";

function refused(repeat: unknown): string {
  const result = validateRepeat(repeat);
  assert(!("kind" in result), `accepted ${JSON.stringify(repeat)}`);
  return code(result);
}

Deno.test("validateRepeat() refuses each malformed selector with invalid_arguments", () => {
  const rows: readonly [name: string, repeat: unknown][] = [
    ["not an object", "FREQ=DAILY"],
    ["an array", [RRULE]],
    ["an unknown field", { rrule: RRULE, every: 2 }],
    ["rrule not a string", { rrule: 7 }],
    ["start not an object", { rrule: RRULE, start: "2030-01-02T09:00" }],
    ["start with an extra field", {
      rrule: RRULE,
      start: { date: "2030-01-02", time: "09:00", zone: "UTC" },
    }],
    ["start missing time", { rrule: RRULE, start: { date: "2030-01-02" } }],
    ["start with a number date", { rrule: RRULE, start: { date: 20300102, time: "09:00" } }],
    ["time_zone not a string", { rrule: RRULE, time_zone: 1 }],
    ["catch_up_seconds zero", { rrule: RRULE, catch_up_seconds: 0 }],
    ["catch_up_seconds negative", { rrule: RRULE, catch_up_seconds: -60 }],
    ["catch_up_seconds fractional", { rrule: RRULE, catch_up_seconds: 1.5 }],
    ["catch_up_seconds a string", { rrule: RRULE, catch_up_seconds: "60" }],
  ];
  for (const [name, repeat] of rows) {
    assert.equal(refused(repeat), "invalid_arguments", name);
  }
});

Deno.test("validateRepeat() passes on the codes of a bad rule and a bad start", () => {
  assert.notEqual(refused({ rrule: "FREQ=SECONDLY" }), "ok");
  assert.notEqual(refused({ rrule: RRULE, start: { date: "2030-02-30", time: "09:00" } }), "ok");
});

Deno.test("validateRepeat() keeps every valid field, with the rule canonical", () => {
  const result = validateRepeat({
    rrule: RRULE,
    start: { date: "2030-01-02", time: "09:00" },
    time_zone: "Europe/Paris",
    catch_up_seconds: 600,
  });
  assert("kind" in result);
  assert.equal(result.kind, "repeat");
  assert.deepEqual(result.start, { date: "2030-01-02", time: "09:00" });
  assert.equal(result.timeZone, "Europe/Paris");
  assert.equal(result.catchUpSeconds, 600);
  assert.equal(typeof result.rrule, "string");
});
