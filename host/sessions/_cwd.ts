/**
 * The rule for a session's `cwd` at the host boundary (README "HTTP API"): an absolute POSIX path
 * of at most 1,024 UTF-16 code units, with no control character (NUL included) and no `.` or
 * `..` segment. It is recorded as given, never rewritten: with the id it names the session, so
 * `/a//b` and `/a/b` stay two paths. Only new sessions are checked: a stored header keeps its
 * `cwd` and opens as before (private).
 *
 * @module
 */

/** Longest accepted `cwd`, UTF-16 code units. */
export const MAX_CWD = 1024;

// C0 controls (NUL included), DEL and C1 controls.
// deno-lint-ignore no-control-regex
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;

/**
 * Why `value` is not an accepted `cwd`, or `undefined` when it is.
 *
 * @param value any JSON value
 * @returns a reason to put after `cwd must be an absolute path: `, or `undefined`
 */
export function cwdProblem(value: unknown): string | undefined {
  if (typeof value !== "string") return "it is not a string";
  if (!value.startsWith("/")) return "it does not start with /";
  if (value.length > MAX_CWD) return `it is longer than ${MAX_CWD} characters`;
  if (CONTROL.test(value)) return "it holds a control character";
  if (value.split("/").some((part) => part === "." || part === "..")) {
    return "it holds a . or .. segment";
  }
  return undefined;
}
