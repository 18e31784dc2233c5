/**
 * The fuzz plan shared by `deno task fuzz` (1,000,000 inputs) and `deno task test` (10,000):
 * each target with its share of the inputs.
 *
 * @module
 */
import fc from "fast-check";
import { configProperty } from "./_config.ts";
import { openRouteTarget, routeProperty } from "./_routes.ts";
import { decoderProperty, foldProperty, rfc3339Property } from "./_schedule.ts";

/** One fuzz target: a name, its share of the inputs and how to check `runs` of them. */
export interface FuzzTarget {
  /** What is fuzzed. */
  readonly name: string;
  /** Fraction of all inputs. */
  readonly share: number;
  /** Checks `runs` random inputs; rejects with fast-check's report (seed, counterexample). */
  run(runs: number, seed?: number): Promise<void>;
}

function sync<T extends unknown[]>(
  property: fc.IPropertyWithHooks<T>,
): (numRuns: number, seed?: number) => Promise<void> {
  return (numRuns, seed) =>
    Promise.resolve(fc.assert(property, { numRuns, ...(seed === undefined ? {} : { seed }) }));
}

/** The targets: the schedule decoder and fold, the RFC 3339 parser, the config, the routes. */
export const TARGETS: readonly FuzzTarget[] = [
  {
    name: "schedule/change decoder",
    share: 0.3,
    run: sync(decoderProperty),
  },
  { name: "schedule fold", share: 0.1, run: sync(foldProperty) },
  { name: "RFC 3339 parser", share: 0.3, run: sync(rfc3339Property) },
  {
    name: "config parser",
    share: 0.1,
    run: (numRuns, seed) =>
      fc.assert(configProperty, { numRuns, ...(seed === undefined ? {} : { seed }) }),
  },
  {
    name: "route bodies and parameters",
    share: 0.2,
    async run(numRuns, seed) {
      // A fresh store every 5,000 inputs: accepted messages grow the shared session's log.
      for (let done = 0, chunk = 0; done < numRuns; done += 5000, chunk++) {
        await using target = await openRouteTarget();
        await fc.assert(routeProperty(target), {
          numRuns: Math.min(5000, numRuns - done),
          ...(seed === undefined ? {} : { seed: seed + chunk }),
        });
      }
    },
  },
];
