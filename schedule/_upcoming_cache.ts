/**
 * Private: the Upcoming projection's derived cache on disk (docs/upcoming.md "The start-up
 * cache"). It is never an authority: each session's part in it is the fold of that session's
 * first `length` stored events, and the log is append-only, so a part whose session still has
 * that stored length is exactly what reading the log again would give; any other part is read
 * again from the log. Two files in the plugin's cache folder:
 *
 * - `upcoming-meta.json`: `{ format, version, token, lengths: { [sessionId]: length } }`, every
 *   cold session the cache covers (with or without active reminders);
 * - `upcoming-rows.ndjson`: the token, then the rows in list order (sort key, session id,
 *   reminder id), each `["R", key, sessionId, record]`, a session's header as `["H", header]`
 *   just before its first row.
 *
 * The token ties the pair (a torn pair is not used). Both are written whole and renamed into
 * place, synchronously, so no write is ever half visible and none outlives the call. The rows
 * file is read in chunks as far as a page needs, so the first page after a start costs the meta
 * file, one `storedLengths()` read and one chunk.
 *
 * @module
 */
import { join } from "node:path";
import type { SessionHeader } from "@chime/session";
import type { ScheduleRecord } from "./protocol.ts";

/** Bumped whenever the fold or the row shape changes: an older cache is then not used. */
export const CACHE_VERSION = 1;
const FORMAT = "chime-upcoming-cache";
const META = "upcoming-meta.json";
const ROWS = "upcoming-rows.ndjson";
const CHUNK = 64 * 1024;

/** One session's cached part (its header is known only when it has rows). */
export interface CachedPart {
  readonly header: SessionHeader | undefined;
  readonly length: number;
  readonly active: readonly ScheduleRecord[];
}

/** One cached row, in list order. */
export interface CachedRow {
  readonly key: number;
  readonly header: SessionHeader;
  readonly record: ScheduleRecord;
}

/** What a start reads first: the sessions the cache covers and where its rows are. */
export interface CacheMeta {
  readonly lengths: ReadonlyMap<string, number>;
  readonly rows: CachedRows;
}

/**
 * Writes the cache of `parts` (rows sorted here), replacing the previous one atomically.
 *
 * @param dir the cache folder (made when missing)
 * @param parts every cold session's part, by id
 * @param keyOf the row's sort key
 */
export function writeCache(
  dir: string,
  parts: ReadonlyMap<string, CachedPart>,
  keyOf: (record: ScheduleRecord) => number,
): void {
  Deno.mkdirSync(dir, { recursive: true });
  const token = crypto.randomUUID();
  const rows: [number, string, ScheduleRecord, SessionHeader][] = [];
  const lengths: Record<string, number> = {};
  for (const [id, part] of parts) {
    lengths[id] = part.length;
    if (part.header === undefined) continue;
    for (const record of part.active) rows.push([keyOf(record), id, record, part.header]);
  }
  rows.sort((a, b) =>
    a[0] - b[0] || (a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : 0) ||
    (a[2].id < b[2].id ? -1 : a[2].id > b[2].id ? 1 : 0)
  );
  const seen = new Set<string>();
  const lines = [JSON.stringify(token)];
  for (const [key, id, record, header] of rows) {
    if (!seen.has(id)) {
      seen.add(id);
      lines.push(JSON.stringify(["H", header]));
    }
    lines.push(JSON.stringify(["R", key, id, record]));
  }
  replace(dir, ROWS, `${lines.join("\n")}\n`);
  replace(dir, META, JSON.stringify({ format: FORMAT, version: CACHE_VERSION, token, lengths }));
}

function replace(dir: string, name: string, text: string): void {
  const tmp = join(dir, `.${name}.${crypto.randomUUID()}`);
  Deno.writeTextFileSync(tmp, text, { mode: 0o600 });
  Deno.renameSync(tmp, join(dir, name));
}

/**
 * Reads the meta file and checks the rows file's token.
 *
 * @param dir the cache folder
 * @returns the meta, or `undefined` when there is no usable cache (missing, another format or
 *   version, a torn pair)
 */
