// The implicit-zone decision of docs/design.md#schedule-zone-check, private to rules.ts.
import { normalizeTimeZone, timeZonesEqual } from "@chime/session";
import { toolError, type ToolFailure } from "./errors.ts";

/** The zone facts of one create request. */
export interface ZoneProvenance {
  /** The immutable `SessionHeader.timeZone`; absent for sessions created without one. */
  readonly sessionTimeZone?: string | undefined;
  /**
   * The `clientTimeZone`s of the open turn's `user-rpc` messages, or `'missing'` when the turn
   * has no message provenance to derive them from.
   */
  readonly clientTimeZones: readonly string[] | "missing";
  /** Whether the open turn carries a time-context marker (fail closed without one). */
  readonly hasTimeContextMarker: boolean;
}

function normalized(zone: string | undefined): string | undefined {
  try {
    return normalizeTimeZone(zone);
  } catch {
    return undefined;
  }
}

function addDistinct(zones: string[], zone: string): void {
  if (!zones.some((known) => timeZonesEqual(known, zone))) zones.push(zone);
}

/**
 * Decides the zone of a local `at` without `time_zone`: accepted only when the open turn has a
 * time-context marker, the session has a zone, and the request's client zones, deduplicated by
 * Temporal equivalence, are exactly one zone equal to the session's (`Asia/Calcutta` ≡
 * `Asia/Kolkata`). Otherwise the user must confirm a zone.
 *
 * @param provenance the session zone, the request's client zones and the marker
 * @returns the session zone, or a `timezone_confirmation_required` failure whose
 *   `knownTimeZones` lists the valid session zone first, then distinct valid client zones
 *
 * @example Two client zones are ambiguous
 * ```ts
 * import assert from "node:assert/strict";
 * import { implicitTimeZone } from "@chime/schedule";
 * const result = implicitTimeZone({
 *   sessionTimeZone: "Europe/Paris",
 *   clientTimeZones: ["Europe/Paris", "Asia/Tokyo"],
 *   hasTimeContextMarker: true,
 * });
 * assert(!result.ok && result.error.knownTimeZones?.length === 2);
 * ```
 */
export function implicitTimeZone(
  provenance: ZoneProvenance,
): { readonly ok: true; readonly timeZone: string } | ToolFailure {
  const session = normalized(provenance.sessionTimeZone);
  const clients = provenance.clientTimeZones === "missing" ? [] : provenance.clientTimeZones;
  const valid = clients.map(normalized);
  const distinct: string[] = [];
  for (const zone of valid) if (zone !== undefined) addDistinct(distinct, zone);
  const known = session === undefined ? [] : [session];
  for (const zone of distinct) addDistinct(known, zone);
  const [client] = distinct;
  let reason: string;
  if (!provenance.hasTimeContextMarker) reason = "the turn has no time-context reading";
  else if (session === undefined) reason = "the session has no time zone";
  else if (client === undefined) reason = "the request carries no browser time zone";
  else if (distinct.length > 1 || valid.includes(undefined)) {
    reason = "the request carries several browser time zones";
  } else if (!timeZonesEqual(client, session)) {
    reason = `the browser zone ${client} differs from the session zone ${session}`;
  } else return { ok: true, timeZone: session };
  return toolError(
    "timezone_confirmation_required",
    `Cannot create schedule at a local time: ${reason}; confirm a time_zone`,
    { knownTimeZones: known },
  );
}
