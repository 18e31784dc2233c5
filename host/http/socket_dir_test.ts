import assert from "node:assert/strict";
import { join } from "node:path";
import { SOCKET_NAME, sweepStaleSocketDirs } from "./_socket_dir.ts";

const OLD = new Date(Date.now() - 10 * 60_000);

/** A socket folder whose socket file is left by a listener that is gone. */
function deadSocket(folder: string): void {
  Deno.mkdirSync(folder);
  const listener = Deno.listen({ transport: "unix", path: join(folder, SOCKET_NAME) });
  listener.close();
  // Closing a Unix listener may unlink its file: a killed host leaves it, so make sure one is there.
  try {
    Deno.statSync(join(folder, SOCKET_NAME));
  } catch {
    Deno.writeTextFileSync(join(folder, SOCKET_NAME), "");
  }
}

Deno.test("a killed host's socket folder is swept; a live host's, a starting host's and others are kept", async () => {
  const tmp = await Deno.makeTempDir();
  try {
    const stale = join(tmp, "chime-http-stale");
    deadSocket(stale);
    const empty = join(tmp, "chime-http-empty"); // killed before it bound its socket
    Deno.mkdirSync(empty);
    const young = join(tmp, "chime-http-young");
    deadSocket(young);
    const live = join(tmp, "chime-http-live");
    Deno.mkdirSync(live);
    const listener = Deno.listen({ transport: "unix", path: join(live, SOCKET_NAME) });
    const other = join(tmp, "not-chime");
    Deno.mkdirSync(other);
    for (const folder of [stale, empty, live, other]) Deno.utimeSync(folder, OLD, OLD);
    try {
      assert.equal(await sweepStaleSocketDirs(tmp), 2);
      const left = [...Deno.readDirSync(tmp)].map((e) => e.name).sort();
      assert.deepEqual(left, ["chime-http-live", "chime-http-young", "not-chime"]);
      // Sweeping again changes nothing.
      assert.equal(await sweepStaleSocketDirs(tmp), 0);
    } finally {
      listener.close();
    }
  } finally {
    await Deno.remove(tmp, { recursive: true });
  }
});
