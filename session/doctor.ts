/**
 * The storage doctor: scans a libSQL database file or a JSONL folder and reports every damaged
 * header, event and missing seq, without changing anything (`deno task doctor PATH`, or
 * `host/main.ts --check-storage`).
 *
 * The stored files are only read. A database is scanned through a private copy (SQLite's last
 * connection would otherwise checkpoint a leftover WAL into the file), under a shared lock that
 * a running host's writer lock excludes: a scan never races a writer.
 *
 * Exit codes of the command: `0` no damage, `1` damage found, `2` cannot scan (a running host,
 * an unreadable path, bad arguments).
 *
 * @example Scan a folder
 * ```ts
 * import { checkStorage } from "@chime/session";
 * const report = await checkStorage({ kind: "jsonl", dir: await Deno.makeTempDir() });
 * console.assert(report.damage.length === 0);
 * ```
 *
 * @module
 */
import { createClient } from "@libsql/client";
import { classifySchema, SCHEMA_VERSION } from "@chime/migrations";
import { join } from "node:path";
import { SessionError } from "./errors.ts";
import { isSessionId } from "./header.ts";
import { readLog } from "./jsonl/_jsonl_io.ts";
import { databasePath, readState } from "./libsql/_libsql_open.ts";
import { folderFormat, JSONL_FORMAT } from "./jsonl/_jsonl_format.ts";
import { compareIndexes, scanEvents, scanHeaders } from "./libsql/_doctor_sql.ts";
import { damageOf, type StorageDamage } from "./_decode.ts";
import { checkLogs, type LogCheck, type LogFinding, runChecks } from "./_log_checks.ts";
import { LibsqlBackend } from "./libsql/libsql_backend.ts";

export type { LogCheck, LogFinding, StorageDamage };

/** Options of {@linkcode checkStorage}. */
export interface CheckOptions {
  /**
   * The plugins' checks of their own event types (the host passes every loaded plugin's
   * `logCheck`), run over each session's events of those types. @default none
   */
  readonly logChecks?: readonly LogCheck[];
}

/** What a scan found. */
export interface StorageReport {
  /** The scanned path. */
  readonly target: string;
  /** Sessions (header rows or files) seen. */
  readonly sessions: number;
  /** Event rows or lines seen. */
  readonly events: number;
  /** Every damage, in scan order. */
  readonly damage: readonly StorageDamage[];
  /** Findings that are not damage (a torn JSONL tail the next open sets aside). */
  readonly notes: readonly string[];
}

/** What to scan: the `storage` settings of a host configuration. */
export type StorageTarget =
  | { readonly kind: "libsql"; readonly url: string }
  | { readonly kind: "jsonl"; readonly dir: string };

/** Opens `path` read-only and takes a shared lock, refused while a writer holds its lock. */
async function sharedLock(path: string): Promise<Deno.FsFile> {
  const file = await Deno.open(path, { read: true });
  if (!await file.tryLock(false)) {
    file.close();
    throw new SessionError(
      "storage_in_use",
      `Cannot check ${path}: a host is writing it; stop it first`,
      { details: { path } },
    );
  }
  return file;
}

async function checkDatabase(path: string, checks: readonly LogCheck[]): Promise<StorageReport> {
  using _lock = await sharedLock(path);
  const copyDir = await Deno.makeTempDir({ prefix: "chime-doctor-" });
  try {
    const copy = join(copyDir, "copy.db");
    await Deno.copyFile(path, copy);
    // A WAL left by a crashed host holds committed transactions: read it too.
    const wal = await Deno.stat(`${path}-wal`).then(() => true, () => false);
    if (wal) await Deno.copyFile(`${path}-wal`, `${copy}-wal`);
    const damage: StorageDamage[] = [];
    let client;
    try {
      client = createClient({ url: `file:${copy}`, concurrency: 1 });
      const verdict = classifySchema(await readState(client));
      if (verdict.kind === "rejected" || verdict.kind === "empty") {
        const what = verdict.kind === "empty" ? "no chime schema" : verdict.reason;
        return { target: path, sessions: 0, events: 0, damage: [{ what }], notes: [] };
      }
      // integrity_check, not quick_check: it also checks every index against its table.
      const check = await client.execute("PRAGMA integrity_check");
      for (const row of check.rows) {
        if (row[0] !== "ok") damage.push({ what: `integrity_check: ${String(row[0])}` });
      }
      const version = verdict.kind === "legacy" ? verdict.version : SCHEMA_VERSION;
      const headers = await scanHeaders(client, version, damage);
      // v13–v15 hold no event checksums; a v16 row's checksum is verified like a current one's.
      const legacy = version < 16;
      const events = await scanEvents(client, headers, damage, legacy);
      await compareIndexes(client, damage);
      client.close();
      client = undefined;
      if (checks.length > 0) {
        // The private copy, opened as a backend: the checks read through its type index.
        await using backend = await LibsqlBackend.open({ url: `file:${copy}` });
        damage.push(...await checkLogs(backend, checks));
      }
      const notes = verdict.kind === "legacy" ? [upgradeNote(verdict.version)] : [];
      return { target: path, sessions: headers.size, events, damage, notes };
    } catch (error) {
      damage.push({ what: `unreadable database: ${(error as Error).message}` });
      return { target: path, sessions: 0, events: 0, damage, notes: [] };
    } finally {
      client?.close();
    }
  } finally {
    await Deno.remove(copyDir, { recursive: true });
  }
}

