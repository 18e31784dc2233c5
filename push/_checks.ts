/**
 * What `POST /api/sessions/:id/push/subscribe` accepts (docs/push.md "What is accepted"): an
 * endpoint a real push service would give, and keys a browser would make. The host sends
 * requests to the endpoint, so it is the host's outbound surface behind the token: only
 * `https:`, never a `localhost` name or an IP literal in a private, loopback, link-local,
 * shared, multicast or reserved range, no credentials, at most {@linkcode ENDPOINT_MAX}
 * characters. An origin listed in the plugin's `allowedOrigins` (a local push service in
 * tests) is the one exception. The keys are checked as RFC 8291 needs them: `p256dh` an
 * uncompressed P-256 point (65 bytes, `0x04` first, importable by WebCrypto ECDH P-256 `raw`),
 * `auth` 16 bytes, both URL-safe base64.
 *
 * @module
 */

/** Longest endpoint accepted, characters. */
export const ENDPOINT_MAX = 2048;

/** A refusal: the error code, the field and the reason. */
export interface Refusal {
  /** `invalid_request`, `push_endpoint_refused` or `invalid_push_keys`. */
  readonly code: "invalid_request" | "push_endpoint_refused" | "invalid_push_keys";
  /** The body field (`endpoint`, `keys.p256dh`, `keys.auth`). */
  readonly field: string;
  /** Why, for the message. */
  readonly reason: string;
}

/** An IPv4 address in a range a push service never uses (RFC 6890 special-purpose blocks). */
function privateV4(parts: readonly number[]): boolean {
  const [a, b] = parts as [number, number, number, number];
  return a === 0 || a === 10 || a === 127 || a >= 224 || // this network, private, loopback, multicast+
    (a === 100 && b >= 64 && b <= 127) || // shared address space (CGNAT)
    (a === 169 && b === 254) || // link-local
    (a === 172 && b >= 16 && b <= 31) ||
    (a === 192 && b === 168) ||
    (a === 192 && b === 0) || // IETF protocol assignments, TEST-NET-1
    (a === 198 && (b === 18 || b === 19)) || // benchmarking
    (a === 198 && b === 51) || (a === 203 && b === 0); // TEST-NET-2/3
}

function v4(host: string): number[] | undefined {
  const m = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(host);
  return m === null ? undefined : m.slice(1).map(Number);
}

/** The 8 groups of a bracketed IPv6 literal as `URL` writes it (compressed, lower case). */
function v6(host: string): number[] | undefined {
  if (!host.startsWith("[") || !host.endsWith("]")) return undefined;
  let text = host.slice(1, -1);
  // `URL` writes an embedded IPv4 tail in hex already; keep a dotted one working anyway.
  const tail = /:(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (tail !== null) {
    const [a, b, c, d] = v4(tail[1]!) ?? [0, 0, 0, 0];
    text = `${text.slice(0, tail.index)}:${((a! << 8) | b!).toString(16)}:${
      ((c! << 8) | d!).toString(16)
    }`;
  }
  const [head, rest] = text.split("::") as [string, string | undefined];
  const left = head === "" ? [] : head.split(":");
  const right = rest === undefined || rest === "" ? [] : rest.split(":");
  const fill = rest === undefined ? 0 : 8 - left.length - right.length;
  return [...left, ...Array(fill).fill("0"), ...right].map((g) => parseInt(g, 16));
}

function privateV6(groups: readonly number[]): boolean {
  const [g0] = groups as [number];
  const zeroHead = groups.slice(0, 5).every((g) => g === 0);
  if (zeroHead && groups[5] === 0xffff) {
    // IPv4-mapped: judged as its IPv4 address.
    const [g6, g7] = [groups[6]!, groups[7]!];
    return privateV4([g6 >> 8, g6 & 0xff, g7 >> 8, g7 & 0xff]);
  }
  if (zeroHead && groups[5] === 0 && groups[6] === 0 && groups[7]! <= 1) return true; // :: and ::1
  return (g0 & 0xfe00) === 0xfc00 || // unique local
    (g0 & 0xffc0) === 0xfe80 || // link-local
    (g0 & 0xff00) === 0xff00 || // multicast
    (g0 === 0x2001 && groups[1] === 0x0db8) || // documentation
    (g0 === 0x0064 && groups[1] === 0xff9b); // NAT64 (embeds IPv4)
}

/**
 * Checks a subscription's endpoint.
 *
 * @param endpoint the body's `subscription.endpoint`
 * @param allowed exact origins accepted as they are (`PushPluginOptions.allowedOrigins`)
 * @returns `undefined` when accepted, else the refusal
 */
export function endpointRefusal(
  endpoint: unknown,
  allowed: ReadonlySet<string>,
): Refusal | undefined {
  const bad = (reason: string): Refusal => ({ code: "invalid_request", field: "endpoint", reason });
  const refused = (reason: string): Refusal => ({
    code: "push_endpoint_refused",
    field: "endpoint",
    reason,
  });
  if (typeof endpoint !== "string" || endpoint === "") return bad("give the endpoint URL");
  if (endpoint.length > ENDPOINT_MAX) return bad(`at most ${ENDPOINT_MAX} characters`);
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    return bad("not a URL");
  }
  if (url.username !== "" || url.password !== "") return refused("it carries credentials");
  if (allowed.has(url.origin)) return undefined;
  if (url.protocol !== "https:") return refused("only https: push services are accepted");
  const host = url.hostname.toLowerCase().replace(/\.$/, "");
  if (host === "localhost" || host.endsWith(".localhost")) return refused("a localhost name");
  const four = v4(host);
  if (four !== undefined && privateV4(four)) return refused("a private or reserved address");
  const six = v6(host);
  if (six !== undefined && privateV6(six)) return refused("a private or reserved address");
  return undefined;
}

