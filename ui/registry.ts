/**
 * The `conversation.chat.eventview` registry: renderers keyed by durable event type, with an
 * expandable JSON fallback for types nobody registered (docs/design.md#browser-session-window).
 * A renderer module (a plugin's slice of the page, docs/architecture.md "Plugins") also
 * contributes here what the generic conversation renderers say about its work: one-line
 * summaries of its tools' results, by tool name, and the label of the follow-ups it sends the
 * agent. Without them the conversation shows neutral lines (`ui/conversation.ts`).
 *
 * @module
 */
import type {
  EventRenderer,
  EventRenderers,
  FollowupLabeler,
  Lang,
  PresentedEventNode,
  RenderContext,
  Rendered,
  ToolSummarizer,
  ToolSummary,
} from "@chime/contract";
import { el } from "./_el.ts";

export type {
  EventRenderer,
  FollowupLabeler,
  RenderContext,
  Rendered,
  ToolSummarizer,
  ToolSummary,
} from "@chime/contract";

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
 *
 * @example Contribute a tool's result line and a follow-up label
 * ```ts
 * import { EventViewRegistry } from "@chime/ui";
 * const registry = new EventViewRegistry();
 * registry.registerToolSummary("echo", () => ({ text: "Echoed", failed: false }));
 * registry.registerFollowupLabel((frame) => frame === "ping" ? "Ping delivered" : undefined);
 * const ctx = { lang: "en", timeZone: "UTC" } as const;
 * console.assert(registry.summarizeTool("echo", { ok: true }, ctx)?.text === "Echoed");
 * console.assert(registry.followupLabel("ping", "en") === "Ping delivered");
 * ```
 */
export class EventViewRegistry implements EventRenderers {
  readonly #renderers = new Map<string, EventRenderer>();
  readonly #summarizers = new Map<string, ToolSummarizer>();
  readonly #labelers = new Set<FollowupLabeler>();
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
      return renderer(node, ctx, this);
    } catch {
      return jsonFallback(node);
    }
  }

  /**
   * Registers (or replaces) the summarizer of one tool's results.
   *
   * @param tool the tool name, e.g. `schedule_list`
   * @param summarizer the summarizer
   * @returns a function that unregisters it again
   */
  registerToolSummary(tool: string, summarizer: ToolSummarizer): () => void {
    this.#summarizers.set(tool, summarizer);
    return () => {
      if (this.#summarizers.get(tool) === summarizer) this.#summarizers.delete(tool);
    };
  }

  /**
   * Summarizes a tool result with its tool's registered summarizer.
   *
   * @param tool the tool name; `undefined` when unknown (its `tool/call` is outside the window)
   * @param result the `tool/result` event's `result`
   * @param ctx language and viewer zone
   * @returns the summary, `null` to hide the row, or `undefined` when no summarizer answers
   */
  summarizeTool(
    tool: string | undefined,
    result: unknown,
    ctx: RenderContext,
  ): ToolSummary | null | undefined {
    return tool === undefined ? undefined : this.#summarizers.get(tool)?.(result, ctx);
  }

  /**
   * Registers a follow-up labeler.
   *
   * @param labeler labels the frames its module sends
   * @returns a function that unregisters it again
   */
  registerFollowupLabel(labeler: FollowupLabeler): () => void {
    this.#labelers.add(labeler);
    return () => void this.#labelers.delete(labeler);
  }

  /**
   * The first registered label for a follow-up frame.
   *
   * @param frame the `followup` event's `frame`
   * @param lang the UI language
   * @returns the label, or `undefined` when no labeler owns the frame
   */
  followupLabel(frame: unknown, lang: Lang): string | undefined {
    for (const labeler of this.#labelers) {
      const label = labeler(frame, lang);
      if (label !== undefined) return label;
    }
    return undefined;
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
