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

/**
 * Pumps one {@linkcode FeedClient} into a `text/event-stream` response until the client closes,
 * the request aborts or `ended()` says so, with `retry:` first and a heartbeat comment in each
 * `heartbeatMs` with nothing else written.
 *
 * The queue and the connect-time backlog are taken and written as the stream drains; once
 * both are empty, live frames go straight from the fan-out into the response's byte queue
 * ({@linkcode FeedClient.setSink}): each frame is encoded once for all clients and written
 * with no per-client promise, timer or wake-up. That queue holds at most the client's
 * `maxBytes` (`FeedLimits`); a client over it is dropped and resumes with `Last-Event-ID`.
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
  /** Resolved when the consumer pulls (the byte queue went below its bound). */
  let drained: PromiseWithResolvers<void> | undefined;
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      const write = (text: string): boolean => {
        if (cancelled) return false;
        try {
          controller.enqueue(bytesOf(text));
        } catch {
          return false; // the response is gone
        }
        wrote = true;
        return (controller.desiredSize ?? 0) >= 0;
      };
      write(`retry: ${retryMs}\n\n`);
      void (async () => {
        try {
          while (!feed.closed && !cancelled && !ended()) {
            // What is queued (and the backlog) is written as the stream drains.
            while (feed.pending && !feed.closed && !cancelled) {
              if ((controller.desiredSize ?? 0) <= 0) {
                drained = Promise.withResolvers();
                await drained.promise;
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
            // A last frame still queued gets one heartbeat's time to drain; a stalled socket
            // then has its response errored, not kept open waiting for writes.
            // Each pull of a reader that is still reading wakes this; only the time ends it.
            const deadline = Date.now() + heartbeatMs;
            while ((controller.desiredSize ?? 0) < maxBytes && Date.now() < deadline) {
              drained = Promise.withResolvers();
              const timer = setTimeout(() => drained?.resolve(), deadline - Date.now());
              await drained.promise;
              clearTimeout(timer);
            }
            if ((controller.desiredSize ?? 0) < maxBytes) controller.error(new Error("stalled"));
            else controller.close();
          }
        }
      })();
    },
    pull() {
      drained?.resolve();
    },
    cancel() {
      cancelled = true;
      feed.close();
      drained?.resolve();
    },
  }, { highWaterMark: maxBytes, size: (chunk) => chunk.byteLength });
  c.header("Content-Type", "text/event-stream");
  c.header("Cache-Control", "no-cache");
  c.header("X-Accel-Buffering", "no");
  return c.body(body);
}
