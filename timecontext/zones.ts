/**
 * Zone derivation for one step's batch (docs/design.md#time-context-reading).
 *
 * @module
 */
import { isTimeZone, timeZonesEqual } from "@chime/session";

/** The zones that govern one batch: the session default and the messages' client provenance. */
export interface DerivedZones {
  /** The immutable session default zone (`SessionHeader.timeZone`); absent ⇒ unavailable. */
  readonly sessionTimeZone?: string;
  /**
   * The distinct client zones bound to the batch's `user-rpc` messages, deduplicated by zone
   * equivalence (`Asia/Calcutta` ≡ `Asia/Kolkata`), first spelling kept, in message order.
   */
  readonly clientTimeZones: readonly string[];
  /** `true` when at least one message carries no (valid) `source.clientTimeZone`. */
  readonly missingClientZone: boolean;
}

/**
 * The part of a `user-rpc` event (`SessionEvent<"user-rpc", UserRpcData>` of `@chime/session`)
 * that zone derivation reads: its bound provenance.
 */
export interface ZoneSourceMessage {
  /** The `user-rpc` data; only `source` is read. */
  readonly data: { readonly source: { readonly clientTimeZone?: string } };
}

/**
 * Derives the zones of a batch from the immutable header and the messages' bound provenance
 * (docs/design.md#time-context-reading: time-context and Schedule derive the same facts
 * independently; nothing is copied into a second durable authority).
 *
 * Zones that are not valid named IANA zones are treated as absent: a header zone becomes
 * unavailable, a client zone counts as missing.
 *
 * @param header the `SessionHeader` (only `timeZone` is read)
 * @param messages the `user-rpc` events of the batch or turn, in order; empty for a
 *   follow-up-only step (then `clientTimeZones` is empty and `missingClientZone` is `false`)
 * @returns the derived zones
 *
 * @example A Chrome and a Firefox tab in India agree
 * ```ts
 * import assert from "node:assert/strict";
 * import { deriveZones } from "@chime/timecontext";
 * const zones = deriveZones({ timeZone: "Asia/Kolkata" }, [
 *   { data: { source: { clientTimeZone: "Asia/Calcutta" } } },
 *   { data: { source: { clientTimeZone: "Asia/Kolkata" } } },
 * ]);
 * assert.ok(zones.clientTimeZones.length === 1 && !zones.missingClientZone);
 * ```
 */
export function deriveZones(
  header: { readonly timeZone?: string },
  messages: readonly ZoneSourceMessage[],
): DerivedZones {
  const clientTimeZones: string[] = [];
  let missingClientZone = false;
  for (const message of messages) {
    const zone = message.data.source.clientTimeZone;
    if (!isTimeZone(zone)) {
      missingClientZone = true;
    } else if (!clientTimeZones.some((seen) => timeZonesEqual(seen, zone))) {
      clientTimeZones.push(zone);
    }
  }
  const sessionTimeZone = header.timeZone;
  return isTimeZone(sessionTimeZone)
    ? { sessionTimeZone, clientTimeZones, missingClientZone }
    : { clientTimeZones, missingClientZone };
}

/**
 * Tells whether the client provenance unambiguously matches the session zone: exactly one
 * client zone, equal to the session zone, and no message without a zone. This is the condition
 * under which an implicit local time may be read in the session zone
 * (docs/design.md#schedule-zone-check).
 *
 * @param zones zones from {@linkcode deriveZones}
 * @returns `true` when implicit local times are unambiguous
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { zonesAgree } from "@chime/timecontext";
 * assert.ok(zonesAgree({
 *   sessionTimeZone: "US/Eastern", clientTimeZones: ["America/New_York"], missingClientZone: false,
 * }));
 * ```
 */
export function zonesAgree(zones: DerivedZones): boolean {
  const [only, ...rest] = zones.clientTimeZones;
  return zones.sessionTimeZone !== undefined && only !== undefined && rest.length === 0 &&
    !zones.missingClientZone && timeZonesEqual(only, zones.sessionTimeZone);
}
