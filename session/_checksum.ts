/**
 * Private: the checksum of one stored event, shared by every backend (libSQL, PostgreSQL,
 * JSONL). It is CRC-32C (Castagnoli, as Kafka and etcd use per record) of the event's canonical
 * bytes: the UTF-8 of `JSON.stringify([sessionId, seq, type, at])`, a newline, then the stored
 * `data` text (`JSON.stringify(event.data)` as written). The JSON prefix holds no raw newline,
 * so the bytes name every field a read serves unambiguously. Stored as an unsigned 32-bit
 * integer; a mismatch on read is `storage_corrupt` naming the session and seq.
 *
 * A session header has one too (libSQL schema v18, PostgreSQL schema v3, JSONL format 3): CRC-32C
 * of its canonical JSON, `JSON.stringify(normalizeHeader(header))` (`session/header.ts`), the
 * very text a JSONL log's first line starts with. A mismatch is `storage_corrupt` naming the
 * session only (README.md "How it behaves on failure").
 *
 * @module
 */
import CRC32C from "crc-32/crc32c";
import { corrupt } from "./_decode.ts";
import { normalizeHeader, type SessionHeader } from "./header.ts";

/**
 * The checksum of one event.
 *
 * @param sessionId the session the event is stored under
 * @param seq the event seq
 * @param type the event type
 * @param at the event time text
 * @param data the stored `data` text, as a string or its UTF-8 bytes (equal results)
 * @returns CRC-32C as an unsigned 32-bit integer (0 … 2³²−1)
 */
export function eventChecksum(
  sessionId: string,
  seq: number,
  type: string,
  at: string,
  data: string | Uint8Array,
): number {
  const head = CRC32C.str(JSON.stringify([sessionId, seq, type, at]) + "\n");
  const crc = typeof data === "string" ? CRC32C.str(data, head) : CRC32C.buf(data, head);
  return crc >>> 0;
}

/**
 * Checks a stored checksum against the event it was read with.
 *
 * @param stored the stored checksum (a number, bigint or numeric text; anything else is damage)
 * @param sessionId the session asked for (a row of another session fails)
 * @param seq the seq read
 * @param type the type read
 * @param at the time text read
 * @param data the stored `data` text or bytes
 * @throws {SessionError} `storage_corrupt` (`{ sessionId, seq }`, `checksum mismatch`)
 */
export function verifyChecksum(
  stored: unknown,
  sessionId: string,
  seq: number,
  type: string,
  at: string,
  data: string | Uint8Array,
): void {
  const value = typeof stored === "bigint" || typeof stored === "string" ? Number(stored) : stored;
  if (value !== eventChecksum(sessionId, seq, type, at, data)) {
    throw corrupt({ sessionId, seq }, "checksum mismatch");
  }
}

/**
 * The checksum of one session header: CRC-32C of its canonical JSON (every field a read serves,
 * in {@linkcode normalizeHeader}'s key order).
 *
 * @param header the header (normalized first, so a missing `delegationDepth` counts as `0`)
 * @returns CRC-32C as an unsigned 32-bit integer (0 … 2³²−1)
 */
export function headerChecksum(header: SessionHeader): number {
  return CRC32C.str(JSON.stringify(normalizeHeader(header))) >>> 0;
}

/**
 * Checks a stored header checksum against the header it was read with.
 *
 * @param stored the stored checksum (a number, bigint or numeric text; anything else, e.g. the
 *   `-1` an upgrade leaves on a header it could not decode, is damage)
 * @param header the header as decoded
 * @returns the header
 * @throws {SessionError} `storage_corrupt` (`{ sessionId }`, `header checksum mismatch`)
 */
export function verifyHeaderChecksum(stored: unknown, header: SessionHeader): SessionHeader {
  const value = typeof stored === "bigint" || typeof stored === "string" ? Number(stored) : stored;
  if (value !== headerChecksum(header)) {
    throw corrupt({ sessionId: header.id }, "header checksum mismatch");
  }
  return header;
}
