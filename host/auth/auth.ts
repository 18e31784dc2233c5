/**
 * The access token (README "Security"): with a token configured, every client presents it,
 * loopback included (a reverse proxy connects from loopback). `Authorization: Bearer <token>`,
 * or the HttpOnly, SameSite=Strict cookie of a sign-in made by the sign-in URL `/?token=…` or
 * by the plain login form at `/login`, as Jupyter does. A sign-in is a random secret of its own
 * ({@linkcode SignIns}): it expires, and `POST /api/auth/sign-out` (this browser) or
 * `POST /api/auth/sign-out-everywhere` (every browser) revokes it.
 *
 * @module
 */
import type { Context, MiddlewareHandler } from "hono";
import { deleteCookie, getCookie, setCookie } from "hono/cookie";
import { readBody } from "../http/_body.ts";
import { HostError } from "../errors.ts";
import { SignIns } from "./sign_ins.ts";

/** Options of {@linkcode tokenAuth}. */
export interface TokenAuthOptions {
  /** The token clients must present. */
  readonly token: string;
  /** The cookie's name (one per port: cookies ignore ports). @default "chime_auth" */
  readonly cookieName?: string;
  /**
   * The host's sign-ins (their file, lifetime and bound). Must be opened with the same token.
   * @default in memory, 30 days, 32 sign-ins
   */
  readonly signIns?: SignIns;
  /** Time allowed for the login form's body, ms. @default 30000 */
  readonly bodyTimeoutMs?: number;
  /**
   * Wrong tokens allowed in any trailing {@linkcode TokenAuthOptions.failureWindowMs}; beyond
   * them every token guess (bearer header, `?token=`, the login form) is refused unchecked with
   * `429 too_many_attempts` until the oldest failure leaves the window. A signed-in cookie is
   * never throttled (it holds a 256-bit random secret, not a guessable token). @default 10
   */
  readonly maxFailures?: number;
  /** The trailing window of {@linkcode TokenAuthOptions.maxFailures}, ms. @default 60000 */
  readonly failureWindowMs?: number;
  /** Wall clock, epoch ms (tests inject one). @default Date.now */
  readonly now?: () => number;
  /**
   * Requests answered without the token because the route checks its own link key (plugin
   * routes with `access: "link"`, docs/upcoming.md "Calendar feed"). @default none
   */
  readonly linkPath?: (method: string, path: string) => boolean;
}

/** The two sign-out routes (see {@linkcode authRoute}). */
const SIGN_OUTS = new Set(["/api/auth/sign-out", "/api/auth/sign-out-everywhere"]);

/** Paths answered without the token. */
const OPEN_PATHS = new Set(["/healthz", "/readyz", "/login"]);

const encoder = new TextEncoder();

async function digest(text: string): Promise<Uint8Array> {
  return new Uint8Array(await crypto.subtle.digest("SHA-256", encoder.encode(text)));
}

/** Equal digests, compared in constant time (the candidate's length leaks nothing). */
function sameDigest(a: Uint8Array, b: Uint8Array): boolean {
  let diff = a.length ^ b.length;
  for (let i = 0; i < a.length && i < b.length; i++) diff |= a[i]! ^ b[i]!;
  return diff === 0;
}

/**
 * The login page: plain HTML, no script, no inline style (it passes the page's CSP).
 *
 * @param failed the last token sent was wrong
 * @param retryAfterSeconds set while wrong tokens are throttled: the page says when to retry
 * @returns the HTML document
 */
export function loginPage(failed: boolean, retryAfterSeconds?: number): string {
  const alert = retryAfterSeconds !== undefined
    ? `<p role="alert"><strong>Too many wrong tokens. Try again in ${retryAfterSeconds} s.</strong></p>`
    : failed
    ? '<p role="alert"><strong>That token is not right.</strong></p>'
    : "";
  return `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8">
    <meta name="viewport" content="width=device-width, initial-scale=1">
    <title>chime: sign in</title>
  </head>
  <body>
    <main>
      <h1>chime</h1>
      <p>This host asks for its access token (printed at startup, or <code>CHIME_TOKEN</code>).</p>
      ${alert}
      <form method="post" action="/login">
        <label>Token <input name="token" type="password" autocomplete="current-password" required autofocus></label>
        <button type="submit">Sign in</button>
      </form>
    </main>
  </body>
</html>
`;
}

/**
 * Asks every request for the token, except `/healthz`, `/readyz` and `/login`. API calls without it
 * answer `401 unauthorized`; page requests are redirected to `/login`. A page request with a
 * right `?token=` gets the cookie of a new sign-in ({@linkcode SignIns}; `503
 * sign_ins_unwritable` when it cannot be stored) and is redirected to the same URL without the
 * token; a `?token=` that another site sent without the user's click is ignored (see
 * {@linkcode mayTrySignInUrl}), so no web page can exhaust the wrong-token budget. A signed-in
 * request to `/api/auth…` is answered here ({@linkcode authRoute}).
 *
 * @param options the token, cookie name and sign-ins
 * @returns the middleware
 *
 * @example Protect an app
 * ```ts
 * import { Hono } from "hono";
 * import { tokenAuth } from "./auth.ts";
 * const app = new Hono().use(tokenAuth({ token: "a-long-enough-token" })).get("/", (c) => c.text("hi"));
 * const response = await app.request("/");
 * console.assert(response.status === 303);
 * ```
 */
