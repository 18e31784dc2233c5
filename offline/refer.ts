/**
 * Which reminder a conversation refers to ("snooze it", "move it to 4pm"): the reminders its
 * tool results and reminder frames name, latest last, without the ones it deleted.
 *
 * @module
 */
import {
  isFailure,
  obj,
  readJson,
  readResultSchedule,
  type ScheduleView,
  str,
  TOOL,
} from "./contract.ts";
import { isReminderFrame, parseReminderFrames } from "./frame.ts";
import type { ModelMessage } from "@chime/agent";

/** A reminder the conversation named, and how. */
export interface Known {
  /** The reminder as last seen. */
  readonly view: ScheduleView;
  /** `frame` when it was last seen delivered, `result` when a tool named it. */
  readonly via: "frame" | "result";
}

/**
 * Tool names by call id, from the assistant messages.
 *
 * @param messages the conversation
 * @returns call id → tool name
 */
export function callNames(messages: readonly ModelMessage[]): Map<string, string> {
  const names = new Map<string, string>();
  for (const m of messages) {
    if (m.role === "assistant") { for (const c of m.toolCalls ?? []) names.set(c.id, c.name); }
  }
  return names;
}

/**
 * The parsed arguments of the call `callId`.
 *
 * @param messages the conversation
 * @param callId the call id
 * @returns the arguments, or `undefined` when no such call is in the conversation
 */
export function callArgs(messages: readonly ModelMessage[], callId: string): unknown {
  for (const m of messages) {
    if (m.role !== "assistant") continue;
    const call = m.toolCalls?.find((c) => c.id === callId);
    if (call) return readJson(call.arguments);
  }
  return undefined;
}

/**
 * The reminders a conversation names, oldest first (a later mention moves one to the end); a
 * reminder the conversation deleted is left out.
 *
 * @param messages the conversation
 * @returns the reminders
 */
export function knownReminders(messages: readonly ModelMessage[]): Known[] {
  const names = callNames(messages);
  const known = new Map<string, Known>();
  const see = (view: ScheduleView, via: Known["via"]) => {
    const before = known.get(view.id)?.view;
    known.delete(view.id);
    known.set(view.id, { view: { ...view, prompt: view.prompt || before?.prompt || "" }, via });
  };
  for (const m of messages) {
    if (m.role === "user" && isReminderFrame(m.content)) {
      for (const f of parseReminderFrames(m.content)) {
        if (!f.id) continue;
        const at = f.recurring?.nextAt ?? f.occurrenceAt ?? f.scheduledAt;
        see({
          id: f.id,
          prompt: f.prompt,
          scheduledAt: at,
          status: "",
          kind: f.recurring ? "recurring" : "",
          ...(f.recurring ? { repeat: f.recurring } : {}),
        }, "frame");
      }
    }
    if (m.role !== "tool") continue;
    const name = names.get(m.toolCallId) ?? "";
    const value = readJson(m.content);
    if (isFailure(value)) continue;
    if (name === TOOL.delete) {
      const id = readResultSchedule(value)?.id || str(obj(callArgs(messages, m.toolCallId))?.id);
      known.delete(id);
    } else if (
      [TOOL.create, TOOL.update, TOOL.snooze, TOOL.pause, TOOL.resume, TOOL.skip].includes(
        name as typeof TOOL.create,
      )
    ) {
      const view = readResultSchedule(value);
      if (view) see(view, "result");
    }
  }
  return [...known.values()];
}

/**
 * The reminder "it" means: the latest delivered one when `prefer` is `frame` and one was
 * delivered, else the latest named in any way.
 *
 * @param messages the conversation
 * @param prefer `frame` for a snooze (the reminder just delivered), `any` for a move
 * @returns the reminder, or `undefined` when the conversation names none
 */
export function latestReminder(
  messages: readonly ModelMessage[],
  prefer: "frame" | "any",
): ScheduleView | undefined {
  const known = knownReminders(messages);
  const frames = known.filter((k) => k.via === "frame");
  return (prefer === "frame" ? frames.at(-1) : undefined)?.view ?? known.at(-1)?.view;
}
