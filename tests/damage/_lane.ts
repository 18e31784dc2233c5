/**
 * The damage lane's parts (issue 26 fault 4): a real libSQL database and a real JSONL folder
 * with sessions, messages and reminders; one single-byte flip on a fresh copy; every read the
 * page's routes make through the store (the list, lengths, each session whole, its tail, its
 * pages, its `schedule/change` events and the cross-session reminder scan), compared with the
 * original; and the doctor on the same copy.
 *
 * @module
 */
import { join } from "node:path";
import { createClient } from "@libsql/client";
import type { PersistenceBackend } from "../../session/backend.ts";
import type { SessionEvent } from "../../session/event.ts";
import { SessionError } from "../../session/errors.ts";
import { JsonlBackend } from "../../session/jsonl/jsonl_backend.ts";
import { LibsqlBackend } from "../../session/libsql/libsql_backend.ts";
import { checkStorage } from "../../session/doctor.ts";
import { prng } from "../crash/_lane.ts";

/** Which store a flip lands in. */
export type DamageKind = "db" | "jsonl";

/** What one flip did. */
export type FlipOutcome =
  | "no effect"
  | "coded error"
  | "uncoded error"
  | "refused to start"
  | "silent change";

/** One flip's record (a crash is the parent's finding: the child died before printing it). */
export interface FlipResult {
  readonly index: number;
  readonly kind: DamageKind;
  readonly file: string;
  readonly offset: number;
  readonly outcome: FlipOutcome;
  /** The host reported damage (an error or a refusal) that the doctor did not find. */
  readonly doctorMiss: boolean;
  /** The codes seen (`storage_corrupt`, …) or the first uncoded message. */
  readonly seen: readonly string[];
}

export { prng };

const SESSIONS = 6;
const TYPES = ["schedule/change"];

function text(r: () => number, n: number): string {
  const words = ["remind", "me", "tomorrow", "at", "nine", "call", "mum", "the", "dentist", "ok"];
  return Array.from({ length: n }, () => words[Math.floor(r() * words.length)]).join(" ");
}

/** The events of session `i`: user and assistant messages, reminders created and delivered. */
function sessionEvents(i: number): SessionEvent[] {
  const r = prng(1000 + i);
  const out: SessionEvent[] = [];
  const at = (n: number) => new Date(Date.UTC(2026, 0, 1 + i, 9, 0, n)).toISOString();
  for (let turn = 0; turn < 8; turn++) {
    out.push({
      seq: out.length,
      type: "user-rpc",
      at: at(out.length),
      data: {
        messageId: `m${i}-${turn}`,
        text: text(r, 6 + Math.floor(r() * 20)),
      },
    });
    const change = (data: Record<string, unknown>) =>
      out.push({
        seq: out.length,
        type: "schedule/change",
        at: at(out.length),
        data: { v: 2, ...data },
      });
    if (turn % 3 === 1) {
      change({
        op: "create",
        id: `r${i}-${turn}`,
        text: text(r, 4),
        due: new Date(Date.UTC(2026, 1, 1 + turn, 9)).toISOString(),
      });
    }
    if (turn % 3 === 2) change({ op: "delivered", id: `r${i}-${turn - 1}` });
    out.push({
      seq: out.length,
      type: "assistant-message",
      at: at(out.length),
      data: {
        text: text(r, 10 + Math.floor(r() * 40)),
      },
    });
  }
  return out;
}

/** Writes the original stores into `dir` (`chime.db`, checkpointed, and `jsonl/`). */
export async function buildOriginals(dir: string): Promise<void> {
  const url = `file:${join(dir, "chime.db")}`;
  await Deno.mkdir(dir, { recursive: true });
  {
    await using db = await LibsqlBackend.open({ url });
    await using folder = await JsonlBackend.open({ dir: join(dir, "jsonl") });
    for (let i = 0; i < SESSIONS; i++) {
      const header = {
        version: 1 as const,
        id: `s${i}`,
        cwd: "/work",
        createdAt: new Date(Date.UTC(2026, 0, 1 + i)).toISOString(),
        origin: "web",
        lineage: null,
        delegationDepth: 0,
        timeZone: "Europe/Berlin",
      };
      for (const backend of [db, folder] as PersistenceBackend[]) {
        const events = sessionEvents(i);
        await backend.initialize(header, events.slice(0, 10));
        await backend.append(header.id, events.slice(10));
      }
    }
  }
  const client = createClient({ url });
  await client.execute("PRAGMA wal_checkpoint(TRUNCATE)");
  client.close();
  await Deno.remove(join(dir, "chime.db-wal")).catch(() => {});
  await Deno.remove(join(dir, "chime.db-shm")).catch(() => {});
}

