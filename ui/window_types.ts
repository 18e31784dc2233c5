/**
 * Types of the session window's injected fetchers and merge exits.
 *
 * @module
 */
import type { EventView, WireEvent } from "./wire.ts";

export type { Readable } from "@chime/contract";

/** Query of an injected history fetch: the latest page when `before` is absent. */
export interface HistoryQuery {
  /** Exclusive upper bound on `seq`; absent for the latest page. */
  readonly before?: number;
  /** Page size. */
  readonly limit: number;
}

/** Events with their views: what a repair pull returns. */
export interface EventSnapshot {
  /** Dense, ascending events. */
  readonly events: readonly WireEvent[];
  /** Views by decimal seq. */
  readonly views: Readonly<Record<string, EventView>>;
}

/** A history page as the window needs it (a subset of `HistoryPage`). */
export interface OlderPage extends EventSnapshot {
  /** `before` for the next older page, or `null` at the start of the log. */
  readonly nextBefore: number | null;
}

/** Options of {@linkcode SessionWindow}. */
export interface SessionWindowOptions {
  /** Fetches a history page (`GET /api/sessions/:id/history`). */
  loadHistory(query: HistoryQuery): Promise<OlderPage>;
  /** Fetches every event after `seq` (exclusive), contiguous from `seq + 1`. */
  loadAfter(seq: number): Promise<EventSnapshot>;
  /**
   * Events per page.
   * @default {100}
   */
  readonly pageSize?: number;
  /** Called with a reason when an identity conflict forces a full resync. */
  onResync?(reason: string): void;
}

/** A live event held in the buffer, with the sidecar view received for it, if any. */
export interface BufferEntry {
  /** The durable event. */
  readonly event: WireEvent;
  /** Its view, if one arrived. */
  readonly view?: EventView;
}

/** Load state of a window. */
export type WindowStatus = "idle" | "loading" | "ready" | "error" | "disposed";

/**
 * Exit of a live merge: `appended` (next seq), `buffered` (beyond a gap, or before the
 * first load), `duplicate` (same seq, identical event, no view), `upgraded` (identical event,
 * view attached), `staged` (sidecar below the window, held by the in-flight older page),
 * `ignored` (below the window with nothing to stage, or disposed), `conflict` (identity
 * conflict: full resync started).
 */
export type MergeExit =
  | "appended"
  | "buffered"
  | "duplicate"
  | "upgraded"
  | "staged"
  | "ignored"
  | "conflict";

/** Exit of a tail load. */
export type LoadExit = "loaded" | "failed" | "stale" | "conflict";

/**
 * Exit of a gap repair: `repaired`, `pulling-again` (tail advanced but a buffered gap
 * remains), `busy` (one already in flight or nothing loaded), `failed`, `stale` (an older
 * generation), `conflict`.
 */
export type RepairExit = "repaired" | "pulling-again" | "busy" | "failed" | "stale" | "conflict";

/** Exit of an older-page load. */
export type OlderExit = "prepended" | "none" | "failed" | "stale" | "conflict";

/**
 * Tells whether events are dense and ascending by seq.
 *
 * @param events events to test
 * @returns `true` when every seq is one more than the previous
 */
export function isDense(events: readonly WireEvent[]): boolean {
  return events.every((e, i) => i === 0 || e.seq === (events[i - 1]?.seq ?? NaN) + 1);
}
