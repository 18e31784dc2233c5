/**
 * Rebuilds the model conversation from a session log. Private to `@chime/agent`.
 *
 * Messages enter the conversation where a step claimed them (`step/start.messageIds`), not where
 * they were appended: a steering message appended during a model call belongs to the next step,
 * and a retried message is asked again at the retry's step.
 *
 * @module
 */
import type { SessionEvent, StepStartData, UserRpcData } from "@chime/session";
import type { ModelMessage, ModelToolCall } from "./types.ts";

/** Data of `assistant/message`. */
export interface AssistantMessageData {
  readonly turnId: string;
  readonly text: string;
  readonly toolCalls?: readonly ModelToolCall[];
}

/** What the model sees for a call whose result never got recorded (cancel, crash). */
export const UNRECORDED_RESULT = {
  ok: false,
  error: { code: "cancelled", message: "Cannot report: the turn ended before this tool returned" },
} as const;

/** The conversation implied by `events`, oldest first. */
export function buildTranscript(events: readonly SessionEvent[]): ModelMessage[] {
  const texts = new Map<string, string>();
  for (const event of events) {
    if (event.type === "user-rpc") {
      const data = event.data as UserRpcData;
      if (!texts.has(data.messageId)) texts.set(data.messageId, data.text);
    }
  }
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
        for (const id of (event.data as StepStartData).messageIds ?? []) {
          const text = texts.get(id);
          if (text !== undefined) out.push({ role: "user", content: text });
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
        const index = open.indexOf(data.callId);
        if (index < 0) break;
        open.splice(index, 1);
        out.push({
          role: "tool",
          toolCallId: data.callId,
          content: JSON.stringify(data.result ?? null),
        });
        break;
      }
      case "turn/end":
        closeOpenCalls();
        break;
    }
  }
  closeOpenCalls();
  return out;
}
