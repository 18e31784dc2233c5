/**
 * Facts about a stretch of the session log that the transcript needs before it writes a
 * message: which messages exist, who claimed them, which turns were stopped, what each request
 * ran (`_transcript.ts`). Private to `@chime/agent`.
 *
 * The stretch may be a window `[from, end)` of a long log (docs/long-sessions.md "Model context
 * within a budget"): messages older than it come in as `known` events, and what cannot be known
 * from the window (an edit's original text, what an older version ran) is reported as omitted.
 *
 * @module
 */
import type { SessionEvent, StepStartData, UserRpcData } from "@chime/session";
import { type EditAction, type EditInfo, markText, summarizeResult } from "./_marks.ts";
import type { ModelToolCall } from "./types.ts";

/** Data of `assistant/message`. */
export interface AssistantMessageData {
  readonly turnId: string;
  readonly text: string;
  readonly toolCalls?: readonly ModelToolCall[];
}

/** Data of `turn/end` as the agent writes it; a Stop names the messages it stopped. */
export interface TurnEndRecord {
  readonly turnId: string;
  readonly outcome: "completed" | "error" | "cancelled";
  readonly error?: string;
  readonly stoppedMessageIds?: readonly string[];
}

/** A tool call and its recorded result, at its log position. */
interface Action {
  readonly at: number;
  readonly call: ModelToolCall;
  result?: unknown;
}

function parseArgs(text: string): unknown {
  try {
    return text.trim() === "" ? {} : JSON.parse(text);
  } catch {
    return text;
  }
}

/** Facts about the log gathered before the conversation is written. Positions are seqs. */
export class LogIndex {
  readonly messages = new Map<string, UserRpcData>();
  /** Seq of each message's first `user-rpc`. */
  readonly order = new Map<string, number>();
  /** Turn ids that claimed each message, in order. */
  readonly claims = new Map<string, string[]>();
  readonly cancelled = new Set<string>();
  /** Where each message first enters the conversation (claim or stop), as a seq. */
  readonly entered = new Map<string, number>();
  /**
   * Tool actions per message: the calls a turn made from the step that claimed the message up
   * to the next step that claimed other messages (steering), in log order.
   */
  readonly actions = new Map<string, Action[]>();
  /** The first seq the index saw; older facts are unknown unless 0. */
  readonly from: number;
  #latestEntered: Map<string, number> | undefined;

  /**
   * @param events a dense stretch of the log, oldest first
   * @param known `user-rpc` events older than `events` that it refers to
   */
  constructor(events: readonly SessionEvent[], known: Iterable<SessionEvent> = []) {
    this.from = events[0]?.seq ?? 0;
    for (const event of known) this.#message(event);
    const byCall = new Map<string, Action>();
    const owners = new Map<string, readonly string[]>();
    for (const event of events) {
      const at = event.seq;
      switch (event.type) {
        case "user-rpc":
          this.#message(event);
          break;
        case "step/start": {
          const data = event.data as StepStartData;
          if ((data.messageIds ?? []).length > 0) owners.set(data.turnId, data.messageIds);
          for (const id of data.messageIds ?? []) {
            const turns = this.claims.get(id) ?? [];
            if (!turns.includes(data.turnId)) turns.push(data.turnId);
            this.claims.set(id, turns);
            if (!this.entered.has(id)) this.entered.set(id, at);
          }
          break;
        }
        case "assistant/message": {
          const data = event.data as AssistantMessageData;
          for (const call of data.toolCalls ?? []) {
            const action: Action = { at, call };
            byCall.set(call.id, action);
            for (const id of owners.get(data.turnId) ?? []) {
              const list = this.actions.get(id);
              if (list === undefined) this.actions.set(id, [action]);
              else list.push(action);
            }
          }
          break;
        }
        case "tool/result": {
          const data = event.data as { callId: string; result: unknown };
          const action = byCall.get(data.callId);
          if (action !== undefined) action.result = data.result ?? null;
          break;
        }
        case "turn/end": {
          const data = event.data as TurnEndRecord;
          if (data.outcome !== "cancelled") break;
          this.cancelled.add(data.turnId);
          for (const id of data.stoppedMessageIds ?? []) {
            if (!this.entered.has(id)) this.entered.set(id, at);
          }
          break;
        }
      }
    }
  }

