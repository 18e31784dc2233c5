/**
 * The SSE subscription of one session window (docs/design.md#browser-session-window,
 * docs/architecture.md#sse). The stream opens with `?after=<tail>` once history is loaded, so the
 * host sends only what the window lacks; a reopened stream bumps the window generation and repairs.
 *
 * Merging keys on the `seq` inside each message's data, never on the SSE `id:`: the host gives
 * a late view re-send and a `flushed` notice the highest raw seq already sent as their `id`
 * (the resume cursor), not the seq they are about.
 *
 * @module
 */
import { signal } from "@preact/signals";
import type { SessionWindow } from "../window.ts";
import type { FlushedMessage, StreamMessage } from "../wire.ts";

/** Connection state shown to the person. */
export type Connection = "connecting" | "live" | "reconnecting" | "offline";

/** The current connection state of the open session. */
export const connection = signal<Connection>("connecting");

/** The slice of `EventSource` the subscription uses. */
export interface StreamSource {
  /** `EventSource.CLOSED` (2) once the browser gave up on it. */
  readonly readyState: number;
  /** Adds a listener for `open`, `error` or a named SSE event. */
  addEventListener(type: string, listener: (event: Event) => void): void;
  /** Closes it. */
  close(): void;
}

/** Options of {@linkcode connectStream}. */
export interface StreamOptions {
  /**
   * Awaited before the window repairs after a reconnect (the page resumes the session there: a
   * restarted host holds it cold until someone resumes it).
   */
  readonly onReopen?: () => Promise<void>;
  /**
   * Another host took the session (`event: session-lost`, docs/deploy.md): the stream is closed
   * for good and this gets the owner's base URL.
   */
  readonly onLost?: (url: string) => void;
  /**
   * A person deleted the session (`event: session-deleted`, README.md "The page"): the stream
   * is closed for good (no reconnect) and this runs once.
   */
  readonly onDeleted?: () => void;
  /** Opens a stream URL. @default `new EventSource(url)` */
  readonly open?: (url: string) => StreamSource;
}

/** `EventSource.CLOSED`. */
const CLOSED = 2;

/**
 * Subscribes a window to its session stream. Call it after the window's tail load, so the
 * stream starts after the window's tail instead of replaying the whole log.
 *
 * @param id the session id
 * @param win the window to feed
 * @param options reopen hook and stream factory
 * @returns a disposable that closes the stream
 */
export function connectStream(
  id: string,
  win: SessionWindow,
  options: StreamOptions = {},
): Disposable {
  const create = options.open ?? ((url: string) => new EventSource(url));
  let es: StreamSource | undefined;
  let opened = false;
  let retry: ReturnType<typeof setTimeout> | undefined;
  let delay = 500;
  let closed = false;
  const open = () => {
    // A fresh EventSource sends no Last-Event-ID: the window's tail is the resume cursor.
    const tail = win.tail.peek();
    const query = tail >= 0 ? `?after=${tail}` : "";
    es = create(`/api/sessions/${encodeURIComponent(id)}/stream${query}`);
    es.addEventListener("open", () => {
      // A reopen, or a first open after a failed tail load: catch up (or load) in a new generation.
      if (opened || win.status.peek() === "error") {
        void (async () => {
          await options.onReopen?.();
          if (!closed) await win.reconnect();
        })();
      }
      opened = true;
      delay = 500;
      connection.value = "live";
    });
    es.addEventListener("session-event", (e) => {
      win.receive(JSON.parse((e as MessageEvent<string>).data) as StreamMessage);
    });
    es.addEventListener("session-lost", (e) => {
      closed = true;
      es?.close();
      options.onLost?.((JSON.parse((e as MessageEvent<string>).data) as { url: string }).url);
    });
    es.addEventListener("session-deleted", () => {
      closed = true;
      clearTimeout(retry);
      es?.close();
      options.onDeleted?.();
    });
    es.addEventListener("flushed", (e) => {
      win.flushed((JSON.parse((e as MessageEvent<string>).data) as FlushedMessage).throughSeq);
    });
    es.addEventListener("error", () => {
      connection.value = globalThis.navigator?.onLine === false ? "offline" : "reconnecting";
      if (es?.readyState === CLOSED && !closed) {
        retry = setTimeout(() => void reopen(), delay);
        delay = Math.min(delay * 2, 10_000);
      }
    });
  };
  // The browser gave up (e.g. `409 session_cold` from a restarted host): resume first, because
  // the stream never activates a cold session, then open again.
  const reopen = async () => {
    await options.onReopen?.();
    if (!closed) open();
  };
  connection.value = "connecting";
  open();
  const onOffline = () => (connection.value = "offline");
  globalThis.addEventListener("offline", onOffline);
  return {
    [Symbol.dispose]() {
      closed = true;
      clearTimeout(retry);
      es?.close();
      globalThis.removeEventListener("offline", onOffline);
    },
  };
}
