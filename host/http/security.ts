/**
 * The API answers the page's own origin only (README "Security"): security headers on every
 * answer, a `Host` check against DNS rebinding and an `Origin` check for unsafe methods.
 * Middleware factories mounted by `app.ts`; the token check is `auth.ts`, the body rules
 * `_body.ts`.
 *
 * @module
 */
import type { Context, MiddlewareHandler } from "hono";
import { HostError } from "../errors.ts";

/** The page's Content Security Policy: its own scripts, styles and connections only. */
export const CONTENT_SECURITY_POLICY: string =
  "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; " +
  "connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'";

/** Headers sent with every answer. */
export const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  "Content-Security-Policy": CONTENT_SECURITY_POLICY,
  "X-Content-Type-Options": "nosniff",
  "Referrer-Policy": "no-referrer",
  "X-Frame-Options": "DENY",
};

/** Options of {@linkcode hostGuard} and {@linkcode originGuard}. */
export interface OriginOptions {
  /** The interface the server is bound to. @default "127.0.0.1" */
  readonly boundHostname?: string;
  /** Extra names accepted in `Host` and `Origin`, lowercase, without ports. @default [] */
  readonly allowedHosts?: readonly string[];
  /**
   * Names and addresses of this machine, accepted in `Host` when bound to a wildcard
   * (`0.0.0.0`, `::`). @default the interface addresses and the host name of the system
   */
  readonly localNames?: () => readonly string[];
}

const WILDCARDS = new Set(["0.0.0.0", "::", "[::]", ""]);

/**
 * Whether a host name or address is a loopback one: `localhost`, `*.localhost`,
 * `127.0.0.0/8`, `::1` (RFC 6761 §6.3, RFC 1122 §3.2.1.3, RFC 4291 §2.5.3).
 *
 * @param name a host name or IP literal (IPv6 with or without brackets)
 * @returns `true` for loopback names
 *
 * @example
 * ```ts
 * import { isLoopbackName } from "@chime/host";
 * console.assert(isLoopbackName("127.0.0.1") && isLoopbackName("[::1]"));
 * console.assert(!isLoopbackName("0.0.0.0"));
 * ```
 */
export function isLoopbackName(name: string): boolean {
  const n = name.toLowerCase().replace(/^\[(.*)\]$/, "$1").replace(/\.$/, "");
  return n === "localhost" || n.endsWith(".localhost") || n === "::1" ||
    n === "0:0:0:0:0:0:0:1" || /^(?:::ffff:)?127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(n);
}

/**
 * The name part of a `Host` header value (`name`, `name:port`, `[v6]:port`), lowercase,
 * without a trailing dot.
 *
 * @param host the header value
 * @returns the name, or `undefined` when the value is malformed
 */
export function hostName(host: string): string | undefined {
  const match = host.trim().toLowerCase().match(/^(\[[0-9a-f:.]+\]|[^:\[\]\s/@]+)(?::(\d{1,5}))?$/);
  return match?.[1]?.replace(/\.$/, "");
}

/** The `Host` the client addressed (the URL's for requests without the header, e.g. tests). */
export function requestHost(c: Context): string {
  return c.req.header("host") ?? new URL(c.req.url).host;
}

function systemNames(): string[] {
  const names: string[] = [];
  try {
    for (const i of Deno.networkInterfaces()) {
      names.push(i.family === "IPv6" ? `[${i.address.replace(/%.*$/, "")}]` : i.address);
    }
    names.push(Deno.hostname().toLowerCase());
  } catch {
    // Without --allow-sys only loopback and the allow-list are accepted.
  }
  return names;
}

/**
 * Sets the security headers on every answer, errors and redirects included.
 *
 * @returns the middleware
 */
export function securityHeaders(): MiddlewareHandler {
  return async (c, next) => {
    await next();
    try {
      for (const [name, value] of Object.entries(SECURITY_HEADERS)) c.res.headers.set(name, value);
    } catch {
      // Immutable headers (a response made elsewhere): copy it once.
      c.res = new Response(c.res.body, c.res);
      for (const [name, value] of Object.entries(SECURITY_HEADERS)) c.res.headers.set(name, value);
    }
  };
}

/**
 * Refuses requests whose `Host` is not the bound name, a loopback name or an allowed name
 * (`403 forbidden_host`): a page on a rebound DNS name reaches the port but never the API.
 *
 * @param options the bound name and the allow-list
 * @returns the middleware
 */
export function hostGuard(options: OriginOptions = {}): MiddlewareHandler {
  const bound = (options.boundHostname ?? "127.0.0.1").toLowerCase();
  const wildcard = WILDCARDS.has(bound);
  const allowed = new Set(options.allowedHosts ?? []);
  if (!wildcard) allowed.add(bound.includes(":") && !bound.startsWith("[") ? `[${bound}]` : bound);
  let local: Set<string> | undefined;
  return async (c, next) => {
    const name = hostName(requestHost(c));
    let ok = name !== undefined && (isLoopbackName(name) || allowed.has(name));
    if (!ok && wildcard && name !== undefined) {
      local ??= new Set((options.localNames ?? systemNames)());
      ok = local.has(name);
    }
    if (!ok) {
      throw new HostError(
        "forbidden_host",
        "Cannot answer: this Host is not one of the server's names (add it to allowedHosts)",
      );
    }
    await next();
  };
}

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/** Whether a method may change state (everything but GET, HEAD and OPTIONS). */
export function isUnsafeMethod(method: string): boolean {
  return !SAFE_METHODS.has(method.toUpperCase());
}

function sameOrigin(origin: string, host: string, allowed: ReadonlySet<string>): boolean {
  if (!URL.canParse(origin)) return false;
  const url = new URL(origin);
  if (url.protocol !== "http:" && url.protocol !== "https:") return false;
  const defaultPort = url.protocol === "https:" ? ":443" : ":80";
  const own = host.toLowerCase().replace(/\.(?=:|$)/, "");
  const bare = own.endsWith(defaultPort) ? own.slice(0, -defaultPort.length) : own;
  return url.host === bare || allowed.has(url.hostname);
}

/**
 * Refuses unsafe methods from another origin (`403 forbidden_origin`): an `Origin` whose host
 * is neither the request's `Host` nor an allowed name (`null` included, unless `Sec-Fetch-Site`
 * says `same-origin`), or a `Sec-Fetch-Site` other than `same-origin` or `none` (another port of
 * the same machine is `same-site`, and refused). The scheme is not compared (a TLS proxy
 * changes it). Requests without either header (curl, scripts) pass.
 *
 * @param options the allow-list
 * @returns the middleware
 */
export function originGuard(options: OriginOptions = {}): MiddlewareHandler {
  const allowed = new Set(options.allowedHosts ?? []);
  return async (c, next) => {
    if (isUnsafeMethod(c.req.method)) {
      const site = c.req.header("sec-fetch-site");
      const origin = c.req.header("origin");
      // With `Referrer-Policy: no-referrer` a browser sends `Origin: null` for the page's own
      // form posts (the login form); its `Sec-Fetch-Site`, which no page can forge, vouches.
      const vouched = origin === "null" && site === "same-origin";
      if (
        (site !== undefined && site !== "same-origin" && site !== "none") ||
        (origin !== undefined && !vouched && !sameOrigin(origin, requestHost(c), allowed))
      ) {
        throw new HostError(
          "forbidden_origin",
          "Cannot answer: the request comes from another origin",
        );
      }
    }
    await next();
  };
}
