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

/** A reminder the conversation saw end: delivered (a one-time reminder fired) or cancelled. */
export interface GoneReminder {
  /** The reminder as last known (its prompt). */
  readonly view: ScheduleView;
  /** How it ended. */
  readonly how: "fired" | "cancelled";
  /** Fired: the occurrence delivered, UTC RFC 3339. */
  readonly at?: string;
}

/**
 * The reminders that ended in this conversation, latest last: a one-time reminder whose frame
 * was delivered, and any reminder a `schedule_delete` ended (a later create or update of the same
 * id brings it back).
 *
 * @param messages the conversation
 * @returns the ended reminders
 */
export function goneReminders(messages: readonly ModelMessage[]): GoneReminder[] {
  const names = callNames(messages);
  const gone = new Map<string, GoneReminder>();
  const prompts = new Map(knownRemindersEver(messages).map((v) => [v.id, v]));
  for (const m of messages) {
    if (m.role === "user" && isReminderFrame(m.content)) {
      for (const f of parseReminderFrames(m.content)) {
        if (!f.id || f.recurring) continue;
        const at = f.occurrenceAt ?? f.scheduledAt;
        const view = { id: f.id, prompt: f.prompt, scheduledAt: at, status: "", kind: "" };
        gone.delete(f.id);
        gone.set(f.id, { view, how: "fired", ...(at ? { at } : {}) });
      }
    }
    if (m.role !== "tool") continue;
    const name = names.get(m.toolCallId) ?? "";
    const value = readJson(m.content);
    if (isFailure(value)) continue;
    const id = readResultSchedule(value)?.id || str(obj(callArgs(messages, m.toolCallId))?.id);
    if (name === TOOL.delete && id) {
      const view = readResultSchedule(value) ?? prompts.get(id);
      gone.delete(id);
      if (view) gone.set(id, { view, how: "cancelled" });
    } else if (name === TOOL.create || name === TOOL.update) gone.delete(id);
  }
  return [...gone.values()];
}

/** Every reminder view the conversation named (its prompt), ended ones included. */
function knownRemindersEver(messages: readonly ModelMessage[]): ScheduleView[] {
  const out: ScheduleView[] = [];
  for (const m of messages) {
    if (m.role !== "tool") continue;
    const view = readResultSchedule(readJson(m.content));
    if (view?.prompt) out.push(view);
  }
  return out;
}
