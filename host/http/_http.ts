/**
 * Request parsing helpers shared by the route files (private).
 *
 * @module
 */
import type { Context } from "hono";
import { isSessionId, normalizeTimeZone } from "@chime/session";
import { HostError } from "../errors.ts";

/** Parses text as one JSON object. */
function parseJsonObject(text: string): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new HostError("invalid_json", "Cannot read body: it is not JSON");
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new HostError("invalid_request", "Cannot read body: expected a JSON object");
  }
  return value as Record<string, unknown>;
}

/** Reads the body as one JSON object. */
export async function readJsonObject(c: Context): Promise<Record<string, unknown>> {
  return parseJsonObject(await c.req.text());
}

/** Reads an optional JSON object body: an empty body is `{}`. */
export async function readOptionalJsonObject(c: Context): Promise<Record<string, unknown>> {
  const text = await c.req.text();
  return text.trim() === "" ? {} : parseJsonObject(text);
}

/** The `:id` path parameter, validated. */
export function sessionIdParam(c: Context): string {
  const id = c.req.param("id");
  if (!isSessionId(id)) {
    throw new HostError("invalid_session_id", "Cannot find session: the id is malformed");
  }
  return id;
}

const MESSAGE_ID = /^[A-Za-z0-9_-]{1,128}$/;

/** The `:messageId` path parameter, validated. */
export function messageIdParam(c: Context): string {
  const id = c.req.param("messageId");
  if (id === undefined || !MESSAGE_ID.test(id)) {
    throw new HostError("message_not_found", "Cannot find message: the id is malformed");
  }
  return id;
}

/** An IANA zone from a body field, case-normalized; absent or invalid is `invalid_time_zone`. */
export function timeZoneField(body: Record<string, unknown>, field: string): string {
  if (body[field] === undefined) {
    throw new HostError("invalid_time_zone", `Cannot accept request: ${field} is required`, {
      field,
    });
  }
  return normalizeTimeZone(body[field]);
}

/** Maximum prompt length in UTF-16 code units. */
export const MAX_TEXT = 32 * 1024;

/** A required non-blank text field (a prompt is plain text, never HTML). */
export function textField(body: Record<string, unknown>, field: string): string {
  const value = body[field];
  if (typeof value !== "string" || value.trim() === "") {
    throw new HostError(
      "invalid_request",
      `Cannot accept request: ${field} must be non-empty text`,
      {
        field,
      },
    );
  }
  if (value.length > MAX_TEXT) {
    throw new HostError("payload_too_large", `Cannot accept request: ${field} is too long`, {
      field,
      limit: MAX_TEXT,
    });
  }
  return value;
}

/** An optional non-negative integer query parameter or number field. */
export function intValue(
  value: unknown,
  field: string,
  min: number,
  max: number,
): number | undefined {
  if (value === undefined || value === null) return undefined;
  const n = typeof value === "string" && /^-?\d+$/.test(value) ? Number(value) : value;
  if (typeof n !== "number" || !Number.isSafeInteger(n) || n < min || n > max) {
    throw new HostError(
      "invalid_query",
      `Cannot read ${field}: expected an integer ${min}..${max}`,
      {
        field,
      },
    );
  }
  return n;
}
