/**
 * The part of the conversation a model request carries (docs/long-sessions.md "Model context
 * within a budget"). Private to `@chime/agent`.
 *
 * The window is built from the end of the log: the tail first, then older pages, newest first,
 * only while the budget has room, so a session of any length costs O(budget) per request; a
 * live agent keeps it between requests ({@linkcode WindowState}) and reads only what was
 * appended since. Older
 * turns are dropped oldest first and whole (a tool call never leaves its results behind); the
 * current turn is always kept. What was dropped is shown once, as {@linkcode omissionNote}.
 * Nothing is removed from the log.
 *
 * @module
 */
import type { SessionEvent, StepStartData } from "@chime/session";
import { estimateMessageTokens } from "./context_budget.ts";
import { type History, PAGE } from "./_history.ts";
import { LogIndex, type TurnEndRecord } from "./_log_index.ts";
import { type TranscriptTurn, transcriptTurns } from "./_transcript.ts";
import { lookUpMessages, WindowState } from "./_window_state.ts";
import type { ModelMessage } from "./types.ts";

export { WindowState } from "./_window_state.ts";

/**
 * The one note standing for everything before the window.
 *
 * @param omitted the events of the log before the window (every log entry counts, so the count
 *   is exact without reading them)
 */
export function omissionNote(omitted: number): ModelMessage {
  return { role: "system", content: `[${omitted} earlier messages omitted]` };
}

/** Room the note takes, whatever its count. */
const NOTE_TOKENS = estimateMessageTokens(omissionNote(Number.MAX_SAFE_INTEGER));

/** Which turns fit: the result of {@linkcode fitTurns}. */
export interface Fit {
  /** Index of the first kept turn (`costs.length` when none is kept). */
  readonly from: number;
  /** Tokens of the kept turns. */
  readonly tokens: number;
  /** Whether the kept turns exceed `room` (only the turns that must stay can do that). */
  readonly over: boolean;
}

/**
 * Keeps the newest turns that fit in `room`: turns from `keep` on always stay; older ones are
 * added newest first until the next one does not fit.
 *
 * @param costs tokens per turn, oldest first
 * @param room tokens available
 * @param keep index of the first turn that must stay (`costs.length`: none must)
 */
export function fitTurns(costs: readonly number[], room: number, keep: number): Fit {
  let tokens = 0;
  let from = costs.length;
  for (let i = costs.length - 1; i >= 0; i--) {
    const cost = costs[i]!;
    if (i < keep && tokens + cost > room) break;
    tokens += cost;
    from = i;
  }
  return { from, tokens, over: tokens > room };
}

/** Options of {@linkcode buildWindow}. */
export interface WindowOptions {
  /** The whole request's budget, estimated tokens. */
  readonly budget: number;
  /** Tokens the request needs besides the conversation (system text, tools, this step's extras). */
  readonly fixed: number;
  /** The current turn: always kept whole. */
  readonly turnId?: string;
  /** `user-rpc` events the caller holds (the current turn's claims), spared a lookup. */
  readonly known?: readonly SessionEvent[];
  /**
   * What the agent kept from its earlier requests (held events, resolved older messages);
   * updated in place. @default a fresh state (everything is read)
   */
  readonly state?: WindowState;
}

/** A conversation window: the note (when anything is omitted) and the kept turns. */
export interface Window {
  /** The messages, oldest first. */
  readonly messages: ModelMessage[];
  /** Log events before the window (the note's count); 0 when nothing is omitted. */
  readonly omitted: number;
  /** Estimated tokens of `messages`. */
  readonly tokens: number;
  /** The kept part alone exceeds the budget (kept anyway). */
  readonly over: boolean;
  /** Events read to build it (the appended ones, older pages, older messages looked up). */
  readonly read: number;
  /** Indexed reads of older messages made for it (`LOOKUP_READS` per turn at most, `_window_state.ts`). */
  readonly lookups: number;
  /** Events the state holds for the next request. */
  readonly held: number;
}

const cost = (turn: TranscriptTurn): number =>
  turn.messages.reduce((n, m) => n + estimateMessageTokens(m), 0);

/** The turns that are whole in `events`: the first may have begun before them unless they start the log. */
function wholeTurns(turns: TranscriptTurn[], events: readonly SessionEvent[]): TranscriptTurn[] {
  return (events[0]?.seq ?? 0) === 0 ? turns : turns.slice(1);
}

function fit(turns: readonly TranscriptTurn[], room: number, turnId: string | undefined): Fit {
  let keep = turns.length;
  if (turnId !== undefined) {
    for (let i = turns.length - 1; i >= 0; i--) {
      if (turns[i]!.turnId === turnId) {
        keep = i;
        break;
      }
    }
  }
  return fitTurns(turns.map(cost), room, keep);
}

