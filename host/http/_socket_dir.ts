/**
 * Private to `server.ts`: the private folder of the HTTP server's Unix socket behind the idle
 * front (`_front_thread.ts`). Each host makes one (`chime-http-*` in the temporary directory,
 * mode 0700) and removes it at shutdown; one left by a host that was killed is removed by the
 * next host that starts, once nothing listens on its socket.
 *
 * @module
 */
import { join } from "node:path";
import { tmpdir } from "node:os";

/** The prefix of every socket folder. */
export const SOCKET_DIR_PREFIX = "chime-http-";
/** The socket's file name inside its folder. */
export const SOCKET_NAME = "http.sock";
/** A folder younger than this may belong to a host still starting (ms). */
const STARTING_MS = 60_000;

/**
 * Removes the socket folders of hosts that are gone: nothing accepts on the socket (or there
 * is none) and the folder has not changed for a minute. Folders of live hosts, of hosts still
 * starting and of other users are left alone; a folder that cannot be read or removed is
 * skipped.
 *
 * @param dir where the folders are @default the temporary directory
 * @returns how many folders were removed
 */
export async function sweepStaleSocketDirs(dir: string = tmpdir()): Promise<number> {
  let removed = 0;
  let entries: Deno.DirEntry[];
  try {
    entries = [...Deno.readDirSync(dir)];
  } catch {
    return 0;
  }
  const uid = Deno.uid();
  for (const entry of entries) {
    if (!entry.isDirectory || !entry.name.startsWith(SOCKET_DIR_PREFIX)) continue;
    const folder = join(dir, entry.name);
    try {
      const info = await Deno.stat(folder);
      if (info.uid !== uid) continue;
      if (Date.now() - (info.mtime?.getTime() ?? Date.now()) < STARTING_MS) continue;
      if (await accepts(join(folder, SOCKET_NAME))) continue;
      await Deno.remove(folder, { recursive: true });
      removed++;
    } catch {
      // Unreadable, or removed meanwhile: not ours to worry about.
    }
  }
  return removed;
}

/** Whether something accepts connections on a Unix socket. */
async function accepts(path: string): Promise<boolean> {
  try {
    const conn = await Deno.connect({ transport: "unix", path });
    conn.close();
    return true;
  } catch {
    return false;
  }
}

/**
 * Makes this host's socket folder (mode 0700), after sweeping stale ones.
 *
 * @returns the folder and the socket path inside it
 */
export async function makeSocketDir(): Promise<{ readonly dir: string; readonly path: string }> {
  await sweepStaleSocketDirs();
  const dir = await Deno.makeTempDir({ prefix: SOCKET_DIR_PREFIX });
  return { dir, path: join(dir, SOCKET_NAME) };
}
