/**
 * The part of the conversation a model request carries (docs/long-sessions.md "Model context
 * within a budget"). Private to `@chime/agent`.
 *
 * The window is built from the end of the log: the tail first, then older pages, newest first,
 * only while the budget has room, so a session of any length costs O(budget) per request. Older
 * turns are dropped oldest first and whole (a tool call never leaves its results behind); the
 * current turn is always kept. What was dropped is shown once, as {@linkcode omissionNote}.
 * Nothing is removed from the log.
 *
 * @module
 */
import type { SessionEvent, StepStartData, UserRpcData } from "@chime/session";
import { estimateMessageTokens } from "./context_budget.ts";
import { type History, type MessageEvent, PAGE } from "./_history.ts";
import { LogIndex, type TurnEndRecord } from "./_log_index.ts";
import { type TranscriptTurn, transcriptTurns } from "./_transcript.ts";
import type { ModelMessage } from "./types.ts";

/** Events read at most to resolve the older messages a window names (edits, retries). */
const LOOKUP_LIMIT = 50_000;
/** Resolved older messages kept between requests. */
const CACHE_SIZE = 256;

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
  /** Older messages resolved by earlier requests (`null`: not found); updated in place. */
  readonly cache?: Map<string, MessageEvent | null>;
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
  /** Events read to build it. */
  readonly read: number;
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
  for (const event of events) {
    if (event.seq < start) continue;
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

/**
 * Resolves older messages the window names, through the cache, then by reading backwards from
 * `before`; follows edit chains a few links.
 */
async function resolve(
  history: History,
  ids: Set<string>,
  options: {
    readonly before: number;
    readonly cache: Map<string, MessageEvent | null>;
    readonly has: (id: string) => boolean;
  },
): Promise<MessageEvent[]> {
  const { before, cache, has } = options;
  const out: MessageEvent[] = [];
  for (let link = 0; link < 4 && ids.size > 0; link++) {
    const wanted = new Set([...ids].filter((id) => !cache.has(id)));
    const found = await history.findMessages(wanted, { before, limit: LOOKUP_LIMIT });
    for (const id of wanted) {
      cache.set(id, found.get(id) ?? null);
      if (cache.size > CACHE_SIZE) cache.delete(cache.keys().next().value!);
    }
    const next = new Set<string>();
    for (const id of ids) {
      const event = found.get(id) ?? cache.get(id);
      if (event === undefined || event === null) continue;
      out.push(event);
      const edits = (event.data as UserRpcData).edits;
      if (edits === undefined || has(edits)) continue;
      if (!out.some((e) => e.data.messageId === edits)) next.add(edits);
    }
    ids = next;
  }
  return out;
}

/**
 * Builds the conversation window of the next request.
 *
 * @param history the session log
 * @param options budget, fixed part, current turn, known messages, lookup cache
 * @returns the window
 * @throws {RangeError} when the reader returns the wrong events
 */
export async function buildWindow(history: History, options: WindowOptions): Promise<Window> {
  const room = options.budget - options.fixed - NOTE_TOKENS;
  const scanLimit = Math.max(4 * PAGE, Math.floor(options.budget / 2));
  const known = options.known ?? [];
  const end = history.length;
  let events: readonly SessionEvent[] = [];
  let lo = end;
  for (let size = PAGE;; size *= 2) {
    if (lo > 0) {
      const from = Math.max(0, lo - size);
      events = [...await history.range(from, lo), ...events];
      lo = from;
    }
    if (lo === 0 || events.length >= scanLimit) break;
    const whole = wholeTurns(transcriptTurns(events, new LogIndex(events, known)), events);
    const current = options.turnId === undefined ||
      whole.some((t) => t.turnId === options.turnId);
    if (current && fit(whole, room, options.turnId).from > 0) break;
  }
  // Exact pass: the older messages the window names are resolved, then the turns fitted again.
  let index = new LogIndex(events, known);
  const first = wholeTurns(transcriptTurns(events, index), events);
  const start = first[fit(first, room, options.turnId).from]?.start ?? end;
  const missing = missingMessages(events, start, index);
  if (missing.size > 0) {
    const older = await resolve(history, missing, {
      before: lo,
      cache: options.cache ?? new Map(),
      has: (id) => index.messages.has(id),
    });
    index = new LogIndex(events, [...known, ...older]);
  }
  const all = transcriptTurns(events, index);
  const whole = wholeTurns(all, events);
  const kept = fit(whole, room, options.turnId);
  const keptTurns = whole.slice(kept.from);
  const cut = keptTurns[0]?.start ?? end;
  const dropped = all.filter((t) => t.start < cut).some((t) => t.messages.length > 0);
  const omitted = lo > 0 || dropped ? cut : 0;
  const messages = keptTurns.flatMap((t) => t.messages);
  const note = omitted > 0 ? [omissionNote(omitted)] : [];
  const tokens = kept.tokens + note.reduce((n, m) => n + estimateMessageTokens(m), 0);
  return {
    messages: [...note, ...messages],
    omitted,
    tokens,
    over: options.fixed + tokens > options.budget,
    read: events.length,
  };
}
