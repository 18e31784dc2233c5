/**
 * Flattens a Preact vnode tree to its text, calling function components, for tests that
 * render without a DOM.
 *
 * @module
 */

/**
 * @param node a rendered value
 * @returns its concatenated text
 */
export function vnodeText(node: unknown): string {
  if (node === null || node === undefined || typeof node === "boolean") return "";
  if (typeof node === "string" || typeof node === "number") return String(node);
  if (Array.isArray(node)) return node.map(vnodeText).join("");
  const v = node as { type: unknown; props: Record<string, unknown> };
  if (typeof v.type === "function") return vnodeText((v.type as (p: unknown) => unknown)(v.props));
  return vnodeText(v.props?.children);
}

/**
 * Finds the first element with a `data-testid`.
 *
 * @param node a rendered value
 * @param testid the id
 * @returns the vnode props, or `undefined`
 */
export function byTestId(node: unknown, testid: string): Record<string, unknown> | undefined {
  if (!node || typeof node !== "object") return undefined;
  if (Array.isArray(node)) {
    for (const n of node) {
      const hit = byTestId(n, testid);
      if (hit) return hit;
    }
    return undefined;
  }
  const props = (node as { props?: Record<string, unknown> }).props;
  if (props?.["data-testid"] === testid) return props;
  return byTestId(props?.children, testid);
}
