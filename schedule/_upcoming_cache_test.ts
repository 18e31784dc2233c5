// The Upcoming start-up cache's files (docs/upcoming.md "The start-up cache"), real files in a
// temporary folder: written whole, read back in list order chunk by chunk or at once, and not
// used when missing, of another version, torn or broken.
import assert from "node:assert/strict";
import { join } from "node:path";
import { header } from "../tests/session/_helpers.ts";
import { CACHE_VERSION, type CachedPart, readCacheMeta, writeCache } from "./_upcoming_cache.ts";
import type { ScheduleRecord } from "./protocol.ts";

const at = (id: string, minute: number, prompt = "x".repeat(200)): ScheduleRecord => ({
  id: id as ScheduleRecord["id"],
  kind: "at",
  prompt,
  scheduledAt: new Date(Date.UTC(2030, 0, 1, 0, minute)).toISOString(),
});
const keyOf = (r: ScheduleRecord) => Date.parse(r.scheduledAt);

async function folder(): Promise<string> {
  return await Deno.makeTempDir({ prefix: "chime-upcoming-cache-unit-" });
}

Deno.test("the cache reads back its rows in list order, each with its session's header", async () => {
  const dir = await folder();
  try {
    const parts = new Map<string, CachedPart>();
    // Enough rows for several 64 KB chunks, sessions interleaved in list order.
    for (let s = 0; s < 40; s++) {
      const active = Array.from({ length: 20 }, (_, r) => at(`sch_${s}_${r}`, r * 40 + s));
      parts.set(`s${s}`, { header: header(`s${s}`), length: 30 + s, active });
    }
    parts.set("empty", { header: undefined, length: 3, active: [] });
    writeCache(join(dir, "cache"), parts, keyOf);
    const meta = (await readCacheMeta(join(dir, "cache")))!;
    assert.equal(meta.lengths.get("s7"), 37);
    assert.equal(meta.lengths.get("empty"), 3);
    const first = (await meta.rows.row(0))!;
    assert.equal(first.record.id, "sch_0_0");
    assert.equal(first.header.id, "s0");
    const lazy = [];
    for (let i = 0;; i++) {
      const row = await meta.rows.row(i);
      if (row === undefined) break;
      lazy.push(row);
    }
    assert.equal(lazy.length, 800);
    assert.deepEqual(lazy.map((r) => r.key), lazy.map((r) => r.key).sort((a, b) => a - b));
    assert.ok(lazy.every((r) => r.record.id.startsWith(`sch_${r.header.id.slice(1)}_`)));
    // At once, from another reader: the same rows.
    const again = (await readCacheMeta(join(dir, "cache")))!;
    await again.rows.row(3);
    assert.deepEqual(await again.rows.all(), lazy);
    assert.deepEqual(await again.rows.all(), lazy);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a missing, foreign, older, torn or broken cache is not used", async () => {
  const dir = await folder();
  try {
    const cache = join(dir, "cache");
    assert.equal(await readCacheMeta(cache), undefined, "missing");
    const parts = new Map<string, CachedPart>([
      ["s", { header: header("s"), length: 2, active: [at("sch_a", 1), at("sch_b", 2)] }],
    ]);
    writeCache(cache, parts, keyOf);
    const meta = join(cache, "upcoming-meta.json");
    const rows = join(cache, "upcoming-rows.ndjson");
    const text = await Deno.readTextFile(meta);
    await Deno.writeTextFile(meta, text.replace(`"version":${CACHE_VERSION}`, '"version":0'));
    assert.equal(await readCacheMeta(cache), undefined, "older");
    await Deno.writeTextFile(meta, text.replace('"lengths":{', '"lengths":null,"x":{'));
    assert.equal(await readCacheMeta(cache), undefined, "no lengths");
    await Deno.writeTextFile(meta, "{");
    assert.equal(await readCacheMeta(cache), undefined, "not JSON");
    await Deno.writeTextFile(meta, text);
    const good = await Deno.readTextFile(rows);
    await Deno.writeTextFile(rows, good.replace(/^[^\n]*/, '"another"'));
    assert.equal(await readCacheMeta(cache), undefined, "torn: another pair's rows");
    await Deno.writeTextFile(rows, good.replace(/^[^\n]*/, "{"));
    assert.equal(await readCacheMeta(cache), undefined, "torn: no token line");
    await Deno.writeTextFile(rows, good.replace(/^[^\n]*/, "7"));
    assert.equal(await readCacheMeta(cache), undefined, "torn: a token that is not text");
    await Deno.remove(rows);
    assert.equal(await readCacheMeta(cache), undefined, "no rows file");
    // A broken row: the reader raises, so the caller reads the logs instead.
    await Deno.writeTextFile(rows, `${good.split("\n").slice(0, 3).join("\n")}\n["R",1,`);
    const broken = (await readCacheMeta(cache))!;
    assert.equal((await broken.rows.row(0))?.record.id, "sch_a");
    await assert.rejects(() => broken.rows.row(5));
    await assert.rejects(() => broken.rows.all());
    // A last line without its newline still counts; a length that is not one is left out.
    await Deno.writeTextFile(rows, good.trimEnd());
    await Deno.writeTextFile(meta, text.replace('"lengths":{', '"lengths":{"bad":1.5,'));
    const trimmed = (await readCacheMeta(cache))!;
    assert.equal(trimmed.lengths.has("bad"), false);
    assert.equal((await trimmed.rows.all()).length, 2);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
