/**
 * Against a real server process: SSE resume after a dropped connection. (The keyless main job
 * against the source and the built form is `built_test.ts`.)
 *
 * @module
 */
import assert from "node:assert/strict";
import { readSse, type SseMessage } from "./_helpers.ts";
import { eventOf, post, raw, spawnServer } from "./_server.ts";

Deno.test("SSE resumes after a dropped connection without loss or duplicates", async () => {
  const dataDir = await Deno.makeTempDir();
  await using server = await spawnServer(dataDir, "config/default.jsonc");
  const { header } = await post(`${server.url}/api/sessions`, { timeZone: "Asia/Tokyo" });
  const id = (header as { id: string }).id;
  const turnEnds = (n: number) => (ms: readonly SseMessage[]) =>
    ms.filter((m) => raw(m) && eventOf(m).type === "turn/end").length >= n;
  const first = await fetch(`${server.url}/api/sessions/${id}/stream`);
  await post(`${server.url}/api/sessions/${id}/messages`, {
    text: "hello",
    clientTimeZone: "Asia/Tokyo",
  });
  const before = (await readSse(first.body!, turnEnds(1))).filter(raw);
  const last = before.at(-1)!.id!;
  // Disconnected: two more turns happen meanwhile.
  await post(`${server.url}/api/sessions/${id}/messages`, {
    text: "one",
    clientTimeZone: "Asia/Tokyo",
  });
  await post(`${server.url}/api/sessions/${id}/messages`, { text: "two", clientTimeZone: "UTC" });
  const second = await fetch(`${server.url}/api/sessions/${id}/stream`, {
    headers: { "Last-Event-ID": last },
  });
  const after = (await readSse(second.body!, (ms) => {
    const two = ms.find((m) => raw(m) && eventOf(m).data.text === "two");
    return two !== undefined &&
      ms.some((m) => raw(m) && eventOf(m).type === "turn/end" && eventOf(m).seq > eventOf(two).seq);
  })).filter(raw);
  const seqs = [...before, ...after].map((m) => eventOf(m).seq);
  assert.deepEqual(seqs, seqs.map((_, i) => i), "contiguous across the reconnect");
  const zones = [...before, ...after].map(eventOf).filter((e) => e.type === "user-rpc")
    .map((e) => (e.data.source as { clientTimeZone: string }).clientTimeZone);
  assert.deepEqual(zones, ["Asia/Tokyo", "Asia/Tokyo", "UTC"]);
  const viaQuery = await fetch(`${server.url}/api/sessions/${id}/stream?after=${seqs.at(-1)! - 1}`);
  const tail = await readSse(viaQuery.body!, (ms) => ms.some(raw));
  assert.equal(eventOf(tail.find(raw)!).seq, seqs.at(-1));
  assert.equal(await server.stop(), 0);
  await Deno.remove(dataDir, { recursive: true });
});
