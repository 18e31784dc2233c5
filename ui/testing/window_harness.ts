/**
 * A network-free harness for {@linkcode SessionWindow}: every fetch is a deferred the test
 * resolves explicitly, so the order of results is under test control.
 *
 * @module
 */
import { SessionWindow } from "../window.ts";
import type { EventSnapshot, HistoryQuery, OlderPage } from "../window_types.ts";
import type { EventView, WireEvent } from "../wire.ts";

/** A pending fetch the test settles. */
export interface PendingFetch<Q, T> {
  /** What the window asked for. */
  readonly query: Q;
  /** Settles the fetch with a value. */
  resolve(value: T): void;
  /** Fails the fetch. */
  reject(reason: Error): void;
}

/** The harness: a window plus the fetches it made. */
export interface WindowHarness {
  /** The window under test (page size 3). */
  readonly win: SessionWindow;
  /** `loadHistory` calls, oldest first. */
  readonly history: PendingFetch<HistoryQuery, OlderPage>[];
  /** `loadAfter` calls, oldest first. */
  readonly after: PendingFetch<number, EventSnapshot>[];
  /** Reasons passed to `onResync`. */
  readonly resyncs: string[];
}

function pending<Q, T>(query: Q, list: PendingFetch<Q, T>[]): Promise<T> {
  const { promise, resolve, reject } = Promise.withResolvers<T>();
  list.push({ query, resolve, reject });
  return promise;
}

/**
 * Builds a harness.
 *
 * @returns a fresh window with recording fetchers
 */
export function windowHarness(): WindowHarness {
  const history: PendingFetch<HistoryQuery, OlderPage>[] = [];
  const after: PendingFetch<number, EventSnapshot>[] = [];
  const resyncs: string[] = [];
  const win = new SessionWindow({
    loadHistory: (q) => pending(q, history),
    loadAfter: (seq) => pending(seq, after),
    pageSize: 3,
    onResync: (reason) => resyncs.push(reason),
  });
  return { win, history, after, resyncs };
}

/**
 * A test event.
 *
 * @param seq its seq
 * @param data its data
 * @returns the envelope
 */
export function ev(seq: number, data: unknown = { n: seq }): WireEvent {
  return { seq, type: "note", at: "2030-01-01T00:00:00.000Z", data };
}

/**
 * Events `[from, to]` inclusive.
 *
 * @param from first seq
 * @param to last seq
 * @returns the events
 */
export function evs(from: number, to: number): WireEvent[] {
  return Array.from({ length: to - from + 1 }, (_, i) => ev(from + i));
}

/** A reminder view for tests. */
export const VIEW: EventView = {
  type: "schedule/change",
  presentation: { scheduleId: "s1", prompt: "stretch", occurrenceAt: "2030-01-01T00:20:00.000Z" },
};

/** Lets queued promise continuations run (one macrotask turn). */
export function tick(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 0));
}
