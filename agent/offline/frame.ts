/**
 * Reads the fixed reminder follow-up frame (seed §"固定 framing") the schedule owner sends:
 * `<schedule-reminder>` + one JSON line + `</schedule-reminder>` + an instruction line.
 *
 * @module
 */

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
}

const FRAME_RE = /<schedule-reminder>\s*([\s\S]*?)\s*<\/schedule-reminder>/g;

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
  return {
    id: typeof v.id === "string" ? v.id : "",
    prompt: typeof v.prompt === "string" ? v.prompt : "",
    scheduledAt: typeof v.scheduledAt === "string" ? v.scheduledAt : "",
    status: v.status === "overdue" ? "overdue" : "due",
    lateBySeconds: late,
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
  return text.includes("<schedule-reminder>");
}