/** Every read of every session, as JSON text per read (an error as `!code`). */
export async function readAll(backend: PersistenceBackend): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  const put = async (key: string, read: () => Promise<unknown>) => {
    try {
      out.set(key, JSON.stringify(await read()) ?? "undefined");
    } catch (error) {
      out.set(key, `!${describe(error)}`);
    }
  };
  await put("list", () => backend.list());
  await put("lengths", async () => backend.lengths ? [...await backend.lengths()].sort() : null);
  for (let i = 0; i < SESSIONS; i++) {
    const id = `s${i}`;
    await put(`load ${id}`, () => backend.load(id));
    await put(`cursor ${id}`, () => backend.cursor(id));
    await put(`tail ${id}`, () => backend.tail(id, 8));
    await put(`page ${id} before`, () => backend.readEvents(id, { before: 20, limit: 10 }));
    await put(`page ${id} after`, () => backend.readEvents(id, { after: 9, limit: 10 }));
    await put(`page ${id} newest`, () => backend.readEvents(id, { limit: 500 }));
    await put(`reminders ${id}`, () => backend.readByType(id, TYPES, 0, 1_000));
  }
  await put("upcoming", async () => {
    if (backend.readTypeAcross === undefined) return null;
    const all = [];
    let after;
    for (;;) {
      const page = await backend.readTypeAcross(TYPES, { limit: 7, ...(after ? { after } : {}) });
      all.push(...page);
      if (page.length < 7) return all;
      const last = page.at(-1)!;
      after = { sessionId: last.sessionId, type: last.event.type, seq: last.event.seq };
    }
  });
  return out;
}

function describe(error: unknown): string {
  if (error instanceof SessionError) return error.code;
  return `uncoded: ${String((error as Error)?.message ?? error).slice(0, 120)}`;
}

/** Opens the store of `kind` in `dir`. */
export function openStore(kind: DamageKind, dir: string): Promise<PersistenceBackend> {
  return kind === "db"
    ? LibsqlBackend.open({ url: `file:${join(dir, "chime.db")}` })
    : JsonlBackend.open({ dir: join(dir, "jsonl") });
}

/** The files a flip of `kind` may land in, with their sizes. */
export async function targets(kind: DamageKind, dir: string): Promise<[string, number][]> {
  if (kind === "db") return [["chime.db", (await Deno.stat(join(dir, "chime.db"))).size]];
  const out: [string, number][] = [];
  for await (const e of Deno.readDir(join(dir, "jsonl"))) {
    if (e.isFile) out.push([`jsonl/${e.name}`, (await Deno.stat(join(dir, "jsonl", e.name))).size]);
  }
  return out.sort();
}

/**
 * The file offset of byte `at` of the `leaf`-th leaf page (in file order; with `internal`, the
 * interior pages) of a table or index, from SQLite's `dbstat`: a flip named this way stays on
 * the same bytes when a schema change moves pages.
 *
 * @param path the database file
 * @param where the object's name, which of its pages (0-based) and the byte in that page
 * @throws {TypeError} when the object has fewer such pages
 */
export async function leafOffset(
  path: string,
  where: {
    readonly object: string;
    readonly leaf: number;
    readonly at: number;
    readonly internal?: boolean;
  },
): Promise<number> {
  const client = createClient({ url: `file:${path}` });
  try {
    const [size, pages] = await client.batch([
      "PRAGMA page_size",
      {
        sql: "SELECT pageno FROM dbstat WHERE name = ? AND pagetype = ? ORDER BY pageno",
        args: [where.object, where.internal === true ? "internal" : "leaf"],
      },
    ], "read");
    const page = Number(pages!.rows[where.leaf]!.pageno);
    return (page - 1) * Number(size!.rows[0]![0]) + where.at;
  } finally {
    client.close();
  }
}

