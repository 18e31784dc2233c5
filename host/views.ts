/**
 * Commit-gated views: which durable events get a sidecar view and how it is built. The host is
 * generic; packages contribute a {@linkcode ViewSource} through the plugin registry.
 *
 * @module
 */
import type { SessionEvent, SessionHeader } from "@chime/session";
import type { EventView } from "./frame.ts";

/** Builds views for one kind of durable event (e.g. schedule dispatches). */
export interface ViewSource {
  /** `true` for events that get a view once a flush covers them. */
  gated(event: SessionEvent): boolean;
  /**
   * Builds the views of some gated events.
   *
   * @param header the session header
   * @param events the session log from seq 0 through at least the largest requested seq
   * @param seqs gated seqs to present
   * @returns views by seq; a seq may be missing when it cannot be presented
   */
  build(
    header: SessionHeader,
    events: readonly SessionEvent[],
    seqs: readonly number[],
  ): ReadonlyMap<number, EventView>;
}

/**
 * All view sources of a host.
 *
 * @example No sources, no views
 * ```ts
 * import { Views } from "./views.ts";
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
      const mine = seqs.filter((seq) => events[seq] !== undefined && source.gated(events[seq]));
      if (mine.length === 0) continue;
      for (const [seq, view] of source.build(header, events, mine)) out.set(seq, view);
    }
    return out;
  }
}
