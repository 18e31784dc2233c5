/**
 * Private open-time helpers of the libSQL backend: read the ownership marker, version and layout
 * before any write, then create or upgrade an accepted database.
 *
 * @module
 */
import type { Client } from "@libsql/client";
import { classifySchema, CREATE_V18, type SchemaEntry } from "@chime/migrations";
import { upgradeWithChecksums } from "./_libsql_upgrade.ts";
import { lossyText } from "./_libsql_sql.ts";
import { fileURLToPath } from "node:url";
import { schemaRejected } from "../_redact.ts";
import { readOnly, readOnlyError } from "../_writer_lock.ts";

/**
 * The file path of a local libSQL URL (`file:path`, `file:///abs`), or `undefined` for an
 * in-memory or remote database.
 */
export function databasePath(url: string): string | undefined {
  if (!url.startsWith("file:")) return undefined;
  const bare = url.split("?")[0]!;
  const path = bare.startsWith("file://") ? fileURLToPath(bare) : bare.slice(5);
  return path === "" || path === ":memory:" ? undefined : path;
}

type State = {
  readonly applicationId: number;
  readonly userVersion: number;
  entries: SchemaEntry[];
};

/** Reads the ownership marker, version and schema entries (no write). */
export async function readState(client: Client): Promise<State> {
  const [app, version, schema] = await client.batch([
    "PRAGMA application_id",
    "PRAGMA user_version",
    // As bytes: libsql aborts the process on a TEXT value that is not UTF-8 (a damaged schema
    // page); decoded with replacement characters, such text no longer matches our layout.
    "SELECT CAST(type AS BLOB) AS type, CAST(name AS BLOB) AS name, " +
    "CAST(tbl_name AS BLOB) AS tbl_name, CAST(sql AS BLOB) AS sql FROM sqlite_schema",
  ], "read");
  return {
    applicationId: Number(app!.rows[0]![0]),
    userVersion: Number(version!.rows[0]![0]),
    entries: schema!.rows.map((r) => ({
      type: lossyText(r.type),
      name: lossyText(r.name),
      tbl_name: lossyText(r.tbl_name),
      sql: r.sql === null ? null : lossyText(r.sql),
    })),
  };
}

/** Creates or upgrades an accepted database; returns the reason a database is rejected. */
export async function prepareSchema(client: Client): Promise<string | undefined> {
  const verdict = classifySchema(await readState(client));
  if (verdict.kind === "rejected") return verdict.reason;
  if (verdict.kind === "empty") await client.batch([...CREATE_V18], "write");
  // One write transaction per upgrade: its DDL up to v18, every old header's checksum, and (from
  // a layout without `events.crc`) every old row's. A v16–v17 row keeps the checksum it has:
  // recomputing it would launder a damaged row into a valid one.
  if (verdict.kind === "legacy") {
    await upgradeWithChecksums(client, verdict.upgrade, verdict.version < 16);
  }
  return undefined;
}

/** The `schema_rejected` error of a database that is not ours (the URL redacted). */
export const rejected = schemaRejected;

/**
 * Whether a failed open of a remote database means the server cannot be used (a network,
 * HTTP or authentication failure) rather than a SQLite error of a reachable one.
 *
 * @param url the configured URL
 * @param error what the client threw
 */
export function remoteUnavailable(url: string, error: unknown): boolean {
  if (url.startsWith("file:") || url === ":memory:") return false;
  const code = (error as { code?: unknown } | null)?.code;
  return !(typeof code === "string" && code.startsWith("SQLITE"));
}

/**
 * Refuses a database whose `-wal` or `-shm` exists but cannot be written (README.md "How it behaves on failure"):
 * SQLite would map a read-only `-shm` and the process would die of SIGBUS at its first write.
 * The check asks the kernel (an open for writing, closed at once), not the mode bits, so it is
 * right for root too: root writes a `0444` file (then SQLite can too), but not an immutable one
 * (`chattr +i`) or one on a read-only mount. Run before SQLite opens the files.
 *
 * @param path the database file path
 * @param what what is opened, for the message (`database file:…`)
 * @throws {SessionError} `storage_read_only` (`details.path` names the side file)
 */
export async function checkSideFiles(path: string, what: string): Promise<void> {
  for (const side of [`${path}-wal`, `${path}-shm`]) {
    let file: Deno.FsFile;
    try {
      file = await Deno.open(side, { read: true, write: true });
    } catch (error) {
      if (error instanceof Deno.errors.NotFound) continue;
      if (readOnly(error)) throw readOnlyError(what, side, error);
      throw error;
    }
    file.close();
  }
}
