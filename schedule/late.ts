/**
 * Why a delivery was late, from log facts only (docs/upcoming.md "Why it was late"). A delivery
 * is late when its dispatch was recorded at least {@linkcode OVERDUE_THRESHOLD_MS} after its
 * occurrence. The facts are the dispatch's occurrence and `at`, and the events around it:
 *
 * - `hourly-limit`: the dispatch says `held: true` (the owner waited for the per-session hourly
 *   budget, docs/recurring.md "Delivery"), or, in a log written before dispatches said so, the
 *   reminder's `followup` frame after it says `coalesced: true`;
 * - `busy`: a turn was running at the occurrence (`turn/start` at or before it, its `turn/end`
 *   after it); the agent was busy until that `turn/end`;
 * - `host-down`: the first event after the occurrence is a `turn/end` whose error is
 *   `interrupted` (written by the next agent for a turn a stopped process left open); the host
 *   was down from the last event before it;
 * - `closed`: otherwise the session was not live: it recorded nothing between its last event
 *   before the occurrence and the next event (often the dispatch itself, made as the session
 *   was opened). The start is the last recorded activity, the end the reopening.
 *
 * The log does not record when a session was made cold or when the host stopped; a
 * `session/opened` / `session/closed` pair (not written today) would tighten `closed` and tell
 * it from a host that was down with no turn running.
 *
 * This is the one cause computation: the history route (`./web.ts`) and the card's
 * presentation (`./presentation.ts`) both call {@linkcode lateCause}. Only the events within
 * {@linkcode LATE_CONTEXT_BEFORE} before and {@linkcode LATE_CONTEXT_AFTER} after the dispatch
 * count, whatever else a caller passes, so a sparse window and the dense log give the same cause.
 * A card is built when its dispatch is durable, before the `followup` that follows it, so it
 * passes the events up to its dispatch only; the dispatch's own `held` names the hourly limit,
 * so the card and the history give the same cause (docs/upcoming.md "Why it was late"). Only in
 * a log written before dispatches carried `held` does the history alone name it, from the frame.
 *
 * @module
 */
import type { SessionEvent } from "@chime/session/event";
import { OVERDUE_THRESHOLD_MS } from "./frame.ts";
import type { HistoryEntry } from "./history.ts";

/** Events read before a late dispatch to explain it. */
export const LATE_CONTEXT_BEFORE = 256;
/** Events read after a late dispatch (its `followup` frame is recorded by the admitting step). */
export const LATE_CONTEXT_AFTER = 16;

/** Why a delivery was late. */
export interface LateCause {
  /** The cause. */
  readonly kind: "closed" | "host-down" | "busy" | "hourly-limit";
  /** Start of the stretch that held it, UTC. */
  readonly from: string;
  /** End of that stretch, UTC. */
  readonly until: string;
  /** `until − from`, ms. */
  readonly ms: number;
  /** The line the card and the history show, in English and Chinese. */
  readonly text: { readonly en: string; readonly zh: string };
  /** The seqs of the events the cause was read from. */
  readonly seqs: readonly number[];
}

function clock(iso: string, zone: string, dayOf: string): string {
  const at = Temporal.Instant.from(iso).toZonedDateTimeISO(zone);
  const day = Temporal.Instant.from(dayOf).toZonedDateTimeISO(zone).toPlainDate();
  const time = at.toPlainTime().toString({ smallestUnit: "minute" });
  return at.toPlainDate().equals(day) ? time : `${at.toPlainDate().toString()} ${time}`;
}

function duration(ms: number): { en: string; zh: string } {
  const minutes = Math.max(1, Math.round(ms / 60_000));
  if (minutes < 120) return { en: `${minutes} min`, zh: `${minutes} 分钟` };
  const hours = Math.round(minutes / 60);
  return { en: `${hours} h`, zh: `${hours} 小时` };
}

