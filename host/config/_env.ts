/**
 * Environment overrides of docs/architecture.md#configuration (private to `config.ts`). The
 * model decision itself is `@chime/agent`'s `modelFromEnv`; this file adds the port, the
 * database and a printable reason.
 *
 * @module
 */
import { type ModelConfig, modelFromEnv } from "@chime/agent";
import type { HostConfig } from "./config.ts";
import { ConfigError } from "../errors.ts";
import type { StorageDriver } from "@chime/session";
import { DATABASE_URL_DRIVER, storageAt } from "../registry.ts";
import { checkAdvertisedUrl, checkHosts, checkPort, checkToken } from "./_validate.ts";

/**
 * The `model` entry as the host reads it: `@chime/agent`'s {@linkcode ModelConfig} or
 * `{ kind: 'none' }`, a deliberately missing adapter (every turn ends `outcome: 'error'` with
 * `model_missing`; used to prove failed turns remove nothing durable).
 */
export type HostModelConfig = ModelConfig | { readonly kind: "none" };

/** The model to build, with why it was chosen (printed at startup; never the key). */
export type ModelSettings =
  | { readonly kind: "offline"; readonly reason: string }
  | { readonly kind: "none"; readonly reason: string }
  | {
    readonly kind: "openai-compatible";
    /** Endpoint base URL. */
    readonly baseURL: string;
    /** Model name. */
    readonly model: string;
    /** The API key (secret; never printed). */
    readonly apiKey: string;
    /** Which setting selected this model. */
    readonly reason: string;
  };

type Env = Readonly<Record<string, string | undefined>>;

function nonEmpty(env: Env, name: string): string | undefined {
  const value = env[name]?.trim();
  return value === undefined || value === "" ? undefined : value;
}

function chooseModel(configured: HostModelConfig, env: Env): ModelSettings {
  // Deliberately no adapter: no key in the environment brings one back.
  if (configured.kind === "none") return { kind: "none", reason: 'model.kind is "none"' };
  const base = nonEmpty(env, "CHIME_MODEL_BASE_URL");
  if (base !== undefined && !URL.canParse(base)) {
    throw new ConfigError(
      "config_invalid",
      "Cannot load config: CHIME_MODEL_BASE_URL is not a URL",
    );
  }
  const decision = modelFromEnv(env, configured);
  const ownEnv = configured.kind === "openai-compatible" ? configured.apiKeyEnv : undefined;
  if (decision.kind === "offline") {
    return { kind: "offline", reason: ownEnv === undefined ? "no API key" : `no key in ${ownEnv}` };
  }
  const reason = nonEmpty(env, "CHIME_MODEL_API_KEY") !== undefined
    ? "CHIME_MODEL_API_KEY"
    : ownEnv !== undefined && nonEmpty(env, ownEnv) !== undefined
    ? ownEnv
    : "DEEPSEEK_API_KEY";
  return { ...decision, reason };
}

/** The storage `CHIME_DATABASE_URL` names; a malformed URL is `config_invalid`. */
function databaseStorage(
  url: string,
  cwd: string,
  config: Omit<HostConfig, "model">,
  drivers: Readonly<Record<string, StorageDriver>>,
): HostConfig["storage"] {
  try {
    return storageAt(url, cwd, config.storage, drivers, DATABASE_URL_DRIVER);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    throw new ConfigError("config_invalid", `Cannot load config: CHIME_DATABASE_URL: ${message}`);
  }
}

/**
 * Applies `CHIME_PORT`, `CHIME_DATABASE_URL` (a PostgreSQL URL, README "Many hosts on
 * PostgreSQL"; wins over `CHIME_DB`), `CHIME_DB` (a location of the registry's `LOCATION_DRIVER`, a libSQL URL
 * or a path relative to `cwd`; the driver keeps what it carries over), `CHIME_TOKEN`,
 * `CHIME_ALLOWED_HOSTS` (comma-separated names; replaces `allowedHosts`),
 * `CHIME_ADVERTISED_URL` (this host's base URL in shared mode) and the model
 * variables. No key anywhere ⇒ the offline model; a configured `{ kind: 'none' }` ignores the
 * model variables.
 *
 * @param config validated configuration, with the configured model entry
 * @param modelConfig the configured `model` entry
 * @param env environment variables
 * @param cwd base for a relative `CHIME_DB` path
 * @param drivers the storage drivers
 * @returns the configuration with overrides applied
 * @throws {ConfigError} `config_invalid` for a bad port or URL
 */
export function applyEnv(
  config: Omit<HostConfig, "model">,
  modelConfig: HostModelConfig,
  env: Env,
  cwd: string,
  drivers: Readonly<Record<string, StorageDriver>>,
): HostConfig {
  const port = nonEmpty(env, "CHIME_PORT");
  const db = nonEmpty(env, "CHIME_DB");
  const databaseUrl = nonEmpty(env, "CHIME_DATABASE_URL");
  const token = nonEmpty(env, "CHIME_TOKEN");
  const hosts = nonEmpty(env, "CHIME_ALLOWED_HOSTS");
  const advertised = nonEmpty(env, "CHIME_ADVERTISED_URL");
  return {
    ...config,
    ...(advertised === undefined
      ? {}
      : { advertisedUrl: checkAdvertisedUrl(advertised, "CHIME_ADVERTISED_URL") }),
    ...(token === undefined ? {} : { token: checkToken(token, "CHIME_TOKEN") }),
    ...(hosts === undefined
      ? {}
      : { allowedHosts: checkHosts(hosts.split(","), "CHIME_ALLOWED_HOSTS") }),
    ...(port === undefined ? {} : {
      port: checkPort(/^\d+$/.test(port) ? Number(port) : Number.NaN, "CHIME_PORT"),
    }),
    ...(db === undefined ? {} : { storage: storageAt(db, cwd, config.storage, drivers) }),
    // CHIME_DATABASE_URL (a PostgreSQL URL) wins over CHIME_DB and the configured storage.
    ...(databaseUrl === undefined ? {} : {
      storage: databaseStorage(databaseUrl, cwd, config, drivers),
    }),
    model: chooseModel(modelConfig, env),
  };
}
