/**
 * `GET /api/sessions/:id/stream`: pumps a {@linkcode FeedClient} into a `streamSSE` response
 * (docs/architecture.md#sse).
 *
 * @module
 */
import type { Context } from "hono";
import type { Session } from "@chime/session";
import { HostError } from "../errors.ts";
import type { FeedClient, Feeds } from "./feed.ts";
import { HEARTBEAT_FRAME } from "./frame.ts";
import { setImmediate } from "node:timers";

/** Options of {@linkcode streamSession}. */
export interface StreamOptions {
  /** Interval of heartbeat comments, ms. @default 15000 */
  readonly heartbeatMs?: number;
  /** Reconnection delay advertised to `EventSource` (`retry:`), ms. @default 1000 */
  readonly retryMs?: number;
}

/**
 * Reads the resume cursor: `Last-Event-ID` wins over `?after=`; `-1` means "from the start".
 *
 * @param c the request context
 * @returns the last seq the client has
 * @throws {HostError} `invalid_query` for a malformed value
 */
export function resumeCursor(c: Context): number {
  const raw = c.req.header("last-event-id") ?? c.req.query("after");
  if (raw === undefined || raw === "") return -1;
  if (!/^-?\d{1,15}$/.test(raw) || Number(raw) < -1) {
    throw new HostError("invalid_query", "Cannot resume stream: the cursor is not a seq", {
      field: "after",
    });
  }
  return Number(raw);
}

/**
 * Streams one live session. The backfill after the cursor is queued synchronously with the
 * subscription, so nothing is lost or doubled; a client dropped for overflowing its queue is
 * disconnected and resumes with `Last-Event-ID`. Heartbeat comments keep idle streams open.
 *
 * @param c the request context
 * @param feeds the runtime's feeds
 * @param session the live session
 * @param options heartbeat and retry intervals
 * @returns the SSE response
 */
export function streamSession(
  c: Context,
  feeds: Feeds,
  session: Session,
  options: StreamOptions = {},
): Response {
  const after = resumeCursor(c);
  return pumpClient(c, () => feeds.attach(session, after), () => session.closed, options);
}

const encoder = new TextEncoder();
let lastText = "";
let lastBytes = new Uint8Array();

/**
 * The UTF-8 bytes of a frame, encoded once however many streams it goes to: a fan-out writes
 * the same string to every client in a row, so the last one encoded is kept.
 */
function bytesOf(text: string): Uint8Array {
  if (text !== lastText) {
    lastBytes = encoder.encode(text);
    lastText = text;
  }
  return lastBytes;
}

/** Streams with frames to hand over at the end of this event-loop turn. */
const due = new Set<() => void>();

/**
 * Runs `hand` once this event-loop turn's callbacks are done (one `setImmediate` for every
 * stream of the turn, not one each): the frames a turn writes to a stream leave as one chunk.
 * Nothing is lost by waiting: the sockets are written only once the turn is over anyway.
 */
function atTurnEnd(hand: () => void): void {
  if (due.size === 0) {
    setImmediate(() => {
      const list = [...due];
      due.clear();
      for (const f of list) f();
    });
  }
  due.add(hand);
}

/** The chunks as one (`total` bytes in all). */
function concat(chunks: readonly Uint8Array[], total: number): Uint8Array {
  const out = new Uint8Array(total);
  let at = 0;
  for (const chunk of chunks) {
    out.set(chunk, at);
    at += chunk.byteLength;
  }
  return out;
}

/**
 * Pumps one {@linkcode FeedClient} into a `text/event-stream` response until the client closes,
 * the request aborts or `ended()` says so, with `retry:` first and a heartbeat comment in each
 * `heartbeatMs` with nothing else written.
 *
 * The queue and the connect-time backlog are taken and written as the stream drains; once
 * both are empty, live frames go straight from the fan-out into the response
 * ({@linkcode FeedClient.setSink}): each frame is encoded once for all clients and written
 * with no per-client promise, timer or wake-up. A frame written while the response's reader
 * waits is handed to it at once; frames written while it is busy (the socket write of the
 * last chunk) are held and leave together at its next read, so a burst costs one chunk per
 * client, not one per frame. What is held is at most the client's `maxBytes` (`FeedLimits`);
 * a client over it is dropped and resumes with `Last-Event-ID`.
 *
 * @param c the request context
 * @param attach attaches the client (called once, before the response is returned)
 * @param ended `true` once the stream's source is gone (e.g. a released session)
 * @param options heartbeat and retry intervals
 * @returns the SSE response
 */
