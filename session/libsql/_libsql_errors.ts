/**
 * Private: the one place libSQL's damage errors become `storage_corrupt` (README.md "How it behaves on failure").
 * SQLite reports a damaged page as `SQLITE_CORRUPT` ("database disk image is malformed") and a
 * file that is not a database as `SQLITE_NOTADB`; both mean the bytes stored for that session
 * cannot be read, never an internal error. Used by every read and by the commit target.
 *
 * @module
 */
import { SessionError } from "../errors.ts";

const DAMAGE_CODES = /^SQLITE_(CORRUPT|NOTADB)/;
const DAMAGE_TEXT = /database disk image is malformed|file is not a database/i;

/**
 * Whether a libSQL client error says the database's pages are damaged.
 *
 * @param error what the client threw
 */
export function isDamage(error: unknown): boolean {
  const e = error as { code?: unknown; extendedCode?: unknown; message?: unknown } | null;
  const code = typeof e?.code === "string" ? e.code : "";
  const extended = typeof e?.extendedCode === "string" ? e.extendedCode : "";
  return DAMAGE_CODES.test(code) || DAMAGE_CODES.test(extended) ||
    (error instanceof Error && DAMAGE_TEXT.test(error.message));
}

/**
 * `storage_corrupt` for a damage error of libSQL, anything else unchanged.
 *
 * @param error what the client threw
 * @param sessionId the session the statement read or wrote, when one
 * @returns a `SessionError` `storage_corrupt` (`details.sessionId`, `what: "page"`), or `error`
 */
export function libsqlFailure(error: unknown, sessionId?: string): unknown {
  if (!isDamage(error)) return error;
  const whose = sessionId === undefined ? "the database" : `session ${sessionId}`;
  return new SessionError(
    "storage_corrupt",
    `Cannot read ${whose}: a stored database page is damaged (${(error as Error).message})`,
    {
      cause: error,
      details: { ...(sessionId === undefined ? {} : { sessionId }), what: "page" },
    },
  );
}

/**
 * Runs a libSQL call, its damage errors as `storage_corrupt`.
 *
 * @param sessionId the session it is about, when one
 * @param call the call
 * @returns what `call` returns
 * @throws {SessionError} `storage_corrupt` for a damaged page; any other error as thrown
 */
export async function guarded<T>(
  sessionId: string | undefined,
  call: () => Promise<T>,
): Promise<T> {
  try {
    return await call();
  } catch (error) {
    throw libsqlFailure(error, sessionId);
  }
}
