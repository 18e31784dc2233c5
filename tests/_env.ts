/**
 * The environment a spawned test host inherits: the parent's whole environment (so a machine
 * that reaches the npm registry through a custom CA keeps `SSL_CERT_FILE`, `DENO_CERT`, proxies
 * and friends) minus every model key and chime override, so a child host always starts keyless
 * and with the configuration the test names.
 *
 * @module
 */

/** Variables a child host must never inherit: model keys and chime's own overrides. */
const DROPPED = /^(CHIME_.*|DEEPSEEK_API_KEY|OPENAI_API_KEY|.*_API_KEY)$/;

/**
 * The parent's environment without model keys and `CHIME_*` overrides, plus `extra`.
 *
 * @param extra variables to add or replace (e.g. `CHIME_MODEL_BASE_URL` for a fake endpoint)
 * @returns a fresh record to pass as `env` with `clearEnv: true`
 */
export function childEnv(extra: Readonly<Record<string, string>> = {}): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(Deno.env.toObject())) {
    if (!DROPPED.test(name)) env[name] = value;
  }
  return { ...env, NO_COLOR: "1", ...extra };
}
