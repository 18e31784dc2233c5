/**
 * Private to `_front.ts`: the coded answer to a request the HTTP server could not parse. Deno's
 * HTTP server answers a malformed request (a bad request line, method or version, a header
 * that is not `name: value`, a bad or repeated `Content-Length`, `Transfer-Encoding` with
 * `Content-Length`, a header block over its limit) itself, before any handler, with an empty
 * `400` and `connection: close`. The front relays every byte the server sends, and replaces
 * exactly that response with `400 { error: { code: "malformed_request", message } }`, like every
 * other refusal (docs/errors.md "HTTP"). Nothing else is touched: the app's own 400s always have
 * a JSON body.
 *
 * @module
 */

const PREFIX = "HTTP/1.1 400 Bad Request\r\n";
const BODY = JSON.stringify({
  error: {
    code: "malformed_request",
    message: "Cannot read request: it is not valid HTTP/1.1 (RFC 9112)",
  },
});

/**
 * The coded response for one chunk the server sent, when the chunk is exactly the server's
 * empty parse-error `400` (the whole head, no body).
 *
 * @param chunk bytes the server wrote
 * @returns the replacement bytes, or `undefined` to relay the chunk as it is
 */
export function codedBadRequest(chunk: Uint8Array): Uint8Array | undefined {
  if (chunk.length > 512 || chunk.length < PREFIX.length) return undefined;
  const text = new TextDecoder().decode(chunk);
  if (!text.startsWith(PREFIX) || !text.endsWith("\r\n\r\n")) return undefined;
  const lines = text.slice(PREFIX.length, -4).split("\r\n").map((line) => line.toLowerCase());
  if (!lines.includes("content-length: 0") || !lines.includes("connection: close")) {
    return undefined;
  }
  const date = text.match(/\r\ndate: ([^\r]*)/i)?.[1];
  const head = [
    "HTTP/1.1 400 Bad Request",
    "content-type: application/json",
    `content-length: ${new TextEncoder().encode(BODY).length}`,
    "x-content-type-options: nosniff",
    "cache-control: no-store",
    ...(date === undefined ? [] : [`date: ${date}`]),
    "connection: close",
  ];
  return new TextEncoder().encode(`${head.join("\r\n")}\r\n\r\n${BODY}`);
}
