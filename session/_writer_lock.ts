// Private: one writing process per local store (a database file or a JSONL folder). The seed's
// durability argument assumes the persistence coordinator is the only writer: a second process
// appending to the same file could make a flush acknowledge a prefix storage holds differently.
import { SessionError } from "./errors.ts";

/**
 * Takes an exclusive advisory lock on `path` (created when missing) without waiting, and holds
 * it until the returned handle is disposed. The operating system releases it when the process
 * dies, so a SIGKILLed host never leaves a stale lock.
 *
 * @throws {SessionError} `storage_in_use` when another open handle holds the lock
 */
export async function acquireWriterLock(path: string, what: string): Promise<Disposable> {
  const file = await Deno.open(path, { create: true, read: true, write: true });
  let acquired = false;
  try {
    acquired = await file.tryLock(true);
  } finally {
    if (!acquired) file.close();
  }
  if (!acquired) {
    throw new SessionError(
      "storage_in_use",
      `Cannot open ${what}: another process is writing it (lock ${path})`,
    );
  }
  return { [Symbol.dispose]: () => file.close() };
}
