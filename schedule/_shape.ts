// Private structural checks shared by the decoder and the tool-argument rules.

/** A JSON-like plain object (prototype `Object.prototype` or `null`), never an array. */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/** Own keys of `object` that are not in `allowed`, in insertion order. */
export function extraKeys(object: Record<string, unknown>, allowed: readonly string[]): string[] {
  return Object.keys(object).filter((key) => !allowed.includes(key));
}

/** `Object.hasOwn` with a narrowed key type. */
export function has(object: Record<string, unknown>, key: string): boolean {
  return Object.hasOwn(object, key);
}
