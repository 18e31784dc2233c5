/**
 * {@linkcode modelFromEnv}: picks the model endpoint from configuration and environment
 * (docs/architecture.md#configuration).
 *
 * @module
 */

/** The DeepSeek endpoint `DEEPSEEK_API_KEY` selects. */
export const DEEPSEEK_BASE_URL = "https://api.deepseek.com";
/** The DeepSeek model `DEEPSEEK_API_KEY` selects. */
export const DEEPSEEK_MODEL = "deepseek-chat";

/** The `model` entry of `chime.jsonc`. */
export type ModelConfig =
  | { readonly kind: "offline" }
  | {
    readonly kind: "openai-compatible";
    readonly baseURL: string;
    readonly model: string;
    /** Name of the environment variable holding the key. */
    readonly apiKeyEnv: string;
  };

/** Which model the host should construct. */
export type ModelDecision =
  | { readonly kind: "offline" }
  | {
    readonly kind: "openai-compatible";
    readonly baseURL: string;
    readonly model: string;
    readonly apiKey: string;
  };

function value(env: Readonly<Record<string, string | undefined>>, key: string): string | undefined {
  const v = env[key]?.trim();
  return v === undefined || v === "" ? undefined : v;
}

/**
 * Decides the model. The key is the first non-empty of `CHIME_MODEL_API_KEY`, the variable
 * the config's `apiKeyEnv` names, and `DEEPSEEK_API_KEY`; no key ⇒ `{ kind: 'offline' }` (the
 * host then builds the offline model). `CHIME_MODEL_BASE_URL` and `CHIME_MODEL` override the
 * endpoint and model; otherwise the config's values apply, else DeepSeek
 * (`https://api.deepseek.com`, `deepseek-chat`). A key found only in `DEEPSEEK_API_KEY`
 * always means DeepSeek (never the config's endpoint), so that variable alone selects it.
 *
 * @param env environment variables, e.g. `Deno.env.toObject()`
 * @param config the `model` entry of the configuration @default `{ kind: 'offline' }`
 * @returns the decision; it never contains a key it did not find
 *
 * @example DeepSeek from one variable
 * ```ts
 * import { modelFromEnv } from "@chime/agent";
 * const decision = modelFromEnv({ DEEPSEEK_API_KEY: "sk-1" });
 * console.assert(decision.kind === "openai-compatible" && decision.model === "deepseek-chat");
 * console.assert(modelFromEnv({}).kind === "offline");
 * ```
 */
export function modelFromEnv(
  env: Readonly<Record<string, string | undefined>>,
  config: ModelConfig = { kind: "offline" },
): ModelDecision {
  let configured = config.kind === "openai-compatible" ? config : undefined;
  let apiKey = value(env, "CHIME_MODEL_API_KEY") ??
    (configured === undefined ? undefined : value(env, configured.apiKeyEnv));
  if (apiKey === undefined) {
    // A DeepSeek key is never sent to another configured endpoint.
    apiKey = value(env, "DEEPSEEK_API_KEY");
    configured = undefined;
  }
  if (apiKey === undefined) return { kind: "offline" };
  return {
    kind: "openai-compatible",
    baseURL: value(env, "CHIME_MODEL_BASE_URL") ?? configured?.baseURL ?? DEEPSEEK_BASE_URL,
    model: value(env, "CHIME_MODEL") ?? configured?.model ?? DEEPSEEK_MODEL,
    apiKey,
  };
}
