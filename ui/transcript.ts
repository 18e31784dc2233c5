/**
 * {@linkcode TranscriptAdapter}: turns window events into generic presented nodes keyed by
 * the durable event type and seq (docs/design.md#browser-session-window).
 *
 * @module
 */
import type { PresentedEventNode } from "@chime/contract";
import type { EventView, WireEvent } from "./wire.ts";

export type { PresentedEventNode } from "@chime/contract";

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
  #cache = new Map<number, Presented>();

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
    const next = new Map<number, Presented>();
    // A result takes the name of the latest call before it with its `callId` (ids may repeat
    // across turns).
    const names = new Map<string, string>();
    const nodes = events.map((event) => {
      const view = views.get(event.seq);
      const callId = (event.data as { callId?: unknown } | null)?.callId;
      const name = (event.data as { name?: unknown } | null)?.name;
      if (event.type === "tool/call" && typeof callId === "string" && typeof name === "string") {
        names.set(callId, name);
      }
      const toolName = event.type === "tool/result" && typeof callId === "string"
        ? names.get(callId)
        : undefined;
      const cached = this.#cache.get(event.seq);
      const node = cached && cached.event === event && cached.view === view &&
          cached.node.toolName === toolName
        ? cached.node
        : presentEvent(event, view, toolName);
      next.set(event.seq, { event, view, node });
      return node;
    });
    this.#cache = next;
    return nodes;
  }
}

interface Presented {
  readonly event: WireEvent;
  readonly view: EventView | undefined;
  readonly node: PresentedEventNode;
}

/**
 * Presents one event.
 *
 * @param event the durable event
 * @param view its sidecar view, if attached
 * @param toolName for a `tool/result`, its tool's name, if known
 * @returns the node
 */
export function presentEvent(
  event: WireEvent,
  view?: EventView,
  toolName?: string,
): PresentedEventNode {
  return {
    key: `${event.type}#${event.seq}`,
    seq: event.seq,
    type: event.type,
    at: event.at,
    data: event.data,
    ...(view ? { view } : {}),
    ...(toolName === undefined ? {} : { toolName }),
  };
}