function frameOf(event: SessionEvent): Record<string, unknown> | undefined {
  const frame = (event.data as { frame?: unknown } | null)?.frame;
  if (typeof frame !== "string") return undefined;
  const line = frame.split("\n")[1];
  try {
    const value = line === undefined ? undefined : JSON.parse(line);
    return typeof value === "object" && value !== null ? value : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The cause of one late delivery.
 *
 * @param entry a `delivered` history entry of the reminder
 * @param id the id the dispatch ended (the reminder, or its snooze `snoozeId`)
 * @param events an ascending window of the session's events around the dispatch (any types;
 *   {@linkcode LATE_CONTEXT_BEFORE} before it and {@linkcode LATE_CONTEXT_AFTER} after it)
 * @param timeZone the zone the times are written in (the session's, else UTC)
 * @returns the cause, or `undefined` when the delivery was not late or the window holds no fact
 *
 * @example An hourly-limit frame
 * ```ts
 * import { lateCause } from "@chime/schedule";
 * const entry = { seq: 1, at: "2030-01-01T10:20:00.000Z", kind: "delivered" as const,
 *   occurrenceAt: "2030-01-01T10:00:00.000Z", latenessMs: 1_200_000 };
 * const frame = `<schedule-reminder>\n${JSON.stringify({ id: "sch_AbCd1234", coalesced: true })}`;
 * const cause = lateCause(entry, "sch_AbCd1234", [
 *   { seq: 0, type: "user-rpc", at: "2030-01-01T09:00:00.000Z", data: {} },
 *   { seq: 1, type: "schedule/change", at: entry.at, data: {} },
 *   { seq: 2, type: "followup", at: entry.at, data: { frame } },
 * ], "UTC");
 * console.assert(cause?.kind === "hourly-limit");
 * ```
 */
export function lateCause(
  entry: HistoryEntry,
  id: string,
  events: readonly SessionEvent[],
  timeZone: string,
): LateCause | undefined {
  if (entry.kind !== "delivered" || entry.occurrenceAt === undefined) return undefined;
  if ((entry.latenessMs ?? 0) < OVERDUE_THRESHOLD_MS) return undefined;
  const due = Date.parse(entry.occurrenceAt);
  const dispatchAt = entry.at;
  const lo = entry.seq - LATE_CONTEXT_BEFORE;
  const hi = entry.seq + LATE_CONTEXT_AFTER;
  const near = events.filter((e) => e.seq >= lo && e.seq <= hi);
  const make = (
    kind: LateCause["kind"],
    from: string,
    until: string,
    seqs: number[],
  ): LateCause => {
    const ms = Math.max(0, Date.parse(until) - Date.parse(from));
    const f = clock(from, timeZone, entry.occurrenceAt!);
    const u = clock(until, timeZone, entry.occurrenceAt!);
    const d = duration(ms);
    const text = {
      "closed": {
        en: `the session was closed from ${f} to ${u}`,
        zh: `会话在 ${f} 到 ${u} 之间处于关闭状态`,
      },
      "host-down": {
        en: `the host was down from ${f} to ${u}`,
        zh: `主机在 ${f} 到 ${u} 之间停止运行`,
      },
      "busy": { en: `the agent was busy for ${d.en}`, zh: `Agent 忙碌了 ${d.zh}` },
      "hourly-limit": { en: "the hourly limit held it", zh: "每小时提醒上限让它等待了" },
    }[kind];
    return { kind, from, until, ms, text, seqs };
  };
  const dispatch = near.find((e) => e.seq === entry.seq);
  if ((dispatch?.data as { held?: unknown } | null | undefined)?.held === true) {
    return make("hourly-limit", entry.occurrenceAt, dispatchAt, [entry.seq]);
  }
  const after = near.filter((e) => e.seq > entry.seq);
  const coalesced = after.find((e) => {
    if (e.type !== "followup") return false;
    const frame = frameOf(e);
    return frame?.id === id && frame.coalesced === true;
  });
  if (coalesced !== undefined) {
    return make("hourly-limit", entry.occurrenceAt, dispatchAt, [entry.seq, coalesced.seq]);
  }
  const before = near.filter((e) => e.seq < entry.seq);
  // The turn open at the occurrence, if any.
  let open: SessionEvent | undefined;
  let last: SessionEvent | undefined;
  for (const event of before) {
    if (Date.parse(event.at) > due) break;
    last = event;
    if (event.type === "turn/start") open = event;
    if (event.type === "turn/end") open = undefined;
  }
  const later = before.filter((e) => Date.parse(e.at) > due);
  const first = later[0];
  const interrupted = (e: SessionEvent | undefined) =>
    e?.type === "turn/end" &&
    String((e.data as { error?: unknown }).error ?? "").startsWith("interrupted");
  if (open !== undefined) {
    const turnId = (open.data as { turnId?: unknown }).turnId;
    const end = later.find((e) =>
      e.type === "turn/end" && (e.data as { turnId?: unknown }).turnId === turnId
    );
    if (end !== undefined && interrupted(end)) {
      const lastSeen = [last, ...later.filter((e) => e.seq < end.seq)].at(-1)!;
      return make("host-down", lastSeen.at, end.at, [lastSeen.seq, end.seq]);
    }
    const until = end?.at ?? dispatchAt;
    return make("busy", entry.occurrenceAt, until, [open.seq, end?.seq ?? entry.seq]);
  }
  if (last === undefined) return undefined;
  if (interrupted(first)) return make("host-down", last.at, first!.at, [last.seq, first!.seq]);
  const reopened = first ?? { seq: entry.seq, at: dispatchAt };
  return make("closed", last.at, reopened.at, [last.seq, reopened.seq]);
}
