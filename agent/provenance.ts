/**
 * Request provenance from the durable log (seed §"Session 与请求时区归属"): which `user-rpc`
 * messages a turn claimed, and which turn is open. Time-context and Schedule derive request
 * zones from these instead of copying zone facts.
 *
 * @module
 */
import type { Session, SessionEvent, StepStartData, UserRpcData } from "@chime/session";

/** Anything with the session's read surface (a live `Session` or a loaded log). */
export interface SessionLog {
  /** The header; only `seedLength` is read. */
  readonly header: { readonly seedLength?: number };
  /** The events in seq order. */
  events(): readonly SessionEvent[];
}

/**
 * The `user-rpc` events claimed by `turnId`, in claim order, each once, carrying their own
 * bound `source` (a retried message keeps its original provenance; an edit carries the zone of
 * the message it edits). The link is `step/start.messageIds`.
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
  const events = session.events();
  const byId = new Map<string, SessionEvent<"user-rpc", UserRpcData>>();
  const claimed: string[] = [];
  for (const event of events) {
    if (event.type === "user-rpc") {
      const data = event.data as UserRpcData;
      if (!byId.has(data.messageId)) {
        byId.set(data.messageId, event as SessionEvent<"user-rpc", UserRpcData>);
      }
    } else if (event.type === "step/start") {
      const data = event.data as StepStartData;
      if (data.turnId !== turnId) continue;
      for (const id of data.messageIds ?? []) if (!claimed.includes(id)) claimed.push(id);
    }
  }
  return claimed.flatMap((id) => {
    const event = byId.get(id);
    return event === undefined ? [] : [event];
  });
}

/**
 * The `user-rpc` event with `messageId`, if the log holds one.
 *
 * @param session the live session (or any log with `events()`)
 * @param messageId the message id
 * @returns the event with its bound `source`, or `undefined`
 */
export function findMessage(
  session: Session | SessionLog,
  messageId: string,
): SessionEvent<"user-rpc", UserRpcData> | undefined {
  for (const event of session.events()) {
    if (event.type === "user-rpc" && (event.data as UserRpcData).messageId === messageId) {
      return event as SessionEvent<"user-rpc", UserRpcData>;
    }
  }
  return undefined;
}

/**
 * The id of the open turn: the last `turn/start` in the session's own suffix (from
 * `header.seedLength`, so a fork never inherits its parent's open turn) with no `turn/end`
 * after it.
 *
 * @param session the live session (or any log with `events()`)
 * @returns the turn id, or `undefined` when no turn is open
 */
export function openTurnId(session: Session | SessionLog): string | undefined {
  const events = session.events();
  const from = session.header.seedLength ?? 0;
  for (let i = events.length - 1; i >= from; i--) {
    const event = events[i]!;
    if (event.type === "turn/end") return undefined;
    if (event.type === "turn/start") return (event.data as { turnId: string }).turnId;
  }
  return undefined;
}
