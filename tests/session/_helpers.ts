/**
 * Shared test helpers: temp directories, file hashes, headers, events, backends by kind and a
 * fault-injecting decorator around any real backend.
 *
 * @module
 */
import type {
  EventPage,
  PersistenceBackend,
  StoredCursor,
  StoredSession,
  StoredTail,
} from "../../session/backend.ts";
import type { SessionEvent } from "../../session/event.ts";
import type { SessionHeader } from "../../session/header.ts";
import { JsonlBackend } from "../../session/jsonl/jsonl_backend.ts";
import { LibsqlBackend } from "../../session/libsql/libsql_backend.ts";
import type { Fault } from "../../session/testing/memory_backend.ts";
import { MemoryBackend } from "../../session/testing/memory_backend.ts";
import { memoryDriver } from "./_memory_driver.ts";
import { PostgresBackend } from "../../session/postgres/postgres_backend.ts";
import { postgresLanes, sharedPostgres } from "../_postgres.ts";

/** A temp directory removed on dispose. */
export async function tempDir(): Promise<{ path: string } & AsyncDisposable> {
  const path = await Deno.makeTempDir({ prefix: "chime-test-" });
  return { path, [Symbol.asyncDispose]: () => Deno.remove(path, { recursive: true }) };
}

/** Hex SHA-256 of a file's bytes. */
export async function sha256(path: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", await Deno.readFile(path));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

/** A canonical header with overrides. */
export function header(id: string, extra: Partial<SessionHeader> = {}): SessionHeader {
  return {
    version: 1,
    id,
    cwd: "/work",
    createdAt: "2026-01-01T00:00:00.000Z",
    origin: "test",
    lineage: null,
    delegationDepth: 0,
    ...extra,
  };
}

/** An event at `seq`. */
export function ev(seq: number, data: unknown = { n: seq }): SessionEvent {
  return { seq, type: "note", at: "2026-01-01T00:00:00.000Z", data };
}

/** Events `[from, to)`. */
export function evs(from: number, to: number): SessionEvent[] {
  return Array.from({ length: to - from }, (_, i) => ev(from + i));
}

/**
 * The backend kinds every contract test runs against; `driver` is the test storage driver of
 * `_memory_driver.ts`, opened through the `StorageDriver` seam; `libsql-shared` is a libSQL file
 * opened in shared mode (no writer lock); `postgres` a fresh database of the test process's
 * throw-away cluster (tests/_postgres.ts).
 */
export type BackendKind = "memory" | "libsql" | "libsql-shared" | "jsonl" | "driver" | "postgres";

/**
 * The kinds a lane runs on here: `postgres` only where a server can be started (else the lane
 * prints that it skips).
 *
 * @param kinds the kinds the lane is written for
 * @returns those that run
 */
export function runnable<K extends BackendKind>(kinds: readonly K[]): K[] {
  return kinds.filter((k) => k !== "postgres" || postgresLanes());
}

/** One database per test directory, so a reopen in the same test finds its data. */
const databases = new Map<string, Promise<string>>();

/**
 * The storage URL of `kind` for a test directory: a `file:` URL, or a PostgreSQL database URL
 * (created on first use).
 */
export function storageUrl(kind: BackendKind, dir: string): Promise<string> {
  if (kind !== "postgres") return Promise.resolve(`file:${dir}/chime.db`);
  let url = databases.get(dir);
  if (url === undefined) {
    url = sharedPostgres().then((cluster) => cluster.database());
    databases.set(dir, url);
  }
  return url;
}

/** Opens a backend of `kind` inside `dir`. */
export async function openBackend(kind: BackendKind, dir: string): Promise<PersistenceBackend> {
  if (kind === "postgres") return await PostgresBackend.open({ url: await storageUrl(kind, dir) });
  if (kind === "libsql-shared") {
    return await LibsqlBackend.open({ url: await storageUrl(kind, dir), shared: true });
  }
  if (kind === "memory") return new MemoryBackend();
  if (kind === "driver") {
    const settings = memoryDriver.parse({ kind: "memory-test", name: dir }, {
      file: "test.jsonc",
      baseDir: dir,
    });
    return await memoryDriver.open(settings, {});
  }
  if (kind === "libsql") return await LibsqlBackend.open({ url: `file:${dir}/chime.db` });
  return await JsonlBackend.open({ dir: `${dir}/jsonl` });
}

/**
 * A decorator that injects one-shot faults into a real backend: `before` rejects without calling
 * it; `after` lets the call commit, then rejects.
 */
export class FaultyBackend implements PersistenceBackend {
  readonly kind: string;
  readonly inner: PersistenceBackend;
  #faults: (Fault & { skip: number })[] = [];

  constructor(inner: PersistenceBackend) {
    this.inner = inner;
    this.kind = `faulty-${inner.kind}`;
  }

  /** Arms a one-shot fault that strikes after `skip` matching calls went through. */
  failNext(fault: Fault, skip = 0): void {
    this.#faults.push({ ...fault, skip });
  }

  /** Faults armed and not yet struck. */
  get armed(): number {
    return this.#faults.length;
  }

  async #run<T>(op: Fault["op"], id: string, call: () => Promise<T>): Promise<T> {
    const take = (when: Fault["when"]) => {
      const i = this.#faults.findIndex((f) =>
        f.op === op && f.when === when && (f.id === undefined || f.id === id)
      );
      if (i >= 0 && this.#faults[i]!.skip-- === 0) {
        this.#faults.splice(i, 1);
        throw new Error(`injected ${op} failure ${when} commit`);
      }
    };
    take("before");
    const result = await call();
    take("after");
    return result;
  }

  cursor(id: string): Promise<StoredCursor | undefined> {
    return this.#run("cursor", id, () => this.inner.cursor(id));
  }
  initialize(h: SessionHeader, events: readonly SessionEvent[]): Promise<void> {
    return this.#run("initialize", h.id, () => this.inner.initialize(h, events));
  }
  append(id: string, events: readonly SessionEvent[]): Promise<void> {
    return this.#run("append", id, () => this.inner.append(id, events));
  }
  fork(
    h: SessionHeader,
    parentId: string,
    throughSeq: number,
    own: readonly SessionEvent[],
  ): Promise<void> {
    return this.#run("fork", h.id, () => this.inner.fork(h, parentId, throughSeq, own));
  }
  load(id: string): Promise<StoredSession | undefined> {
    return this.#run("load", id, () => this.inner.load(id));
  }
  tail(id: string, count: number): Promise<StoredTail | undefined> {
    return this.#run("tail", id, () => this.inner.tail(id, count));
  }
  readByType(
    id: string,
    types: readonly string[],
    from: number,
    to: number,
  ): Promise<SessionEvent[]> {
    return this.#run("read", id, () => this.inner.readByType(id, types, from, to));
  }
  readEvents(id: string, page?: EventPage): Promise<SessionEvent[]> {
    return this.inner.readEvents(id, page);
  }
  list(): Promise<SessionHeader[]> {
    return this.inner.list();
  }
  async [Symbol.asyncDispose](): Promise<void> {
    await this.inner[Symbol.asyncDispose]();
  }
}
