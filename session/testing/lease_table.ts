/**
 * The `session_leases` table of schema v15 (docs/long-sessions.md "Schema v15"), for tests of
 * the lease code before the v15 upgrade creates it in every database.
 *
 * @module
 */

/** The contract's DDL of `session_leases`, verbatim. */
export const SESSION_LEASES_DDL = `CREATE TABLE session_leases (
  session_id TEXT PRIMARY KEY NOT NULL,
  holder TEXT NOT NULL,
  holder_url TEXT NOT NULL,
  token INTEGER NOT NULL CHECK (token > 0),
  expires_at INTEGER NOT NULL
) WITHOUT ROWID, STRICT`;

/**
 * Creates `session_leases` in a test database.
 *
 * @param client a libSQL client
 * @returns once the table exists
 *
 * @example Create the table in memory
 * ```ts
 * import { createClient } from "@libsql/client";
 * import { createLeaseTable } from "@chime/session/testing";
 * const client = createClient({ url: ":memory:" });
 * await createLeaseTable(client);
 * client.close();
 * ```
 */
export async function createLeaseTable(
  client: { execute(sql: string): Promise<unknown> },
): Promise<void> {
  await client.execute(SESSION_LEASES_DDL);
}
