/**
 * The `conversation.chat.eventview` registry: renderers keyed by durable event type, with an
 * expandable JSON fallback for types nobody registered (docs/design.md#browser-session-window).
 *
 * @module
 */
import { el } from "./_el.ts";
import type { Lang } from "./i18n.ts";
import type { PresentedEventNode } from "./transcript.ts";

/** What every renderer receives besides the node. */
export interface RenderContext {
  /** The UI language. */
  readonly lang: Lang;
  /** The viewer's IANA zone (`Intl.DateTimeFormat().resolvedOptions().timeZone`). */
  readonly timeZone: string;
  /**
   * What the page lends renderers by name (actions, state), e.g. the schedule renderer's
   * `ScheduleServices` under `"schedule"`. Absent in static rendering: no buttons then.
   */
  readonly services?: Readonly<Record<string, unknown>>;
}

/** What a renderer returns: a Preact child (a vnode is an `object`); `null` renders nothing. */
export type Rendered = object | string | number | bigint | boolean | null | undefined;

/** Renders one node; `null` hides it. */
export type EventRenderer = (node: PresentedEventNode, ctx: RenderContext) => Rendered;

/** The slot name of the conversation event-view registry. */
export const EVENT_VIEW_SLOT = "conversation.chat.eventview";

/**
 * Renderers by durable event type.
 *
 * @example Register and render
 * ```ts
 * import { EventViewRegistry, presentEvent } from "@chime/ui";
 * const registry = new EventViewRegistry();
 * registry.register("note", () => "a note");
 * const node = presentEvent({ seq: 0, type: "note", at: "2030-01-01T00:00:00.000Z", data: {} });
 * console.assert(registry.render(node, { lang: "en", timeZone: "UTC" }) === "a note");
 * ```
 */
export class EventViewRegistry {
  readonly #renderers = new Map<string, EventRenderer>();
  /** The slot this registry serves. */
  readonly slot: string = EVENT_VIEW_SLOT;

  /**
   * Registers (or replaces) the renderer of a durable event type.
   *
   * @param type e.g. `schedule/change`
   * @param renderer the renderer
   * @returns a function that unregisters it again
   */
  register(type: string, renderer: EventRenderer): () => void {
    this.#renderers.set(type, renderer);
    return () => {
      if (this.#renderers.get(type) === renderer) this.#renderers.delete(type);
    };
  }

  /**
   * Tells whether a durable event type has a renderer.
   *
   * @param type a durable event type
   * @returns whether a renderer is registered for it
   */
  has(type: string): boolean {
    return this.#renderers.has(type);
  }

  /**
   * Renders a node with its type's renderer; unknown types, and renderers that throw, get the
   * JSON fallback so one bad event never breaks the transcript.
   *
   * @param node the node
   * @param ctx language and zone
   * @returns what to mount
   */
  render(node: PresentedEventNode, ctx: RenderContext): Rendered {
    const renderer = this.#renderers.get(node.type);
    if (!renderer) return jsonFallback(node);
    try {
      return renderer(node, ctx);
    } catch {
      return jsonFallback(node);
    }
  }
}

/** The page's registry for `conversation.chat.eventview`. */
export const eventViews: EventViewRegistry = new EventViewRegistry();

/**
 * Registers a renderer in the page's {@linkcode eventViews} registry.
 *
 * @param type a durable event type
 * @param renderer the renderer
 * @returns a function that unregisters it
 */
export function registerEventView(type: string, renderer: EventRenderer): () => void {
  return eventViews.register(type, renderer);
}

/**
 * The expandable JSON fallback: a `<details>` row with the type and seq, the data inside.
 *
 * @param node the node
 * @returns the element
 */
export function jsonFallback(node: PresentedEventNode): Rendered {
  return el(
    "details",
    { class: "event-json", "data-testid": "event-json", "data-type": node.type },
    el("summary", null, el("code", null, node.type), ` #${node.seq}`),
    el("pre", null, JSON.stringify({ data: node.data, view: node.view }, null, 2)),
  );
}
