/**
 * Reads the fixed reminder follow-up frame the schedule owner sends (`reminderFrame()` of
 * `@chime/schedule`, docs/events.md):
 * `<schedule-reminder>` + one JSON line + `</schedule-reminder>` + an instruction line. Version 2
 * frames add `occurrenceAt`, `missed`, `coalesced`, `recurring` and `snoozeOf`
 * (docs/recurring.md "Delivery"); every field is read defensively.
 *
 * @module
 */
import { REMINDER_FRAME_TAG } from "@chime/schedule";
import { obj, readRepeat, type RepeatView, str } from "./contract.ts";

/** One reminder frame's payload, read defensively. */
export interface ReminderFrame {
  /** Schedule id. */
  readonly id: string;
  /** What to remind of. */
  readonly prompt: string;
  /** Target instant, UTC RFC 3339. */
  readonly scheduledAt: string;
  /** `due` on time, `overdue` when delivered late (e.g. after the session was cold). */
  readonly status: "due" | "overdue";
  /** How late the delivery is, in seconds (0 when on time). */
  readonly lateBySeconds: number;
  /** The occurrence delivered (UTC), for a recurring reminder or a snooze. */
  readonly occurrenceAt?: string;
  /** Occurrences before it that were missed and not replayed (0 when none). */
  readonly missed: number;
  /**
   * The hourly reminder budget held this delivery back (`missed` then counts what the wait
   * swallowed); `false` when it was on time or late only because of downtime.
   */
  readonly coalesced: boolean;
  /** The series this occurrence belongs to, with its next occurrence (`null`: it was the last). */
  readonly recurring?: RepeatView & { readonly nextAt: string | null };
  /** Set when this is a snoozed reminder: the reminder it snoozes. */
  readonly snoozeOf?: string;
}

const OPEN = `<${REMINDER_FRAME_TAG}>`;
const FRAME_RE = new RegExp(`${OPEN}\\s*([\\s\\S]*?)\\s*</${REMINDER_FRAME_TAG}>`, "g");

function read(json: string): ReminderFrame | undefined {
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch {
    return undefined;
  }
  if (typeof value !== "object" || value === null) return undefined;
  const v = value as Record<string, unknown>;
  const late = typeof v.lateBySeconds === "number" && v.lateBySeconds > 0 ? v.lateBySeconds : 0;
  const repeat = readRepeat(v.recurring);
  const nextAt = obj(v.recurring)?.nextAt;
  const snoozeOf = str(obj(v.snoozeOf)?.id) || str(v.snoozeOf);
  return {
    id: str(v.id),
    prompt: str(v.prompt),
    scheduledAt: str(v.scheduledAt),
    status: v.status === "overdue" ? "overdue" : "due",
    lateBySeconds: late,
    ...(str(v.occurrenceAt) ? { occurrenceAt: str(v.occurrenceAt) } : {}),
    missed: typeof v.missed === "number" && v.missed > 0 ? v.missed : 0,
    coalesced: v.coalesced === true,
    ...(repeat ? { recurring: { ...repeat, nextAt: str(nextAt) || null } } : {}),
    ...(snoozeOf ? { snoozeOf } : {}),
  };
}

/**
 * Extracts every reminder frame in a message.
 *
 * @param text a user-role message
 * @returns the frames found, in order (empty when the text is not a frame)
 */
export function parseReminderFrames(text: string): ReminderFrame[] {
  const frames: ReminderFrame[] = [];
  for (const m of text.matchAll(FRAME_RE)) {
    const frame = read(m[1] ?? "");
    if (frame) frames.push(frame);
  }
  return frames;
}

/**
 * Whether a message carries a reminder frame (then it is never read as a user request).
 *
 * @param text a user-role message
 * @returns `true` when it holds a `<schedule-reminder>` tag
 */
export function isReminderFrame(text: string): boolean {
  return text.includes(OPEN);
}
