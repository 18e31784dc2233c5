/**
 * Private: `SessionStore.fork` once the parent and fork point are checked and the child id is
 * locked: the child is stored before it goes live, its parent's prefix copied inside storage.
 *
 * @module
 */
import type { PersistenceBackend, StoredCursor } from "./backend.ts";
import { SessionError } from "./errors.ts";
import type { SessionEvent } from "./event.ts";
import { headersIdentical, type SessionHeader } from "./header.ts";
import type { PersistenceController } from "./coordinator.ts";
import type { Session } from "./session.ts";
import { forkSeed } from "./_fork.ts";
import { readRange } from "./_store_read.ts";

/** What the fork needs of its store. */
export interface ForkContext {
  readonly backend: PersistenceBackend;
  readonly persist: boolean;
  /** Events a live session keeps in memory (the child's loaded tail). */
  readonly tail: number;
  readonly now: () => number;
  /** `SessionStore.read` of a live session. */
  readonly read: (session: Session, from: number, to: number) => Promise<SessionEvent[]>;
  /** The persistence controller of a live session. */
  readonly controller: (session: Session) => PersistenceController | undefined;
  /** Makes the child live (see `SessionStore`'s go-live step). */
  readonly goLive: (
    header: SessionHeader,
    events: readonly SessionEvent[],
    seedEnd: number,
    durableLength: number,
  ) => Session;
}

/**
 * Stores and opens the child `id` of `source` through `through` (inclusive).
 *
 * @param source the live parent, or the stored cursor of a cold one
 * @param live the live parent, when it is live
 * @throws {SessionError} `session_exists`, `persistence_failed`
 */
export async function forkChild(
  ctx: ForkContext,
  source: Session | StoredCursor,
  live: Session | undefined,
  id: string,
  through: number,
): Promise<Session> {
  if ((await ctx.backend.cursor(id)) !== undefined) {
    throw new SessionError("session_exists", `Cannot fork: ${id} exists`);
  }
  const ph = source.header;
  const { header, endSeed } = forkSeed(ph, id, through, ctx.now());
  const seedLength = through + 2;
  if (!ctx.persist) {
    const prefix = live === undefined
      ? await readRange(ctx.backend, ph.id, 0, through + 1)
      : await ctx.read(live, 0, through + 1);
    return ctx.goLive(header, [...prefix, endSeed], seedLength, 0);
  }
  // The parent's header and prefix must be stored before storage can copy them.
  await (live && ctx.controller(live))?.flush(through + 1);
  try {
    await ctx.backend.fork(header, ph.id, through, [endSeed]);
  } catch (error) {
    // A failure after commit left the child stored: it is the fork asked for.
    const child = await ctx.backend.cursor(id).catch(() => undefined);
    if (child === undefined || !headersIdentical(child.header, header)) {
      throw error instanceof SessionError ? error : new SessionError(
        "persistence_failed",
        `Cannot fork: storing ${id} failed`,
        { cause: error },
      );
    }
  }
  const stored = await ctx.backend.tail(id, ctx.tail);
  if (stored === undefined) {
    throw new SessionError("persistence_failed", `Cannot fork: ${id} vanished from storage`);
  }
  return ctx.goLive(header, stored.events, stored.length, stored.length);
}
