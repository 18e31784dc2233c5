/**
 * What the durable log says came of each reminder card (docs/recurring.md "Host and page"): a
 * card's "Snoozed until …" and "Stopped repeating" are read from the session's committed
 * `schedule/change` events, never kept only in memory, so they survive a reload; and which card
 * of a reminder may still offer actions: only the latest delivered card of its chain (the
 * reminder and the snooze records that descend from it through `snoozeOf`), so one reminder never
 * ends with two pending snoozes.
 *
 * @module
 */
import type { ScheduleRecordWire, WireEvent } from "../wire.ts";

/** The durable outcome of a card: snoozed until an instant, or the series stopped. */
export interface DurableOutcome {
  /** `snoozed` (the occurrence has a snooze record) or `stopped` (its series stopped). */
  readonly state: "snoozed" | "stopped";
  /** Snoozed: the snooze record's latest target, UTC RFC 3339. */
  readonly until?: string;
  /** The seq of the event that last set it (the later of a snooze and a stop wins). */
  readonly seq: number;
}

/** The durable facts of a window's cards. */
export interface CardFacts {
  /** The seq of the latest dispatch of each schedule id (a stop shows on the series' latest). */
  readonly latestDispatch: ReadonlyMap<string, number>;
  /** The seq of the latest dispatch of each chain, by its root id (the card that may act). */
  readonly latestOfChain: ReadonlyMap<string, number>;
  /** The root of each snooze record's chain (the reminder its `snoozeOf` links lead back to). */
  readonly chainOf: ReadonlyMap<string, string>;
  /** The latest target of each live snooze record, by `<scheduleId> <occurrenceAt>` it snoozes. */
  readonly snoozes: ReadonlyMap<string, { readonly until: string; readonly seq: number }>;
  /** The seq of the `stop` (or `delete`) of each series that no longer repeats. */
  readonly stops: ReadonlyMap<string, number>;
  /** Where the session's own events start (a fork's `seedLength`): cards below it never act. */
  readonly from: number;
}

/** The key of a delivered occurrence in {@linkcode CardFacts.snoozes}. */
export function occurrenceKey(scheduleId: string, occurrenceAt: string): string {
  return `${scheduleId} ${occurrenceAt}`;
}

/**
 * Reads a window's committed `schedule/change` events (`seq < durableBefore`) for the cards'
 * facts: the latest dispatch of each reminder, each snooze record's current target (creates with
 * `snoozeOf`, moved by `update`, gone with `delete`) and each `stop`.
 *
 * @param events the window's events, ascending by seq (a contiguous suffix of the log)
 * @param durableBefore the window's exclusive durable bound
 * @param from where the session's own events start (a fork's `seedLength`, else `0`)
 * @returns the facts
 */
export function cardFacts(
  events: readonly WireEvent[],
  durableBefore: number,
  from = 0,
): CardFacts {
  const latestDispatch = new Map<string, number>();
  const snoozes = new Map<string, { until: string; seq: number }>();
  const stops = new Map<string, number>();
  const snoozeKeyOf = new Map<string, string>();
  const latestOfChain = new Map<string, number>();
  const chainOf = new Map<string, string>();
  for (const e of events) {
    if (e.seq >= durableBefore) break;
    if (e.type !== "schedule/change") continue;
    const d = e.data as { op?: unknown; id?: unknown; record?: ScheduleRecordWire };
    const id = typeof d.id === "string" ? d.id : undefined;
    const record = d.record;
    if ((d.op === "create" || d.op === "update") && typeof record?.id === "string") {
      const of = record.snoozeOf;
      if (of && typeof of.id === "string") chainOf.set(record.id, chainOf.get(of.id) ?? of.id);
      else if (record.kind === "recurring") chainOf.delete(record.id); // a series of its own
      const key = of && typeof of.id === "string" && typeof of.occurrenceAt === "string"
        ? occurrenceKey(of.id, of.occurrenceAt)
        : snoozeKeyOf.get(record.id);
      if (key === undefined) continue;
      snoozeKeyOf.set(record.id, key);
      snoozes.set(key, { until: record.scheduledAt, seq: e.seq });
    } else if (d.op === "dispatch" && id) {
      latestDispatch.set(id, e.seq);
      latestOfChain.set(chainOf.get(id) ?? id, e.seq);
    } else if (d.op === "stop" && id) stops.set(id, e.seq);
    else if (d.op === "delete" && id && snoozeKeyOf.has(id)) {
      snoozes.delete(snoozeKeyOf.get(id)!);
      snoozeKeyOf.delete(id);
    } else if (d.op === "delete" && id && latestDispatch.has(id)) {
      // A delivered reminder that can still be deleted is a series: ending it by words ("stop
      // the vitamins reminder") stops its repeating as the card's button does.
      stops.set(id, e.seq);
    }
  }
  return { latestDispatch, latestOfChain, chainOf, snoozes, stops, from };
}

/** A card as the durable log tells it. */
export interface CardState {
  /**
   * Whether the card offers Snooze (and Stop repeating): it is the latest delivered card of its
   * chain in the window (a delivered snooze record takes the buttons from the card it snoozed,
   * so a chain has one pending snooze at most), and is the session's own (a fork's inherited cards are its parent's: the host answers `schedule_not_found`).
   */
  readonly actionable: boolean;
  /** What came of it, if anything did. */
  readonly outcome?: DurableOutcome;
  /** Its series no longer repeats (stopped or deleted in the log): no "next …" to show. */
  readonly ended?: boolean;
}

/**
 * The state of the card of one delivered occurrence.
 *
 * @param facts the window's {@linkcode cardFacts}
 * @param scheduleId the delivered reminder
 * @param occurrenceAt the delivered occurrence, UTC
 * @param seq the card's dispatch seq
 * @returns whether it may act, and its durable outcome (a stop shows on the series' latest card)
 */
export function cardState(
  facts: CardFacts,
  scheduleId: string,
  occurrenceAt: string,
  seq: number,
): CardState {
  const latest = facts.latestOfChain.get(facts.chainOf.get(scheduleId) ?? scheduleId);
  const actionable = seq >= facts.from && (latest === undefined || latest === seq);
  const own = facts.latestDispatch.get(scheduleId);
  const snooze = facts.snoozes.get(occurrenceKey(scheduleId, occurrenceAt));
  const stop = seq >= facts.from && (own === undefined || own === seq)
    ? facts.stops.get(scheduleId)
    : undefined;
  const snoozed = snooze && { state: "snoozed" as const, until: snooze.until, seq: snooze.seq };
  const stopped = stop === undefined ? undefined : { state: "stopped" as const, seq: stop };
  const outcome = snoozed && stopped ? (snoozed.seq > stopped.seq ? snoozed : stopped) : snoozed ??
    stopped;
  const ended = facts.stops.has(scheduleId) ? { ended: true } : {};
  return outcome ? { actionable, outcome, ...ended } : { actionable, ...ended };
}
