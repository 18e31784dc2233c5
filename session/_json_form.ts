/**
 * Private: the JSON form of appended data in one pass. `Session.append` stores exactly what
 * storage holds, `JSON.parse(JSON.stringify(data))`, frozen; for plain data (plain objects and
 * arrays of strings, numbers, booleans and null) this builds that value directly, reading each
 * property once and freezing each node as it is made, so the text is serialized from the copy
 * and the round trip through `JSON.parse` is skipped. Anything else is left to the round trip.
 *
 * @module
 */

/** Returned when the value is not plain data: the caller takes the JSON round trip. */
export const NOT_PLAIN: unique symbol = Symbol("not plain");

/** Deeper values take the round trip (which also reports a cycle as `JSON.stringify` does). */
const MAX_DEPTH = 64;

/**
 * The frozen JSON form of plain `data`, equal to `JSON.parse(JSON.stringify(data))`.
 *
 * @param data the value to copy
 * @returns the frozen copy, or {@linkcode NOT_PLAIN}
 */
export function plainJsonCopy(data: unknown): unknown {
  return copy(data, 0);
}

/** A member that `JSON.stringify` drops from an object (and writes as `null` in an array). */
function dropped(value: unknown): boolean {
  return value === undefined || typeof value === "function" || typeof value === "symbol";
}

function copy(value: unknown, depth: number): unknown {
  switch (typeof value) {
    case "string":
    case "boolean":
      return value;
    case "number":
      // -0 is written "0"; NaN and the infinities are written null.
      return Number.isFinite(value) ? (value === 0 ? 0 : value) : null;
    case "object":
      if (value === null) return null;
      if (depth >= MAX_DEPTH || typeof (value as { toJSON?: unknown }).toJSON === "function") {
        return NOT_PLAIN;
      }
      return Array.isArray(value) ? copyArray(value, depth) : copyObject(value, depth);
    default:
      // undefined, a function, a symbol or a BigInt where a value must be.
      return NOT_PLAIN;
  }
}

function copyArray(value: readonly unknown[], depth: number): unknown {
  if (Object.getPrototypeOf(value) !== Array.prototype) return NOT_PLAIN;
  const out: unknown[] = [];
  for (let i = 0; i < value.length; i++) {
    const v = value[i];
    const c = dropped(v) ? null : copy(v, depth + 1);
    if (c === NOT_PLAIN) return NOT_PLAIN;
    out.push(c);
  }
  return Object.freeze(out);
}

function copyObject(value: object, depth: number): unknown {
  const proto: unknown = Object.getPrototypeOf(value);
  if (proto !== Object.prototype && proto !== null) return NOT_PLAIN;
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value)) {
    // Assigning "__proto__" would set the copy's prototype instead of a member.
    if (key === "__proto__") return NOT_PLAIN;
    const v = (value as Record<string, unknown>)[key];
    if (dropped(v)) continue;
    const c = copy(v, depth + 1);
    if (c === NOT_PLAIN) return NOT_PLAIN;
    out[key] = c;
  }
  return Object.freeze(out);
}
