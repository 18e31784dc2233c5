/**
 * A local Web Push service for tests: a real HTTP server that receives what the host sends,
 * checks the VAPID header (RFC 8292: the JWT's ES256 signature against `k`, its `aud`), and
 * DECRYPTS the `aes128gcm` body with the subscription's private key and auth secret (RFC 8291
 * §3.4, RFC 8188 §2), all with WebCrypto. Written independently of `web-push`, so a message that
 * decrypts here is what a browser would read.
 *
 * @module
 */

/** One push the service received. */
export interface ReceivedPush {
  /** The subscription path it was sent to. */
  readonly path: string;
  /** The decrypted JSON. */
  readonly message: Record<string, unknown>;
  /** Request headers. */
  readonly headers: Headers;
  /** The VAPID public key (`k=`). */
  readonly vapidKey: string;
}

/** A browser-side subscription the test owns (private key included). */
export interface TestSubscription {
  /** `{ endpoint, keys: { p256dh, auth } }` as a browser sends it. */
  readonly json: { endpoint: string; keys: { p256dh: string; auth: string } };
  /** The private key. */
  readonly privateKey: CryptoKey;
  /** The raw public key (65 bytes). */
  readonly publicRaw: Uint8Array;
  /** The auth secret (16 bytes). */
  readonly auth: Uint8Array;
}

const enc = new TextEncoder();

/** URL-safe base64 without padding. */
export function b64url(bytes: Uint8Array): string {
  return btoa(String.fromCharCode(...bytes)).replace(/\+/g, "-").replace(/\//g, "_").replace(
    /=+$/,
    "",
  );
}

function fromB64url(text: string): Uint8Array {
  const s = atob(text.replace(/-/g, "+").replace(/_/g, "/"));
  return Uint8Array.from(s, (c) => c.charCodeAt(0));
}

