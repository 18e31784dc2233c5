/**
 * Private file helpers of the JSONL backend: durable writes, the recovery scan, torn-tail
 * set-aside and header-only reads.
 *
 * @module
 */
import { dirname } from "node:path";
import { SessionError } from "./errors.ts";
import type { SessionEvent } from "./event.ts";
import { normalizeHeader, type SessionHeader } from "./header.ts";

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
  readonly header: SessionHeader;
  readonly events: SessionEvent[];
  readonly tornAt: number | undefined;
}

function corrupt(path: string, line: number, cause?: unknown): SessionError {
  return new SessionError("persistence_failed", `Cannot read ${path}: line ${line} is corrupt`, {
    ...(cause === undefined ? {} : { cause }),
    details: { path, line },
  });
}

/**
 * Reads a whole log. Bytes after the last newline are a torn tail (a crash mid-write); a
 * complete line that does not parse, or an event out of seq order, is corruption and throws.
 *
 * @returns `undefined` when the file does not exist
 */
export async function scanLog(path: string): Promise<ScannedLog | undefined> {
  let bytes: Uint8Array;
  try {
    bytes = await Deno.readFile(path);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return undefined;
    throw error;
  }
  const end = bytes.lastIndexOf(NEWLINE) + 1;
  const lines = new TextDecoder().decode(bytes.subarray(0, end)).split("\n").slice(0, -1);
  const parsed = lines.map((line, i) => {
    try {
      return JSON.parse(line);
    } catch (cause) {
      throw corrupt(path, i + 1, cause);
    }
  });
  // initialize() links a complete file into place, so a stored session always has its header.
  if (parsed.length === 0) throw corrupt(path, 1);
  const [header, ...events] = parsed as [SessionHeader, ...SessionEvent[]];
  events.forEach((e, i) => {
    if (e?.seq !== i) throw corrupt(path, i + 2);
  });
  return { header: normalizeHeader(header), events, tornAt: end < bytes.length ? end : undefined };
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
      throw error; // not reachable in tests: needs an I/O error or a full disk
    }
    await Deno.truncate(path, offset);
    using log = await Deno.open(path, { write: true });
    await log.syncData();
    await syncDir(dirname(path));
    return torn;
  }
}

/** Reads bytes up to the first newline only (what `list()` needs). */
export async function readFirstLine(path: string): Promise<string> {
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
  return new TextDecoder().decode(all);
}