/** Message ids the events from `start` on show, or that those messages edit, missing from `index`. */
function missingMessages(events: readonly SessionEvent[], start: number, index: LogIndex) {
  const shown = new Set<string>();
  const show = (id: string) => void shown.add(id);
  for (let i = Math.max(0, start - (events[0]?.seq ?? 0)); i < events.length; i++) {
    const event = events[i]!;
    if (event.type === "step/start") (event.data as StepStartData).messageIds?.forEach(show);
    if (event.type === "turn/end") (event.data as TurnEndRecord).stoppedMessageIds?.forEach(show);
  }
  const ids = new Set<string>();
  for (const id of shown) {
    const data = index.messages.get(id);
    if (data === undefined) ids.add(id);
    else if (data.edits !== undefined && !index.messages.has(data.edits)) ids.add(data.edits);
  }
  return ids;
}

/** The turns of the held events, cut where they are known to be whole. */
function heldTurns(state: WindowState, index: LogIndex) {
  const all = transcriptTurns(state.events, index);
  if (state.lo === 0 || !state.startsTurn) return { all, whole: wholeTurns(all, state.events) };
  // Held from a turn's start: the first turn is whole (an empty bucket before it is not one).
  const first = all[0];
  const skip = first !== undefined && first.turnId === undefined && first.messages.length === 0;
  return { all, whole: skip ? all.slice(1) : all };
}

/** The turns of the held events and the index they were written with. */
interface Held {
  readonly index: LogIndex;
  readonly all: TranscriptTurn[];
  readonly whole: TranscriptTurn[];
}

function held(state: WindowState, known: readonly SessionEvent[]): Held {
  const index = new LogIndex(state.events, known);
  return { index, ...heldTurns(state, index) };
}

/** Tokens of one event's texts in {@linkcode estimateHeld}: prompts, frames, answers, tool calls, results. */
function eventTokens(event: SessionEvent): number {
  const data = event.data as Record<string, unknown>;
  let text = "";
  if (event.type === "user-rpc") text = String(data.text ?? "");
  else if (event.type === "followup") text = String(data.frame ?? "");
  else if (event.type === "assistant/message") {
    text = String(data.text ?? "") + JSON.stringify(data.toolCalls ?? "");
  } else if (event.type === "tool/result") text = JSON.stringify(data.result ?? null);
  else return 0;
  return estimateMessageTokens({ role: "user", content: text });
}

/**
 * A cheap estimate of the tokens a stretch of held events writes, kept as parts so that a page
 * read below it adds its own estimate only (the held events are not estimated again).
 */
export interface Estimate {
  /** From the first `turn/start` on (the turn before it may be partial). */
  readonly started: number;
  /** Of every event. */
  readonly all: number;
  /** Whether the stretch holds a `turn/start`. */
  readonly starts: boolean;
}

/**
 * Estimates `events` (`started` is what {@linkcode readInto} compares with the room): it leaves
 * out the notes (`_marks.ts`), so it is at most what the transcript writes plus one partial
 * prompt: while it is below the room, every held turn fits and the exact (costly) fit need not
 * be computed.
 */
export function estimateHeld(events: readonly SessionEvent[]): Estimate {
  let started = 0;
  let all = 0;
  let starts = false;
  for (const event of events) {
    if (event.type === "turn/start") starts = true;
    const tokens = eventTokens(event);
    all += tokens;
    if (starts) started += tokens;
  }
  return { started, all, starts };
}

/** The estimate of `older` followed by `newer`, from theirs. */
export function joinEstimates(older: Estimate, newer: Estimate): Estimate {
  return {
    started: older.starts ? older.started + newer.all : newer.started,
    all: older.all + newer.all,
    starts: older.starts || newer.starts,
  };
}

/**
 * Reads what the next request needs into `state`: the events appended since the last request,
 * then older pages, newest first, while every held turn fits and the read limit is not reached
 * (the first request of a session reads from the end up to that limit).
 *
 * @returns the events read, and the held turns when the exact fit that ended the reading was
 *   computed (the caller reuses it)
 */
