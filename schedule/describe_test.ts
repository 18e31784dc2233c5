import assert from "node:assert/strict";
import { describeRule as fromBarrel } from "@chime/schedule";
import { describeRule } from "./describe.ts";

Deno.test("the per-path describer is the barrel's, and words a monthly-by-weekday series", () => {
  // docs/architecture.md "Per-path exports": the page bundles this very function.
  assert.equal(describeRule, fromBarrel);
  const series = {
    rrule: "FREQ=MONTHLY;BYDAY=1MO;BYHOUR=10;BYMINUTE=0;COUNT=3",
    dtstart: "2030-01-07T10:00:00",
    timeZone: "Europe/Berlin",
  };
  assert.equal(
    describeRule(series, "en"),
    "monthly on the first Monday at 10:00 (Europe/Berlin), 3 times",
  );
  assert.equal(describeRule(series, "zh"), "每月第一个周一 10:00（Europe/Berlin），共3次");
});
