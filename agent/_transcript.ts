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
 *   them; when the original is older than the request's window the note says what is omitted.
 *
 * The conversation is cut into turns (from each `turn/start`), the unit the context budget
 * drops (`_window.ts`): a tool call and its result, real or {@linkcode UNRECORDED_RESULT}, are
 * always in the same turn.
 *
 * @module
 */
import type { SessionEvent, StepStartData } from "@chime/session";
import { type AssistantMessageData, LogIndex, type TurnEndRecord } from "./_log_index.ts";
import type { ModelMessage } from "./types.ts";

export { type AssistantMessageData, LogIndex, type TurnEndRecord } from "./_log_index.ts";

/** What the model sees for a call whose result never got recorded (cancel, crash). */
export const UNRECORDED_RESULT = {
  ok: false,
  error: { code: "cancelled", message: "Cannot report: the turn ended before this tool returned" },
} as const;

/** The conversation of one turn: the messages written from its `turn/start` on. */
export interface TranscriptTurn {
  /**
   * Seq of the turn's first event: the first of the prompts appended right before its
   * `turn/start`, else the `turn/start`; for the events before any turn, the first of them.
   */
  readonly start: number;
  /** The turn id; absent for the events before the first `turn/start`. */
  readonly turnId?: string;
  /** Its messages, oldest first. */
  readonly messages: ModelMessage[];
}

/**
 * The conversation implied by `events`, cut into turns, oldest first.
 *
 * @param events a dense stretch of the log, oldest first
 * @param index facts about the log @default an index of `events` alone
 */
export function transcriptTurns(
  events: readonly SessionEvent[],
  index: LogIndex = new LogIndex(events),
): TranscriptTurn[] {
  const turns: TranscriptTurn[] = [];
  let out: ModelMessage[] | undefined;
  let open: string[] = [];
  const closeOpenCalls = () => {
    for (const id of open) {
      out!.push({ role: "tool", toolCallId: id, content: JSON.stringify(UNRECORDED_RESULT) });
    }
    open = [];
  };
  const push = (message: ModelMessage) => out!.push(message);
  // The prompts appended right before a turn starts belong to it (they show nothing by
  // themselves): the turn starts at the first of them.
  let prompts: number | undefined;
  for (const event of events) {
    if (event.type === "turn/start" || out === undefined) {
      if (out !== undefined) closeOpenCalls();
      out = [];
      const turnId = event.type === "turn/start"
        ? String((event.data as { turnId: unknown }).turnId)
        : undefined;
      const start = turnId === undefined ? event.seq : prompts ?? event.seq;
      turns.push({ start, ...(turnId === undefined ? {} : { turnId }), messages: out });
    }
    prompts = event.type !== "user-rpc" ? undefined : prompts ?? event.seq;
    switch (event.type) {
      case "followup": {
        closeOpenCalls();
        push({ role: "user", content: String((event.data as { frame: unknown }).frame) });
        break;
      }
      case "step/start": {
        closeOpenCalls();
        const data = event.data as StepStartData;
        for (const id of data.messageIds ?? []) {
          const content = index.content(id, data.turnId);
          if (content !== undefined) push({ role: "user", content });
        }
        break;
      }
      case "assistant/message": {
        closeOpenCalls();
        const data = event.data as AssistantMessageData;
        const calls = data.toolCalls ?? [];
        push(
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
        push({
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
          if (content !== undefined) push({ role: "user", content });
        }
        break;
      }
    }
  }
  if (out !== undefined) closeOpenCalls();
  return turns;
}

/** The conversation implied by `events` (the whole log from seq 0), oldest first. */
export function buildTranscript(events: readonly SessionEvent[]): ModelMessage[] {
  return transcriptTurns(events).flatMap((turn) => turn.messages);
}