async function readInto(
  history: History,
  state: WindowState,
  options: {
    readonly room: number;
    readonly limit: number;
    readonly known: readonly SessionEvent[];
  },
  turnId: string | undefined,
): Promise<{ read: number; held?: Held }> {
  const end = history.length;
  if (!state.primed || state.hi > end) state.reset(end);
  let read = 0;
  if (state.hi < end) {
    const fresh = await history.range(state.hi, end);
    for (const event of fresh) state.events.push(event);
    read += fresh.length;
  }
  // One page at a time, checking the fit after each: the first request of a long session
  // reads at most one page more than its window needs (pages doubling in size read up to
  // twice that, and every event read is garbage the heap grows for, `turn_window_bench.ts`).
  // Nothing older to read (the window holds the log from its start, or the limit is reached):
  // no estimate either, which would cost a pass over every held event on every step.
  if (!(state.lo > 0 && end - state.lo < options.limit)) return { read };
  let estimate = estimateHeld(state.events);
  // Pages read and not yet joined to the held events, newest first, from `lo` on: joined
  // once (or when the exact fit needs them), not per page.
  const pages: (readonly SessionEvent[])[] = [];
  let lo = state.lo;
  const join = () => {
    if (pages.length === 0) return;
    state.events = pages.reverse().flat().concat(state.events);
    pages.length = 0;
    state.lo = lo;
    state.startsTurn = false;
  };
  // An exact fit made while the current turn is not whole yet is made again only once the
  // held events doubled, so a long current turn does not cost one per page.
  let exactAt = 1;
  while (lo > 0 && end - lo < options.limit) {
    if (end - lo >= exactAt && estimate.started >= options.room) {
      join();
      const turns = held(state, options.known);
      const current = turnId === undefined || turns.whole.some((t) => t.turnId === turnId);
      if (current && fit(turns.whole, options.room, turnId).from > 0) return { read, held: turns };
      // Everything fit: the estimate is over by at most one partial prompt, so a page or two
      // more decides. The current turn not whole yet: wait until what is held doubled.
      if (!current) exactAt = 2 * (end - lo);
    }
    const from = Math.max(0, lo - PAGE);
    const older = await history.range(from, lo);
    estimate = joinEstimates(estimateHeld(older), estimate);
    pages.push(older);
    lo = from;
    read += older.length;
  }
  join();
  return { read };
}

/**
 * Keeps of the held events what the next request needs: from the newest turn that did not fit
 * (it bounds the next fit, so nothing older is read again), and never more than twice the read
 * limit.
 */
function keepFor(
  state: WindowState,
  whole: readonly TranscriptTurn[],
  from: number,
  limit: number,
): void {
  const end = state.hi;
  if (from > 0) {
    state.trim(whole[from - 1]!.start, true);
  } else if (end - state.lo > limit) {
    // Everything fits: keep the read limit's worth, from a turn's start.
    let cut: number | undefined;
    for (const turn of whole) {
      if (turn.turnId === undefined || turn.start > end - limit) break;
      cut = turn.start;
    }
    if (cut !== undefined) state.trim(cut, true);
  }
  if (end - state.lo > 2 * limit) state.trim(end - limit, false);
}

/**
 * Builds the conversation window of the next request.
 *
 * With `options.state` (one per live agent) the window is incremental: the events held since
 * the last request are kept, and only the ones appended since (plus older pages while the
 * budget has room for more) are read.
 *
 * @param history the session log
 * @param options budget, fixed part, current turn, known messages, kept state
 * @returns the window
 * @throws {RangeError} when the reader returns the wrong events
 */
export async function buildWindow(history: History, options: WindowOptions): Promise<Window> {
  const room = options.budget - options.fixed - NOTE_TOKENS;
  const limit = Math.max(4 * PAGE, Math.floor(options.budget / 2));
  const state = options.state ?? new WindowState();
  // Older messages resolved by earlier requests count as known, so the fit that decides
  // whether to read further sees the turns as the last request sent them.
  const known = [...options.known ?? [], ...state.found()];
  state.beginTurn(options.turnId);
  const lookups = state.lookups;
  const end = history.length;
  const done = await readInto(history, state, { room, limit, known }, options.turnId);
  let read = done.read;
  // Exact pass: the older messages the window names are resolved, then the turns fitted again.
  let turns = done.held ?? held(state, known);
  const first = turns.whole;
  const start = first[fit(first, room, options.turnId).from]?.start ?? end;
  const missing = missingMessages(state.events, start, turns.index);
  if (missing.size > 0) {
    const index = turns.index;
    const { found: older, read: looked } = await lookUpMessages(history, missing, {
      before: state.lo,
      state,
      has: (id) => index.messages.has(id),
    });
    read += looked;
    if (older.length > 0) turns = held(state, [...known, ...older]);
  }
  const { all, whole } = turns;
  const kept = fit(whole, room, options.turnId);
  const keptTurns = whole.slice(kept.from);
  const cut = keptTurns[0]?.start ?? end;
  const dropped = all.filter((t) => t.start < cut).some((t) => t.messages.length > 0);
  const omitted = state.lo > 0 || dropped ? cut : 0;
  const messages = keptTurns.flatMap((t) => t.messages);
  const note = omitted > 0 ? [omissionNote(omitted)] : [];
  const tokens = kept.tokens + note.reduce((n, m) => n + estimateMessageTokens(m), 0);
  keepFor(state, whole, kept.from, limit);
  return {
    messages: [...note, ...messages],
    omitted,
    tokens,
    over: options.fixed + tokens > options.budget,
    read,
    lookups: state.lookups - lookups,
    held: state.events.length,
  };
}
