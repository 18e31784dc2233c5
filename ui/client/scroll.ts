/**
 * Scroll rules of the transcript (README.md#the-page): what counts as
 * "at the bottom", and the anchor that keeps the first visible message in place when an older
 * page is prepended.
 *
 * @module
 */

/** Pixels from the bottom that still count as "at the bottom". */
export const NEAR_BOTTOM_PX = 48;

/** The part of a scroll container the rules read. */
export interface ScrollBox {
  /** Total content height (px). */
  readonly scrollHeight: number;
  /** Scrolled distance from the top (px). */
  readonly scrollTop: number;
  /** Visible height (px). */
  readonly clientHeight: number;
}

/**
 * Whether the reader is at (or near) the bottom, where new content is followed.
 *
 * @param box the container's sizes
 * @returns `true` within {@linkcode NEAR_BOTTOM_PX} of the bottom
 * @example
 * ```ts
 * import { nearBottom } from "./scroll.ts";
 * console.assert(nearBottom({ scrollHeight: 1000, scrollTop: 580, clientHeight: 400 }));
 * console.assert(!nearBottom({ scrollHeight: 1000, scrollTop: 0, clientHeight: 400 }));
 * ```
 */
export function nearBottom(box: ScrollBox): boolean {
  return box.scrollHeight - box.scrollTop - box.clientHeight <= NEAR_BOTTOM_PX;
}

/** A node and its offset from the container's top edge (px) before content changed. */
export interface Anchor {
  /** The node's `data-key`. */
  readonly key: string;
  /** Its top relative to the container's top (px). */
  readonly top: number;
}

/**
 * The distance of an element's top from a container's top edge.
 *
 * @param container the scroll container
 * @param el a descendant
 * @returns px (negative above the visible area)
 */
export function nodeTop(container: Element, el: Element): number {
  return el.getBoundingClientRect().top - container.getBoundingClientRect().top;
}

/**
 * The first transcript node at least partly visible in the container.
 *
 * @param container the scroll container
 * @returns its anchor, or `null` without nodes
 */
export function firstVisible(container: HTMLElement): Anchor | null {
  for (const el of container.querySelectorAll<HTMLElement>(".node[data-key]")) {
    const top = nodeTop(container, el);
    if (top + el.offsetHeight > 0) return { key: el.dataset.key!, top };
  }
  return null;
}