export function pumpClient(
  c: Context,
  attach: () => FeedClient,
  ended: () => boolean,
  options: StreamOptions = {},
): Response {
  const heartbeatMs = options.heartbeatMs ?? 15_000;
  const retryMs = options.retryMs ?? 1000;
  const feed = attach();
  const maxBytes = feed.maxBytes;
  let cancelled = false;
  let wrote = false;
  /** Bytes written while no read was waiting, sent as one chunk at the next pull. */
  let held: Uint8Array[] = [];
  let heldBytes = 0;
  /** The consumer is waiting for a chunk (`pull` found nothing held). */
  let reading = false;
  /** Resolved when the consumer pulls (everything held was handed over). */
  let drained: PromiseWithResolvers<void> | undefined;
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  const send = (chunk: Uint8Array): void => {
    try {
      controller.enqueue(chunk);
    } catch {
      cancelled = true; // the response is gone
    }
  };
  /** Hands what is held to a waiting reader as one chunk. */
  const hand = (): void => {
    if (!reading || held.length === 0 || cancelled) return;
    reading = false;
    const chunk = held.length === 1 ? held[0]! : concat(held, heldBytes);
    held = [];
    heldBytes = 0;
    send(chunk);
  };
  const write = (text: string): boolean => {
    if (cancelled) return false;
    const bytes = bytesOf(text);
    held.push(bytes);
    heldBytes += bytes.byteLength;
    if (reading && held.length === 1) atTurnEnd(hand);
    wrote = true;
    return heldBytes <= maxBytes;
  };
  /** Waits for the next pull. */
  const pulled = (): Promise<void> => {
    drained = Promise.withResolvers();
    return drained.promise;
  };
  // A high-water mark of 0: the stream asks (`pull`) only when its reader waits, so frames
  // written meanwhile (one turn's events, a view and its `flushed`) leave as one chunk: one
  // socket write per client instead of one per frame, however many frames a tick makes.
  const body = new ReadableStream<Uint8Array>({
    start(c) {
      controller = c;
      write(`retry: ${retryMs}\n\n`);
      void (async () => {
        try {
          while (!feed.closed && !cancelled && !ended()) {
            // What is queued (and the backlog) is written as the stream drains.
            while (feed.pending && !feed.closed && !cancelled) {
              if (heldBytes >= maxBytes) {
                await pulled();
                continue;
              }
              for (const frame of await feed.take(0)) write(frame);
            }
            if (feed.closed || cancelled) break;
            feed.setSink(write);
            wrote = false;
            const frames = await feed.take(heartbeatMs); // only a last frame, a close or the time
            feed.setSink(undefined);
            if (cancelled || (feed.closed && frames.length === 0)) break;
            for (const frame of frames) write(frame);
            if (frames.length === 0 && !wrote) write(HEARTBEAT_FRAME);
          }
        } finally {
          feed.close();
          if (!cancelled) {
            // A last frame still held gets one heartbeat's time to drain; a stalled socket
            // then has its response errored, not kept open waiting for writes.
            const deadline = Date.now() + heartbeatMs;
            while (held.length > 0 && !cancelled && Date.now() < deadline) {
              const timer = setTimeout(() => drained?.resolve(), deadline - Date.now());
              await pulled();
              clearTimeout(timer);
            }
            if (cancelled) {
              // The response is gone already.
            } else if (held.length > 0) controller.error(new Error("stalled"));
            else controller.close();
          }
        }
      })();
    },
    pull() {
      reading = true;
      hand();
      drained?.resolve();
    },
    cancel() {
      cancelled = true;
      held = [];
      heldBytes = 0;
      feed.close();
      drained?.resolve();
    },
  }, { highWaterMark: 0 });
  c.header("Content-Type", "text/event-stream");
  c.header("Cache-Control", "no-cache");
  c.header("X-Accel-Buffering", "no");
  return c.body(body);
}
