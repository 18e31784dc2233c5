/**
 * `GET /api/sessions/:id/history` (seed §"Commit-aware Web 回执", attached and detached history).
 *
 * @module
 */
import {
  headersIdentical,
  type Session,
  type SessionEvent,
  type SessionHeader,
  type SessionStore,
} from "@chime/session";
import type { EventView } from "./frame.ts";
import type { Views } from "./views.ts";
import { jsonEqual } from "./_json_equal.ts";

/** A page request: events with `seq < before`, at most `limit` of them (newest). */
export interface HistoryQuery {
  /** Exclusive upper bound. @default the log length */
  readonly before?: number;
  /** Page size, `1..500`. @default 200 */
  readonly limit?: number;
}

/** One page of history (ARCHITECTURE.md §6). */
export interface HistoryPage {
  /** The session header (live object, or stored for cold sessions). */
  readonly header: SessionHeader;
  /** Whether the session is live. */
  readonly live: boolean;
  /** Dense ascending events. */
  readonly events: readonly SessionEvent[];
  /** Commit-gated views by seq. */
  readonly views: Readonly<Record<string, EventView>>;
  /** The `before` of the next older page, or `null` at seq 0. */
  readonly nextBefore: number | null;
}

/** Result of the independent inspection behind attached history. */
export type ProvenPrefix =
  | { readonly ok: true; readonly length: number }
  | {
    readonly ok: false;
    readonly reason:
      | "missing"
      | "failed"
      | "header_mismatch"
      | "longer_than_live"
      | "event_mismatch";
  };

/**
 * Inspects persistence independently of the live object and tells how long a prefix of the
 * live log storage proves: the stored header must be identical (missing `delegationDepth` ≡ 0,
 * all else exact) and every stored event must deep-equal the live one.
 *
 * @param store the store (its `inspect` reads the backend, not the live object)
 * @param session the live session
 * @returns the proven length, or why nothing is proven
 */
export async function provenPrefix(store: SessionStore, session: Session): Promise<ProvenPrefix> {
  let stored;
  try {
    stored = await store.inspect(session.id);
  } catch {
    return { ok: false, reason: "failed" };
  }
  if (stored === undefined) return { ok: false, reason: "missing" };
  if (!headersIdentical(stored.header, session.header)) {
    return { ok: false, reason: "header_mismatch" };
  }
  if (stored.events.length > session.length) return { ok: false, reason: "longer_than_live" };
  for (const [i, event] of stored.events.entries()) {
    if (!jsonEqual(event, session.event(i))) return { ok: false, reason: "event_mismatch" };
  }
  return { ok: true, length: stored.events.length };
}

function pageBounds(length: number, query: HistoryQuery): { from: number; to: number } {
  const to = Math.min(query.before ?? length, length);
  return { from: Math.max(0, to - (query.limit ?? 200)), to };
}

function record(views: ReadonlyMap<number, EventView>): Record<string, EventView> {
  return Object.fromEntries([...views].map(([seq, view]) => [String(seq), view]));
}

/**
 * Attached history: raw events from the live session; views only for gated events below the
 * length storage proves (see {@linkcode provenPrefix}). A missing, failed, divergent or
 * longer-than-live inspection omits views and still returns the raw page.
 *
 * @param store the store
 * @param views view sources
 * @param session the live session
 * @param query page bounds
 * @returns the page
 */
export async function attachedHistory(
  store: SessionStore,
  views: Views,
  session: Session,
  query: HistoryQuery = {},
): Promise<HistoryPage> {
  const { from, to } = pageBounds(session.length, query);
  const events = session.events(from, to);
  let built = new Map<number, EventView>();
  const gated = views.gatedSeqs(events);
  if (gated.length > 0) {
    const proven = await provenPrefix(store, session);
    const seqs = proven.ok ? gated.filter((seq) => seq < proven.length) : [];
    built = views.build(session.header, session.events(0, to), seqs);
  }
  return {
    header: session.header,
    live: true,
    events,
    views: record(built),
    nextBefore: from > 0 ? from : null,
  };
}

/**
 * Detached (cold) history: the durable prefix read from storage, with views derived from it.
 * Never activates the session or creates an agent.
 *
 * @param store the store
 * @param views view sources
 * @param id session id
 * @param query page bounds
 * @returns the page, or `undefined` when nothing is stored
 * @throws {SessionError} `invalid_session_id`, or a backend failure
 */
export async function detachedHistory(
  store: SessionStore,
  views: Views,
  id: string,
  query: HistoryQuery = {},
): Promise<HistoryPage | undefined> {
  const stored = await store.inspect(id);
  if (stored === undefined) return undefined;
  const { from, to } = pageBounds(stored.events.length, query);
  const events = stored.events.slice(from, to);
  const seqs = views.gatedSeqs(events);
  return {
    header: stored.header,
    live: false,
    events,
    views: record(views.build(stored.header, stored.events.slice(0, to), seqs)),
    nextBefore: from > 0 ? from : null,
  };
}
