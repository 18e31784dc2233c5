/**
 * {@linkcode TranscriptAdapter}: turns window events into generic presented nodes keyed by
 * the durable event type and seq (docs/design.md#browser-session-window).
 *
 * @module
 */
import type { EventView, WireEvent } from "./wire.ts";

/** One renderable transcript entry. The durable `type` selects the renderer, not the view. */
export interface PresentedEventNode {
  /** Stable key: `${type}#${seq}`. */
  readonly key: string;
  /** The event seq. */
  readonly seq: number;
  /** The durable event type. */
  readonly type: string;
  /** Append instant, UTC RFC 3339. */
  readonly at: string;
  /** The event data. */
  readonly data: unknown;
  /** The commit-aware sidecar view, once attached. */
  readonly view?: EventView;
}

/**
 * Presents window events as nodes, reusing the previous node object for a seq whose event and
 * view are unchanged so keyed renderers do not re-render.
 *
 * @example Present two events
 * ```ts
 * import { TranscriptAdapter } from "@chime/ui";
 * const adapter = new TranscriptAdapter();
 * const at = "2030-01-01T00:00:00.000Z";
 * const nodes = adapter.present([{ seq: 0, type: "turn/start", at, data: {} }], new Map());
 * console.assert(nodes[0]?.key === "turn/start#0");
 * ```
 */
export class TranscriptAdapter {
  #cache = new Map<
    number,
    { event: WireEvent; view: EventView | undefined; node: PresentedEventNode }
  >();

  /**
   * Presents the window.
   *
   * @param events the window's contiguous events
   * @param views the window's views by seq
   * @returns one node per event, in seq order
   */
  present(
    events: readonly WireEvent[],
    views: ReadonlyMap<number, EventView>,
  ): readonly PresentedEventNode[] {
    const next = new Map<
      number,
      { event: WireEvent; view: EventView | undefined; node: PresentedEventNode }
    >();
    const nodes = events.map((event) => {
      const view = views.get(event.seq);
      const cached = this.#cache.get(event.seq);
      const node = cached && cached.event === event && cached.view === view
        ? cached.node
        : presentEvent(event, view);
      next.set(event.seq, { event, view, node });
      return node;
    });
    this.#cache = next;
    return nodes;
  }
}

/**
 * Presents one event.
 *
 * @param event the durable event
 * @param view its sidecar view, if attached
 * @returns the node
 */
export function presentEvent(event: WireEvent, view?: EventView): PresentedEventNode {
  return {
    key: `${event.type}#${event.seq}`,
    seq: event.seq,
    type: event.type,
    at: event.at,
    data: event.data,
    ...(view ? { view } : {}),
  };
}
