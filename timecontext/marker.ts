/**
 * The `time-context/marker` event (docs/events.md#time-context-marker): a plain plugin marker
 * saying a step of this turn received a time reading. It copies no zone facts
 * (docs/design.md#time-context-reading).
 *
 * @module
 */
/** The event type of the marker. */
export const TIME_CONTEXT_MARKER = "time-context/marker";

/** Data of `time-context/marker`: only the turn, never a zone (Schedule re-derives them). */
export interface TimeContextMarkerData {
  /** The turn whose step got a reading. */
  readonly turnId: string;
}

/**
 * Tells whether `events` hold a `time-context/marker` for `turnId`. Schedule uses it to require the
 * marker in the open turn before it accepts a local time (docs/design.md#schedule-zone-check); it
 * fails closed on anything that is not a well-formed marker.
 *
 * @param events session events to search, e.g. `session.events()` or the open turn's suffix
 * @param turnId the open turn's id
 * @returns `true` when at least one marker names `turnId`
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { hasTimeContextMarker } from "@chime/timecontext";
 * const events = [
 *   { seq: 0, type: "time-context/marker", at: "2026-01-01T00:00:00.000Z", data: { turnId: "t1" } },
 * ];
 * assert.ok(hasTimeContextMarker(events, "t1"));
 * assert.ok(!hasTimeContextMarker(events, "t2"));
 * ```
 */
export function hasTimeContextMarker(
  events: readonly { readonly type: string; readonly data: unknown }[],
  turnId: string,
): boolean {
  return events.some((event) =>
    event.type === TIME_CONTEXT_MARKER && typeof event.data === "object" &&
    event.data !== null && (event.data as Partial<TimeContextMarkerData>).turnId === turnId
  );
}
