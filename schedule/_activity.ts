// Private: the model-visible note about reminder changes made outside the model's own tool calls
// (page snooze/stop/pause/resume/skip/edit, calendar import, catch-up skips), given once at the first step of the next turn through the
// plugin's pre-step hook. Nothing extra is persisted: the facts are the durable schedule/change
// events themselves. The hook reads only the window it needs: from the tail back to the turn
// before the current one.
import type { PreStepHook } from "@chime/contract";
import type { SessionEvent } from "@chime/session";
import { walkBack } from "./_window.ts";
import { tryDecodeScheduleChange } from "./decoder.ts";
import { foldStart } from "./fold.ts";
import { SCHEDULE_CHANGE, type ScheduleChange } from "./protocol.ts";

/** First line of the note. */
export const ACTIVITY_HEADING = "[schedule-activity]";

function describe(change: ScheduleChange): string | undefined {
  switch (change.op) {
    case "create":
      return change.record.kind !== "recurring" && change.record.snoozeOf !== undefined
        ? `The user snoozed reminder ${change.record.snoozeOf.id} ` +
          `(${JSON.stringify(change.record.prompt)}) until ${change.record.scheduledAt} ` +
          `as ${change.record.id}.`
        // Outside a tool call, only the page's calendar import creates anything else.
        : `The user imported reminder ${change.record.id} ` +
          `(${JSON.stringify(change.record.prompt)}) from a calendar; next at ` +
          `${change.record.scheduledAt}.`;
    case "update":
      return `The user moved reminder ${change.id} (${JSON.stringify(change.record.prompt)}) ` +
        `to ${change.record.scheduledAt}.`;
    case "stop":
      return `The user stopped repeating reminder ${change.id}.`;
    case "pause":
      return `The user paused reminder ${change.id}; it does not fire until resumed.`;
    case "resume":
      return `The user resumed reminder ${change.id}; next at ${change.nextAt}.`;
    case "exclude":
      return `The user skipped the occurrence at ${change.occurrenceAt} of reminder ` +
        `${change.id}; ` +
        (change.nextAt === null ? "no occurrence is left." : `next at ${change.nextAt}.`);
    case "skip":
      return `Reminder ${change.id} skipped its occurrence at ${change.occurrenceAt} (outside ` +
        `its catch-up window; ${change.missed} earlier missed).`;
    default:
      return undefined;
  }
}

/**
 * The note for the turn `turnId`: schedule changes since the previous turn began that no tool
 * call of the model made (a tool's change lies between its `tool/call` and `tool/result`).
 *
 * @param events the session's own events (from `seedLength`)
 * @param turnId the turn about to take its first step
 * @returns the note, or `undefined` when nothing happened
 */
export function scheduleActivityNote(
  events: readonly SessionEvent[],
  turnId: string,
): string | undefined {
  const turnStart = (e: SessionEvent) => e.type === "turn/start";
  const current = events.findLastIndex((e) =>
    turnStart(e) && (e.data as { turnId?: unknown }).turnId === turnId
  );
  if (current < 0) return undefined;
  const previous = events.findLastIndex((e, i) => i < current && turnStart(e));
  const lines: string[] = [];
  const openCalls = new Set<unknown>();
  for (const event of events.slice(previous + 1, current)) {
    const callId = (event.data as { callId?: unknown } | null)?.callId;
    if (event.type === "tool/call") openCalls.add(callId);
    else if (event.type === "tool/result") openCalls.delete(callId);
    else if (event.type === SCHEDULE_CHANGE && openCalls.size === 0) {
      const change = tryDecodeScheduleChange(event.data);
      const line = change === undefined ? undefined : describe(change);
      if (line !== undefined) lines.push(line);
    }
  }
  return lines.length === 0 ? undefined : [ACTIVITY_HEADING, ...lines].join("\n");
}

/**
 * The plugin's pre-step hook: the note, once, at the first step of a turn. It walks back from
 * the tail (never below `seedLength`) to the `turn/start` before the current turn's, which is
 * all {@linkcode scheduleActivityNote} looks at.
 */
export const activityHook: PreStepHook = (batch, agent) => {
  if (batch.step !== 0) return;
  const window: SessionEvent[] = []; // newest first
  let starts = 0;
  const walked = walkBack(agent, foldStart(agent.session.header), (event) => {
    window.push(event);
    if (event.type !== "turn/start") return false;
    if (starts === 0 && (event.data as { turnId?: unknown }).turnId !== batch.turnId) return false;
    return ++starts === 2;
  });
  const note = () => {
    const text = scheduleActivityNote(window.reverse(), batch.turnId);
    return text === undefined ? undefined : [text];
  };
  return walked === undefined ? note() : walked.then(note);
};
