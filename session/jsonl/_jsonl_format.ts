/**
 * Private: the JSONL format of a folder. Format 2 (this one) ends each event line with `crc`,
 * the CRC-32C of the event's canonical bytes (`session/_checksum.ts`), and marks the folder with
 * `chime-jsonl.json` (`{"format":2}`). A folder without the marker holding `*.jsonl` logs is
 * format 1 and is upgraded in one step on open: each log rewritten with checksums (a temporary
 * file, fsynced and renamed over it), then the marker written, so a crash mid-way leaves
 * format-1 logs that the next open finishes (lines that already carry `crc` are kept as they
 * are). A marker with another format is refused (`schema_rejected`), the folder untouched.
 *
 * @module
 */
import { join } from "node:path";
import { SessionError } from "../errors.ts";
import type { SessionEvent } from "../event.ts";
import { eventChecksum } from "../_checksum.ts";
import { syncDir, writeDurably } from "./_jsonl_io.ts";

/** The marker file's name. */
export const FORMAT_FILE = "chime-jsonl.json";
/** The current format. */
export const JSONL_FORMAT = 2;

const NEWLINE = 0x0a;
const UTF8 = new TextDecoder("utf-8", { fatal: true });

/**
 * One event's line: `{"seq","type","at","data","crc"}` and a newline.
 *
 * @param id the session it is stored under
 * @param e the event
 */
export function eventLine(id: string, e: SessionEvent): string {
  const data = JSON.stringify(e.data) ?? "null";
  const crc = eventChecksum(id, e.seq, e.type, e.at, data);
  return JSON.stringify({ seq: e.seq, type: e.type, at: e.at, data: e.data, crc }) + "\n";
}

/**
 * The format a folder is in: `2` with the marker, `1` without it (any folder made before
 * checksums), or the number the marker holds.
 *
 * @throws {SessionError} `schema_rejected` for an unreadable marker
 */
export async function folderFormat(dir: string): Promise<number> {
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
  return format;
}

/**
 * Brings a folder to format 2 before any other write: writes the marker into a new folder,
 * upgrades a format-1 one (every log's event lines get their checksum, computed once each),
 * accepts format 2, refuses anything else.
 *
 * @param dir the folder (exists, locked by the caller)
 * @returns how many event lines got a checksum
 * @throws {SessionError} `schema_rejected` for another format or a damaged marker
 */
export async function prepareFolder(dir: string): Promise<number> {
  const format = await folderFormat(dir);
  if (format === JSONL_FORMAT) return 0;
  if (format !== 1) {
    throw new SessionError(
      "schema_rejected",
      `Cannot open ${dir}: JSONL format ${format} is not supported (this host writes ${JSONL_FORMAT})`,
    );
  }
  let done = 0;
  for await (const entry of Deno.readDir(dir)) {
    if (!entry.isFile || !entry.name.endsWith(".jsonl")) continue;
    const path = join(dir, entry.name);
    const { bytes, count } = upgradeLog(await Deno.readFile(path), entry.name.slice(0, -6));
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
 * A format-1 log's bytes with a checksum added to each readable event line; the header, damaged
 * lines, lines that already carry `crc` and a torn tail are kept byte for byte.
 */
export function upgradeLog(bytes: Uint8Array, id: string): { bytes: Uint8Array; count: number } {
  const end = bytes.lastIndexOf(NEWLINE) + 1;
  const out: Uint8Array[] = [];
  const encoder = new TextEncoder();
  let count = 0;
  for (let at = 0, index = 0; at < end; index++) {
    const nl = bytes.indexOf(NEWLINE, at);
    const line = bytes.subarray(at, nl + 1);
    at = nl + 1;
    const event = index === 0 ? undefined : parseEvent(line.subarray(0, -1));
    if (event === undefined) {
      out.push(line);
      continue;
    }
    out.push(encoder.encode(eventLine(id, event)));
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

function parseEvent(line: Uint8Array): SessionEvent | undefined {
  try {
    const value = JSON.parse(UTF8.decode(line));
    const ok = value !== null && typeof value === "object" && !("crc" in value) &&
      Number.isSafeInteger(value.seq) && typeof value.type === "string" &&
      typeof value.at === "string" && "data" in value;
    return ok ? value as SessionEvent : undefined;
  } catch {
    return undefined;
  }
}