/** What opening a legacy libSQL database adds (the doctor's note; `migrations/libsql/schema.ts`). */
function upgradeNote(version: number): string {
  const what = version < 16
    ? "no checksums yet (opening computes them once)"
    : version === 16
    ? "no header checksums yet (opening computes them once and adds the events_typed index)"
    : "no header checksums yet (opening computes them once)";
  return `schema version ${version}: ${what}`;
}

async function checkFolder(dir: string, checks: readonly LogCheck[]): Promise<StorageReport> {
  using _lock = await sharedLock(dir);
  const damage: StorageDamage[] = [];
  const notes: string[] = [];
  let sessions = 0;
  let events = 0;
  const names = [];
  for await (const entry of Deno.readDir(dir)) if (entry.isFile) names.push(entry.name);
  // An unknown format (a newer host's folder) is refused like the open refuses it.
  const format = await folderFormat(dir);
  if (format !== JSONL_FORMAT) {
    const what = format === 1 ? "no checksums" : "no header checksums";
    notes.push(`JSONL format ${format}: ${what} yet (opening computes them once)`);
  }
  for (const name of names.sort()) {
    const id = name.endsWith(".jsonl") ? name.slice(0, -6) : "";
    if (!isSessionId(id)) continue;
    const report = readLog(await Deno.readFile(join(dir, name)), id, format);
    sessions++;
    events += report.events.length;
    damage.push(...report.damage.map(damageOf));
    if (report.header !== undefined) {
      damage.push(...runChecks(checks, report.header, report.events));
    }
    if (report.tornAt !== undefined) {
      notes.push(`session ${id}: torn tail at byte ${report.tornAt} (set aside on next open)`);
    }
  }
  return { target: dir, sessions, events, damage, notes };
}

/**
 * Scans a store and reports its damage; the files are only read.
 *
 * @param target a `file:` libSQL URL or a JSONL folder
 * @param options the plugins' log checks (`logChecks`) @default {}
 * @returns the report (damage found is data, not an error): `integrity_check` findings, damaged
 *   headers and events, missing seqs, and each event a log check refuses
 * @throws {SessionError} `storage_in_use` while a host writes the store; `invalid_arguments`
 *   for an in-memory or remote database; `schema_rejected` for a JSONL folder whose
 *   `chime-jsonl.json` is damaged or names a format this host does not know
 * @throws {Deno.errors.NotFound} when the path does not exist
 */
export async function checkStorage(
  target: StorageTarget,
  options: CheckOptions = {},
): Promise<StorageReport> {
  const checks = options.logChecks ?? [];
  if (target.kind === "jsonl") return await checkFolder(target.dir, checks);
  const path = databasePath(target.url);
  if (path === undefined) {
    throw new SessionError(
      "invalid_arguments",
      `Cannot check ${target.url}: only a local database file can be checked`,
    );
  }
  return await checkDatabase(path, checks);
}

/**
 * The report as lines: one per damage (`damage: session ID seq N: WHAT`), one per note, then a
 * summary.
 *
 * @param report a report
 * @returns the lines, without newlines
 */
export function formatReport(report: StorageReport): string[] {
  const lines = report.damage.map((d) =>
    `damage: ${d.sessionId === undefined ? "database" : `session ${d.sessionId}`}` +
    `${d.seq === undefined ? "" : ` seq ${d.seq}`}: ${d.what}`
  );
  for (const note of report.notes) lines.push(`note: ${note}`);
  lines.push(
    `chime doctor: ${report.target}: ${report.sessions} sessions, ${report.events} events, ` +
      `${report.damage.length === 0 ? "no damage" : `${report.damage.length} damaged`}`,
  );
  return lines;
}

/** The target a command-line path names: a folder is JSONL, anything else a database file. */
async function targetOf(path: string): Promise<StorageTarget> {
  if (path.startsWith("file:")) return { kind: "libsql", url: path };
  const info = await Deno.stat(path);
  return info.isDirectory ? { kind: "jsonl", dir: path } : { kind: "libsql", url: `file:${path}` };
}

/**
 * The command: `doctor.ts PATH` prints the report and returns the exit code.
 *
 * @param args the arguments
 * @param print where lines go (the command passes `console.log`)
 * @param options the plugins' log checks (`host/doctor.ts` passes every registered plugin's)
 *   @default {}
 * @returns `0` clean, `1` damage found, `2` cannot scan
 */
export async function doctorMain(
  args: readonly string[],
  print: (line: string) => void,
  options: CheckOptions = {},
): Promise<number> {
  if (args.length !== 1 || args[0]!.startsWith("-")) {
    print("usage: deno task doctor PATH   (a chime.db file, a file: URL or a JSONL folder)");
    return 2;
  }
  try {
    const report = await checkStorage(await targetOf(args[0]!), options);
    for (const line of formatReport(report)) print(line);
    return report.damage.length === 0 ? 0 : 1;
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    print(
      `chime doctor: ${typeof code === "string" ? `${code}: ` : ""}${(error as Error).message}`,
    );
    return 2;
  }
}

if (import.meta.main) Deno.exit(await doctorMain(Deno.args, console.log));
