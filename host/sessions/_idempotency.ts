// Private: `Idempotency-Key` on `POST /api/sessions/:id/messages` (README "HTTP API"). The key is
// stored in the message's own `user-rpc` event (`idempotencyKey`), so the log stays the only
// record: a retry finds the original there (memory tail and stored events through the type
// index, the newest `IDEMPOTENCY_WINDOW` events of the session), and is answered with the
// original's result instead of a second message; the same key with other content is refused.
import type { SessionEvent, SessionStore, UserRpcData } from "@chime/session";
import type { Session } from "@chime/session";
import { HostError } from "../errors.ts";

/** How many of a session's newest events a retry's key is looked for in. */
export const IDEMPOTENCY_WINDOW = 2_000;

/** Visible ASCII, 1 to 128 characters (a UUID fits; RFC 9110 token-ish, no spaces). */
const KEY = /^[\x21-\x7e]{1,128}$/;

/**
 * The request's `Idempotency-Key`, checked.
 *
 * @throws {HostError} `invalid_request` (`field: "Idempotency-Key"`) for an empty, over-long or
 *   non-visible-ASCII key
 */
export function idempotencyKey(header: string | undefined): string | undefined {
  if (header === undefined) return undefined;
  if (!KEY.test(header)) {
    throw new HostError(
      "invalid_request",
      "Cannot accept request: Idempotency-Key must be 1 to 128 visible ASCII characters",
      { field: "Idempotency-Key" },
    );
  }
  return header;
}

/**
 * The message this key already sent, newest first within {@linkcode IDEMPOTENCY_WINDOW}.
 *
 * @returns the original `user-rpc`, or `undefined` for a new key
 * @throws {HostError} `idempotency_key_reused` (`409`) when the original's text or zone differ
 */
export async function priorMessage(
  store: SessionStore,
  session: Session,
  key: string,
  request: { readonly text: string; readonly clientTimeZone: string },
): Promise<SessionEvent<"user-rpc", UserRpcData> | undefined> {
  const to = session.length;
  const from = Math.max(session.header.seedLength ?? 0, to - IDEMPOTENCY_WINDOW);
  const events = await store.readByType(session, ["user-rpc"], { from, to });
  for (let i = events.length - 1; i >= 0; i--) {
    const event = events[i] as SessionEvent<"user-rpc", UserRpcData>;
    if (event.data.idempotencyKey !== key) continue;
    if (
      event.data.text !== request.text ||
      event.data.source.clientTimeZone !== request.clientTimeZone
    ) {
      throw new HostError(
        "idempotency_key_reused",
        "Cannot accept request: this Idempotency-Key already sent another message",
        { messageId: event.data.messageId },
      );
    }
    return event;
  }
  return undefined;
}
