/**
 * {@linkcode redactUrl}: the one redaction of storage locations, used by every driver for its
 * startup banner (`StorageDriver.describe`), its error messages and error details, so no output
 * of the host (console, logs, HTTP errors) carries a secret (README "Configuration"); and the
 * two open-time errors that name a location, built with it.
 *
 * @module
 */
import { SessionError } from "./errors.ts";

/** Query parameters that carry a secret (libSQL `authToken`, PostgreSQL `password`, TLS keys). */
const SECRET_PARAMS = /^(authtoken|auth_token|password|pass|passwd|token|sslpassword|sslkey)$/i;

/**
 * A URL with its secrets replaced by `***`: the password of `user:password@` and every secret
 * query parameter (`?authToken=`, `?password=`). A text that is not a URL (a path) is returned
 * unchanged; one that only looks like a URL with credentials is redacted textually.
 *
 * @param url a storage URL or path
 * @returns the same location, safe to print
 *
 * @example Both kinds of secret
 * ```ts
 * import { redactUrl } from "@chime/session";
 * console.assert(redactUrl("postgres://app:s3cret@db:5432/chime") === "postgres://app:***@db:5432/chime");
 * console.assert(redactUrl("libsql://db.example?authToken=abc") === "libsql://db.example?authToken=***");
 * ```
 */
export function redactUrl(url: string): string {
  // Textual, so the printed form keeps the operator's spelling (URL would re-encode it).
  const scheme = /^([a-z][a-z0-9+.-]*:\/\/)([^/?#@]*@)?(.*)$/is.exec(url);
  if (scheme === null) return redactQuery(url);
  const [, prefix, auth, rest] = scheme;
  const user = auth === undefined
    ? ""
    : auth.includes(":")
    ? `${auth.slice(0, auth.indexOf(":"))}:***@`
    : auth;
  return `${prefix}${user}${redactQuery(rest!)}`;
}

function redactQuery(text: string): string {
  const q = text.indexOf("?");
  if (q < 0) return text;
  const hash = text.indexOf("#", q);
  const end = hash < 0 ? text.length : hash;
  const params = text.slice(q + 1, end).split("&").map((pair) => {
    const eq = pair.indexOf("=");
    const name = eq < 0 ? pair : pair.slice(0, eq);
    return eq >= 0 && SECRET_PARAMS.test(decodeURIComponent(name)) ? `${name}=***` : pair;
  });
  return `${text.slice(0, q + 1)}${params.join("&")}${text.slice(end)}`;
}

/**
 * Replaces every occurrence of a URL's secrets inside a message (a client error that quotes the
 * URL or its password), then every URL-looking token.
 *
 * @param text any message
 * @param url the storage URL whose secrets must not appear
 * @returns the message without them
 */
export function redactText(text: string, url: string): string {
  let out = text.split(url).join(redactUrl(url));
  for (const secret of secretsOf(url)) out = out.split(secret).join("***");
  return out;
}

function secretsOf(url: string): string[] {
  const out: string[] = [];
  const auth = /^[a-z][a-z0-9+.-]*:\/\/([^/?#@]*)@/is.exec(url)?.[1];
  if (auth !== undefined && auth.includes(":")) out.push(auth.slice(auth.indexOf(":") + 1));
  const q = url.indexOf("?");
  if (q >= 0) {
    for (const pair of url.slice(q + 1).split(/[&#]/)) {
      const eq = pair.indexOf("=");
      if (eq > 0 && SECRET_PARAMS.test(pair.slice(0, eq))) out.push(pair.slice(eq + 1));
    }
  }
  return out.filter((s) => s.length >= 3).flatMap((s) => {
    try {
      const decoded = decodeURIComponent(s);
      return decoded === s ? [s] : [s, decoded];
    } catch {
      return [s];
    }
  });
}

/**
 * The `storage_unavailable` error of a store that cannot be reached or refuses the login (an
 * unreachable server, a wrong password or token, a missing database), the URL redacted.
 *
 * @param url the configured URL
 * @param error what the client threw
 * @returns the error (`details.url` redacted, `details.reason`)
 */
export function storageUnavailable(url: string, error: unknown): SessionError {
  const reason = redactText(String((error as Error)?.message ?? error), url);
  const shown = redactUrl(url);
  return new SessionError("storage_unavailable", `Cannot open ${shown}: ${reason}`, {
    details: { url: shown, reason },
  });
}

/**
 * The `schema_rejected` error of a store whose schema is not ours, the URL redacted.
 *
 * @param url the configured URL
 * @param reason why (redacted too)
 * @param cause the underlying error, if any
 * @returns the error (`details.url`, `details.reason`)
 */
export function schemaRejected(url: string, reason: string, cause?: unknown): SessionError {
  const shown = redactUrl(url);
  const why = redactText(reason, url);
  return new SessionError("schema_rejected", `Cannot open ${shown}: ${why}`, {
    ...(cause === undefined ? {} : { cause }),
    details: { url: shown, reason: why },
  });
}
