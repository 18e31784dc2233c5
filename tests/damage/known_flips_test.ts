/**
 * Flips of the full damage lane (`deno task damage 400`, seed 26) that were once served
 * silently (README.md "How it behaves on failure"), each named by the page it lands on (the
 * object and its k-th leaf page in file order, from SQLite's `dbstat`) so a schema change that
 * moves pages keeps the flip on the same bytes:
 * - a table page that drops a session's newest rows (the page and tail reads), a table row an
 *   index key still names (the typed reads), a header row lost while its events remain (cursor
 *   and tail): caught by comparing the table with `events_by_type`;
 * - three keys damaged inside `events_by_type` (a type's bytes changed, so a seek passes the
 *   reminder by): caught by the schema v17 copy of those keys, `events_typed`;
 * - an interior page whose seek yields a `max(seq)` that is not a seq, and a header whose time
 *   zone became a name no runtime knows (`was`: the offset in the v17 lane).
 *
 * Each must be a coded `storage_corrupt` now, and the doctor must find it.
 *
 * @module
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { checkStorage } from "../../session/doctor.ts";
import { buildOriginals, copyTree, leafOffset, openStore, readAll, runFlip } from "./_lane.ts";

/** A flip: byte `at` of the `leaf`-th leaf (or `internal`) page of `object`, XOR `mask`. */
export const FLIPS = [
  { object: "events", leaf: 3, at: 43, mask: 196, was: 32811 },
  { object: "events", leaf: 0, at: 3291, mask: 17, was: 23771 },
  { object: "sessions", leaf: 0, at: 15, mask: 252, was: 4111 },
  { object: "events_by_type", leaf: 0, at: 3529, mask: 121, was: 15817 },
  { object: "events_by_type", leaf: 0, at: 3073, mask: 120, was: 15361 },
  { object: "events_by_type", leaf: 0, at: 2191, mask: 153, was: 14479 },
  // v17 lane: an interior page of events whose seek yields a non-seq max(seq) (pages served empty,
  // the length as NaN), and a header's time zone changed to a name no runtime knows.
  { object: "events", leaf: 0, at: 3783, mask: 204, was: 11975, internal: true },
  { object: "sessions", leaf: 0, at: 3971, mask: 36, was: 8067 },
  // v18 lane, seed 28: a cell of the sessions page whose id now reads `2026-` (its header no
  // longer verifies): `lengths()` named that made-up session until it named only verified ones.
  { object: "sessions", leaf: 0, at: 3901, mask: 244, was: 7997 },
  // Seeds 30 and 31: the last row of a session now reads seq 116, and a page whose newest row a
  // seek no longer finds: `lengths()` gave 117 and 20 until it compared the table's last seq
  // with the type index's (every type's: the last row's type alone missed seed 31's).
  { object: "events", leaf: 2, at: 3821, mask: 6, was: 36589 },
  { object: "events", leaf: 3, at: 1097, mask: 205, was: 37961 },
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
      const offset = await leafOffset(join(originals, "chime.db"), flip);
      const result = await runFlip(originals, expected, {
        index,
        kind: "db",
        file: "chime.db",
        offset,
        mask: flip.mask,
      });
      const name = `${flip.object} page ${flip.leaf} +${flip.at} (was +${flip.was})`;
      assert.equal(result.outcome, "coded error", `${name}: ${result.seen.join(", ")}`);
      assert.ok(result.seen.includes("storage_corrupt"), name);
      assert.equal(result.doctorMiss, false, `${name}: the doctor missed it`);
    }
  } finally {
    await Deno.remove(work, { recursive: true });
  }
});

Deno.test("a schema page byte that is not UTF-8 is schema_rejected, not a libsql abort", async () => {
  const work = await Deno.makeTempDir({ prefix: "chime-known-flips-" });
  try {
    const originals = join(work, "originals");
    await buildOriginals(originals);
    // Seed 27 of the lane, +4059: inside the stored DDL text (libsql panicked on the TEXT read).
    const offset = await leafOffset(join(originals, "chime.db"), {
      object: "sqlite_schema",
      leaf: 0,
      at: 4059,
    });
    const result = await runFlip(originals, new Map(), {
      index: 0,
      kind: "db",
      file: "chime.db",
      offset,
      mask: 211,
    });
    assert.equal(result.outcome, "refused to start", result.seen.join(", "));
    assert.deepEqual(result.seen, ["schema_rejected"]);
    assert.equal(result.doctorMiss, false);
  } finally {
    await Deno.remove(work, { recursive: true });
  }
});

Deno.test("the doctor's own index comparison names a key damaged inside events_by_type", async () => {
  const work = await Deno.makeTempDir({ prefix: "chime-known-flips-" });
  try {
    await buildOriginals(work);
    const path = join(work, "chime.db");
    const flip = FLIPS.find((f) => f.object === "events_by_type")!;
    const offset = await leafOffset(path, flip);
    const bytes = await Deno.readFile(path);
    bytes[offset] = bytes[offset]! ^ flip.mask;
    await Deno.writeFile(path, bytes);
    const report = await checkStorage({ kind: "libsql", url: `file:${path}` });
    const named = report.damage.map((d) => d.what);
    // Not only integrity_check: the comparison reads the table, never the index in its place.
    assert.ok(
      named.some((w) => /^index events_by_type differs from its table/.test(w)),
      named.join("; "),
    );
    assert.ok(!named.some((w) => /^index events_typed/.test(w)), named.join("; "));
  } finally {
    await Deno.remove(work, { recursive: true });
  }
});
