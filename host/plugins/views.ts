/**
 * Commit-gated views: which durable events get a sidecar view and how it is built. The host is
 * generic; plugins contribute a {@linkcode ViewSource} as `Plugin.web.views`.
 *
 * @module
 */
import type { ViewSource } from "@chime/agent";
import type { SessionEvent, SessionHeader } from "@chime/session";
import type { EventView } from "../feed/frame.ts";

// The contract a plugin implements lives in `@chime/agent` (a plugin cannot import the host).
export type { ContextScan, ViewSource } from "@chime/agent";

/**
 * Reads the events with `seq < before`, at most `limit` of them (the newest), ascending.
 */
export type EventReader = (
  before: number,
  limit: number,
) => readonly SessionEvent[] | Promise<readonly SessionEvent[]>;

/** Reads like {@linkcode EventReader}, synchronously (the live session's memory). */
export type SyncEventReader = (before: number, limit: number) => readonly SessionEvent[];

/** First and largest page of a backward context scan. */
const FIRST_PAGE = 256;
const MAX_PAGE = 16_384;

/** A read the context planner asks for. */
interface Read {
  readonly before: number;
  readonly limit: number;
}

/** The event with `seq` in ascending `events` (dense or sparse), by binary search. */
function eventAt(events: readonly SessionEvent[], seq: number): SessionEvent | undefined {
  let lo = 0;
  let hi = events.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const at = (events[mid] as SessionEvent).seq;
    if (at === seq) return events[mid];
    if (at < seq) lo = mid + 1;
    else hi = mid - 1;
  }
  return undefined;
}

/**
 * All view sources of a host.
 *
 * @example No sources, no views
 * ```ts
 * import { Views } from "@chime/host";
 * const views = new Views([]);
 * console.assert(views.gatedSeqs([]).length === 0);
 * ```
 */
export class Views {
  readonly #sources: readonly ViewSource[];

  /**
   * Combines view sources.
   *
   * @param sources contributed by loaded plugins
   */
  constructor(sources: readonly ViewSource[]) {
    this.#sources = sources;
  }

  /**
   * The seqs of gated events among `events`.
   *
   * @param events any events
   * @returns their gated seqs in order
   */
  gatedSeqs(events: readonly SessionEvent[]): number[] {
    if (this.#sources.length === 0) return [];
    return events.filter((e) => this.#sources.some((s) => s.gated(e))).map((e) => e.seq);
  }

  /**
   * Builds views for gated seqs.
   *
   * @param header the session header
   * @param events the log from seq 0 through at least the largest seq
   * @param seqs gated seqs
   * @returns views by seq
   */
  build(
    header: SessionHeader,
    events: readonly SessionEvent[],
    seqs: readonly number[],
  ): Map<number, EventView> {
    const out = new Map<number, EventView>();
    if (seqs.length === 0) return out;
    for (const source of this.#sources) {
      const mine = seqs.filter((seq) => {
        const event = eventAt(events, seq);
        return event !== undefined && source.gated(event);
      });
      if (mine.length === 0) continue;
      for (const [seq, view] of source.build(header, events, mine)) out.set(seq, view);
    }
    return out;
  }

  /**
   * Builds views for gated seqs of one dense page, reading only the earlier events the sources
   * need (a {@linkcode ViewSource.context} scan newest first in growing bounded pages; the dense
   * prefix for sources without one).
   *
   * @param header the session header
   * @param page dense ascending events holding every seq of `seqs`
   * @param seqs gated seqs of `page` to present
   * @param read reads earlier events (storage or the live session)
   * @returns views by seq
   */
  async buildPage(
    header: SessionHeader,
    page: readonly SessionEvent[],
    seqs: readonly number[],
    read: EventReader,
  ): Promise<Map<number, EventView>> {
    const plan = this.#plan(header, page, seqs);
    let step = plan.next([]);
    while (!step.done) step = plan.next(await read(step.value.before, step.value.limit));
    return step.value;
  }

  /**
   * {@linkcode Views.buildPage} over a synchronous reader (the live session's memory).
   *
   * @param header the session header
   * @param page dense ascending events holding every seq of `seqs`
   * @param seqs gated seqs of `page` to present
   * @param read reads earlier events
   * @returns views by seq
   */
  buildPageSync(
    header: SessionHeader,
    page: readonly SessionEvent[],
    seqs: readonly number[],
    read: SyncEventReader,
  ): Map<number, EventView> {
    const plan = this.#plan(header, page, seqs);
    let step = plan.next([]);
    while (!step.done) step = plan.next(read(step.value.before, step.value.limit));
    return step.value;
  }

  *#plan(
    header: SessionHeader,
    page: readonly SessionEvent[],
    seqs: readonly number[],
  ): Generator<Read, Map<number, EventView>, readonly SessionEvent[]> {
    const out = new Map<number, EventView>();
    const first = page[0];
    if (seqs.length === 0 || first === undefined) return out;
    const wanted = seqs.flatMap((seq) => {
      const event = eventAt(page, seq);
      return event === undefined ? [] : [event];
    });
    for (const source of this.#sources) {
      const mine = wanted.filter((event) => source.gated(event));
      const top = mine.at(-1);
      if (top === undefined) continue;
      const scan = source.context?.(header, mine);
      const kept = new Map<number, SessionEvent>(mine.map((event) => [event.seq, event]));
      const offer = (event: SessionEvent) => {
        if (scan === undefined || scan.offer(event)) kept.set(event.seq, event);
      };
      for (let i = top.seq - first.seq - 1; i >= 0 && !scan?.done; i--) {
        offer(page[i] as SessionEvent);
      }
      let before = first.seq;
      let limit = FIRST_PAGE;
      while (before > 0 && !scan?.done) {
        const older: readonly SessionEvent[] = yield { before, limit };
        if (older.length === 0) break;
        for (let i = older.length - 1; i >= 0 && !scan?.done; i--) {
          offer(older[i] as SessionEvent);
        }
        before = (older[0] as SessionEvent).seq;
        limit = Math.min(limit * 2, MAX_PAGE);
      }
      const events = [...kept.values()].sort((a, b) => a.seq - b.seq);
      const built = source.build(header, events, mine.map((event) => event.seq));
      for (const [seq, view] of built) out.set(seq, view);
    }
    return out;
  }
}
