/**
 * Requests the HTTP server cannot parse get a coded JSON `400 malformed_request` over a real
 * socket, like every other refusal (docs/errors.md "HTTP"), not the server's empty `400`; a
 * well-formed request on the next connection is served as usual.
 *
 * @module
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { loadConfig, startServer } from "@chime/host";
import { MemoryBackend } from "@chime/session/testing";
import { ROOT } from "./_server.ts";

/** Sends raw bytes on a fresh connection and reads until the server closes it. */
async function raw(port: number, request: string): Promise<string> {
  const conn = await Deno.connect({ hostname: "127.0.0.1", port });
  await conn.write(new TextEncoder().encode(request));
  const chunks: Uint8Array[] = [];
  const buffer = new Uint8Array(65_536);
  for (;;) {
    const n = await conn.read(buffer).catch(() => null);
    if (n === null) break;
    chunks.push(buffer.slice(0, n));
    const text = new TextDecoder().decode(new Uint8Array(chunks.flatMap((c) => [...c])));
    const [head, body] = text.split("\r\n\r\n", 2);
    const length = Number(head?.match(/content-length: (\d+)/i)?.[1] ?? NaN);
    if (body !== undefined && new TextEncoder().encode(body).length >= length) break;
  }
  conn.close();
  return new TextDecoder().decode(new Uint8Array(chunks.flatMap((c) => [...c])));
}

Deno.test("regression: malformed HTTP/1.1 requests answer a coded JSON 400, never an empty one", async () => {
  const config = await loadConfig(join(ROOT, "config", "default.jsonc"), { env: {} });
  await using server = await startServer({ config, port: 0, backend: new MemoryBackend() });
  const port = Number(new URL(server.url).port);
  const host = `Host: 127.0.0.1:${port}\r\n`;
  const malformed = {
    "a bad method": `G@T / HTTP/1.1\r\n${host}\r\n`,
    "an unknown version": `GET / HTTP/9.9\r\n${host}\r\n`,
    "a space in the target": `GET /a b HTTP/1.1\r\n${host}\r\n`,
    "a header without a colon": `GET / HTTP/1.1\r\n${host}Bad Header: x\r\n\r\n`,
    "a bad Content-Length": `POST /api/sessions HTTP/1.1\r\n${host}Content-Length: abc\r\n\r\n`,
    "two Content-Lengths": `POST /api/sessions HTTP/1.1\r\n${host}Content-Length: 2\r\n` +
      `Content-Length: 3\r\n\r\n{}`,
    "Transfer-Encoding with Content-Length": `POST /api/sessions HTTP/1.1\r\n${host}` +
      `Content-Length: 2\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n`,
    "a header block over the limit": `GET / HTTP/1.1\r\n${host}X: ${"a".repeat(100_000)}\r\n\r\n`,
  };
  for (const [what, request] of Object.entries(malformed)) {
    const answer = await raw(port, request);
    const [head, body] = answer.split("\r\n\r\n", 2);
    assert.match(head!, /^HTTP\/1\.1 400 /, what);
    assert.match(head!, /content-type: application\/json/i, what);
    assert.equal(JSON.parse(body!).error.code, "malformed_request", what);
  }
  const fine = await fetch(`${server.url}api/sessions`);
  assert.equal(fine.status, 200, "the server still serves well-formed requests");
  await fine.body?.cancel();
});
