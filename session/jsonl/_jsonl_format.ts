/**
 * Private: the JSONL format of a folder, named by its marker file `chime-jsonl.json`
 * (`{"format":N}`):
 *
 * - format 1 (no marker, any folder made before checksums): plain header and event lines;
 * - format 2: each event line ends with `crc`, the CRC-32C of the event's canonical bytes
 *   (`session/_checksum.ts`);
 * - format 3 (this one): the header line (a log's first line) ends with `crc` too, the CRC-32C of
 *   the canonical header JSON ({@linkcode headerLine}), so a damaged header byte that still
 *   decodes into valid fields (a `cwd` letter, a `createdAt` digit) is `storage_corrupt` naming
 *   the session, never served (docs/long-sessions.md §"Schema v18", README.md "How it behaves on
 *   failure").
 *
 * A format-1 or format-2 folder is upgraded to format 3 in one step on open: each log rewritten
 * (a temporary file, fsynced and renamed over it), then the marker written, so a crash mid-way
 * leaves logs that the next open finishes. A readable header line without `crc` gets its
 * checksum (written canonically), and so does each readable event line of a format-1 folder; a
 * line that already carries `crc`, a damaged line (kept byte for byte, so it stays damaged) and
 * a torn tail are kept as they are, and a format-2 folder's event lines are never recomputed. A
 * marker with another format is refused (`schema_rejected`), the folder untouched.
 *
 * @module
 */
import { join } from "node:path";
import { SessionError } from "../errors.ts";
import type { SessionEvent } from "../event.ts";
import { normalizeHeader, type SessionHeader } from "../header.ts";
import { checkHeader } from "../_decode.ts";
import { eventChecksum, headerChecksum } from "../_checksum.ts";
import { syncDir, writeDurably } from "./_jsonl_io.ts";

/** The marker file's name. */
export const FORMAT_FILE = "chime-jsonl.json";
/** The current format. */
export const JSONL_FORMAT = 3;

/**
 * A format this host reads: `1` (no checksums), `2` (event checksums), `3` (event and header
 * checksums, the one it writes).
 */
export type JsonlFormat = 1 | 2 | 3;

const NEWLINE = 0x0a;
const UTF8 = new TextDecoder("utf-8", { fatal: true });

/**
 * One event's line: `{"seq","type","at","data","crc"}` and a newline, `crc` from
 * `eventChecksum` (`session/_checksum.ts`).
 *
 * @param id the session it is stored under
 * @param e the event
 * @returns the line, newline included
 */
export function eventLine(id: string, e: SessionEvent): string {
  const data = JSON.stringify(e.data) ?? "null";
  const crc = eventChecksum(id, e.seq, e.type, e.at, data);
  return JSON.stringify({ seq: e.seq, type: e.type, at: e.at, data: e.data, crc }) + "\n";
}

/**
 * A log's first line (format 3): the canonical header JSON, `normalizeHeader`'s keys in its
 * order, with `crc` appended as the last key (`headerChecksum`, CRC-32C of
 * `JSON.stringify(normalizeHeader(header))`, unsigned 32-bit), and a newline. Everything before
 * `,"crc":` is the very text the checksum covers.
 *
 * @param header the header (normalized first: no `undefined` optional fields, a missing
 *   `delegationDepth` written as `0`)
 * @returns the line, newline included
 */
export function headerLine(header: SessionHeader): string {
  return JSON.stringify({ ...normalizeHeader(header), crc: headerChecksum(header) }) + "\n";
}

/**
 * The format a folder is in: the number its marker holds, `1` without a marker (any folder
 * made before checksums, or a new one).
 *
 * @param dir the folder
 * @returns `1`, `2` or `3`
 * @throws {SessionError} `schema_rejected` for an unreadable marker or a format this host does
 *   not know (a newer host's folder), the folder untouched
 */
export async function folderFormat(dir: string): Promise<JsonlFormat> {
  let text: string;
  try {
    text = await Deno.readTextFile(join(dir, FORMAT_FILE));
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return 1;
    throw error;
  }
  const format = (() => {
    try {
      return (JSON.parse(text) as { format?: unknown }).format;
    } catch {
      return undefined;
    }
  })();
  if (typeof format !== "number" || !Number.isSafeInteger(format)) {
    throw new SessionError("schema_rejected", `Cannot open ${dir}: ${FORMAT_FILE} is damaged`);
  }
  if (format !== 1 && format !== 2 && format !== JSONL_FORMAT) {
    throw new SessionError(
      "schema_rejected",
      `Cannot open ${dir}: JSONL format ${format} is not supported (this host writes ${JSONL_FORMAT})`,
    );
  }
  return format;
}

