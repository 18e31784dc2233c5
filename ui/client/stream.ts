/**
 * The SSE subscription of one session window: `EventSource` with `Last-Event-ID` resume; a
 * reopened stream bumps the window generation and repairs (seed "Commit-aware Web 回执").
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

/**
 * Subscribes a window to its session stream.
 *
 * @param id the session id
 * @param win the window to feed
 * @param options `onReopen`: awaited before the window repairs after a reconnect (the page
 *   resumes the session there: a restarted host holds it cold until someone resumes it)
 * @returns a disposable that closes the stream
 */
export function connectStream(
  id: string,
  win: SessionWindow,
  options: { readonly onReopen?: () => Promise<void> } = {},
): Disposable {
  let es: EventSource | undefined;
  let opened = false;
  let retry: ReturnType<typeof setTimeout> | undefined;
  let delay = 500;
  let closed = false;
  const open = () => {
    const tail = win.tail.peek();
    const query = opened && tail >= 0 ? `?after=${tail}` : "";
    es = new EventSource(`/api/sessions/${encodeURIComponent(id)}/stream${query}`);
    es.addEventListener("open", () => {
      if (opened) {
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
    es.addEventListener("flushed", (e) => {
      win.flushed((JSON.parse((e as MessageEvent<string>).data) as FlushedMessage).throughSeq);
    });
    es.addEventListener("error", () => {
      connection.value = navigator.onLine ? "reconnecting" : "offline";
      if (es?.readyState === EventSource.CLOSED && !closed) {
        retry = setTimeout(open, delay);
        delay = Math.min(delay * 2, 10_000);
      }
    });
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