/** The P-256 field prime and curve constant `b` (SEC 2 §2.4.2; `a` = −3). */
const P = 0xffffffff00000001000000000000000000000000ffffffffffffffffffffffffn;
const B = 0x5ac635d8aa3a93e7b3ebbd55769886bc651d06b0cc53b0f63bce3c3e27d2604bn;

function big(bytes: Uint8Array): bigint {
  let n = 0n;
  for (const b of bytes) n = (n << 8n) | BigInt(b);
  return n;
}

/**
 * Whether `(x, y)` lies on P-256: `y² = x³ − 3x + b (mod p)`, both below `p`. WebCrypto's
 * `importKey` does not check this in every runtime, and an off-curve key encrypts garbage.
 */
function onCurve(point: Uint8Array): boolean {
  const x = big(point.subarray(1, 33));
  const y = big(point.subarray(33, 65));
  if (x >= P || y >= P) return false;
  const right = ((x * x % P) * x - 3n * x + B) % P;
  return (y * y) % P === (right + P) % P;
}

/** Strict URL-safe base64 (padding allowed) → bytes, or `undefined`. */
function decode(text: string): Uint8Array | undefined {
  if (!/^[A-Za-z0-9_-]*={0,2}$/.test(text) || text.length > 128) return undefined;
  const bare = text.replace(/=+$/, "");
  if (bare.length % 4 === 1) return undefined;
  try {
    const raw = atob(bare.replace(/-/g, "+").replace(/_/g, "/"));
    return Uint8Array.from(raw, (c) => c.charCodeAt(0));
  } catch {
    return undefined;
  }
}

/**
 * Checks a subscription's keys (RFC 8291 §2: `p256dh` the browser's ECDH public key, `auth` the
 * authentication secret).
 *
 * @param keys the body's `subscription.keys`
 * @returns `undefined` when both are usable, else the refusal naming the key
 */
export async function keysRefusal(keys: unknown): Promise<Refusal | undefined> {
  const k = keys as { p256dh?: unknown; auth?: unknown } | null;
  const refused = (field: string, reason: string): Refusal => ({
    code: "invalid_push_keys",
    field,
    reason,
  });
  if (typeof k !== "object" || k === null) return refused("keys", "give keys { p256dh, auth }");
  const point = typeof k.p256dh === "string" ? decode(k.p256dh) : undefined;
  if (point === undefined || point.length !== 65 || point[0] !== 0x04) {
    return refused("keys.p256dh", "p256dh must be a 65-byte uncompressed P-256 point");
  }
  if (!onCurve(point)) return refused("keys.p256dh", "p256dh is not a point on P-256");
  try {
    await crypto.subtle.importKey(
      "raw",
      point as BufferSource,
      { name: "ECDH", namedCurve: "P-256" },
      false,
      [],
    );
  } catch {
    return refused("keys.p256dh", "p256dh is not a point on P-256");
  }
  const auth = typeof k.auth === "string" ? decode(k.auth) : undefined;
  if (auth === undefined || auth.length !== 16) {
    return refused("keys.auth", "auth must be 16 bytes");
  }
  return undefined;
}
