/**
 * Looks a message up in a session's stored log without activating the session (private).
 *
 * @module
 */
import type { SessionStore, UserRpcData } from "@chime/session";

/** Events per stored page scanned. */
const PAGE = 500;

/**
 * Whether a stored session holds a `user-rpc` with `messageId`, scanning newest first (a retry
 * or an edit names a recent message).
 *
 * @param store the store
 * @param id the session id
 * @param messageId the message id
 * @returns `true` or `false`, or `undefined` when the session is not stored
 */
export async function storedMessageExists(
  store: SessionStore,
  id: string,
  messageId: string,
): Promise<boolean | undefined> {
  const cursor = await store.backend.cursor(id);
  if (cursor === undefined) return undefined;
  for (let before = cursor.length; before > 0;) {
    const page = await store.readStored(id, { before, limit: PAGE });
    if (page.length === 0) return false;
    if (
      page.some((e) => e.type === "user-rpc" && (e.data as UserRpcData).messageId === messageId)
    ) return true;
    before = page[0]!.seq;
  }
  return false;
}
