/**
 * The notes the transcript puts on user messages so a model (real or offline) sees what the
 * user's later actions meant for them (README.md#what-it-does, "Stop, Edit and cancel mean what
 * they say"):
 *
 * - a request whose turn the user stopped: {@linkcode STOPPED_NOTE} on its own first line;
 * - a request the user edited: {@linkcode SUPERSEDED_NOTE} on the original;
 * - the edit itself: an {@linkcode editNote} naming the original text and the tool actions the
 *   original request ran, so the model reconciles them instead of doing the work twice.
 *   When the original is older than the request's window (docs/long-sessions.md "Model
 *   context within a budget"), the note says what is omitted instead: what the original did,
 *   or the original itself when its text was not found.
 *
 * The notes are plain text, written once here; the offline model reads them back with
 * {@linkcode readMarks} (exported so a model adapter outside `@chime/agent` reads the same notes).
 *
 * @module
 */

/** First line of a user message whose turn the user stopped. */
export const STOPPED_NOTE =
  "[The user stopped this request before it finished; do not carry it out unless asked again]";

/** First line of a user message a later edit replaces. */
export const SUPERSEDED_NOTE =
  "[The user edited this message; the edited version below replaces it: do not act on this one]";

const EDIT_HEAD = "[Edit: this message replaces the user's earlier message ";
/** The head of an edit whose original is older than the request's window (docs/long-sessions.md). */
const EDIT_HEAD_OMITTED =
  "[Edit: this message replaces an earlier message of the user that is older than this conversation (omitted).";
const EDIT_DID = "What that earlier request did:";
const EDIT_NOTHING = "What that earlier request did: nothing (no tool calls).";
const EDIT_DID_OMITTED =
  "What that earlier request did: omitted (older than this conversation); check the current state before acting.";
const EDIT_TAIL =
  "Bring those results in line with this version (change or undo them); do not do them twice.]";
const ACTION_ARROW = " → ";
const NOT_FINISHED = "(no result: the turn ended first)";

/** One tool action an earlier request ran, as the edit note lists it. */
export interface EditAction {
  /** Tool name. */
  readonly name: string;
  /** The call's parsed arguments (the raw text when they were not JSON). */
  readonly args: unknown;
  /** A summary of the recorded result; `undefined` when none was recorded (cancel, crash). */
  readonly result?: unknown;
}

/** What an edit note says. */
export interface EditInfo {
  /** The original message's text (`""` when {@linkcode EditInfo.originalOmitted}). */
  readonly original: string;
  /** The tool actions the original request ran, oldest first (none listed when omitted). */
  readonly actions: readonly EditAction[];
  /**
   * The original is older than the request's window and its text was not found: the note
   * says so instead of quoting it (implies {@linkcode EditInfo.actionsOmitted}).
   */
  readonly originalOmitted?: boolean;
  /**
   * Some earlier version is older than the request's window, so what it did is not known:
   * the note says so instead of listing actions.
   */
  readonly actionsOmitted?: boolean;
}

/** A user message's content split into its notes and the user's own text. */
export interface Marked {
  /** The user stopped this request. */
  readonly stopped: boolean;
  /** A later edit replaces this request. */
  readonly superseded: boolean;
  /** Present when this message edits an earlier one. */
  readonly edit?: EditInfo;
  /** The user's own text. */
  readonly text: string;
}

/**
 * Shortens a tool result for an edit note: its top-level scalar fields (ids, kinds, times,
 * `ok`) and an error's `code`. Tool-agnostic: nested lists and records are left out.
 */
export function summarizeResult(result: unknown): unknown {
  if (typeof result !== "object" || result === null || Array.isArray(result)) return result;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(result)) {
    if (value === null || ["string", "number", "boolean"].includes(typeof value)) out[key] = value;
  }
  const error = (result as { error?: { code?: unknown } }).error;
  if (typeof error?.code === "string") out.error = { code: error.code };
  return out;
}

function actionLine(action: EditAction): string {
  const args = JSON.stringify(action.args ?? {});
  const result = action.result === undefined ? NOT_FINISHED : JSON.stringify(action.result);
  return `- ${action.name} ${args}${ACTION_ARROW}${result}`;
}

/**
 * Builds the model-visible content of a user message with its notes.
 *
 * @param marks the notes and the user's text
 * @returns the content: note lines first, then the text
 */
export function markText(marks: Marked): string {
  const lines: string[] = [];
  if (marks.stopped) lines.push(STOPPED_NOTE);
  if (marks.superseded) lines.push(SUPERSEDED_NOTE);
  const edit = marks.edit;
  if (edit !== undefined) {
    lines.push(
      edit.originalOmitted ? EDIT_HEAD_OMITTED : `${EDIT_HEAD}${JSON.stringify(edit.original)}.`,
    );
    if (edit.originalOmitted || edit.actionsOmitted) lines.push(EDIT_DID_OMITTED);
    else if (edit.actions.length === 0) lines.push(EDIT_NOTHING);
    else lines.push(EDIT_DID, ...edit.actions.map(actionLine));
    lines.push(EDIT_TAIL);
  }
  // Unmarked (most messages): the text itself, not a copy joined from a one-line list.
  if (lines.length === 0) return marks.text;
  lines.push(marks.text);
  return lines.join("\n");
}

function readAction(line: string): EditAction | undefined {
  const body = line.slice(2);
  const name = /^[^\s]+/.exec(body)?.[0];
  const arrow = body.lastIndexOf(ACTION_ARROW);
  if (name === undefined || arrow < 0) return undefined;
  const parse = (text: string): unknown => {
    try {
      return JSON.parse(text);
    } catch {
      return undefined;
    }
  };
  const resultText = body.slice(arrow + ACTION_ARROW.length);
  return {
    name,
    args: parse(body.slice(name.length + 1, arrow)),
    ...(resultText === NOT_FINISHED ? {} : { result: parse(resultText) }),
  };
}

function readOriginal(head: string | undefined): string | null | undefined {
  if (head === EDIT_HEAD_OMITTED) return null;
  if (head === undefined || !head.startsWith(EDIT_HEAD) || !head.endsWith(".")) return undefined;
  try {
    const original: unknown = JSON.parse(head.slice(EDIT_HEAD.length, -1));
    return typeof original === "string" ? original : undefined;
  } catch {
    return undefined;
  }
}

function readEdit(lines: string[]): EditInfo | undefined {
  const original = readOriginal(lines[0]);
  const tail = lines.indexOf(EDIT_TAIL);
  if (original === undefined || tail < 0) return undefined;
  const omitted = original === null || lines[1] === EDIT_DID_OMITTED;
  const actions = lines.slice(1, tail).filter((l) => l.startsWith("- ")).flatMap((l) =>
    readAction(l) ?? []
  );
  lines.splice(0, tail + 1);
  return {
    original: original ?? "",
    actions: omitted ? [] : actions,
    ...(original === null ? { originalOmitted: true } : {}),
    ...(omitted ? { actionsOmitted: true } : {}),
  };
}

/**
 * Reads the notes back from a user message's content ({@linkcode markText}'s inverse).
 *
 * @param content a user-role message
 * @returns the notes and the user's own text (the whole content when it has no notes)
 */
export function readMarks(content: string): Marked {
  const lines = content.split("\n");
  const stopped = lines[0] === STOPPED_NOTE;
  if (stopped) lines.shift();
  const superseded = lines[0] === SUPERSEDED_NOTE;
  if (superseded) lines.shift();
  const edit = readEdit(lines);
  return { stopped, superseded, ...(edit === undefined ? {} : { edit }), text: lines.join("\n") };
}
