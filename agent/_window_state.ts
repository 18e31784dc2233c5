/**
 * What a live agent keeps of its conversation window between model requests, and the bounded
 * lookup of older messages the window names (docs/long-sessions.md "Model context within a
 * budget"). Private to `@chime/agent`.
 *
 * A live session keeps its window: each request reads only the events appended since the last
 * one (plus older pages when the budget has room for more), so a turn on a log of any length
 * reads what it adds. What is held is bounded: at most twice the read limit of events, and
 * {@linkcode MESSAGE_CACHE_SIZE} older messages.
 *
 * @module
 */
import type { SessionEvent, UserRpcData } from "@chime/session";
import type { History, MessageEvent } from "./_history.ts";

/** Indexed reads of older messages at most per turn, whatever the log holds. */
export const LOOKUP_READS = 4;
/** Seqs one lookup read covers (newest first below the window). */
export const LOOKUP_SPAN = 8_192;
/** Older messages (found or not) remembered between requests. */
export const MESSAGE_CACHE_SIZE = 256;
/** Links of an edit chain followed at most through remembered messages. */
const CHAIN_LINKS = 8;

/** The events a window holds between requests and the older messages it resolved. */
export class WindowState {
  /** First seq of {@linkcode WindowState.events}. */
  lo = 0;
  /** The held events `[lo, lo + events.length)`, oldest first. */
  events: SessionEvent[] = [];
  /** `events[0]` starts a turn (its first prompt or its `turn/start`): the first turn is whole. */
  startsTurn = false;
  /** Whether anything was read yet. */
  primed = false;
  /** Older messages by id: the event, or `null` when the bounded lookup did not find it. */
  readonly messages = new Map<string, MessageEvent | null>();
  /** The turn whose lookups {@linkcode WindowState.lookups} counts. */
  #lookupTurn: string | undefined = undefined;
  /** Indexed lookup reads made for the current turn. */
  lookups = 0;

  /** The exclusive end of the held events. */
  get hi(): number {
    return this.lo + this.events.length;
  }

  /** Forgets the held events (not the messages): the next request reads from the end. */
  reset(end: number): void {
    this.lo = end;
    this.events = [];
    this.startsTurn = false;
    this.primed = true;
  }

  /** Keeps the held events from `from` on. */
  trim(from: number, startsTurn: boolean): void {
    if (from <= this.lo) return;
    this.events = this.events.slice(from - this.lo);
    this.lo = from;
    this.startsTurn = startsTurn;
  }

  /** Starts counting lookups for `turnId` when it is not the turn counted so far. */
  beginTurn(turnId: string | undefined): void {
    if (turnId === this.#lookupTurn) return;
    this.#lookupTurn = turnId;
    this.lookups = 0;
  }

  /** The remembered older messages that were found. */
  found(): MessageEvent[] {
    const out: MessageEvent[] = [];
    for (const event of this.messages.values()) if (event !== null) out.push(event);
    return out;
  }

  /** Remembers an older message (or that it was not found), dropping the oldest entry beyond the bound. */
  remember(id: string, event: MessageEvent | null): void {
    this.messages.delete(id);
    this.messages.set(id, event);
    if (this.messages.size > MESSAGE_CACHE_SIZE) {
      this.messages.delete(this.messages.keys().next().value!);
    }
  }
}

/**
 * Looks up older messages the window names, and the originals their edits name, below
 * `before`: newest first, {@linkcode LOOKUP_SPAN} seqs per indexed read of `user-rpc` events,
 * at most {@linkcode LOOKUP_READS} reads per turn and never below `before - LOOKUP_READS ×
 * LOOKUP_SPAN`. An id not found within that bound is remembered as not found: the transcript
 * shows it as omitted (`_log_index.ts`) and no later request searches for it again.
 *
 * @param history the session log
 * @param ids message ids missing from the window
 * @param options `before` (the window's first seq), the state, `has` (known to the window)
 * @returns the remembered messages of `ids` and of their edit chains, and the events read
 */
export async function lookUpMessages(
  history: History,
  ids: ReadonlySet<string>,
  options: {
    readonly before: number;
    readonly state: WindowState;
    readonly has: (id: string) => boolean;
  },
): Promise<{ found: MessageEvent[]; read: number }> {
  const { before, state, has } = options;
  let read = 0;
  const wanted = new Set<string>();
  const want = (id: string | undefined) => {
    if (id !== undefined && !has(id) && !state.messages.has(id)) wanted.add(id);
  };
  // Chains through what is remembered first: only their unknown links are read.
  for (const id of ids) {
    const seen = new Set<string>();
    for (let next: string | undefined = id; next !== undefined && !seen.has(next);) {
      seen.add(next);
      const known = state.messages.get(next);
      if (known === undefined) want(next);
      next = known?.data.edits;
    }
  }
  const floor = Math.max(0, before - LOOKUP_READS * LOOKUP_SPAN);
  let hi = before;
  while (wanted.size > 0 && hi > floor && state.lookups < LOOKUP_READS) {
    const lo = Math.max(floor, hi - LOOKUP_SPAN);
    state.lookups++;
    const events = await history.messagesIn(lo, hi);
    read += events.length;
    // Newest first: an original is older than its edit, so a chain is followed in one pass.
    for (let i = events.length - 1; i >= 0; i--) {
      const event = events[i]!;
      const data = event.data as UserRpcData;
      if (!wanted.has(data.messageId)) continue;
      wanted.delete(data.messageId);
      state.remember(data.messageId, event);
      want(data.edits);
    }
    hi = lo;
  }
  // Not found down to the floor: never searched again. Cut short by the turn's reads: the
  // next turn searches on.
  if (hi <= floor) { for (const id of wanted) state.remember(id, null); }
  const out: MessageEvent[] = [];
  for (const id of ids) {
    let next: string | undefined = id;
    for (let link = 0; link < CHAIN_LINKS && next !== undefined; link++) {
      const event = state.messages.get(next);
      if (event === undefined || event === null) break;
      out.push(event);
      next = event.data.edits;
      if (next !== undefined && has(next)) break;
    }
  }
  return { found: out, read };
}
