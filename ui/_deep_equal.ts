/**
 * Structural equality of JSON values: the identity test for durable events
 * (docs/design.md#browser-session-window: a duplicate seq is accepted only when the event
 * deep-equals).
 * Object key order does not matter; array order does.
 *
 * @param a a JSON value
 * @param b another JSON value
 * @returns `true` when both denote the same JSON value
 */
export function deepEqual(a: unknown, b: unknown): boolean {
  if (Object.is(a, b)) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a) && Array.isArray(b)) {
    return a.length === b.length && a.every((item, i) => deepEqual(item, b[i]));
  }
  const ra = a as Record<string, unknown>;
  const rb = b as Record<string, unknown>;
  const ka = Object.keys(ra).filter((k) => ra[k] !== undefined);
  const kb = Object.keys(rb).filter((k) => rb[k] !== undefined);
  return ka.length === kb.length &&
    ka.every((k) => Object.hasOwn(rb, k) && deepEqual(ra[k], rb[k]));
}
