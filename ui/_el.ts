/**
 * A loosely typed `h()` for intrinsic elements, so plain `.ts` renderers can set
 * `data-testid` and friends without JSX.
 *
 * @module
 */
import { type ComponentChild, h, type VNode } from "preact";

/** Attributes of an intrinsic element. */
export type Attrs = Record<
  string,
  string | number | boolean | undefined | ((e: Event) => void) | { readonly __html: string }
>;

/**
 * Creates an intrinsic element vnode.
 *
 * @param tag the tag name
 * @param attrs attributes, or `null`
 * @param children child nodes (strings are text, never HTML)
 * @returns the vnode
 */
export function el(tag: string, attrs: Attrs | null, ...children: ComponentChild[]): VNode {
  return (h as (t: string, p: Attrs | null, ...c: ComponentChild[]) => VNode)(
    tag,
    attrs,
    ...children,
  );
}