function concat(...parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

async function hkdf(salt: Uint8Array, ikm: Uint8Array, info: Uint8Array, bytes: number) {
  const key = await crypto.subtle.importKey("raw", ikm as BufferSource, "HKDF", false, [
    "deriveBits",
  ]);
  const bits = await crypto.subtle.deriveBits(
    { name: "HKDF", hash: "SHA-256", salt: salt as BufferSource, info: info as BufferSource },
    key,
    bytes * 8,
  );
  return new Uint8Array(bits);
}

/**
 * RFC 8291 decryption of one `aes128gcm` body (a single record).
 *
 * @param body the request body
 * @param sub the subscription's keys
 * @returns the plaintext
 */
export async function decrypt(body: Uint8Array, sub: TestSubscription): Promise<Uint8Array> {
  const salt = body.slice(0, 16);
  const idlen = body[20]!;
  const senderRaw = body.slice(21, 21 + idlen);
  const ciphertext = body.slice(21 + idlen);
  const sender = await crypto.subtle.importKey(
    "raw",
    senderRaw as BufferSource,
    { name: "ECDH", namedCurve: "P-256" },
    false,
    [],
  );
  const secret = new Uint8Array(
    await crypto.subtle.deriveBits({ name: "ECDH", public: sender }, sub.privateKey, 256),
  );
  const keyInfo = concat(enc.encode("WebPush: info\0"), sub.publicRaw, senderRaw);
  const ikm = await hkdf(sub.auth, secret, keyInfo, 32);
  const cek = await hkdf(salt, ikm, enc.encode("Content-Encoding: aes128gcm\0"), 16);
  const nonce = await hkdf(salt, ikm, enc.encode("Content-Encoding: nonce\0"), 12);
  const key = await crypto.subtle.importKey("raw", cek as BufferSource, "AES-GCM", false, [
    "decrypt",
  ]);
  const padded = new Uint8Array(
    await crypto.subtle.decrypt(
      { name: "AES-GCM", iv: nonce as BufferSource },
      key,
      ciphertext as BufferSource,
    ),
  );
  let end = padded.length - 1;
  while (end >= 0 && padded[end] === 0) end--;
  if (padded[end] !== 2) throw new Error("not the last record (RFC 8188 padding delimiter)");
  return padded.slice(0, end);
}

/** Checks `Authorization: vapid t=<jwt>, k=<key>` (RFC 8292 §3); returns `k`. */
async function checkVapid(headers: Headers, origin: string): Promise<string> {
  const m = /^vapid t=([^,]+), k=(.+)$/.exec(headers.get("authorization") ?? "");
  if (m === null) throw new Error("no VAPID authorization");
  const [head, claims, signature] = m[1]!.split(".");
  const key = await crypto.subtle.importKey(
    "raw",
    fromB64url(m[2]!) as BufferSource,
    { name: "ECDSA", namedCurve: "P-256" },
    false,
    ["verify"],
  );
  const ok = await crypto.subtle.verify(
    { name: "ECDSA", hash: "SHA-256" },
    key,
    fromB64url(signature!) as BufferSource,
    enc.encode(`${head}.${claims}`),
  );
  if (!ok) throw new Error("bad VAPID signature");
  const claim = JSON.parse(new TextDecoder().decode(fromB64url(claims!))) as { aud: string };
  if (claim.aud !== origin) throw new Error(`VAPID aud ${claim.aud} is not ${origin}`);
  return m[2]!;
}

/** How the service answers a path. */
export type Behaviour = "ok" | "gone" | "hang";

/** A running local push service. */
export interface PushService extends AsyncDisposable {
  /** Its origin, `http://127.0.0.1:<port>`. */
  readonly origin: string;
  /** What arrived, decrypted, in order. */
  readonly received: ReceivedPush[];
  /** Requests whose decryption or VAPID check failed. */
  readonly failures: string[];
  /** Requests that are hanging now. */
  readonly hanging: () => number;
  /** A new subscription at `/<name>` answered as `behaviour`. */
  subscription(name: string, behaviour?: Behaviour): Promise<TestSubscription>;
  /** Resolves once `n` messages arrived. */
  waitFor(n: number): Promise<void>;
}

/**
 * Starts a local push service.
 *
 * @returns the service; dispose it to stop
 */
export function startPushService(): Promise<PushService> {
  const subs = new Map<string, { sub: TestSubscription; behaviour: Behaviour }>();
  const received: ReceivedPush[] = [];
  const failures: string[] = [];
  const waiters: { n: number; resolve: () => void }[] = [];
  let hanging = 0;
  const release = new AbortController();
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const path = new URL(req.url).pathname;
    const known = subs.get(path);
    const body = new Uint8Array(await req.arrayBuffer());
    if (known === undefined) return new Response(null, { status: 404 });
    if (known.behaviour === "gone") return new Response(null, { status: 410 });
    if (known.behaviour === "hang") {
      hanging++;
      await new Promise((resolve) => {
        req.signal.addEventListener("abort", resolve);
        release.signal.addEventListener("abort", resolve);
      });
      hanging--;
      return new Response(null, { status: 201 });
    }
    try {
      if (req.headers.get("content-encoding") !== "aes128gcm") throw new Error("not aes128gcm");
      const vapidKey = await checkVapid(req.headers, origin);
      const plain = await decrypt(body, known.sub);
      received.push({
        path,
        headers: req.headers,
        vapidKey,
        message: JSON.parse(new TextDecoder().decode(plain)),
      });
      for (const w of [...waiters]) if (received.length >= w.n) w.resolve();
    } catch (error) {
      failures.push(String(error));
    }
    return new Response(null, { status: 201 });
  });
  const origin = `http://127.0.0.1:${server.addr.port}`;
  return Promise.resolve({
    origin,
    received,
    failures,
    hanging: () => hanging,
    async subscription(name, behaviour = "ok") {
      const pair = await crypto.subtle.generateKey(
        { name: "ECDH", namedCurve: "P-256" },
        true,
        ["deriveBits"],
      ) as CryptoKeyPair;
      const publicRaw = new Uint8Array(await crypto.subtle.exportKey("raw", pair.publicKey));
      const auth = crypto.getRandomValues(new Uint8Array(16));
      const sub: TestSubscription = {
        json: {
          endpoint: `${origin}/${name}`,
          keys: { p256dh: b64url(publicRaw), auth: b64url(auth) },
        },
        privateKey: pair.privateKey,
        publicRaw,
        auth,
      };
      subs.set(`/${name}`, { sub, behaviour });
      return sub;
    },
    waitFor(n) {
      if (received.length >= n) return Promise.resolve();
      return new Promise((resolve) => waiters.push({ n, resolve }));
    },
    async [Symbol.asyncDispose]() {
      release.abort();
      await server.shutdown();
    },
  });
}
