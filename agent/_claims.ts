/**
 * The messages each running turn claimed, by session (private to `@chime/agent`). A retried
 * message's `user-rpc` may be older than the session's live tail (docs/long-sessions.md); the
 * running turn holds the event itself, so `turnMessages()` finds it without reading storage.
 *
 * @module
 */
import type { SessionEvent, UserRpcData } from "@chime/session";

/** A claimed message. */
export type ClaimedMessage = SessionEvent<"user-rpc", UserRpcData>;

const running = new WeakMap<object, { turnId: string; messages: Map<string, ClaimedMessage> }>();

/** Records that `turnId`, running on `session`, claimed `messages`. */
export function noteClaims(
  session: object,
  turnId: string,
  messages: readonly ClaimedMessage[],
): void {
  let entry = running.get(session);
  if (entry?.turnId !== turnId) {
    entry = { turnId, messages: new Map() };
    running.set(session, entry);
  }
  for (const m of messages) entry.messages.set(m.data.messageId, m);
}

/** Forgets the claims of `turnId` (its turn ended). */
export function forgetClaims(session: object, turnId: string): void {
  if (running.get(session)?.turnId === turnId) running.delete(session);
}

/** The claimed message `messageId` of the running `turnId`, if recorded. */
export function claimedMessage(
  session: object,
  turnId: string,
  messageId: string,
): ClaimedMessage | undefined {
  const entry = running.get(session);
  return entry?.turnId === turnId ? entry.messages.get(messageId) : undefined;
}