export async function readCacheMeta(dir: string): Promise<CacheMeta | undefined> {
  let meta: { format?: unknown; version?: unknown; token?: unknown; lengths?: unknown };
  try {
    meta = JSON.parse(await Deno.readTextFile(join(dir, META)));
  } catch {
    return undefined;
  }
  if (meta?.format !== FORMAT || meta.version !== CACHE_VERSION) return undefined;
  if (typeof meta.token !== "string" || typeof meta.lengths !== "object" || !meta.lengths) {
    return undefined;
  }
  const rows = new CachedRows(join(dir, ROWS));
  if (await rows.token() !== meta.token) return undefined;
  const lengths = new Map<string, number>();
  for (const [id, length] of Object.entries(meta.lengths)) {
    if (Number.isSafeInteger(length)) lengths.set(id, length as number);
  }
  return { lengths, rows };
}

/**
 * The rows file, parsed only as far as asked: `row(i)` reads chunks until row `i` is parsed.
 * Each read opens, seeks, reads and closes the file, so nothing stays open between requests.
 */
export class CachedRows {
  readonly #path: string;
  readonly #rows: CachedRow[] = [];
  readonly #headers = new Map<string, SessionHeader>();
  readonly #decoder = new TextDecoder();
  #offset = 0;
  #text = "";
  #token: string | undefined;
  #done = false;
  #broken = false;

  constructor(path: string) {
    this.#path = path;
  }

  /** The token line, `undefined` when the file is missing or starts otherwise. */
  async token(): Promise<string | undefined> {
    while (this.#token === undefined && !this.#done) await this.#more();
    return this.#token;
  }

  /**
   * Row `i` in list order, reading more of the file when needed.
   *
   * @param i a row index
   * @returns the row, or `undefined` past the last
   */
  async row(i: number): Promise<CachedRow | undefined> {
    while (this.#rows.length <= i && !this.#done) await this.#more();
    if (this.#broken) throw new Error("Cannot read the Upcoming cache: a row is not one");
    return this.#rows[i];
  }

  /**
   * Every row, reading the rest of the file at once.
   *
   * @returns the rows in list order
   * @throws {Error} when a line is not a row (the caller reads the logs instead)
   */
  async all(): Promise<readonly CachedRow[]> {
    if (!this.#done) {
      const bytes = await Deno.readFile(this.#path).catch(() => new Uint8Array());
      this.#text += this.#decoder.decode(bytes.subarray(this.#offset));
      this.#offset = bytes.length;
      this.#done = true;
      this.#lines(true);
    }
    if (this.#broken) throw new Error("Cannot read the Upcoming cache: a row is not one");
    return this.#rows;
  }

  async #more(): Promise<void> {
    let file: Deno.FsFile;
    try {
      file = await Deno.open(this.#path, { read: true });
    } catch {
      this.#done = true;
      return;
    }
    const buffer = new Uint8Array(CHUNK);
    let n: number | null;
    try {
      await file.seek(this.#offset, Deno.SeekMode.Start);
      n = await file.read(buffer);
    } finally {
      file.close();
    }
    if (n === null) {
      this.#done = true;
      this.#text += this.#decoder.decode();
      this.#lines(true);
      return;
    }
    this.#offset += n;
    this.#text += this.#decoder.decode(buffer.subarray(0, n), { stream: true });
    this.#lines(false);
  }

  #lines(end: boolean): void {
    let start = 0;
    for (;;) {
      const nl = this.#text.indexOf("\n", start);
      if (nl < 0) break;
      this.#line(this.#text.slice(start, nl));
      start = nl + 1;
    }
    this.#text = this.#text.slice(start);
    if (end && this.#text.length > 0) this.#line(this.#text);
  }

  #line(line: string): void {
    if (this.#token === undefined) {
      try {
        const token = JSON.parse(line);
        this.#token = typeof token === "string" ? token : "";
      } catch {
        this.#token = "";
      }
      return;
    }
    if (this.#broken) return;
    let value: ["H", SessionHeader] | ["R", number, string, ScheduleRecord];
    try {
      value = JSON.parse(line);
    } catch {
      this.#broken = true;
      return;
    }
    if (value[0] === "H") {
      this.#headers.set(value[1].id, value[1]);
      return;
    }
    const header = this.#headers.get(value[2]);
    if (header !== undefined) this.#rows.push({ key: value[1], header, record: value[3] });
  }
}