export function tokenAuth(options: TokenAuthOptions): MiddlewareHandler {
  const name = options.cookieName ?? "chime_auth";
  const timeoutMs = options.bodyTimeoutMs ?? 30_000;
  const expected = digest(options.token);
  const store = options.signIns === undefined
    ? SignIns.open({ token: options.token, ...(options.now ? { now: options.now } : {}) })
    : Promise.resolve(options.signIns);
  const throttle = new FailureWindow(
    options.maxFailures ?? 10,
    options.failureWindowMs ?? 60_000,
    options.now ?? Date.now,
  );
  /** One token guess: refused unchecked while throttled, counted when wrong. */
  const matches = async (candidate: string | undefined) => {
    if (candidate === undefined) return false;
    throttle.check();
    const right = sameDigest(await digest(candidate), await expected);
    if (!right) throttle.fail();
    return right;
  };
  const signIn = async (c: Context, location: string) => {
    const signIns = await store;
    // Signing in again in the same browser replaces its sign-in rather than adding one.
    const made = await signIns.create(getCookie(c, name));
    setCookie(c, name, made.secret, {
      path: "/",
      httpOnly: true,
      sameSite: "Strict",
      maxAge: Math.floor(signIns.maxAgeMs / 1000),
    });
    c.header("Cache-Control", "no-store");
    return c.redirect(location, 303);
  };
  /** How the request is signed in: the bearer token, a sign-in cookie, or not at all. */
  const authorized = async (c: Context): Promise<Access | undefined> => {
    const bearer = c.req.header("authorization")?.match(/^Bearer\s+(\S+)\s*$/i)?.[1];
    if (bearer !== undefined) return await matches(bearer) ? { via: "bearer" } : undefined;
    const cookie = getCookie(c, name);
    const found = cookie === undefined ? undefined : await (await store).find(cookie);
    return found === undefined ? undefined : { via: "cookie", secret: cookie!, ...found };
  };
  return async (c, next) => {
    const path = c.req.path;
    const page = !path.startsWith("/api/") && (c.req.method === "GET" || c.req.method === "HEAD");
    if (path === "/login") return await login(c);
    const query = page && mayTrySignInUrl(c) ? c.req.query("token") : undefined;
    if (query !== undefined && await matches(query)) {
      const url = new URL(c.req.url);
      url.searchParams.delete("token");
      return await signIn(c, sameOriginPath(url));
    }
    if (OPEN_PATHS.has(path) || options.linkPath?.(c.req.method, path) === true) {
      return await next();
    }
    const access = await authorized(c);
    if (access !== undefined) {
      if (path === "/api/auth" || path.startsWith("/api/auth/")) {
        return await authRoute(c, access, await store, name);
      }
      return await next();
    }
    if (page) return c.redirect("/login", 303);
    c.header("WWW-Authenticate", 'Bearer realm="chime"');
    throw new HostError(
      "unauthorized",
      "Cannot answer: this host needs its token (Authorization: Bearer, or sign in at /login)",
    );
  };

  async function login(c: Context): Promise<Response> {
    c.header("Cache-Control", "no-store");
    if (c.req.method === "POST") {
      const bytes = await readBody(c.req.raw, { maxBytes: 4096, timeoutMs });
      const token = new URLSearchParams(new TextDecoder().decode(bytes)).get("token") ?? undefined;
      try {
        if (await matches(token)) return await signIn(c, "/");
      } catch (error) {
        if (!(error instanceof HostError) || error.code !== "too_many_attempts") throw error;
        const retryAfter = error.details.retryAfterSeconds as number;
        c.header("Retry-After", String(retryAfter));
        return c.html(loginPage(true, retryAfter), 429);
      }
      return c.html(loginPage(true), 401);
    }
    if (await authorized(c)) return c.redirect("/", 303);
    return c.html(loginPage(false));
  }
}

/** How a request was let in: `none` on a host without a token. */
type Access =
  | { readonly via: "none" | "bearer" }
  | { readonly via: "cookie"; readonly secret: string; readonly expiresAt: number };

/**
 * The `/api/auth` routes of a host without a token (mounted by `createApp` in place of
 * {@linkcode tokenAuth}): `GET /api/auth` answers `{ via: "none", signIns: 0 }`, so the page
 * knows there is nothing to sign out of; either sign-out is `409 not_signed_in`.
 *
 * @returns the middleware
 */
export function noTokenAuth(): MiddlewareHandler {
  return async (c, next) => {
    const path = c.req.path;
    if (path !== "/api/auth" && !path.startsWith("/api/auth/")) return await next();
    return await authRoute(c, { via: "none" }, undefined, "");
  };
}

