/**
 * The current version of a message: what a retry of a message replaced by an edit runs
 * (README "HTTP API"). An edit (`user-rpc.edits`) replaces its original, so the current version
 * of any member of an edit family (the original and every edit reaching it through `edits`) is
 * the family's newest message (private).
 *
 * @module
 */
import type { Session, SessionStore, UserRpcData } from "@chime/session";

/** Seqs read per `user-rpc` query, newest window first. */
const WINDOW = 4096;

/** Follows `edits` links from `id` to the oldest known message of its family. */
function rootOf(edits: ReadonlyMap<string, string | undefined>, id: string): string {
  const seen = new Set<string>([id]);
  for (let parent = edits.get(id); parent !== undefined && edits.has(parent);) {
    if (seen.has(parent)) break; // a forged cycle: stop where it closes
    seen.add(parent);
    id = parent;
    parent = edits.get(id);
  }
  return id;
}

/**
 * The newest message of `messageId`'s edit family in a live session (memory tail and storage):
 * `messageId` itself unless a later edit replaced it. The log is read newest first, in windows of
 * `user-rpc` events, only until the family's first message is found.
 *
 * @param store the store (reads `user-rpc` events by type)
 * @param session the live session
 * @param messageId the message a retry names
 * @returns the id to run: the family's newest message, or `messageId` when it has no later
 *   version or is not in the log (the agent then answers `message_not_found`)
 * @throws {SessionError} `storage_corrupt` for a damaged stored row
 */
export async function currentVersion(
  store: SessionStore,
  session: Session,
  messageId: string,
): Promise<string> {
  const edits = new Map<string, string | undefined>();
  const newestFirst: string[] = [];
  for (let to = session.length; to > 0; to -= WINDOW) {
    const from = Math.max(0, to - WINDOW);
    const events = await store.readByType(session, ["user-rpc"], { from, to });
    for (const event of events.reverse()) {
      const data = event.data as UserRpcData;
      if (edits.has(data.messageId)) continue;
      edits.set(data.messageId, data.edits);
      newestFirst.push(data.messageId);
    }
    // Done once the chain from messageId reaches a message that edits nothing.
    if (edits.has(messageId) && edits.get(rootOf(edits, messageId)) === undefined) break;
  }
  if (!edits.has(messageId)) return messageId;
  const root = rootOf(edits, messageId);
  return newestFirst.find((id) => rootOf(edits, id) === root) ?? messageId;
}
