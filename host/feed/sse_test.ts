import assert from "node:assert/strict";
import { Hono } from "hono";
import { FeedClient } from "./feed_client.ts";
import { sseFrame } from "./frame.ts";
import { pumpClient } from "./sse.ts";

const decoder = new TextDecoder();

/** `clients` streams of one app, each pumping its own {@linkcode FeedClient}. */
async function streams(clients: readonly FeedClient[]) {
  const app = new Hono();
  app.get("/s/:i", (c) => pumpClient(c, () => clients[Number(c.req.param("i"))]!, () => false));
  const readers = [];
  for (let i = 0; i < clients.length; i++) {
    const response = await app.request(`/s/${i}`);
    assert.equal(response.headers.get("content-type"), "text/event-stream");
    const reader = response.body!.getReader();
    const first = await reader.read();
    assert.equal(decoder.decode(first.value), "retry: 1000\n\n");
    readers.push(reader);
  }
  return readers;
}

Deno.test("a live frame is written to every stream in the push itself, encoded once for all", async () => {
  const clients = Array.from({ length: 50 }, () => new FeedClient());
  const readers = await streams(clients);
  const event = { seq: 0, type: "note", at: "2030-01-01T00:00:00.000Z", data: { text: "hi" } };
  const frame = sseFrame({ kind: "event", event }, 0);
  for (const client of clients) client.push(frame);
  // Nothing waits in a client's queue for a pump to wake up: the push wrote it.
  assert.deepEqual(clients.map((c) => c.queued), Array(50).fill(0));
  const chunks = await Promise.all(readers.map(async (r) => (await r.read()).value!));
  assert.equal(decoder.decode(chunks[0]), frame);
  assert.ok(chunks.every((chunk) => chunk === chunks[0]), "one encoding, shared by every stream");
  for (const client of clients) client.close();
  for (const reader of readers) assert.equal((await reader.read()).done, true);
});

Deno.test("a stream that does not read is dropped once its bytes pass the client's bound", async () => {
  const slow = new FeedClient({ maxBytes: 8 * 1024 });
  const fast = new FeedClient({ maxBytes: 8 * 1024 });
  const [, reader] = await streams([slow, fast]);
  const frame = `data: ${"x".repeat(1_000)}\n\n`;
  let read = 0;
  for (let i = 0; i < 20 && !slow.dropped; i++) {
    slow.push(frame);
    fast.push(frame);
    read += (await reader!.read()).value!.length;
  }
  assert.equal(slow.dropped, true);
  assert.equal(slow.closed, true);
  assert.equal(fast.dropped, false);
  assert.ok(read >= 8 * frame.length, `${read} bytes read by the reading stream`);
  fast.close();
});

Deno.test("a last frame ends the stream after it; an idle stream gets heartbeats", async () => {
  const client = new FeedClient();
  const app = new Hono();
  app.get("/", (c) => pumpClient(c, () => client, () => false, { heartbeatMs: 5, retryMs: 7 }));
  const reader = (await app.request("/")).body!.getReader();
  assert.equal(decoder.decode((await reader.read()).value), "retry: 7\n\n");
  assert.equal(decoder.decode((await reader.read()).value), ": heartbeat\n\n");
  client.end("event: session-lost\ndata: {}\n\n");
  let text = "";
  for (let r = await reader.read(); !r.done; r = await reader.read()) {
    text += decoder.decode(r.value);
  }
  assert.ok(text.endsWith("event: session-lost\ndata: {}\n\n"), text);
  assert.equal(client.closed, true);
});

Deno.test("frames written while the reader is busy leave as one chunk at its next read", async () => {
  const client = new FeedClient();
  const [reader] = await streams([client]);
  const frames = [0, 1, 2].map((seq) =>
    sseFrame({
      kind: "event",
      event: { seq, type: "note", at: "2030-01-01T00:00:00.000Z", data: { seq } },
    }, seq)
  );
  // Nobody reads yet: all three are held, then handed over together.
  for (const frame of frames) client.push(frame);
  assert.equal(decoder.decode((await reader!.read()).value), frames.join(""));
  // A reader already waiting gets a frame at the end of the turn, with whatever else the turn
  // wrote.
  const next = reader!.read();
  client.push(frames[0]!);
  client.push(frames[1]!);
  assert.equal(decoder.decode((await next).value), frames[0]! + frames[1]!);
  client.close();
  assert.equal((await reader!.read()).done, true);
});