/**
 * The routes of the sign-in itself (README "HTTP API"), answered here because only this
 * middleware knows which sign-in a request holds:
 *
 * - `GET /api/auth`: `{ via: "cookie" | "bearer", expiresAt? (RFC 3339 UTC), signIns }`.
 * - `POST /api/auth/sign-out`: revokes this browser's sign-in and clears its cookie,
 *   `{ signedOut: 1 }`; `409 not_signed_in` for a bearer request without a sign-in cookie.
 * - `POST /api/auth/sign-out-everywhere`: revokes every sign-in (this one included),
 *   `{ signedOut: N }`; the bearer token keeps working (change it to end that too).
 *
 * Either `POST` answers `503 sign_ins_unwritable` when the file cannot be written (nothing
 * changed). Anything else under `/api/auth` is `404 not_found`.
 */
async function authRoute(
  c: Context,
  access: Access,
  signIns: SignIns | undefined,
  cookieName: string,
): Promise<Response> {
  c.header("Cache-Control", "no-store");
  const route = `${c.req.method} ${c.req.path}`;
  if (route === "GET /api/auth" || route === "HEAD /api/auth") {
    return c.json({
      via: access.via,
      ...(access.via === "cookie" ? { expiresAt: new Date(access.expiresAt).toISOString() } : {}),
      signIns: signIns?.size ?? 0,
    });
  }
  if (signIns === undefined && c.req.method === "POST" && SIGN_OUTS.has(c.req.path)) {
    throw new HostError(
      "not_signed_in",
      "Cannot sign out: this host asks for no access token, so nothing is signed in",
    );
  }
  if (route === "POST /api/auth/sign-out") {
    if (access.via !== "cookie") {
      throw new HostError(
        "not_signed_in",
        "Cannot sign out: this request holds no sign-in cookie (it sent the bearer token)",
      );
    }
    await signIns!.revoke(access.secret);
    deleteCookie(c, cookieName, { path: "/", httpOnly: true, sameSite: "Strict" });
    return c.json({ signedOut: 1 });
  }
  if (route === "POST /api/auth/sign-out-everywhere") {
    const signedOut = await signIns!.revokeAll();
    if (access.via === "cookie") {
      deleteCookie(c, cookieName, { path: "/", httpOnly: true, sameSite: "Strict" });
    }
    return c.json({ signedOut });
  }
  throw new HostError("not_found", `Cannot route: ${route}`);
}

/**
 * The path and query to send a signed-in page back to, never another origin: a path that a
 * browser would read as a network-path reference (`//evil.test/`, `/\evil.test/`, RFC 3986
 * §4.2) becomes `/`.
 *
 * @param url the request URL, `token` removed
 * @returns a same-origin `Location`
 */
function sameOriginPath(url: URL): string {
  const path = url.pathname;
  if (/^[/\\][/\\]/.test(path)) return "/";
  return `${path}${url.search}`;
}

/**
 * Whether the `?token=` of a page request may be checked (and, when wrong, counted against the
 * throttle). A browser's own navigation may: typed, pasted or a bookmark (`Sec-Fetch-Site:
 * none`), or from the page itself (`same-origin`); so may a client without fetch metadata (curl,
 * an older browser). From another site only a top-level navigation the user started may (a
 * clicked link: `Sec-Fetch-Dest: document` with `Sec-Fetch-User: ?1`). Anything else, such as an
 * `<img>`, a script, a frame or a redirect no user started, is what any web page can repeat
 * unseen: checking its token would let that page spend the wrong-token budget and lock the owner
 * out (`429 too_many_attempts` for everyone), so its token is ignored, neither checked nor
 * counted, and the request is treated as carrying none. The Fetch Metadata request headers
 * (W3C "Fetch Metadata Request Headers") cannot be set by a page.
 */
function mayTrySignInUrl(c: Context): boolean {
  const site = c.req.header("sec-fetch-site");
  if (site === undefined || site === "none" || site === "same-origin") return true;
  return c.req.header("sec-fetch-dest") === "document" && c.req.header("sec-fetch-user") === "?1";
}

/**
 * The trailing window of wrong tokens. Global, not per client: behind the idle-timeout front
 * (`host/http/_front.ts`) or a reverse proxy every client connects from loopback.
 */
class FailureWindow {
  readonly #max: number;
  readonly #windowMs: number;
  readonly #now: () => number;
  /** Epoch ms of the failures in the window, oldest first. */
  readonly #failures: number[] = [];

  constructor(max: number, windowMs: number, now: () => number) {
    this.#max = max;
    this.#windowMs = windowMs;
    this.#now = now;
  }

  /** @throws {HostError} `too_many_attempts` with `{ retryAfterSeconds }` while full */
  check(): void {
    const now = this.#now();
    while (this.#failures.length > 0 && this.#failures[0]! <= now - this.#windowMs) {
      this.#failures.shift();
    }
    if (this.#failures.length < this.#max) return;
    const retryAfterSeconds = Math.max(
      1,
      Math.ceil((this.#failures[0]! + this.#windowMs - now) / 1000),
    );
    throw new HostError(
      "too_many_attempts",
      `Cannot check the token: too many wrong tokens, try again in ${retryAfterSeconds} s`,
      { retryAfterSeconds },
    );
  }

  fail(): void {
    this.#failures.push(this.#now());
  }
}
