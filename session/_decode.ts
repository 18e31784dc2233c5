/**
 * Private: decoding stored bytes into headers and events without trusting them. Storage can be
 * damaged by bit rot, a restored backup or another tool; a damaged row must become a coded
 * `storage_corrupt` error for its own session, never a crash of the host or a wrong value.
 *
 * @module
 */
import { SessionError } from "./errors.ts";
import type { SessionEvent } from "./event.ts";
import { isSessionId, normalizeHeader, type SessionHeader } from "./header.ts";

const UTF8 = new TextDecoder("utf-8", { fatal: true });

/** Where damage was found: the session, and the event seq (absent for the header). */
export interface DamageSite {
  /** The session id (as far as it could be read). */
  readonly sessionId: string;
  /** The event seq; absent when the header is damaged. */
  readonly seq?: number;
}

/**
 * The `storage_corrupt` error for one damaged header or event.
 *
 * @param site session id and seq
 * @param what what is wrong, e.g. `data is not valid UTF-8`
 * @param cause the underlying error, if any
 */
export function corrupt(site: DamageSite, what: string, cause?: unknown): SessionError {
  const where = site.seq === undefined ? "header" : `event ${site.seq}`;
  return new SessionError(
    "storage_corrupt",
    `Cannot read session ${site.sessionId}: stored ${where} is damaged (${what})`,
    {
      ...(cause === undefined ? {} : { cause }),
      details: {
        sessionId: site.sessionId,
        ...(site.seq === undefined ? {} : { seq: site.seq }),
        what,
      },
    },
  );
}

/**
 * Decodes stored text strictly (an invalid UTF-8 byte is damage, never U+FFFD).
 *
 * @param value a BLOB column (`ArrayBuffer`), a JSONL line's bytes, or already decoded text
 * @param site where it was read, for the error
 * @param field the column name, for the error
 * @throws {SessionError} `storage_corrupt`
 */
export function decodeText(value: unknown, site: DamageSite, field: string): string {
  // PostgreSQL's `text` arrives decoded: the server only ever stores valid UTF-8.
  if (typeof value === "string") return value;
  if (value instanceof ArrayBuffer || value instanceof Uint8Array) {
    try {
      return UTF8.decode(value);
    } catch (cause) {
      throw corrupt(site, `${field} is not valid UTF-8`, cause);
    }
  }
  throw corrupt(site, `${field} is not text`);
}

/** Like {@linkcode decodeText}, with SQL `NULL` (or a missing key) passed through. */
export function decodeNullableText(
  value: unknown,
  site: DamageSite,
  field: string,
): string | undefined {
  return value === null || value === undefined ? undefined : decodeText(value, site, field);
}

/**
 * Parses JSON text, mapping a syntax error to `storage_corrupt`.
 *
 * @throws {SessionError} `storage_corrupt`
 */
export function parseJson(text: string, site: DamageSite, field: string): unknown {
  try {
    return JSON.parse(text);
  } catch (cause) {
    throw corrupt(site, `${field} is not JSON`, cause);
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

function isCount(value: unknown): value is number {
  return typeof value === "number" && Number.isSafeInteger(value) && value >= 0;
}

/**
 * Checks a parsed event envelope: integer `seq` equal to `expected`, string `type` and `at`,
 * and a `data` key.
 *
 * @param value the parsed value
 * @param sessionId the session it belongs to
 * @param expected the seq this position must hold (dense from 0)
 * @throws {SessionError} `storage_corrupt` (a different seq is reported as a gap at `expected`)
 */
export function checkEvent(value: unknown, sessionId: string, expected: number): SessionEvent {
  const site = { sessionId, seq: expected };
  if (!isRecord(value)) throw corrupt(site, "the event is not an object");
  if (value.seq !== expected) {
    throw corrupt(site, isCount(value.seq) ? `missing (found seq ${value.seq})` : "seq is invalid");
  }
  if (typeof value.type !== "string" || typeof value.at !== "string" || !("data" in value)) {
    throw corrupt(site, "the event envelope is invalid");
  }
  return value as unknown as SessionEvent;
}

/**
 * Checks a parsed header and returns its canonical form.
 *
 * @param value the parsed value
 * @param sessionId the id the header is stored under
 * @throws {SessionError} `storage_corrupt`
 */
export function checkHeader(value: unknown, sessionId: string): SessionHeader {
  const site = { sessionId };
  if (!isRecord(value)) throw corrupt(site, "the header is not an object");
  const lineage = value.lineage;
  const ok = value.id === sessionId && isSessionId(value.id) &&
    typeof value.cwd === "string" && typeof value.createdAt === "string" &&
    typeof value.origin === "string" &&
    (value.delegationDepth === undefined || isCount(value.delegationDepth)) &&
    (value.timeZone === undefined || isKnownZone(value.timeZone)) &&
    (value.seedLength === undefined || isCount(value.seedLength)) &&
    (lineage === null ||
      (isRecord(lineage) && typeof lineage.parentId === "string" &&
        Number.isSafeInteger(lineage.forkedThroughSeq)));
  if (!ok) throw corrupt(site, "the header fields are invalid");
  return normalizeHeader(value as unknown as SessionHeader);
}

const ZONES = new Set<string>();

/**
 * Whether a stored time zone is one this runtime knows (the host stores only zones it
 * validated, so an unknown name is a damaged header: `Europe/Berlin` read as `EuroTe/Berlin`).
 */
function isKnownZone(value: unknown): boolean {
  if (typeof value !== "string") return false;
  if (ZONES.has(value)) return true;
  try {
    new Intl.DateTimeFormat("en", { timeZone: value });
  } catch {
    return false;
  }
  ZONES.add(value);
  return true;
}

/** One damage found in storage (the doctor's report entry). */
export interface StorageDamage {
  /** The session it belongs to; absent for damage of the database as a whole. */
  readonly sessionId?: string;
  /** The event seq; absent for a damaged header (or the database). */
  readonly seq?: number;
  /** What is wrong, e.g. `data is not valid UTF-8`, `missing`. */
  readonly what: string;
}

/**
 * Turns a `storage_corrupt` error into a damage entry.
 *
 * @throws the error itself when it is anything else
 */
export function damageOf(error: unknown): StorageDamage {
  if (!(error instanceof SessionError) || error.code !== "storage_corrupt") throw error;
  const { sessionId, seq, what } = error.details as unknown as DamageSite & { what: string };
  return { sessionId, ...(seq === undefined ? {} : { seq }), what };
}
