/**
 * Message lifecycle of the page (README.md#contract-notes): which `user-rpc` messages are still
 * queued behind a running turn and which were claimed into a later step of a running turn
 * (steering), read
 * from the durable events only (`step/start.messageIds`, docs/architecture.md#words, "steering").
 *
 * @module
 */
import type { WireEvent } from "../wire.ts";

/** How a user message entered the agent loop, when it is not plain. */
export type MessageState = "queued" | "steering" | "stopped" | "replaced";

/** Whether a turn is open at the end of `events` (a `turn/start` not yet ended). */
export function turnOpen(events: readonly WireEvent[]): boolean {
  let open = false;
  for (const e of events) {
    if (e.type === "turn/start") open = true;
    else if (e.type === "turn/end") open = false;
  }
  return open;
}

/**
 * Lifecycle states by the `seq` of each `user-rpc` that has one: `replaced` for every message
 * of an edit tree (an original and the edits reaching it through `edits: messageId`, an edit of
 * an edit or of a replaced message included) but the tree's newest, which is what the host runs
 * when any of them is retried (README "HTTP API"; docs/events.md);
 * `stopped` when a cancelled
 * `turn/end` names it in `stoppedMessageIds` (Stop ended it, or it was queued behind the stopped
 * turn: the model never carries it out; a retry claims it again and clears the state, see
 * docs/events.md), `queued` while no
 * `step/start` after it has claimed its `messageId` and it still waits for the agent (a turn is
 * open, or no turn started after it); `steering` when the step that claimed it was a later step
 * (`step > 0`) of a turn that was already running. Messages claimed by a turn's first step are
 * plain and get no state.
 *
 * @param events the window's contiguous events, in seq order
 * @returns the states by seq
 * @example A message sent during a running turn joins its next step
 * ```ts
 * import { messageStates } from "./lifecycle.ts";
 * const at = "2030-01-01T00:00:00.000Z";
 * const states = messageStates([
 *   { seq: 0, type: "user-rpc", at, data: { messageId: "a", text: "hi" } },
 *   { seq: 1, type: "turn/start", at, data: { turnId: "t" } },
 *   { seq: 2, type: "step/start", at, data: { turnId: "t", step: 0, messageIds: ["a"] } },
 *   { seq: 3, type: "user-rpc", at, data: { messageId: "b", text: "also" } },
 * ]);
 * console.assert(states.get(3) === "queued" && !states.has(0));
 * ```
 */
export function messageStates(events: readonly WireEvent[]): Map<number, MessageState> {
  const waiting = new Map<string, number>();
  const seqOf = new Map<string, number>();
  const states = new Map<number, MessageState>();
  const rootOf = new Map<string, string>();
  const newest = new Map<string, string>();
  let lastTurnStart = -1;
  for (const e of events) {
    if (e.type === "user-rpc") {
      const id = (e.data as { messageId?: unknown }).messageId;
      const edits = (e.data as { edits?: unknown }).edits;
      // The tree's root: an edit of an edit (or of a replaced message) joins its original's tree.
      const root = typeof edits === "string" ? rootOf.get(edits) ?? edits : id;
      const previous = typeof root === "string" ? newest.get(root) : undefined;
      if (typeof edits === "string" && previous !== undefined) {
        waiting.delete(previous);
        states.set(seqOf.get(previous)!, "replaced");
      }
      if (typeof id === "string") {
        waiting.set(id, e.seq);
        seqOf.set(id, e.seq);
        rootOf.set(id, root as string);
        newest.set(root as string, id);
      }
    } else if (e.type === "turn/start") {
      lastTurnStart = e.seq;
    } else if (e.type === "step/start") {
      const d = e.data as { step?: unknown; messageIds?: unknown };
      const ids = Array.isArray(d.messageIds) ? d.messageIds : [];
      for (const id of ids) {
        const claimed = typeof id === "string" ? seqOf.get(id) : undefined;
        if (claimed !== undefined && states.get(claimed) === "stopped") states.delete(claimed);
        const seq = typeof id === "string" ? waiting.get(id) : undefined;
        if (seq === undefined) continue;
        waiting.delete(id as string);
        if (typeof d.step === "number" && d.step > 0) states.set(seq, "steering");
      }
    } else if (e.type === "turn/end") {
      const stopped = (e.data as { stoppedMessageIds?: unknown }).stoppedMessageIds;
      for (const id of Array.isArray(stopped) ? stopped : []) {
        const seq = typeof id === "string" ? seqOf.get(id) : undefined;
        if (seq === undefined || states.get(seq) === "replaced") continue;
        waiting.delete(id as string);
        states.set(seq, "stopped");
      }
    }
  }
  const open = turnOpen(events);
  for (const seq of waiting.values()) {
    if (open || seq > lastTurnStart) states.set(seq, "queued");
  }
  return states;
}
