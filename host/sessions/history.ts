/**
 * `GET /api/sessions/:id/history` (attached and detached history,
 * docs/design.md#attached-history).
 *
 * @module
 */
import {
  headersIdentical,
  isSessionId,
  type Session,
  SessionError,
  type SessionEvent,
  type SessionHeader,
  type SessionStore,
} from "@chime/session";
import type { EventView } from "../feed/frame.ts";
import type { Views } from "../plugins/views.ts";
import { jsonEqual } from "./_json_equal.ts";

/** A page request: events with `seq < before`, at most `limit` of them (newest). */
export interface HistoryQuery {
  /** Exclusive upper bound. @default the log length */
  readonly before?: number;
  /** Page size, `1..500`. @default 200 */
  readonly limit?: number;
}

/** One page of history (docs/architecture.md#http). */
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

/** Stored prefix length already verified identical per exact live Session; `-1`: diverged. */
const verified = new WeakMap<Session, number>();

/** First and largest page of stored events read to extend a verification. */
const FIRST_VERIFY_PAGE = 512;
const MAX_VERIFY_PAGE = 16_384;

function remember(session: Session, length: number): void {
  const known = verified.get(session) ?? 0;
  if (known >= 0) verified.set(session, Math.max(known, length));
}

/**
 * Records that the first `length` events of a live session were read back from storage into
 * this exact object (a resume): that prefix is identical to storage by construction, so the
 * independent inspection starts after it instead of re-reading the whole stored log on the first
 * history request. The stored header and anything beyond are still inspected on every request.
 *
 * @param session the live session object just made live from storage
 * @param length events loaded from storage (`SessionStore.onLive`'s `durableLength`)
 */
export function seedVerifiedPrefix(session: Session, length: number): void {
  remember(session, length);
}

/**
 * Inspects persistence independently of the live object and tells how long a prefix of the
 * live log storage proves: the stored header must be identical (missing `delegationDepth` ≡ 0,
 * all else exact) and every stored event must deep-equal the live one.
 *
 * The inspection is incremental: storage and the live session are both append-only, so the
 * stored prefix already verified for this exact Session object stays verified. Each call reads
 * the stored cursor (whose header is compared every time) and only the stored events beyond
 * the verified length. A divergence is permanent for that object.
 *
 * @param store the store (its backend is read, not the live object)
 * @param session the live session
 * @returns the proven length, or why nothing is proven
 */
export async function provenPrefix(store: SessionStore, session: Session): Promise<ProvenPrefix> {
  let cursor;
  try {
    cursor = await store.backend.cursor(session.id);
  } catch {
    return { ok: false, reason: "failed" };
  }
  if (cursor === undefined) return { ok: false, reason: "missing" };
  if (!headersIdentical(cursor.header, session.header)) {
    return { ok: false, reason: "header_mismatch" };
  }
  if (cursor.length > session.length) return { ok: false, reason: "longer_than_live" };
  let done = verified.get(session) ?? 0;
  if (done < 0) return { ok: false, reason: "event_mismatch" };
  let limit = FIRST_VERIFY_PAGE;
  try {
    while (done < cursor.length) {
      const page = await store.readStored(session.id, {
        ...(done > 0 ? { after: done - 1 } : {}),
        limit: Math.min(limit, cursor.length - done),
      });
      if (page.length === 0) return { ok: false, reason: "failed" };
      for (const event of page) {
        // An event below the live tail left memory only after this object's own write path
        // committed it (docs/long-sessions.md): storage is its only copy, nothing to compare.
        const live = event.seq < session.tailStart ? event : session.event(done);
        if (event.seq !== done || !jsonEqual(event, live)) {
          verified.set(session, -1);
          return { ok: false, reason: "event_mismatch" };
        }
        done++;
      }
      remember(session, done);
      limit = Math.min(limit * 2, MAX_VERIFY_PAGE);
    }
  } catch {
    return { ok: false, reason: "failed" };
  }
  return { ok: true, length: cursor.length };
}

function pageBounds(length: number, query: HistoryQuery): { from: number; to: number } {
  const to = Math.min(query.before ?? length, length);
  return { from: Math.max(0, to - (query.limit ?? 200)), to };
}

function record(views: ReadonlyMap<number, EventView>): Record<string, EventView> {
  return Object.fromEntries([...views].map(([seq, view]) => [String(seq), view]));
}

/**
 * Attached history: raw events from the live session (its tail from memory, older events through
 * `SessionStore.read`); views only for gated events below the length storage proves (see
 * {@linkcode provenPrefix}). A missing, failed, divergent or longer-than-live inspection omits
 * views and still returns the raw page. Views read only the earlier events they need.
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
  // Older than the in-memory tail is read from storage (docs/long-sessions.md).
  const events = await store.read(session, from, to);
  let built = new Map<number, EventView>();
  const gated = views.gatedSeqs(events);
  if (gated.length > 0) {
    const proven = await provenPrefix(store, session);
    const seqs = proven.ok ? gated.filter((seq) => seq < proven.length) : [];
    built = await views.buildPage(
      session.header,
      events,
      seqs,
      (before, limit) => store.read(session, Math.max(0, before - limit), before),
    );
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
 * Reads the stored cursor, the requested page and only the earlier events the views need.
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
  if (!isSessionId(id)) {
    throw new SessionError("invalid_session_id", `Cannot read history: malformed id ${id}`);
  }
  const cursor = await store.backend.cursor(id);
  if (cursor === undefined) return undefined;
  const { from, to } = pageBounds(cursor.length, query);
  const events = to > from ? await store.readStored(id, { before: to, limit: to - from }) : [];
  const seqs = views.gatedSeqs(events);
  const built = await views.buildPage(
    cursor.header,
    events,
    seqs,
    (before, limit) => store.readStored(id, { before, limit }),
  );
  return {
    header: cursor.header,
    live: false,
    events,
    views: record(built),
    nextBefore: from > 0 ? from : null,
  };
}
