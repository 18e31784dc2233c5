/**
 * A reminder's history, read from the session's committed `schedule/change` events
 * (docs/recurring.md "History"; `GET /api/sessions/:id/reminders/:rid/history`): created,
 * changed, each delivery with its lateness and missed count, catch-up skips, snoozes, pauses,
 * resumes, excluded occurrences, stop and delete, for the reminder and its snooze chain (the
 * snooze records that descend from it through `snoozeOf`). Pure; browser-safe.
 *
 * @module
 */
import type { SessionEvent } from "@chime/session/event";
import type { SessionHeader } from "@chime/session/header";
import { tryDecodeScheduleChange } from "./decoder.ts";
import { foldStart } from "./fold.ts";
import { SCHEDULE_CHANGE, type ScheduleId, type ScheduleRecord } from "./protocol.ts";

/** What happened to a reminder at one `schedule/change` event. */
export type HistoryKind =
  | "created"
  | "changed"
  | "delivered"
  | "skipped"
  | "snoozed"
  | "paused"
  | "resumed"
  | "excluded"
  | "stopped"
  | "deleted";

/** One entry of a reminder's history. */
export interface HistoryEntry {
  /** The event's `seq`. */
  readonly seq: number;
  /** The event's `at` (when it was recorded), UTC. */
  readonly at: string;
  /** What happened. */
  readonly kind: HistoryKind;
  /**
   * The occurrence concerned, canonical UTC: delivered, skipped, excluded, or (snoozed) the
   * occurrence the snooze snoozes.
   */
  readonly occurrenceAt?: string;
  /** `delivered`: the dispatch's `at` minus `occurrenceAt`, ms (≥ 0 unless the clock stepped). */
  readonly latenessMs?: number;
  /** `delivered` (a series) and `skipped`: earlier occurrences coalesced. */
  readonly missed?: number;
  /**
   * The target after the event, UTC: a create's or change's `scheduledAt`, a snooze's due time,
   * a series' next occurrence, or `null` when the series is exhausted.
   */
  readonly nextAt?: string | null;
  /** `skipped`: why (`catch-up-window`). */
  readonly reason?: string;
  /** Set when the event concerns a snooze record of the chain rather than the reminder itself. */
  readonly snoozeId?: ScheduleId;
}

/**
 * Folds the history of reminder `id` over a session's own events (from `seedLength`: a fork
 * never shows its parent's reminders). Undecodable `schedule/change` data is passed over.
 *
 * @param header the session header
 * @param events the session's events in log order (other types are ignored)
 * @param id the reminder id
 * @returns the entries in log order, or `undefined` when `id` was never created in the suffix
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { reminderHistory } from "@chime/schedule/history";
 * const header = {
 *   version: 1 as const, id: "s", cwd: "/", createdAt: "2030-01-01T00:00:00.000Z",
 *   origin: "test", lineage: null, delegationDepth: 0,
 * };
 * const record = {
 *   id: "sch_AbCd1234", kind: "at", prompt: "stretch", scheduledAt: "2030-01-01T00:05:00.000Z",
 * };
 * const history = reminderHistory(header, [
 *   { seq: 0, type: "schedule/change", at: "2030-01-01T00:00:00.000Z",
 *     data: { version: 1, op: "create", record } },
 *   { seq: 1, type: "schedule/change", at: "2030-01-01T00:05:02.000Z",
 *     data: { version: 1, op: "dispatch", id: record.id } },
 * ], "sch_AbCd1234");
 * assert.deepEqual(history?.map((e) => e.kind), ["created", "delivered"]);
 * assert.equal(history?.[1]?.latenessMs, 2000);
 * ```
 */
export function reminderHistory(
  header: SessionHeader,
  events: readonly SessionEvent[],
  id: string,
): HistoryEntry[] | undefined {
  const from = foldStart(header);
  const chain = new Map<ScheduleId, ScheduleRecord>(); // member → its latest record
  const out: HistoryEntry[] = [];
  for (const event of events) {
    if (event.type !== SCHEDULE_CHANGE || event.seq < from) continue;
    const change = tryDecodeScheduleChange(event.data);
    if (change === undefined) continue;
    const base = { seq: event.seq, at: event.at };
    if (change.op === "create") {
      const { record } = change;
      const parent = record.kind === "recurring" ? undefined : record.snoozeOf;
      if (record.id === id && chain.size === 0) {
        chain.set(record.id, record);
        out.push({ ...base, kind: "created", nextAt: record.scheduledAt });
      } else if (parent !== undefined && chain.has(parent.id)) {
        chain.set(record.id, record);
        out.push({
          ...base,
          kind: "snoozed",
          occurrenceAt: parent.occurrenceAt,
          nextAt: record.scheduledAt,
          snoozeId: record.id,
        });
      }
      continue;
    }
    const record = chain.get(change.id);
    if (record === undefined) continue;
    const snooze = change.id === id ? {} : { snoozeId: change.id };
    switch (change.op) {
      case "update":
        chain.set(change.id, change.record);
        out.push({ ...base, kind: "changed", nextAt: change.record.scheduledAt, ...snooze });
        break;
      case "dispatch": {
        const occurrenceAt = "occurrenceAt" in change ? change.occurrenceAt : record.scheduledAt;
        const latenessMs = Date.parse(event.at) - Date.parse(occurrenceAt);
        const series = "occurrenceAt" in change
          ? { missed: change.missed, nextAt: change.nextAt }
          : {};
        out.push({ ...base, kind: "delivered", occurrenceAt, latenessMs, ...series, ...snooze });
        break;
      }
      case "skip": {
        const { occurrenceAt, missed, nextAt, reason } = change;
        out.push({ ...base, kind: "skipped", occurrenceAt, missed, nextAt, reason });
        break;
      }
      case "pause":
        out.push({ ...base, kind: "paused" });
        break;
      case "resume":
        out.push({ ...base, kind: "resumed", nextAt: change.nextAt });
        break;
      case "exclude": {
        const { occurrenceAt, nextAt } = change;
        out.push({ ...base, kind: "excluded", occurrenceAt, nextAt });
        break;
      }
      case "stop":
        out.push({ ...base, kind: "stopped" });
        break;
      case "delete":
        out.push({ ...base, kind: "deleted", ...snooze });
        break;
    }
  }
  return chain.size === 0 ? undefined : out;
}

// Types in the signatures above, re-exported for documentation.
export type { ScheduleId } from "./protocol.ts";
export type { SessionEvent } from "@chime/session/event";
export type { SessionHeader, SessionLineage } from "@chime/session/header";
