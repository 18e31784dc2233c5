/**
 * `GET /api/sessions/:id/stream`: pumps a {@linkcode FeedClient} into a `streamSSE` response
 * (docs/architecture.md#sse).
 *
 * @module
 */
import type { Context } from "hono";
import { streamSSE } from "hono/streaming";
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

/**
 * Pumps one {@linkcode FeedClient} into a `streamSSE` response until the client closes, the
 * request aborts or `ended()` says so, with `retry:` first and heartbeat comments while idle.
 *
 * @param c the request context
 * @param attach attaches the client (called once the response starts)
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
  c.header("X-Accel-Buffering", "no");
  return streamSSE(c, async (stream) => {
    const client = attach();
    stream.onAbort(() => client.close());
    try {
      await stream.write(`retry: ${retryMs}\n\n`);
      while (!client.closed && !stream.aborted && !ended()) {
        const frames = await client.take(heartbeatMs);
        // A client ended with a last frame (`session-lost`) is closed once it returned it.
        if (stream.aborted || (client.closed && frames.length === 0)) break;
        await stream.write(frames.length > 0 ? frames.join("") : HEARTBEAT_FRAME);
      }
    } finally {
      client.close();
      // Abort rather than close: a stalled socket must not keep the response (or shutdown)
      // waiting for writes that will never drain.
      if (!stream.aborted) stream.abort();
    }
  });
}
