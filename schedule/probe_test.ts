// The sliced never-occurs probe (`_probe.ts`, docs/recurring.md "Records") gives the verdict of
// one uninterrupted walk for any rule, whether its slices run back to back or with waits.
import assert from "node:assert/strict";
import fc from "fast-check";
import { type Compiled, MAX_WORK, occurrences } from "./_rrule_expand.ts";
import { parseRule } from "./_rrule_parse.ts";
import { structureCanOccur } from "./_rrule_structure.ts";
import { wallOfPlain, ZoneClock } from "./_zone_cache.ts";
import { type Probe, probeNow, probeSliced, SLICE, stepProbe } from "./_probe.ts";
import { ruleArb, ZONES } from "./_rrule_arbitrary_test.ts";
import { formatRule } from "./_rrule_parse.ts";

function compiled(rrule: string, dtstart: string, zone: string): Compiled {
  return {
    rule: parseRule(rrule),
    start: wallOfPlain(Temporal.PlainDateTime.from(dtstart)),
    clock: new ZoneClock(zone),
  };
}

/** The verdict as one walk with the whole budget finds it (the probe before slicing). */
function oneWalk(c: Compiled): boolean {
  if (!structureCanOccur(c)) return false;
  return !occurrences(c, 0, { left: MAX_WORK, spent: false }).next().done;
}

Deno.test("the sliced probe's verdict equals one uninterrupted walk's (property)", async () => {
  await fc.assert(
    fc.asyncProperty(
      ruleArb,
      fc.constantFrom(...ZONES),
      fc.integer({ min: 0, max: 400 * 86_400 }),
      async (raw, zone, offset) => {
        let rrule: string;
        try {
          rrule = formatRule(parseRule(formatRule(raw)));
        } catch {
          return; // outside the subset: the parser's business
        }
        const dtstart = new Date(Date.UTC(2027, 0, 1) + offset * 1000).toISOString().slice(0, 19);
        const expected = oneWalk(compiled(rrule, dtstart, zone));
        assert.equal(probeNow(compiled(rrule, dtstart, zone), { spent: 0 }), expected, rrule);
        assert.equal(await probeSliced(compiled(rrule, dtstart, zone), { spent: 0 }), expected);
      },
    ),
    { numRuns: 300 },
  );
});

Deno.test("a rule that never occurs takes many slices, each at most SLICE units plus one period", () => {
  const c = compiled(
    "FREQ=MONTHLY;INTERVAL=3;BYDAY=-2TU,1SU;BYMONTHDAY=-1;BYHOUR=9,23;BYSETPOS=1",
    "2027-02-15T04:27:47",
    "Australia/Lord_Howe",
  );
  const probe: Probe = { spent: 0 };
  let slices = 0;
  let before = 0;
  while (stepProbe(c, probe) === undefined) {
    slices++;
    assert.ok(probe.spent - before <= SLICE + 13, "a slice overspends by one period at most");
    before = probe.spent;
  }
  assert.equal(probe.occurs, false);
  assert.ok(slices >= MAX_WORK / (SLICE + 13) - 1, `${slices} slices`);
  assert.ok(probe.spent >= MAX_WORK);
});

Deno.test("regression: a day search that runs out of its slice resumes instead of ending the walk", async () => {
  // The day search (`nextAllowedDay`) spends budget inside one period: with a 250-unit slice it
  // ran out and answered "nothing until year 9999", refusing a rule that occurs.
  const rrule = "FREQ=HOURLY;INTERVAL=131;BYDAY=MO,SA;BYHOUR=0";
  const dtstart = new Date(Date.UTC(2027, 0, 1) + 2_005_200_000).toISOString().slice(0, 19);
  const expected = oneWalk(compiled(rrule, dtstart, "America/New_York"));
  assert.equal(expected, true);
  assert.equal(probeNow(compiled(rrule, dtstart, "America/New_York"), { spent: 0 }), true);
  assert.equal(
    await probeSliced(compiled(rrule, dtstart, "America/New_York"), { spent: 0 }),
    true,
  );
});
