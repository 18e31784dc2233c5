/**
 * The immutable {@linkcode SessionHeader} and its semantic identity (docs/events.md#sessionheader).
 *
 * @module
 */

/** Where a fork came from: the parent id and the last parent seq it copied (inclusive). */
export interface SessionLineage {
  /** The parent session id. */
  readonly parentId: string;
  /** The last parent `seq` copied into the child's seed, inclusive; `-1` for an empty seed. */
  readonly forkedThroughSeq: number;
}

/**
 * The first, immutable record of a session.
 *
 * - `timeZone` is the session default zone (IANA, case-normalized,
 *   docs/design.md#zone-host-boundary): set once at create, copied on fork, never backfilled;
 *   absent means "unavailable".
 * - `seedLength` is set on forks: events `[0, seedLength)` are the inherited prefix
 *   (including the closing `session/end-seed`); the child folds only from `seedLength`.
 * - `delegationDepth` is `0` for root sessions; a missing value is read as `0`.
 */
export interface SessionHeader {
  /** Header format version; always `1`. */
  readonly version: 1;
  /** Session id: `[A-Za-z0-9_-]{1,64}`. */
  readonly id: string;
  /** The working directory the session was created for. */
  readonly cwd: string;
  /** Creation instant, UTC RFC 3339 with milliseconds. */
  readonly createdAt: string;
  /** Who created it, e.g. `web`, `fork`, `test`. */
  readonly origin: string;
  /** Fork parentage or `null` for an original session. */
  readonly lineage: SessionLineage | null;
  /** `0` for root agents; child (delegated) agents have `> 0`. */
  readonly delegationDepth: number;
  /** The immutable session default zone, if the session was created with one. */
  readonly timeZone?: string;
  /** Length of the inherited prefix for forks. */
  readonly seedLength?: number;
}

const SESSION_ID = /^[A-Za-z0-9_-]{1,64}$/;

/**
 * Tells whether a string is a valid session id (`[A-Za-z0-9_-]{1,64}`); the rule keeps ids
 * safe as file names and URL segments.
 *
 * @param id any value
 * @returns `true` for a valid id
 */
export function isSessionId(id: unknown): id is string {
  return typeof id === "string" && SESSION_ID.test(id);
}

/**
 * Returns the header with `delegationDepth` made explicit (missing ⇒ `0`) and no `undefined`
 * optional fields, the canonical form persistence writes (docs/design.md#attached-history).
 *
 * @param header a header as read from storage or built in memory
 * @returns the canonical header
 */
export function normalizeHeader(
  header: Omit<SessionHeader, "delegationDepth"> & { delegationDepth?: number },
): SessionHeader {
  const out: {
    -readonly [K in keyof SessionHeader]: SessionHeader[K];
  } = {
    // Kept as stored, never forced: a forged or future version must fail the identity check.
    version: header.version,
    id: header.id,
    cwd: header.cwd,
    createdAt: header.createdAt,
    origin: header.origin,
    lineage: header.lineage === null
      ? null
      : { parentId: header.lineage.parentId, forkedThroughSeq: header.lineage.forkedThroughSeq },
    delegationDepth: header.delegationDepth ?? 0,
  };
  if (header.timeZone !== undefined) out.timeZone = header.timeZone;
  if (header.seedLength !== undefined) out.seedLength = header.seedLength;
  return out;
}

/**
 * Semantic header identity: equal after {@linkcode normalizeHeader}, so a missing
 * `delegationDepth` equals `0`; every other field (cwd, lineage, origin, timestamps, version,
 * id, zone, seed length) must match exactly.
 *
 * @param a a header
 * @param b another header
 * @returns `true` when both identify the same session lifetime
 */
export function headersIdentical(a: SessionHeader, b: SessionHeader): boolean {
  return JSON.stringify(normalizeHeader(a)) === JSON.stringify(normalizeHeader(b));
}
