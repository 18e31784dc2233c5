// Private helpers of the restart lanes: spawn `lane_child.ts`, read its JSON lines, SIGKILL it.
import { fileURLToPath as fromFileUrl } from "node:url";
import { JsonLineChild } from "../_child.ts";
import type { LaneConfig } from "./lane_child.ts";

const CHILD = fromFileUrl(new URL("./lane_child.ts", import.meta.url));
const ROOT = fromFileUrl(new URL("../../", import.meta.url));

/** One JSON line the child printed. */
export type Line = Record<string, unknown> & { readonly t: number };

/** A running lane process (SIGKILLed on dispose). */
export class LaneProcess extends JsonLineChild<Line> {
  /** Spawns `lane_child.ts` with `config` from the repository root. */
  constructor(config: LaneConfig) {
    super(CHILD, [JSON.stringify(config)], { cwd: ROOT });
  }
}

/** The schedule/change ops the child printed for `session`. */
export function changes(lines: Line[], session: string): { op: string; at: string }[] {
  return events(lines, session, "schedule/change").map((e) => ({
    op: (e.data as { op: string }).op,
    at: e.at,
  }));
}

/** Printed events of one type for `session`. */
export function events(
  lines: Line[],
  session: string,
  type: string,
): { seq: number; at: string; data: unknown }[] {
  return lines.flatMap((line) => {
    const event = line.event as
      | { type: string; seq: number; at: string; data: unknown }
      | undefined;
    return line.session === session && event?.type === type ? [event] : [];
  });
}

/** The reminder frames (parsed JSON line) the child recorded as `followup` events. */
export function frames(lines: Line[], session: string): Record<string, unknown>[] {
  return events(lines, session, "followup").map((e) =>
    JSON.parse((e.data as { frame: string }).frame.split("\n")[1]!)
  );
}

/** Promise-based sleep for the real-time lanes. */
export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
