/**
 * Private file helpers of the JSONL backend: durable writes, the recovery scan (which verifies
 * each line's checksum as the folder's format has it: event lines from format 2, the header line
 * from format 3, `session/jsonl/_jsonl_format.ts`), torn-tail set-aside and header-only reads.
 *
 * @module
 */
import { dirname } from "node:path";
import type { SessionError } from "../errors.ts";
import type { SessionEvent } from "../event.ts";
import type { SessionHeader } from "../header.ts";
import { checkEvent, checkHeader, corrupt, decodeText, parseJson } from "../_decode.ts";
import { verifyChecksum, verifyHeaderChecksum } from "../_checksum.ts";
// A cycle (`_jsonl_format.ts` writes through this file's helpers), safe: nothing of it is used
// while the modules load.
import { JSONL_FORMAT, type JsonlFormat } from "./_jsonl_format.ts";

const NEWLINE = 0x0a;

/** Writes `data` and `fdatasync`s before resolving. */
export async function writeDurably(
  path: string,
  data: string | Uint8Array,
  mode: { append: true } | { createNew: true },
): Promise<void> {
  using file = await Deno.open(path, { write: true, ...mode });
  const bytes = typeof data === "string" ? new TextEncoder().encode(data) : data;
  for (let written = 0; written < bytes.length;) {
    written += await file.write(bytes.subarray(written));
  }
  await file.syncData();
}

/** fsyncs a directory so a new name survives a crash. */
export async function syncDir(dir: string): Promise<void> {
  using handle = await Deno.open(dir, { read: true });
  await handle.syncData();
}

/** A scanned log: header, complete events, and where a torn tail starts (byte offset). */
export interface ScannedLog {
  /** The header, its checksum verified. */
  readonly header: SessionHeader;
  /** Every event, seqs `0..n-1`, each checksum verified. */
  readonly events: SessionEvent[];
  /** Byte offset where a torn tail (bytes after the last newline) starts. */
  readonly tornAt: number | undefined;
}

/** Everything a log's bytes say: what reads back, every damaged line, the torn tail. */
export interface LogReport {
  /** The header, when the first line is a valid one. */
  readonly header: SessionHeader | undefined;
  /** The events of the lines that read back, in file order. */
  readonly events: SessionEvent[];
  /** One `storage_corrupt` error per damaged complete line (`{ sessionId, seq? }`). */
  readonly damage: SessionError[];
  /** Byte offset where a torn tail (bytes after the last newline) starts. */
  readonly tornAt: number | undefined;
}

function readLine(
  bytes: Uint8Array,
  id: string,
  index: number,
  format: JsonlFormat,
): SessionHeader | SessionEvent {
  const site = index === 0 ? { sessionId: id } : { sessionId: id, seq: index - 1 };
  const value = parseJson(decodeText(bytes, site, "line"), site, "line");
  if (index === 0) {
    const isObject = value !== null && typeof value === "object" && !Array.isArray(value);
    if (format < 3 || !isObject) return checkHeader(value, id);
    // Format 3: the line's `crc` covers the header as served (`_checksum.ts`), then is dropped;
    // a missing one is damage too (README.md "How it behaves on failure").
    const { crc, ...rest } = value as Record<string, unknown>;
    return verifyHeaderChecksum(crc, checkHeader(rest, id));
  }
  const event = checkEvent(value, id, index - 1);
  if (format < 2) return event;
  // From format 2: the line's `crc` covers the event as served (`_checksum.ts`), then is dropped.
  const { crc, ...rest } = event as SessionEvent & { crc?: unknown };
  const data = JSON.stringify(rest.data) ?? "null";
  verifyChecksum(crc, id, rest.seq, rest.type, rest.at, data);
  return rest as SessionEvent;
}

/**
 * Reads a log's bytes line by line without stopping at damage. Bytes after the last newline are
 * a torn tail (a crash mid-write), not damage; a complete line that is not valid UTF-8, not
 * JSON, not a valid header or envelope, whose seq is not its position, or whose `crc` is missing
 * or does not match (event lines from format 2, the header line from format 3), is damage.
 *
 * @param bytes the whole file
 * @param id the session id the file is named after
 * @param format the folder's format, which says which checksums its lines carry (an older one
 *   only for a folder the doctor reads before an open upgrades it) @default JSONL_FORMAT
 * @returns what reads back, every damaged line (`storage_corrupt`: `{ sessionId }` for the
 *   header, `{ sessionId, seq }` for an event), and the torn tail
 */
