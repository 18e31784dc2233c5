// Private: one writing process per local store (a database file or a JSONL folder), by identity.
// The durability argument of docs/design.md#persistence-checkpoint assumes the persistence
// coordinator is the only writer: a second process appending to the same file could make a flush
// acknowledge a prefix storage holds differently, and two hosts would both deliver the same
// reminder.
//
// The lock is an OS `flock` on the store itself: the database file, or the JSONL folder. Opening
// follows symlinks and a hard link is the same inode, so every name of one file meets the same
// lock, and there is no side file whose deletion would let a second writer in. On Linux, `flock`
// and SQLite's own `fcntl` locks do not conflict. The OS releases the lock when the process dies.
import { dirname } from "node:path";
import { SessionError } from "./errors.ts";

/** Inodes locked by this process: a second open here is refused without opening a descriptor
 * (closing any descriptor of a database file would drop SQLite's fcntl locks on it). */
const held = new Set<string>();

/** Whether an open or create failed because the file system or the file refuses writes. */
export function readOnly(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return error instanceof Deno.errors.PermissionDenied ||
    code === "EROFS" || code === "EACCES" || code === "EPERM";
}

/** The `storage_read_only` refusal of `path` (`details.path`). */
export function readOnlyError(what: string, path: string, cause: unknown): SessionError {
  return new SessionError(
    "storage_read_only",
    `Cannot open ${what}: ${path} is not writable (writes would fail or vanish)`,
    { cause, details: { path } },
  );
}

/** Creates and removes a file in `dir`: SQLite and the JSONL backend create files there. */
async function probeDirectory(dir: string, what: string): Promise<void> {
  let probe: string;
  try {
    probe = await Deno.makeTempFile({ dir, prefix: ".chime-write-probe-" });
  } catch (error) {
    throw readOnly(error) ? readOnlyError(what, dir, error) : error;
  }
  await Deno.remove(probe);
}

async function refuseHeld(path: string, what: string): Promise<void> {
  const info = await Deno.stat(path).catch((error) => {
    if (error instanceof Deno.errors.NotFound) return undefined;
    throw error;
  });
  if (info !== undefined && held.has(`${info.dev}:${info.ino}`)) throw inUse(what, path);
}

/** Takes the lock on an open descriptor; the caller closes it when this throws. */
async function hold(file: Deno.FsFile, path: string, what: string): Promise<Disposable> {
  if (!await file.tryLock(true)) throw inUse(what, path);
  const { dev, ino } = await file.stat();
  const key = `${dev}:${ino}`;
  held.add(key);
  return {
    [Symbol.dispose]: () => {
      held.delete(key);
      file.close();
    },
  };
}

async function holdOrClose(
  file: Deno.FsFile,
  check: () => Promise<string>,
  what: string,
): Promise<Disposable> {
  try {
    return await hold(file, await check(), what);
  } catch (error) {
    file.close();
    throw error;
  }
}

function inUse(what: string, path: string): SessionError {
  return new SessionError(
    "storage_in_use",
    `Cannot open ${what}: another process is writing it (lock on ${path})`,
    { details: { path } },
  );
}

/**
 * Locks a database file (created empty when missing; SQLite reads an empty file as an empty
 * database) after checking that the file and its directory are writable.
 *
 * @throws {SessionError} `storage_read_only`, `storage_in_use`
 */
export async function lockDatabaseFile(path: string, what: string): Promise<Disposable> {
  await refuseHeld(path, what);
  let file: Deno.FsFile;
  try {
    file = await Deno.open(path, { read: true, write: true, create: true });
  } catch (error) {
    throw readOnly(error) ? readOnlyError(what, path, error) : error;
  }
  return await holdOrClose(file, async () => {
    const real = await Deno.realPath(path);
    await probeDirectory(dirname(real), what);
    return real;
  }, what);
}

/**
 * Locks a JSONL folder (the directory itself, so no file inside can be deleted to defeat it)
 * after checking it is writable.
 *
 * @throws {SessionError} `storage_read_only`, `storage_in_use`
 */
export async function lockFolder(dir: string, what: string): Promise<Disposable> {
  const real = await Deno.realPath(dir);
  await refuseHeld(real, what);
  const file = await Deno.open(real, { read: true });
  return await holdOrClose(file, async () => {
    await probeDirectory(real, what);
    return real;
  }, what);
}
