/**
 * Fan-out of live session events to stream clients, with the commit-gated sidecars of
 * docs/design.md#receipt-watermark. Pure of HTTP: `sse.ts` pumps a {@linkcode FeedClient} into a
 * response.
 *
 * @module
 */
import type { Session, SessionEvent } from "@chime/session";
import { FeedClient, type FeedLimits } from "./feed_client.ts";
import { type EventView, type FeedItem, sseFrame } from "./frame.ts";
import type { Views } from "../plugins/views.ts";
import type { CoveredRange, Watermark } from "./watermark.ts";

export { type BacklogSource, FeedClient, type FeedLimits, type FrameSink } from "./feed_client.ts";

/** Raw events, and bytes, per connect-time backlog chunk. */
const BACKLOG_EVENTS = 256;
const BACKLOG_BYTES = 256 * 1024;
/** Events scanned for catch-up sidecars per chunk. */
const SUMMARY_EVENTS = 2048;

interface Feed {
  readonly clients: Set<FeedClient>;
  readonly subscription: Disposable;
  /** Sidecar frames being built from storage: later ones wait, so `flushed` stays monotone. */
  pending: Promise<void> | undefined;
}

/** Options of {@linkcode Feeds}. */
export interface FeedsOptions {
  /** The shared watermark (the runtime advances it from `store.onFlushed`). */
  readonly watermark: Watermark;
  /** Which events get views and how. */
  readonly views: Views;
  /** Per-client queue bounds. */
  readonly limits?: FeedLimits;
  /** Called when a client of `session` detaches (activity, for idle release). */
  readonly onDetach?: (session: Session) => void;
  /**
   * Reads any range `[from, to)` of a live session, older than its in-memory tail included
   * (`SessionStore.read`, `docs/long-sessions.md` §"Bounded live session").
   * @default the session's memory only
   */
  readonly read?: EventRange;
}

/** Reads the events `[from, to)` of a live session (`SessionStore.read`). */
export type EventRange = (
  session: Session,
  from: number,
  to: number,
) => Promise<readonly SessionEvent[]>;

/** Asked of a synchronous reader when the events are no longer in memory. */
class OutsideTail extends Error {}

/** Reads the session's memory, or throws {@linkcode OutsideTail}. */
function fromTail(session: Session, from: number, to: number): readonly SessionEvent[] {
  if (from < session.tailStart) throw new OutsideTail();
  return session.events(from, to);
}

/**
 * Stream clients per exact live Session object. Raw events are sent at append (one
 * `session.subscribe` per session with clients); newly covered gated events are sent again
 * with a `{ for: 'event', view }` sidecar only when the watermark advances.
 *
 * @example Attach a client and receive an appended event
 * ```ts
 * import { Feeds } from "@chime/host";
 * import { Views } from "@chime/host";
 * import { Watermark } from "@chime/host";
 * import { Session } from "@chime/session";
 * const session = new Session({
 *   header: { version: 1, id: "s", cwd: "/", createdAt: "2030-01-01T00:00:00.000Z",
 *     origin: "doc", lineage: null, delegationDepth: 0 },
 *   now: () => 0,
 * });
 * const feeds = new Feeds({ watermark: new Watermark(), views: new Views([]) });
 * using client = feeds.attach(session);
 * session.append("note", {});
 * console.assert(client.queued === 1);
 * ```
 */
export class Feeds {
  readonly #watermark: Watermark;
  readonly #views: Views;
  readonly #limits: FeedLimits;
  readonly #onDetach: ((session: Session) => void) | undefined;
  readonly #read: EventRange;
  readonly #feeds = new Map<Session, Feed>();

  /**
   * Creates the feeds of one runtime.
   *
   * @param options watermark, views, limits
   */
  constructor(options: FeedsOptions) {
    this.#watermark = options.watermark;
    this.#views = options.views;
    this.#limits = options.limits ?? {};
    this.#onDetach = options.onDetach;
    this.#read = options.read ?? ((session, from, to) => Promise.resolve(session.events(from, to)));
  }