/**
 * Brings a folder to format 3 before any other write: writes the marker into a new folder,
 * upgrades a format-1 or format-2 one in one step (each log rewritten by {@linkcode upgradeLog}
 * through a temporary file, fsynced and renamed over it; the marker written only after every
 * log, so a crash mid-way leaves the old marker and the next open finishes), accepts format 3.
 *
 * @param dir the folder (exists, locked by the caller)
 * @returns how many lines (headers and events) got a checksum
 * @throws {SessionError} `schema_rejected` for an unknown format or a damaged marker
 */
export async function prepareFolder(dir: string): Promise<number> {
  const format = await folderFormat(dir);
  if (format === JSONL_FORMAT) return 0;
  let done = 0;
  for await (const entry of Deno.readDir(dir)) {
    if (!entry.isFile || !entry.name.endsWith(".jsonl")) continue;
    const path = join(dir, entry.name);
    const { bytes, count } = upgradeLog(await Deno.readFile(path), entry.name.slice(0, -6), format);
    if (count === 0) continue;
    const tmp = `${path}.upgrade-${crypto.randomUUID()}`;
    await writeDurably(tmp, bytes, { createNew: true });
    await Deno.rename(tmp, path);
    done += count;
  }
  await syncDir(dir);
  const marker = join(dir, `${FORMAT_FILE}.tmp-${crypto.randomUUID()}`);
  await writeDurably(marker, JSON.stringify({ format: JSONL_FORMAT }) + "\n", { createNew: true });
  await Deno.rename(marker, join(dir, FORMAT_FILE));
  await syncDir(dir);
  return done;
}

/**
 * A format-1 or format-2 log's bytes in format 3. The header line, when it is a readable header
 * without `crc`, is rewritten as {@linkcode headerLine}; each readable event line without `crc`
 * of a format-1 log gets its checksum ({@linkcode eventLine}). Everything else is kept byte for
 * byte: a damaged line (so it stays damaged, never laundered by a checksum of its damage), a line
 * that already carries `crc` (a log an interrupted upgrade already did), every event line of a
 * format-2 log, and a torn tail.
 *
 * @param bytes the whole log
 * @param id the session id the file is named after
 * @param format the folder's format before the upgrade
 * @returns the new bytes and how many lines got a checksum (`0`: nothing to rewrite)
 */
export function upgradeLog(
  bytes: Uint8Array,
  id: string,
  format: JsonlFormat,
): { bytes: Uint8Array; count: number } {
  const end = bytes.lastIndexOf(NEWLINE) + 1;
  const out: Uint8Array[] = [];
  const encoder = new TextEncoder();
  let count = 0;
  for (let at = 0, index = 0; at < end; index++) {
    const nl = bytes.indexOf(NEWLINE, at);
    const line = bytes.subarray(at, nl + 1);
    at = nl + 1;
    const text = index === 0
      ? parseHeader(line.subarray(0, -1), id)
      : format === 1
      ? parseEvent(line.subarray(0, -1), id)
      : undefined;
    if (text === undefined) {
      out.push(line);
      continue;
    }
    out.push(encoder.encode(text));
    count++;
  }
  out.push(bytes.subarray(end));
  const all = new Uint8Array(out.reduce((n, b) => n + b.length, 0));
  let at = 0;
  for (const b of out) {
    all.set(b, at);
    at += b.length;
  }
  return { bytes: all, count };
}

/** The record a line holds when it is valid UTF-8 JSON of an object without `crc`. */
function parseRecord(line: Uint8Array): Record<string, unknown> | undefined {
  try {
    const value = JSON.parse(UTF8.decode(line));
    const ok = value !== null && typeof value === "object" && !Array.isArray(value) &&
      !("crc" in value);
    return ok ? value : undefined;
  } catch {
    return undefined;
  }
}

/** The format-3 line of a readable header line without `crc`, else `undefined`. */
function parseHeader(line: Uint8Array, id: string): string | undefined {
  const value = parseRecord(line);
  if (value === undefined) return undefined;
  try {
    return headerLine(checkHeader(value, id));
  } catch {
    return undefined;
  }
}

/** The checksummed line of a readable event line without `crc`, else `undefined`. */
function parseEvent(line: Uint8Array, id: string): string | undefined {
  const value = parseRecord(line);
  const ok = value !== undefined && Number.isSafeInteger(value.seq) &&
    typeof value.type === "string" && typeof value.at === "string" && "data" in value;
  return ok ? eventLine(id, value as unknown as SessionEvent) : undefined;
}
