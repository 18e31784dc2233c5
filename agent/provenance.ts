/**
 * Request provenance from the durable log (docs/design.md#request-provenance): which `user-rpc`
 * messages a turn claimed, and which turn is open. Time-context and Schedule derive request
 * zones from these instead of copying zone facts.
 *
 * Every read here is bounded (docs/long-sessions.md "Bounded live session"): it searches
 * backwards from the end of the log and stops at what it looks for, never below the events the
 * session holds in memory (`tailStart` of a bounded live session; 0 for a whole log).
 *
 * @module
 */
import type { Session, SessionEvent, StepStartData, UserRpcData } from "@chime/session";
import { claimedMessage } from "./_claims.ts";
import { tailStartOf } from "./_history.ts";

/** Anything with the session's read surface (a live `Session` or a loaded log). */
export interface SessionLog {
  /** The header; only `seedLength` is read. */
  readonly header: { readonly seedLength?: number };
  /**
   * The events `[from, to)` in seq order (a bounded live session throws `RangeError` below
   * its `tailStart`); called with both bounds.
   */
  events(from?: number, to?: number): readonly SessionEvent[];
}

/** Events per slice of a backwards search. */
const SLICE = 128;

/** The events of `log` from the newest down to `floor` (at least the held tail's start). */
function* newestFirst(log: Session | SessionLog, floor = 0): Generator<SessionEvent> {
  const bottom = Math.max(floor, tailStartOf(log));
  for (let hi = (log as { length?: number }).length ?? log.events().length; hi > bottom;) {
    const lo = Math.max(bottom, hi - SLICE);
    const slice = log.events(lo, hi);
    for (let i = slice.length - 1; i >= 0; i--) yield slice[i]!;
    hi = lo;
  }
}

/**
 * The `user-rpc` events claimed by `turnId`, in claim order, each once, carrying their own
 * bound `source` (a retried message keeps its original provenance; an edit carries the zone of
 * the message it edits). The link is `step/start.messageIds`; the search runs backwards from
 * the end of the log to the turn's `turn/start`. A claimed message older than the session's
 * memory tail is found when `turnId` is the running turn of an agent (it holds the event);
 * otherwise it is left out.
 *
 * @param session the live session (or any log with `events()`)
 * @param turnId the turn
 * @returns the claimed messages; empty for an unknown turn or a follow-up-only turn
 *
 * @example Messages of the running turn
 * ```ts
 * import { openTurnId, turnMessages } from "@chime/agent";
 * import { Session } from "@chime/session";
 * const session = new Session({
 *   header: { version: 1, id: "s", cwd: "/", createdAt: "2026-01-01T00:00:00.000Z",
 *     origin: "doc", lineage: null, delegationDepth: 0 },
 *   now: () => 0,
 * });
 * session.append("user-rpc", { messageId: "m1", text: "hi", source: { kind: "web" } });
 * session.append("turn/start", { turnId: "t1" });
 * session.append("step/start", { turnId: "t1", step: 0, messageIds: ["m1"] });
 * const turnId = openTurnId(session);
 * console.assert(turnId === "t1");
 * console.assert(turnMessages(session, "t1")[0]?.data.messageId === "m1");
 * ```
 */
export function turnMessages(
  session: Session | SessionLog,
  turnId: string,
): SessionEvent<"user-rpc", UserRpcData>[] {
  const steps: (readonly string[])[] = [];
  for (const event of newestFirst(session)) {
    if (event.type === "step/start") {
      const data = event.data as StepStartData;
      if (data.turnId === turnId) steps.unshift(data.messageIds ?? []);
    } else if (
      event.type === "turn/start" && (event.data as { turnId?: unknown }).turnId === turnId
    ) break;
  }
  const claimed: string[] = [];
  for (const ids of steps) for (const id of ids) if (!claimed.includes(id)) claimed.push(id);
  const byId = new Map<string, SessionEvent<"user-rpc", UserRpcData>>();
  for (const id of claimed) {
    const held = claimedMessage(session, turnId, id);
    if (held !== undefined) byId.set(id, held);
  }
  if (byId.size < claimed.length) {
    // Claimed messages are usually appended just before their turn: found early.
    for (const event of newestFirst(session)) {
      if (event.type !== "user-rpc") continue;
      const id = (event.data as UserRpcData).messageId;
      if (claimed.includes(id)) byId.set(id, event as SessionEvent<"user-rpc", UserRpcData>);
      if (byId.size === claimed.length) break;
    }
  }
  return claimed.flatMap((id) => {
    const event = byId.get(id);
    return event === undefined ? [] : [event];
  });
}

/**
 * The `user-rpc` event with `messageId` among the events the session holds in memory,
 * searched newest first (the agent's `retry` and `edit` read older ones from storage).
 *
 * @param session the live session (or any log with `events()`)
 * @param messageId the message id
 * @returns the event with its bound `source`, or `undefined`
 */
export function findMessage(
  session: Session | SessionLog,
  messageId: string,
): SessionEvent<"user-rpc", UserRpcData> | undefined {
  for (const event of newestFirst(session)) {
    if (event.type === "user-rpc" && (event.data as UserRpcData).messageId === messageId) {
      return event as SessionEvent<"user-rpc", UserRpcData>;
    }
  }
  return undefined;
}

/**
 * The id of the open turn: the last `turn/start` in the session's own suffix (from
 * `header.seedLength`, so a fork never inherits its parent's open turn) with no `turn/end`
 * after it, searched backwards from the end within the events the session holds in memory.
 *
 * @param session the live session (or any log with `events()`)
 * @returns the turn id, or `undefined` when no turn is open
 */
export function openTurnId(session: Session | SessionLog): string | undefined {
  for (const event of newestFirst(session, session.header.seedLength ?? 0)) {
    if (event.type === "turn/end") return undefined;
    if (event.type === "turn/start") return (event.data as { turnId: string }).turnId;
  }
  return undefined;
}
