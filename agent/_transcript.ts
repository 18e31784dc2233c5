/**
 * Rebuilds the model conversation from a session log. Private to `@chime/agent`.
 *
 * Messages enter the conversation where a step claimed them (`step/start.messageIds`), not where
 * they were appended: a steering message appended during a model call belongs to the next step,
 * and a retried message is asked again at the retry's step.
 *
 * What the user did afterwards is shown on the message itself (`_marks.ts`), so no model acts
 * on a request the user took back:
 * - a message claimed by a turn that ended `cancelled` carries the stopped note there, and the
 *   messages a Stop took out of the queue (`turn/end.stoppedMessageIds`, never claimed) appear
 *   at that `turn/end` with the same note; a later retry shows the message plain again;
 * - a message a later edit replaced (the edit entered the conversation) carries the superseded
 *   note; the edit carries a note with the original text and the tool actions every earlier
 *   version ran (a turn's calls from the step that claimed the message up to the next step
 *   that claimed others), so the model reconciles them (update or undo) instead of repeating
 *   them.
 *
 * @module
 */
import type { SessionEvent, StepStartData, UserRpcData } from "@chime/session";
import { type EditAction, markText, summarizeResult } from "./_marks.ts";
import type { ModelMessage, ModelToolCall } from "./types.ts";

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

/** What the model sees for a call whose result never got recorded (cancel, crash). */
export const UNRECORDED_RESULT = {
  ok: false,
  error: { code: "cancelled", message: "Cannot report: the turn ended before this tool returned" },
} as const;

/** A tool call and its recorded result, at its log position. */
interface Action {
  readonly at: number;
  readonly call: ModelToolCall;
  result?: unknown;
}

/** Facts about the log gathered before the conversation is written. */
class LogIndex {
  readonly messages = new Map<string, UserRpcData>();
  /** Log position of each message's first `user-rpc`. */
  readonly order = new Map<string, number>();
  /** Turn ids that claimed each message, in order. */
  readonly claims = new Map<string, string[]>();
  readonly cancelled = new Set<string>();
  /** Where each message first enters the conversation (claim or stop), as a log position. */
  readonly entered = new Map<string, number>();
  /**
   * Tool actions per message: the calls a turn made from the step that claimed the message up
   * to the next step that claimed other messages (steering), in log order.
   */
  readonly actions = new Map<string, Action[]>();

  constructor(events: readonly SessionEvent[]) {
    const byCall = new Map<string, Action>();
    const owners = new Map<string, readonly string[]>();
    events.forEach((event, at) => {
      switch (event.type) {
        case "user-rpc": {
          const data = event.data as UserRpcData;
          if (!this.messages.has(data.messageId)) {
            this.messages.set(data.messageId, data);
            this.order.set(data.messageId, at);
          }
          break;
        }
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
              this.actions.set(id, [...this.actions.get(id) ?? [], action]);
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
    });
  }

  /** The first message of the edit family `messageId` belongs to. */
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

  /** Family members of `messageId` appended before it, oldest first. */
  #earlier(messageId: string): string[] {
    const root = this.#root(messageId);
    const at = this.order.get(messageId) ?? -1;
    return [...this.messages.keys()]
      .filter((id) => (this.order.get(id) ?? -1) < at && this.#root(id) === root)
      .sort((a, b) => this.order.get(a)! - this.order.get(b)!);
  }

  /** Whether a later version of `messageId` (an edit of it, or of what it edits) entered the conversation. */
  superseded(messageId: string): boolean {
    const root = this.#root(messageId);
    const mine = this.order.get(messageId) ?? -1;
    for (const [id, order] of this.order) {
      if (order > mine && this.entered.has(id) && this.#root(id) === root) return true;
    }
    return false;
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

  #editInfo(messageId: string): { original: string; actions: EditAction[] } | undefined {
    const earlier = this.#earlier(messageId);
    const first = earlier[0];
    if (first === undefined) return undefined;
    const ran = new Set(earlier.flatMap((id) => this.actions.get(id) ?? []));
    const actions = [...ran].sort((a, b) => a.at - b.at).map(({ call, result }): EditAction => ({
      name: call.name,
      args: parseArgs(call.arguments),
      ...(result === undefined ? {} : { result: summarizeResult(result) }),
    }));
    const latest = this.messages.get(earlier.at(-1)!)!;
    return { original: latest.text, actions };
  }
}

function parseArgs(text: string): unknown {
  try {
    return text.trim() === "" ? {} : JSON.parse(text);
  } catch {
    return text;
  }
}

/** The conversation implied by `events`, oldest first. */
export function buildTranscript(events: readonly SessionEvent[]): ModelMessage[] {
  const index = new LogIndex(events);
  const out: ModelMessage[] = [];
  let open: string[] = [];
  const closeOpenCalls = () => {
    for (const id of open) {
      out.push({ role: "tool", toolCallId: id, content: JSON.stringify(UNRECORDED_RESULT) });
    }
    open = [];
  };
  for (const event of events) {
    switch (event.type) {
      case "followup": {
        closeOpenCalls();
        out.push({ role: "user", content: String((event.data as { frame: unknown }).frame) });
        break;
      }
      case "step/start": {
        closeOpenCalls();
        const data = event.data as StepStartData;
        for (const id of data.messageIds ?? []) {
          const content = index.content(id, data.turnId);
          if (content !== undefined) out.push({ role: "user", content });
        }
        break;
      }
      case "assistant/message": {
        closeOpenCalls();
        const data = event.data as AssistantMessageData;
        const calls = data.toolCalls ?? [];
        out.push(
          calls.length > 0
            ? { role: "assistant", content: data.text, toolCalls: calls }
            : { role: "assistant", content: data.text },
        );
        open = calls.map((c) => c.id);
        break;
      }
      case "tool/result": {
        const data = event.data as { callId: string; result: unknown };
        const at = open.indexOf(data.callId);
        if (at < 0) break;
        open.splice(at, 1);
        out.push({
          role: "tool",
          toolCallId: data.callId,
          content: JSON.stringify(data.result ?? null),
        });
        break;
      }
      case "turn/end": {
        closeOpenCalls();
        const data = event.data as TurnEndRecord;
        if (data.outcome !== "cancelled") break;
        // Messages the Stop took out of the queue: shown here, stopped, never claimed.
        for (const id of data.stoppedMessageIds ?? []) {
          if (index.claims.get(id)?.includes(data.turnId)) continue;
          const content = index.content(id, data.turnId);
          if (content !== undefined) out.push({ role: "user", content });
        }
        break;
      }
    }
  }
  closeOpenCalls();
  return out;
}
