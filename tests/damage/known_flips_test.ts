/**
 * Flips of the full damage lane (`deno task damage 400`, seed 26) that were served silently
 * before the libSQL reads cross-checked the table with its type index (README.md "How it
 * behaves on failure"): a table page that drops a session's newest rows (the page and tail
 * reads), a table row an index key still names (the typed reads), and a header row lost while
 * its events remain (cursor and tail). Each must now be a coded error, and the doctor must find it.
 *
 * @module
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { buildOriginals, copyTree, openStore, readAll, runFlip } from "./_lane.ts";

const FLIPS = [
  { offset: 32811, mask: 196, reads: ["page s3 after", "page s3 newest"] },
  { offset: 23771, mask: 17, reads: ["reminders s0", "upcoming"] },
  { offset: 4111, mask: 252, reads: ["cursor s3", "tail s3"] },
];

Deno.test("flips once served silently are coded storage_corrupt now", async () => {
  const work = await Deno.makeTempDir({ prefix: "chime-known-flips-" });
  try {
    const originals = join(work, "originals");
    await buildOriginals(originals);
    const copy = join(work, "expected");
    await copyTree(originals, copy);
    let expected: Map<string, string>;
    {
      await using backend = await openStore("db", copy);
      expected = await readAll(backend);
    }
    for (const [index, flip] of FLIPS.entries()) {
      const result = await runFlip(originals, expected, {
        index,
        kind: "db",
        file: "chime.db",
        offset: flip.offset,
        mask: flip.mask,
      });
      assert.equal(result.outcome, "coded error", `+${flip.offset}: ${result.seen.join(", ")}`);
      assert.ok(result.seen.includes("storage_corrupt"), `+${flip.offset}`);
      assert.equal(result.doctorMiss, false, `+${flip.offset}: the doctor missed it`);
    }
  } finally {
    await Deno.remove(work, { recursive: true });
  }
});
