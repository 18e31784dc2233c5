// Private: the request zone facts of the open turn, re-derived from the durable log
// (docs/design.md#schedule-zone-check). Schedule may not import timecontext, so the marker check
// lives here. The turn → messages link is `step/start.messageIds`, read the way `turnMessages()` of
// `@chime/agent` reads it, but from the tail back: the walk covers the open turn and then only as
// far back as the oldest message the turn claimed.
import type { StepStartData, UserRpcData } from "@chime/session";
import { type WalkAgent, walkBack } from "./_window.ts";
import { foldStart } from "./fold.ts";
import type { ZoneProvenance } from "./rules.ts";

/** The `time-context/marker` event type (owned by timecontext; matched by value here). */
const MARKER = "time-context/marker";

function turnOf(data: unknown): unknown {
  return typeof data === "object" && data !== null ? (data as { turnId?: unknown }).turnId : null;
}

/**
 * The zone provenance of a create request made in `turnId`: the marker (in the session's own
 * suffix), the immutable session zone and the `clientTimeZone` bound to each `user-rpc` the
 * turn claimed (`'missing'` when the turn claimed none, or any of them carries none).
 * Synchronous while the walk stays in the session's in-memory tail.
 */
export function turnProvenance(
  agent: WalkAgent,
  turnId: string,
): ZoneProvenance | Promise<ZoneProvenance> {
  const { session } = agent;
  const own = foldStart(session.header);
  const steps: (readonly string[])[] = []; // newest first
  const zones = new Map<string, string | undefined>(); // messageId → its bound client zone
  let marker = false;
  let claimed: string[] | undefined; // set once the walk passed the turn's `turn/start`
  const found = () => claimed!.every((id) => zones.has(id));
  const walked = walkBack(agent, 0, (event) => {
    if (event.type === "user-rpc") {
      const data = event.data as UserRpcData;
      zones.set(data.messageId, data.source.clientTimeZone);
      return claimed !== undefined && found();
    }
    if (claimed !== undefined) return false;
    if (event.type === "step/start" && turnOf(event.data) === turnId) {
      steps.push((event.data as StepStartData).messageIds ?? []);
    } else if (event.type === MARKER && event.seq >= own && turnOf(event.data) === turnId) {
      marker = true;
    } else if (event.type === "turn/start" && turnOf(event.data) === turnId) {
      claimed = [...new Set(steps.reverse().flat())];
      return found();
    }
  });
  const answer = (): ZoneProvenance => {
    const ids = claimed ?? [...new Set(steps.reverse().flat())];
    const bound = ids.filter((id) => zones.has(id)).map((id) => zones.get(id));
    const known = bound.filter((zone): zone is string => zone !== undefined);
    return {
      sessionTimeZone: session.header.timeZone,
      clientTimeZones: known.length === 0 || known.length < bound.length ? "missing" : known,
      hasTimeContextMarker: marker,
    };
  };
  return walked === undefined ? answer() : walked.then(answer);
}
