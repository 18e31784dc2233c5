// Private: the request zone facts of the open turn, re-derived from the durable log (seed
// §"Session 与请求时区归属", Schedule paragraph). Schedule may not import timecontext, so the
// marker check lives here; the turn → messages link is `turnMessages()` of `@chime/agent`.
import { turnMessages } from "@chime/agent";
import type { Session } from "@chime/session";
import type { ZoneProvenance } from "./rules.ts";

/** The `time-context/marker` event type (owned by timecontext; matched by value here). */
const MARKER = "time-context/marker";

/** Whether the session's own suffix holds a time-context marker for `turnId`. */
function hasMarker(session: Session, turnId: string): boolean {
  return session.events(session.header.seedLength ?? 0).some((event) =>
    event.type === MARKER && typeof event.data === "object" && event.data !== null &&
    (event.data as { turnId?: unknown }).turnId === turnId
  );
}

/**
 * The zone provenance of a create request made in `turnId`: the marker, the immutable session
 * zone and the `clientTimeZone` bound to each `user-rpc` the turn claimed (`'missing'` when the
 * turn claimed none, or any of them carries none).
 */
export function turnProvenance(session: Session, turnId: string): ZoneProvenance {
  const zones = turnMessages(session, turnId).map((m) => m.data.source.clientTimeZone);
  const known = zones.filter((zone): zone is string => zone !== undefined);
  return {
    sessionTimeZone: session.header.timeZone,
    clientTimeZones: known.length === 0 || known.length < zones.length ? "missing" : known,
    hasTimeContextMarker: hasMarker(session, turnId),
  };
}
