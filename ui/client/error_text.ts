/**
 * The page's error sentences: a host error code the page can hit, in the UI language
 * (README.md "HTTP API" lists the codes). Unknown codes fall back to the host's own message,
 * so a plugin's refusal still reads as its sentence.
 *
 * @module
 */
import type { Lang } from "../i18n.ts";
import { ApiError } from "./api.ts";
import { T } from "./strings.ts";

/** Host error codes and the key of their sentence in {@linkcode T}. */
const KEY_BY_CODE: Readonly<Record<string, string>> = {
  network: "network",
  session_not_found: "errSessionNotFound",
  message_not_found: "errMessageNotFound",
  invalid_request: "errInvalid",
  invalid_json: "errInvalid",
  invalid_query: "errInvalid",
  invalid_session_id: "errSessionNotFound",
  persistence_failed: "errPersistence",
  shutting_down: "errShuttingDown",
  unauthorized: "errUnauthorized",
  forbidden_origin: "errForbidden",
  forbidden_host: "errForbidden",
  too_many_attempts: "errTooMany",
  sign_ins_unwritable: "errPersistence",
};

function tooLarge(details: Readonly<Record<string, unknown>>, lang: Lang): string {
  const limit = details.limit;
  if (typeof limit !== "number") return T[lang].errTooLargePlain!;
  const key = typeof details.field === "string" ? "errTooLong" : "errTooLarge";
  return T[lang][key]!.replace("{limit}", limit.toLocaleString(lang === "zh" ? "zh-CN" : "en"));
}

/**
 * The sentence for a failed request.
 *
 * @param err what the request threw: an {@linkcode ApiError} (by its `code` and `details`), or
 *   anything else (its message)
 * @param lang the UI language
 * @returns e.g. `This text is too long: at most 32,768 characters.` for
 *   `payload_too_large { field: "text", limit: 32768 }`; the host's message for an unknown code
 */
export function errorText(err: unknown, lang: Lang): string {
  if (!(err instanceof ApiError)) return err instanceof Error ? err.message : String(err);
  if (err.code === "payload_too_large") return tooLarge(err.details, lang);
  const key = KEY_BY_CODE[err.code];
  return key === undefined ? err.message : T[lang][key]!;
}