  /**
   * Whether a session has an open stream client.
   *
   * @param session the exact live object
   * @returns `true` while at least one client is attached
   */
  hasClients(session: Session): boolean {
    return (this.#feeds.get(session)?.clients.size ?? 0) > 0;
  }

  /** Number of attached clients, over all sessions. */
  get clientCount(): number {
    let n = 0;
    for (const feed of this.#feeds.values()) n += feed.clients.size;
    return n;
  }

  /**
   * Attaches a client to a live session. The backlog is streamed in bounded chunks as the
   * client drains (never queued whole): raw events after `after`, chasing the session's tail
   * while live pushes are ignored, then, from the moment it caught up (live pushes queued from
   * then on), views for every gated event below the watermark and a `flushed` notice. Nothing
   * is lost or doubled.
   *
   * @param session the exact live object
   * @param after last seq the client has (`Last-Event-ID`); `undefined` or `-1` for all
   * @returns the client; close it when the stream ends
   */
  attach(session: Session, after = -1): FeedClient {
    const feed = this.#feed(session);
    const client: FeedClient = new FeedClient(this.#limits, () => this.#detach(session, client));
    let next = Math.max(0, after + 1);
    let summary: { next: number; readonly to: number } | undefined;
    const catchUp = () => {
      client.goLive();
      summary = { next: 0, to: this.#watermark.get(session) };
    };
    const older = async (): Promise<string[]> => {
      // Below the in-memory tail: one bounded page from storage.
      const page = await this.#read(
        session,
        next,
        Math.min(session.tailStart, next + BACKLOG_EVENTS),
      );
      next += page.length;
      return page.map((event) => sseFrame({ kind: "event", event }, event.seq));
    };
    const source = (): string[] | undefined | Promise<string[] | undefined> => {
      if (summary === undefined) {
        if (next < session.tailStart) return older();
        const frames: string[] = [];
        let bytes = 0;
        while (next < session.length && frames.length < BACKLOG_EVENTS && bytes < BACKLOG_BYTES) {
          const event = session.event(next++) as SessionEvent;
          const frame = sseFrame({ kind: "event", event }, event.seq);
          frames.push(frame);
          bytes += frame.length;
        }
        if (next >= session.length) catchUp();
        return frames;
      }
      if (summary.to === 0) return undefined;
      if (summary.next >= summary.to) {
        // The current mark: never below a `flushed` already queued live.
        const mark = this.#watermark.get(session);
        summary = { next: summary.to, to: 0 };
        return [sseFrame({ kind: "flushed", throughSeq: mark }, session.length - 1)];
      }
      // Sidecars for seqs the client already has are idempotent upgrades: it may have missed
      // them while disconnected.
      const from = summary.next;
      const to = Math.min(summary.to, from + SUMMARY_EVENTS);
      summary.next = to;
      const cursor = session.length - 1;
      const frames = (items: FeedItem[]) => items.map((item) => sseFrame(item, cursor));
      const sync = this.#sidecarsSync(session, from, to);
      return sync === undefined ? this.#sidecars(session, from, to).then(frames) : frames(sync);
    };
    if (next >= session.length) {
      catchUp();
      if (summary!.to > 0) client.startBacklog(source, true);
    } else {
      client.startBacklog(source);
    }
    feed.clients.add(client);
    return client;
  }

  /**
   * Applies a `session/flushed` observation: advances the watermark and, when it moved, sends
   * the newly covered gated events with views, then `flushed`.
   *
   * @param session the exact live object
   * @param throughSeq the flush's exclusive bound
   */
  onFlushed(session: Session, throughSeq: number): void {
    const range = this.#watermark.advance(session, throughSeq);
    if (range !== undefined) this.covered(session, range);
  }

  /**
   * Sends a range the watermark newly covers: its gated events with views, then `flushed`
   * (the half of {@linkcode Feeds.onFlushed} after the watermark moved, for a runtime that also
   * offers the range to after-commit hooks).
   *
   * @param session the exact live object
   * @param range what {@linkcode Watermark.advance} reported
   */
  covered(session: Session, range: CoveredRange): void {
    const feed = this.#feeds.get(session);
    if (feed === undefined) return;
    const cursor = session.length - 1;
    const send = (items: FeedItem[]) => {
      // One text for the views and their `flushed`: one push (and one encoding) per client.
      let text = "";
      for (const item of items) text += sseFrame(item, cursor);
      text += sseFrame({ kind: "flushed", throughSeq: range.to }, cursor);
      for (const client of [...feed.clients]) client.push(text);
    };
    const sync = feed.pending === undefined
      ? this.#sidecarsSync(session, range.from, range.to)
      : undefined;
    if (sync !== undefined) return send(sync);
    // Context older than the tail is read from storage; frames keep their order per session.
    const run = (feed.pending ?? Promise.resolve())
      .then(() => this.#sidecars(session, range.from, range.to))
      .then(send, () => send([]))
      .finally(() => {
        if (feed.pending === run) feed.pending = undefined;
      });
    feed.pending = run;
  }

  /**
   * Tells every client of a session that another host took it (`event: session-lost`,
   * `{ code: "session_owned_elsewhere", url }`) and ends their streams (docs/deploy.md
   * "Fencing: a host that lost its lease never writes again").
   *
   * @param session the exact live object
   * @param url the new owner's base URL, `""` when unknown
   */
  endLost(session: Session, url: string): void {
    const frame = sseFrame({ kind: "session-lost", url }, session.length - 1);
    for (const client of [...(this.#feeds.get(session)?.clients ?? [])]) client.end(frame);
  }

  /**
   * Ends every stream of a live object whose failed write was withdrawn (README.md "How it behaves on failure"): what
   * they were sent past the durable length will never be stored, so each client reconnects and
   * reads the log back from storage.
   *
   * @param session the exact live object
   */
  endWithdrawn(session: Session): void {
    const frame = sseFrame({ kind: "session-lost", url: "" }, session.length - 1);
    for (const client of [...(this.#feeds.get(session)?.clients ?? [])]) client.end(frame);
  }

  /**
   * Tells every client of a session id that the session was deleted (`event: session-deleted`,
   * `{ code: "session_not_found" }`) and ends their streams (README.md "The page"). Every live
   * object of that id is covered, one already released by the delete included.
   *
   * @param id the deleted session's id
   */
  endDeleted(id: string): void {
    for (const [session, feed] of [...this.#feeds]) {
      if (session.id !== id) continue;
      const frame = sseFrame({ kind: "session-deleted" }, session.length - 1);
      for (const client of [...feed.clients]) client.end(frame);
    }
  }

  /** Closes every client of every session (shutdown). */
  closeAll(): void {
    for (const feed of [...this.#feeds.values()]) {
      for (const client of [...feed.clients]) client.close();
    }
  }

  /**
   * The views of the gated events of a newly covered range, from memory when it holds them,
   * else read from storage (for the page alert stream, `./alerts.ts`).
   *
   * @param session the exact live object
   * @param range a range the watermark covers
   * @returns `{ kind: 'view' }` items, ascending
   */
  viewsOf(session: Session, range: CoveredRange): Promise<FeedItem[]> {
    const sync = this.#sidecarsSync(session, range.from, range.to);
    return sync === undefined
      ? this.#sidecars(session, range.from, range.to)
      : Promise.resolve(sync);
  }

  /** The sidecars of `[from, to)` from memory, or `undefined` when storage must be read. */
  #sidecarsSync(session: Session, from: number, to: number): FeedItem[] | undefined {
    try {
      const page = fromTail(session, from, to);
      const seqs = this.#views.gatedSeqs(page);
      if (seqs.length === 0) return [];
      const views = this.#views.buildPageSync(
        session.header,
        page,
        seqs,
        (before, limit) => fromTail(session, Math.max(0, before - limit), before),
      );
      return this.#items(page, from, seqs, views);
    } catch (error) {
      if (error instanceof OutsideTail) return undefined;
      throw error;
    }
  }

  /** The sidecars of `[from, to)`, reading older events than the tail from storage. */
  async #sidecars(session: Session, from: number, to: number): Promise<FeedItem[]> {
    const page = await this.#read(session, from, to);
    const seqs = this.#views.gatedSeqs(page);
    if (seqs.length === 0) return [];
    const views = await this.#views.buildPage(
      session.header,
      page,
      seqs,
      (before, limit) => this.#read(session, Math.max(0, before - limit), before),
    );
    return this.#items(page, from, seqs, views);
  }

  #items(
    page: readonly SessionEvent[],
    from: number,
    seqs: readonly number[],
    views: ReadonlyMap<number, EventView>,
  ): FeedItem[] {
    return seqs.flatMap((seq) => {
      const view = views.get(seq);
      const event = page[seq - from] as SessionEvent;
      return view === undefined ? [] : [{ kind: "view" as const, event, view }];
    });
  }

  #feed(session: Session): Feed {
    let feed = this.#feeds.get(session);
    if (feed === undefined) {
      const clients = new Set<FeedClient>();
      const subscription = session.subscribe((event) => {
        const frame = sseFrame({ kind: "event", event }, event.seq);
        for (const client of [...clients]) client.push(frame);
      });
      feed = { clients, subscription, pending: undefined };
      this.#feeds.set(session, feed);
    }
    return feed;
  }

  #detach(session: Session, client: FeedClient): void {
    const feed = this.#feeds.get(session);
    if (feed === undefined) return;
    feed.clients.delete(client);
    this.#onDetach?.(session);
    if (feed.clients.size === 0) {
      feed.subscription[Symbol.dispose]();
      this.#feeds.delete(session);
    }
  }
}
