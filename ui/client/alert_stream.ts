/**
 * The page alert stream (`GET /api/alerts?sessions=…`, README "The page"): one `EventSource`
 * per page for every session the browser watches; the browser reconnects it by itself.
 *
 * @module
 */
import type { AcknowledgedMessage, AlertMessage, DeletedMessage } from "@chime/contract";
import type { AlertHandlers } from "./page_deps.ts";
import type { StreamSource } from "./stream.ts";

/**
 * Opens the stream for some sessions.
 *
 * @param ids the watched session ids
 * @param handlers what to do with an alert, an acknowledgement and a deleted session
 * @param open opens a stream URL @default `new EventSource(url)`
 * @returns a disposable that closes it
 */
export function watchAlerts(
  ids: readonly string[],
  handlers: AlertHandlers,
  open: (url: string) => StreamSource = (url) => new EventSource(url),
): Disposable {
  const es = open(`/api/alerts?sessions=${ids.map(encodeURIComponent).join(",")}`);
  const parse = (e: Event) => JSON.parse((e as MessageEvent<string>).data);
  es.addEventListener("alert", (e) => handlers.alert(parse(e) as AlertMessage));
  es.addEventListener("acknowledged", (e) => {
    handlers.acknowledged(parse(e) as AcknowledgedMessage);
  });
  // The host sends nothing more of a deleted session (and ends a stream left with none).
  es.addEventListener("deleted", (e) => handlers.deleted?.(parse(e) as DeletedMessage));
  return { [Symbol.dispose]: () => es.close() };
}
