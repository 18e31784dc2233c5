import assert from "node:assert/strict";
import { code, PARIS, request, T0 } from "./_fixtures_test.ts";
import { type CreateContext, resolveCreate } from "./rules.ts";
import { implicitTimeZone } from "./_provenance.ts";

type ProvenanceRow = readonly [
  name: string,
  context: Omit<CreateContext, "now">,
  expected: string,
  known?: readonly string[],
];

const PROVENANCE: readonly ProvenanceRow[] = [
  ["one client zone equal to the session zone", PARIS, "ok"],
  [
    "Calcutta ≡ Kolkata is accepted",
    {
      sessionTimeZone: "Asia/Kolkata",
      clientTimeZones: ["Asia/Calcutta"],
      hasTimeContextMarker: true,
    },
    "ok",
  ],
  [
    "duplicates by Temporal equivalence count once",
    {
      sessionTimeZone: "America/New_York",
      clientTimeZones: ["US/Eastern", "America/New_York", "america/new_york"],
      hasTimeContextMarker: true,
    },
    "ok",
  ],
  [
    "two client zones require confirmation",
    { ...PARIS, clientTimeZones: ["Europe/Paris", "Asia/Tokyo"] },
    "timezone_confirmation_required",
    ["Europe/Paris", "Asia/Tokyo"],
  ],
  [
    "no time-context marker fails closed",
    { ...PARIS, hasTimeContextMarker: false },
    "timezone_confirmation_required",
    ["Europe/Paris"],
  ],
  [
    "a session without a zone requires confirmation",
    { clientTimeZones: ["Asia/Tokyo"], hasTimeContextMarker: true },
    "timezone_confirmation_required",
    ["Asia/Tokyo"],
  ],
  [
    "an explicitly undefined session zone requires confirmation",
    { sessionTimeZone: undefined, clientTimeZones: ["Asia/Tokyo"], hasTimeContextMarker: true },
    "timezone_confirmation_required",
    ["Asia/Tokyo"],
  ],
  [
    "missing client provenance requires confirmation",
    { ...PARIS, clientTimeZones: "missing" },
    "timezone_confirmation_required",
    ["Europe/Paris"],
  ],
  [
    "an empty client list requires confirmation",
    { ...PARIS, clientTimeZones: [] },
    "timezone_confirmation_required",
    ["Europe/Paris"],
  ],
  [
    "a client/session mismatch requires confirmation",
    { ...PARIS, clientTimeZones: ["Europe/Berlin"] },
    "timezone_confirmation_required",
    ["Europe/Paris", "Europe/Berlin"],
  ],
  [
    "an unknown client zone counts as mixed and is not listed",
    { ...PARIS, clientTimeZones: ["Europe/Paris", "Not/AZone"] },
    "timezone_confirmation_required",
    ["Europe/Paris"],
  ],
  [
    "a client zone equal to the session zone is listed once",
    { ...PARIS, clientTimeZones: ["Europe/Paris", "Asia/Tokyo", "Asia/Tokyo"] },
    "timezone_confirmation_required",
    ["Europe/Paris", "Asia/Tokyo"],
  ],
];

Deno.test("`resolveCreate()` accepts an implicit local time only with unambiguous provenance", async (t) => {
  const local = request({ at: { date: "2030-01-01", time: "09:00" } });
  for (const [name, context, expected, known] of PROVENANCE) {
    await t.step(name, () => {
      const result = resolveCreate(local, { now: T0, ...context });
      assert.equal(code(result), expected);
      if (!result.ok) assert.deepEqual(result.error.knownTimeZones, known);
      const implicit = implicitTimeZone(context);
      assert.equal(implicit.ok, expected === "ok");
    });
  }
  const kolkata = resolveCreate(local, { now: T0, ...PROVENANCE[1]![1] });
  assert.equal(kolkata.ok && kolkata.scheduledAt, "2030-01-01T03:30:00.000Z");
});