/** Copies a folder tree (the originals onto a fresh directory). */
export async function copyTree(from: string, to: string): Promise<void> {
  await Deno.mkdir(to, { recursive: true });
  for await (const e of Deno.readDir(from)) {
    if (e.isDirectory) await copyTree(join(from, e.name), join(to, e.name));
    else if (e.isFile) await Deno.copyFile(join(from, e.name), join(to, e.name));
  }
}

/**
 * One flip: a fresh copy of the originals, byte `offset` of `file` XORed with `mask`, the store
 * opened and read whole, compared with `expected`, then the doctor.
 */
export async function runFlip(
  originals: string,
  expected: ReadonlyMap<string, string>,
  flip: { index: number; kind: DamageKind; file: string; offset: number; mask: number },
): Promise<FlipResult> {
  const dir = await Deno.makeTempDir({ prefix: "chime-damage-" });
  try {
    await copyTree(originals, dir);
    const path = join(dir, flip.file);
    const bytes = await Deno.readFile(path);
    bytes[flip.offset] = bytes[flip.offset]! ^ flip.mask;
    await Deno.writeFile(path, bytes);
    const seen = new Set<string>();
    let outcome: FlipOutcome = "no effect";
    let backend: PersistenceBackend | undefined;
    try {
      backend = await openStore(flip.kind, dir);
    } catch (error) {
      outcome = "refused to start";
      seen.add(describe(error));
    }
    if (backend !== undefined) {
      const got = await readAll(backend);
      try {
        await backend[Symbol.asyncDispose]();
      } catch { /* a close of a damaged store may fail: the reads are what count */ }
      let silent = false;
      let coded = false;
      let uncoded = false;
      // A session whose own reads are refused may be left out of the list and the lengths (README
      // "Failure behaviour"): that omission is the same reported damage, not a silent change. Its
      // entry may also stay, unchanged (a table whose last row is whole while earlier ones are not).
      const refused = new Set(
        [...got].filter(([k, v]) => k.startsWith("load ") && v.startsWith("!")).map(([k]) =>
          k.slice(5)
        ),
      );
      for (const [key, want] of expected) {
        const value = got.get(key)!;
        if (value === want) continue;
        if ((key === "list" || key === "lengths") && without(want, key, refused, value) === value) {
          coded = true;
          continue;
        }
        if (value.startsWith("!uncoded")) uncoded = true;
        else if (value.startsWith("!")) coded = true;
        else {
          silent = true;
          seen.add(`changed: ${key}`);
        }
        if (value.startsWith("!")) seen.add(value.slice(1));
      }
      outcome = silent
        ? "silent change"
        : uncoded
        ? "uncoded error"
        : coded
        ? "coded error"
        : "no effect";
    }
    let doctorClean = true;
    try {
      const target = flip.kind === "db"
        ? { kind: "libsql" as const, url: `file:${join(dir, "chime.db")}` }
        : { kind: "jsonl" as const, dir: join(dir, "jsonl") };
      doctorClean = (await checkStorage(target)).damage.length === 0;
    } catch {
      doctorClean = false;
    }
    const reported = outcome !== "no effect" && outcome !== "silent change";
    return {
      ...flip,
      outcome,
      doctorMiss: (reported || outcome === "silent change") && doctorClean,
      seen: [...seen],
    };
  } finally {
    await Deno.remove(dir, { recursive: true }).catch(() => {});
  }
}

/**
 * The expected list or lengths with the refused sessions that `got` leaves out left out too, as
 * JSON text (a refused session's entry that stays must equal the expected one).
 */
function without(want: string, key: string, refused: ReadonlySet<string>, got: string): string {
  const value = JSON.parse(want);
  if (!Array.isArray(value)) return want;
  const idOf = (x: { id?: string } & unknown[]) => String(key === "list" ? x.id : x[0]);
  let kept: Set<string>;
  try {
    const seen = JSON.parse(got);
    kept = new Set(Array.isArray(seen) ? seen.map(idOf) : []);
  } catch {
    kept = new Set();
  }
  return JSON.stringify(value.filter((x) => !refused.has(idOf(x)) || kept.has(idOf(x))));
}
