// Private: whether a compiled rule ever occurs, probed in slices (docs/recurring.md "Records"):
// exact structure checks first (`_rrule_structure.ts`), then a walk for the first occurrence
// from DTSTART bounded by `MAX_WORK`. The walk runs `SLICE` work units at a time, so a caller
// that can wait (a tool, a page route) yields to the event loop between slices and a rule that
// never occurs costs no request more than one slice of blocking (README "Failure behaviour").
// The verdict is the same whether the slices run back to back or with waits between them.
import { type Compiled, MAX_WORK, occurrences, PAUSE } from "./_rrule_expand.ts";
import type { Budget } from "./_rrule_days.ts";
import { structureCanOccur } from "./_rrule_structure.ts";

/** Work units per slice (about 2–5 ms of the slowest rules measured here, on a cold cache). */
export const SLICE = 250;

/** A probe in progress. */
export interface Probe {
  /** The verdict, once known. */
  occurs?: boolean;
  walk?: Generator<number> | undefined;
  budget?: Budget;
  spent: number;
}

/**
 * Runs one more slice of the probe.
 *
 * @returns the verdict, or `undefined` when more slices are needed
 */
export function stepProbe(c: Compiled, probe: Probe): boolean | undefined {
  if (probe.occurs !== undefined) return probe.occurs;
  if (probe.walk === undefined) {
    if (!structureCanOccur(c)) return probe.occurs = false;
    // `occurrences` ignores COUNT and UNTIL (the walk applies them).
    probe.budget = { left: 0, spent: false, pause: true };
    probe.walk = occurrences(c, 0, probe.budget);
  }
  const budget = probe.budget!;
  const grant = Math.min(SLICE, MAX_WORK - probe.spent);
  budget.left = grant;
  const step = probe.walk.next();
  probe.spent += grant - budget.left; // `left` may end below 0: a period costs what it costs
  if (step.done) return probe.occurs = false;
  if (step.value !== PAUSE) return end(probe, true);
  if (probe.spent >= MAX_WORK) return end(probe, false);
  return undefined;
}

function end(probe: Probe, occurs: boolean): boolean {
  probe.walk?.return(undefined);
  probe.walk = undefined;
  probe.occurs = occurs;
  return occurs;
}

/** The verdict, running every remaining slice now. */
export function probeNow(c: Compiled, probe: Probe): boolean {
  for (;;) {
    const verdict = stepProbe(c, probe);
    if (verdict !== undefined) return verdict;
  }
}

/** The verdict, yielding to the event loop (a macrotask) between slices. */
export async function probeSliced(c: Compiled, probe: Probe): Promise<boolean> {
  for (;;) {
    const verdict = stepProbe(c, probe);
    if (verdict !== undefined) return verdict;
    await new Promise((resolve) => setTimeout(resolve, 0));
  }
}
