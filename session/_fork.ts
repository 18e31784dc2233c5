/**
 * Private: the header and `session/end-seed` event of a fork
 * (docs/design.md#persistence-checkpoint, docs/flows.md#fork).
 *
 * @module
 */
import { SessionError } from "./errors.ts";
import type { SessionEvent } from "./event.ts";
import { normalizeHeader, type SessionHeader } from "./header.ts";

/**
 * The child header (lineage, `seedLength`, the parent's zone and delegation depth) and its
 * `session/end-seed { seedLength }` event at `throughSeq + 1`.
 *
 * @param parent the parent header
 * @param id the child id
 * @param throughSeq last parent seq copied, inclusive
 * @param now the wall clock, epoch ms
 */
export function forkSeed(
  parent: SessionHeader,
  id: string,
  throughSeq: number,
  now: number,
): { header: SessionHeader; endSeed: SessionEvent } {
  const seedLength = throughSeq + 2;
  const at = new Date(now).toISOString();
  const header = normalizeHeader({
    version: 1,
    id,
    cwd: parent.cwd,
    createdAt: at,
    origin: "fork",
    lineage: { parentId: parent.id, forkedThroughSeq: throughSeq },
    delegationDepth: parent.delegationDepth ?? 0,
    seedLength,
    ...(parent.timeZone === undefined ? {} : { timeZone: parent.timeZone }),
  });
  const endSeed = { seq: throughSeq + 1, type: "session/end-seed", at, data: { seedLength } };
  return { header, endSeed };
}

/**
 * Checks a fork point against the stored parent (every backend's `fork`).
 *
 * @param parentId the parent id
 * @param parentLength the parent's stored length, `undefined` when it is not stored
 * @param throughSeq last parent seq to copy, inclusive (`-1`: none)
 * @throws {SessionError} `session_not_found`, `invalid_seq`
 */
export function checkForkPoint(
  parentId: string,
  parentLength: number | undefined,
  throughSeq: number,
): void {
  if (parentLength === undefined) {
    throw new SessionError("session_not_found", `Cannot fork: no stored session ${parentId}`);
  }
  if (!Number.isSafeInteger(throughSeq) || throughSeq < -1 || throughSeq >= parentLength) {
    throw new SessionError(
      "invalid_seq",
      `Cannot fork: ${parentId} stores ${parentLength} events, not seq ${throughSeq}`,
    );
  }
}