  #message(event: SessionEvent): void {
    if (event.type !== "user-rpc") return;
    const data = event.data as UserRpcData;
    const seen = this.order.get(data.messageId);
    if (seen !== undefined && seen <= event.seq) return;
    this.messages.set(data.messageId, data);
    this.order.set(data.messageId, event.seq);
  }

  /** The first known message of the edit family `messageId` belongs to. */
  #root(messageId: string): string {
    const seen = new Set<string>();
    let id = messageId;
    for (;;) {
      const edits = this.messages.get(id)?.edits;
      if (edits === undefined || seen.has(edits) || !this.messages.has(edits)) return id;
      seen.add(id);
      id = edits;
    }
  }

  /** Known family members of `messageId` appended before it, oldest first. */
  #earlier(messageId: string): string[] {
    const root = this.#root(messageId);
    const at = this.order.get(messageId) ?? -1;
    return [...this.messages.keys()]
      .filter((id) => (this.order.get(id) ?? -1) < at && this.#root(id) === root)
      .sort((a, b) => this.order.get(a)! - this.order.get(b)!);
  }

  /** Whether a later version of `messageId` (an edit of it, or of what it edits) entered the conversation. */
  superseded(messageId: string): boolean {
    if (this.#latestEntered === undefined) {
      // Per edit family, the seq of its newest member that entered the conversation.
      this.#latestEntered = new Map();
      for (const id of this.entered.keys()) {
        const order = this.order.get(id);
        if (order === undefined) continue;
        const root = this.#root(id);
        if (order > (this.#latestEntered.get(root) ?? -1)) this.#latestEntered.set(root, order);
      }
    }
    const mine = this.order.get(messageId) ?? -1;
    return (this.#latestEntered.get(this.#root(messageId)) ?? -1) > mine;
  }

  /** The model-visible content of `messageId` entering the conversation in `turnId`. */
  content(messageId: string, turnId: string): string | undefined {
    const data = this.messages.get(messageId);
    if (data === undefined) return undefined;
    const edit = data.edits === undefined ? undefined : this.#editInfo(messageId);
    return markText({
      stopped: this.cancelled.has(turnId),
      superseded: this.superseded(messageId),
      ...(edit === undefined ? {} : { edit }),
      text: data.text,
    });
  }

  #editInfo(messageId: string): EditInfo | undefined {
    const earlier = this.#earlier(messageId);
    const first = earlier[0];
    if (first === undefined) {
      // The whole log was seen: `edits` names no message (no note, as before windows). Else
      // the original is older than the window.
      return this.from === 0
        ? undefined
        : { original: "", actions: [], originalOmitted: true, actionsOmitted: true };
    }
    const latest = this.messages.get(earlier.at(-1)!)!;
    // What the earlier versions ran is known only when the oldest of them is in the window
    // (its actions follow it) and the family does not reach further back.
    const rootEdits = this.messages.get(first)!.edits;
    if (this.from > 0 && (this.order.get(first)! < this.from || rootEdits !== undefined)) {
      return { original: latest.text, actions: [], actionsOmitted: true };
    }
    const ran = new Set(earlier.flatMap((id) => this.actions.get(id) ?? []));
    const actions = [...ran].sort((a, b) => a.at - b.at).map(({ call, result }): EditAction => ({
      name: call.name,
      args: parseArgs(call.arguments),
      ...(result === undefined ? {} : { result: summarizeResult(result) }),
    }));
    return { original: latest.text, actions };
  }
}
