/**
 * {@linkcode writeFileAtomic}: a small durable file of the host's data directory replaced whole,
 * so a reader (or the host after a crash) sees the old content or the new, never a torn one.
 *
 * @module
 */
import { dirname } from "node:path";

/**
 * Replaces `path` with `text`: written to a fresh temporary file beside it (created with `mode`,
 * so it is never readable by others even for a moment), `fsync`ed, renamed over `path` (atomic
 * on POSIX, rename(2)), then the directory is `fsync`ed so the rename survives a power loss. The
 * directory is created when missing. On failure the temporary file is removed and `path` keeps
 * its old content.
 *
 * @param path the file to replace
 * @param text its new content (UTF-8)
 * @param mode permission bits of the new file (the umask may only narrow them) @default 0o600
 * @throws {Deno.errors.PermissionDenied | Error} whatever the file system raised (no space, a
 *   read-only directory); `path` is unchanged then
 */
export async function writeFileAtomic(path: string, text: string, mode = 0o600): Promise<void> {
  const dir = dirname(path);
  await Deno.mkdir(dir, { recursive: true, mode: 0o700 });
  const tmp = `${path}.${crypto.randomUUID()}.tmp`;
  try {
    const file = await Deno.open(tmp, { write: true, createNew: true, mode });
    try {
      const bytes = new TextEncoder().encode(text);
      for (let done = 0; done < bytes.length;) done += await file.write(bytes.subarray(done));
      await file.sync();
    } finally {
      file.close();
    }
    await Deno.rename(tmp, path);
  } catch (error) {
    await Deno.remove(tmp).catch(() => {});
    throw error;
  }
  try {
    const handle = await Deno.open(dir, { read: true });
    try {
      await handle.sync();
    } finally {
      handle.close();
    }
  } catch {
    // Some file systems cannot sync a directory; the rename itself is done.
  }
}
