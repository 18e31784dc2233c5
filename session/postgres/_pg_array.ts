/**
 * Private: PostgreSQL array literals (the text form of the PostgreSQL manual, §8.15.6 "Array
 * Value Input") built here, so a statement's array parameters never depend on the client's
 * lazily fetched array types.
 *
 * postgres.js serializes a JavaScript array by the parameter's array OID, which it learns from
 * `pg_type` once per connection after connecting; a statement that reaches a connection before
 * that answer serializes `["a"]` as `a` and `[]` as the empty string, and the server refuses it
 * with `malformed array literal: ""`. A literal string is sent as it is in either case.
 *
 * @module
 */

/** One element: text, a number (integer or bigint column), or SQL `NULL`. */
export type ArrayElement = string | number | null;

/**
 * The array literal of `values`: `{"a","b\"c",NULL,3}`. Strings are always double-quoted with
 * `\` and `"` escaped by a backslash, so commas, braces, spaces and the word `NULL` stay text.
 *
 * @param values the elements, in order
 * @returns the literal, to bind where the statement casts it (`$1::text[]`)
 * @throws RangeError for a number that is not finite (it has no literal)
 */
export function arrayLiteral(values: readonly ArrayElement[]): string {
  let out = "{";
  for (let i = 0; i < values.length; i++) {
    if (i > 0) out += ",";
    const value = values[i]!;
    if (value === null) out += "NULL";
    else if (typeof value === "number") {
      if (!Number.isFinite(value)) throw new RangeError(`no array literal for ${value}`);
      out += String(value);
    } else out += `"${value.replace(/[\\"]/g, (c) => "\\" + c)}"`;
  }
  return out + "}";
}
