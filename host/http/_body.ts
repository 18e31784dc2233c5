/**
 * Request bodies read whole before any route sees them (private): bounded in size and in time,
 * JSON only on the API. A body cut short by the client or stalled mid-way is a coded 4xx, never
 * a 500 (README "How it behaves on failure").
 *
 * @module
 */
import type { MiddlewareHandler } from "hono";
import { HostError } from "../errors.ts";
import { isUnsafeMethod } from "./security.ts";

/** Limits of {@linkcode readBody}. */
export interface BodyLimits {
  /** Largest body, bytes. */
  readonly maxBytes: number;
  /** The whole body must arrive within this time, ms. */
  readonly timeoutMs: number;
}

/**
 * Reads a request body whole.
 *
 * @param request the request
 * @param limits size and time bounds
 * @returns the bytes (empty for a request without a body)
 * @throws {HostError} `payload_too_large`, `body_timeout` (the stream is cancelled),
 *   `body_incomplete` (the client ended the connection early)
 */
export async function readBody(
  request: Request,
  limits: BodyLimits,
): Promise<Uint8Array<ArrayBuffer>> {
  const tooLarge = () =>
    new HostError("payload_too_large", "Cannot read body: it is too large", {
      limit: limits.maxBytes,
    });
  const declared = request.headers.get("content-length");
  if (declared !== null && Number(declared) > limits.maxBytes) throw tooLarge();
  if (request.body === null) return new Uint8Array(0);
  const reader = request.body.getReader();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timedOut = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () =>
        reject(
          new HostError("body_timeout", "Cannot read body: it did not arrive in time", {
            timeoutMs: limits.timeoutMs,
          }),
        ),
      limits.timeoutMs,
    );
  });
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    for (;;) {
      const { done, value } = await Promise.race([reader.read(), timedOut]);
      if (done) break;
      size += value.length;
      if (size > limits.maxBytes) throw tooLarge();
      chunks.push(value);
    }
  } catch (error) {
    reader.cancel().catch(() => {});
    if (error instanceof HostError) throw error;
    throw new HostError("body_incomplete", "Cannot read body: the client ended it early");
  } finally {
    clearTimeout(timer);
  }
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.length;
  }
  return bytes;
}

/** The media type of a `Content-Type` value, lowercase, without parameters. */
function mediaType(value: string): string {
  return value.split(";", 1)[0]!.trim().toLowerCase();
}

/**
 * API bodies: an unsafe method's `Content-Type`, when present, must be `application/json`, and
 * a non-empty body needs it (`415 unsupported_media_type`); a body-less POST (resume, cancel,
 * retry) may send neither. The body is read whole within the limits and handed on as bytes.
 *
 * @param limits size and time bounds
 * @returns the middleware
 */
export function jsonBodies(limits: BodyLimits): MiddlewareHandler {
  return async (c, next) => {
    if (!isUnsafeMethod(c.req.method)) return await next();
    const type = c.req.header("content-type");
    const unsupported = () =>
      new HostError(
        "unsupported_media_type",
        "Cannot read body: send it as Content-Type: application/json",
      );
    if (type !== undefined && mediaType(type) !== "application/json") throw unsupported();
    const bytes = await readBody(c.req.raw, limits);
    if (bytes.length > 0 && type === undefined) throw unsupported();
    // Never `body: null`: a Request built from a read one would reuse its spent stream. Built
    // from its parts, not from the request itself: copying the original would read its
    // `signal`, which makes Deno.serve print its legacy-abort warning on every POST.
    const raw = c.req.raw;
    if (raw.body !== null) {
      c.req.raw = new Request(raw.url, { method: raw.method, headers: raw.headers, body: bytes });
    }
    await next();
  };
}
