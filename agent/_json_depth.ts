// Private: the nesting limit of a model's tool arguments (docs/errors.md "Tool results", "Any
// tool"). A reply can nest its JSON arguments thousands deep; parsing that is fine, but every
// recursive step after it (the log's JSON form, freezing, a tool's validator) would overflow the
// stack and end the turn with an uncoded error. The depth is measured on the text, iteratively,
// before anything parses it.

/** The deepest tool arguments a call may nest (objects and arrays), the outer object included. */
export const MAX_ARGUMENT_DEPTH = 32;

/**
 * Whether JSON text nests objects and arrays deeper than `max`: one pass over the text,
 * skipping string contents (escapes included); brackets need not balance (the parser judges).
 *
 * @param text JSON text
 * @param max the deepest nesting allowed
 * @returns `true` when some bracket opens at depth `max + 1`
 */
export function nestsDeeperThan(text: string, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++; // a backslash escapes the next character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x7b || c === 0x5b) {
      if (++depth > max) return true;
    } else if (c === 0x7d || c === 0x5d) depth--;
  }
  return false;
}