export function readLog(
  bytes: Uint8Array,
  id: string,
  format: JsonlFormat = JSONL_FORMAT,
): LogReport {
  const end = bytes.lastIndexOf(NEWLINE) + 1;
  const damage: SessionError[] = [];
  const events: SessionEvent[] = [];
  let header: SessionHeader | undefined;
  let index = 0;
  for (let at = 0; at < end; index++) {
    const nl = bytes.indexOf(NEWLINE, at);
    try {
      const line = readLine(bytes.subarray(at, nl), id, index, format);
      if (index === 0) header = line as SessionHeader;
      else events.push(line as SessionEvent);
    } catch (error) {
      damage.push(error as SessionError);
    }
    at = nl + 1;
  }
  // initialize() links a complete file into place, so a stored session always has its header.
  if (index === 0) damage.push(corrupt({ sessionId: id }, "the file has no header line"));
  const checked = format >= 2 && index > 0;
  if (end < bytes.length && checked && lostNewline(bytes.subarray(end), id, index, format)) {
    // A whole checksummed line followed by one byte: its newline was damaged, not torn by a
    // crash (a torn write leaves a prefix of a line, never a complete one).
    damage.push(corrupt({ sessionId: id, seq: index - 1 }, "the line's newline is damaged"));
    return { header, events, damage, tornAt: undefined };
  }
  return { header, events, damage, tornAt: end < bytes.length ? end : undefined };
}

/** Whether a tail without a newline is a complete checksummed event line plus one byte. */
function lostNewline(
  tail: Uint8Array,
  id: string,
  index: number,
  format: JsonlFormat,
): boolean {
  if (tail.length < 2) return false;
  try {
    readLine(tail.subarray(0, -1), id, index, format);
    return true;
  } catch {
    return false;
  }
}

/**
 * Reads a whole log; a torn tail is reported, damage throws.
 *
 * @param path the file
 * @param id the session id
 * @returns `undefined` when the file does not exist
 * @throws {SessionError} `storage_corrupt` for the first damaged line (`{ sessionId, seq? }`)
 */
export async function scanLog(path: string, id: string): Promise<ScannedLog | undefined> {
  let bytes: Uint8Array;
  try {
    bytes = await Deno.readFile(path);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return undefined;
    throw error;
  }
  const report = readLog(bytes, id);
  if (report.damage.length > 0) throw report.damage[0];
  return { header: report.header!, events: report.events, tornAt: report.tornAt };
}

/**
 * Moves the bytes from `offset` to `<path>.torn-<n>` (first free `n` from 1), then truncates
 * the log to `offset`. The copy is durable before the truncation, so nothing is lost.
 */
export async function setAside(path: string, offset: number): Promise<string> {
  const tail = (await Deno.readFile(path)).subarray(offset);
  for (let n = 1;; n++) {
    const torn = `${path}.torn-${n}`;
    try {
      await writeDurably(torn, tail, { createNew: true });
    } catch (error) {
      if (error instanceof Deno.errors.AlreadyExists) continue;
      // deno-coverage-ignore-start -- only an I/O error or a full disk gets here
      throw error;
    }
    // deno-coverage-ignore-stop
    await Deno.truncate(path, offset);
    using log = await Deno.open(path, { write: true });
    await log.syncData();
    await syncDir(dirname(path));
    return torn;
  }
}

/** Reads bytes up to the first newline only (what `list()` needs). */
export async function readFirstLine(path: string): Promise<Uint8Array> {
  using file = await Deno.open(path, { read: true });
  const chunks: Uint8Array[] = [];
  const buf = new Uint8Array(4096);
  for (;;) {
    const n = await file.read(buf);
    if (n === null) break;
    const chunk = buf.slice(0, n);
    const nl = chunk.indexOf(NEWLINE);
    chunks.push(nl < 0 ? chunk : chunk.subarray(0, nl));
    if (nl >= 0) break;
  }
  const all = new Uint8Array(chunks.reduce((s, c) => s + c.length, 0));
  let at = 0;
  for (const c of chunks) {
    all.set(c, at);
    at += c.length;
  }
  return all;
}

/**
 * Reads and checks the header line of a log (its checksum included: a folder is in the current
 * format once open), for `list()`.
 *
 * @param path the file
 * @param id the session id the file is named after
 * @param onDamage called with the damaged line's `storage_corrupt` @default none
 * @returns the header, or `undefined` when the line is damaged (reading the session answers
 *   `storage_corrupt`, the doctor names it)
 */
export async function readHeader(
  path: string,
  id: string,
  onDamage?: (error: SessionError) => void,
): Promise<SessionHeader | undefined> {
  const line = await readFirstLine(path);
  const bytes = new Uint8Array(line.length + 1);
  bytes.set(line);
  bytes[line.length] = NEWLINE;
  const report = readLog(bytes, id);
  if (report.header === undefined && report.damage[0] !== undefined) onDamage?.(report.damage[0]);
  return report.header;
}
