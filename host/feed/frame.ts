/**
 * The one pure function that turns feed items into SSE bytes (docs/architecture.md#sse).
 *
 * @module
 */
import type { EventView } from "@chime/agent";
import type { SessionEvent } from "@chime/session";

/** A commit-aware presentation sent beside a durable event (declared by `@chime/agent`). */
export type { EventView };

/** One thing a stream client receives. */
export type FeedItem =
  | { readonly kind: "event"; readonly event: SessionEvent }
  | { readonly kind: "view"; readonly event: SessionEvent; readonly view: EventView }
  | { readonly kind: "flushed"; readonly throughSeq: number }
  // Another host took the session; the stream ends after this (docs/deploy.md).
  | { readonly kind: "session-lost"; readonly url: string }
  // A person deleted the session; the stream ends after this (README.md "The page").
  | { readonly kind: "session-deleted" };

/** A comment line that keeps proxies and idle timeouts from closing the stream. */
export const HEARTBEAT_FRAME = ": heartbeat\n\n";

/**
 * Encodes one SSE message. A raw event's `id` is its `seq`. A sidecar or `flushed` message
 * carries the stream's resume cursor (the highest raw `seq` sent before it) as its `id`, so the
 * browser's `Last-Event-ID` always means "every raw event through this seq was received" and a
 * reconnect never re-sends raw events. A negative cursor omits `id`. JSON never contains a raw
 * line break, so `data` is one line.
 *
 * @param item the event, sidecar view or flushed notice
 * @param cursor highest raw seq sent before this message on the stream, `-1` for none
 * @returns the message text, ending with a blank line
 *
 * @example A raw event
 * ```ts
 * import { sseFrame } from "@chime/host";
 * const event = { seq: 3, type: "note", at: "2030-01-01T00:00:00.000Z", data: {} };
 * console.assert(sseFrame({ kind: "event", event }, 3).startsWith("id: 3\nevent: session-event\n"));
 * ```
 */
export function sseFrame(item: FeedItem, cursor: number): string {
  const id = item.kind === "event" ? item.event.seq : cursor;
  const head = id >= 0 ? `id: ${id}\n` : "";
  switch (item.kind) {
    case "event":
      return `${head}event: session-event\ndata: ${JSON.stringify({ event: item.event })}\n\n`;
    case "view": {
      const data = JSON.stringify({ event: item.event, for: "event", view: item.view });
      return `${head}event: session-event\ndata: ${data}\n\n`;
    }
    case "flushed":
      return `${head}event: flushed\ndata: ${JSON.stringify({ throughSeq: item.throughSeq })}\n\n`;
    case "session-lost": {
      const data = JSON.stringify({ code: "session_owned_elsewhere", url: item.url });
      return `${head}event: session-lost\ndata: ${data}\n\n`;
    }
    case "session-deleted": {
      const data = JSON.stringify({ code: "session_not_found" });
      return `${head}event: session-deleted\ndata: ${data}\n\n`;
    }
  }
}
