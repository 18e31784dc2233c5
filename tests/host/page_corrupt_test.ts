/**
 * Page-level damage of a real libSQL database (README.md "How it behaves on failure"): bytes overwritten inside a
 * b-tree page of the `events` table, beyond its page header, are answered `500 storage_corrupt`
 * for the session whose rows the page holds (never `internal_error`), and the other sessions
 * keep serving.
 *
 * @module
 */
import assert from "node:assert/strict";
import { createClient } from "@libsql/client";
import { ScriptedModel } from "@chime/agent";
import { createApp } from "@chime/host";
import { fileRuntime } from "./_file_runtime.ts";

const PAGE_SIZE = 4096;

Deno.test("a damaged b-tree page of the events table is `storage_corrupt` for its session only", async () => {
  const dir = await Deno.makeTempDir({ prefix: "chime-page-" });
  const model = new ScriptedModel(() => ({ text: "ok" }));
  {
    await using runtime = await fileRuntime(dir, model);
    const { session: damaged } = await runtime.create({ id: "damaged", timeZone: "UTC" });
    const { session: intact } = await runtime.create({ id: "intact", timeZone: "UTC" });
    // Enough rows that the damaged session spans many leaf pages of its own.
    for (let i = 0; i < 200; i++) {
      damaged.append("note", { text: `MARK${String(i).padStart(4, "0")}` + "x".repeat(400) });
    }
    intact.append("note", { text: "fine" });
    assert.equal(await runtime.store.flush(damaged), true);
    assert.equal(await runtime.store.flush(intact), true);
  }
  // Every committed page into the database file, then damage the leaf page that holds event 100
  // of `damaged`: its cell pointer array (just past the 8-byte leaf header).
  const path = `${dir}/chime.db`;
  const client = createClient({ url: `file:${path}` });
  await client.execute("PRAGMA wal_checkpoint(TRUNCATE)");
  client.close();
  const bytes = await Deno.readFile(path);
  // A freed page keeps the bytes of rows it held before a split, so the text may appear more
  // than once: the row is the copy on a leaf page.
  const text = new TextDecoder("latin1").decode(bytes);
  let at = text.indexOf("MARK0100");
  while (at >= 0 && bytes[Math.floor(at / PAGE_SIZE) * PAGE_SIZE] !== 0x0a) {
    at = text.indexOf("MARK0100", at + 1);
  }
  assert.ok(at > PAGE_SIZE, "the row is in a page of its own past page 1");
  const page = Math.floor(at / PAGE_SIZE) * PAGE_SIZE;
  assert.equal(bytes[page], 0x0a, "a leaf page of a WITHOUT ROWID table (an index b-tree)");
  bytes.fill(0xff, page + 8, page + 48);
  await Deno.writeFile(path, bytes);

  await using runtime = await fileRuntime(dir, model);
  const app = createApp(runtime);
  const read = await app.request("/api/sessions/damaged/history?limit=500");
  const body = await read.json();
  assert.equal(read.status, 500, JSON.stringify(body));
  assert.equal(body.error.code, "storage_corrupt");
  assert.equal(body.error.sessionId, "damaged");
  const other = await app.request("/api/sessions/intact/history?limit=500");
  assert.equal(other.status, 200);
  const events = (await other.json()).events as { data: { text?: string } }[];
  assert.equal(events.at(-1)?.data.text, "fine");
  await Deno.remove(dir, { recursive: true });
});
