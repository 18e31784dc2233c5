/**
 * Shape validation of a merged configuration object (private to `config.ts`).
 *
 * @module
 */
import { type StorageDriver, StorageSettingsError } from "@chime/session";
import type { HostConfig, HttpTimeouts, SignInSettings, StorageSettings } from "./config.ts";
import { cwdProblem } from "../sessions/_cwd.ts";
import { ConfigError } from "../errors.ts";
import { storageDriver } from "../registry.ts";
import { DEFAULT_MAX_SIGN_INS, DEFAULT_SIGN_IN_MAX_AGE_DAYS } from "../auth/sign_ins.ts";
import type { HostModelConfig } from "./_env.ts";

type Json = Record<string, unknown>;

const TOP_KEYS = [
  "hostname",
  "port",
  "dataDir",
  "storage",
  "model",
  "plugins",
  "pluginOptions",
  "renderers",
  "cwd",
  "allowedHosts",
  "token",
  "idleReleaseMinutes",
  "timeouts",
  "signIn",
  "advertisedUrl",
  "lease",
  "$schema",
];

function fail(file: string, message: string): never {
  throw new ConfigError("config_invalid", `Cannot load config: ${file}: ${message}`);
}

function isObject(value: unknown): value is Json {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function onlyKeys(file: string, where: string, value: Json, keys: readonly string[]): void {
  for (const key of Object.keys(value)) {
    if (key.startsWith("#")) continue;
    if (!keys.includes(key)) fail(file, `unknown key "${where}${key}" (known: ${keys.join(", ")})`);
  }
}

function text(file: string, where: string, value: unknown): string {
  if (typeof value !== "string" || value.trim() === "") {
    fail(file, `${where} must be a non-empty string`);
  }
  return value;
}

/** The `cwd` of sessions created over HTTP: the same rule as a request's (`_cwd.ts`). */
function configCwd(file: string, value: unknown): string {
  const problem = cwdProblem(text(file, "cwd", value));
  if (problem !== undefined) fail(file, `cwd must be an absolute path (${problem})`);
  return value as string;
}

function names(file: string, where: string, value: unknown): string[] {
  if (value === undefined) return [];
  if (!Array.isArray(value) || !value.every((v) => typeof v === "string" && v !== "")) {
    fail(file, `${where} must be an array of names`);
  }
  if (new Set(value).size !== value.length) fail(file, `${where} lists a name twice`);
  return value as string[];
}

/** Port numbers: an integer 0..65535 (`0` lets the system choose). */
export function checkPort(value: unknown, where: string): number {
  if (typeof value !== "number" || !Number.isInteger(value) || value < 0 || value > 65535) {
    throw new ConfigError("config_invalid", `Cannot load config: ${where} must be 0..65535`);
  }
  return value;
}

/** `storage`: dispatched to the driver its `kind` names (`host/registry.ts`). */
function storage(
  file: string,
  raw: unknown,
  dataDir: string | undefined,
  drivers: Readonly<Record<string, StorageDriver>>,
): StorageSettings {
  if (!isObject(raw)) fail(file, `storage must be an object`);
  const baseDir = dataDir ?? String(raw["#dir"]);
  const driver = storageDriver(raw.kind, { file, drivers });
  try {
    return driver.parse(raw, { file, baseDir });
  } catch (error) {
    if (error instanceof StorageSettingsError) fail(file, error.message);
    throw error;
  }
}

function model(file: string, raw: unknown): HostModelConfig {
  if (!isObject(raw)) fail(file, `model must be an object`);
  if (raw.kind === "offline" || raw.kind === "none") {
    onlyKeys(file, "model.", raw, ["kind"]);
    return { kind: raw.kind };
  }
  if (raw.kind === "openai-compatible") {
    onlyKeys(file, "model.", raw, ["kind", "baseURL", "model", "apiKeyEnv"]);
    const baseURL = text(file, "model.baseURL", raw.baseURL);
    if (!URL.canParse(baseURL)) fail(file, `model.baseURL must be a URL`);
    return {
      kind: "openai-compatible",
      baseURL,
      model: text(file, "model.model", raw.model),
      apiKeyEnv: text(file, "model.apiKeyEnv", raw.apiKeyEnv),
    };
  }
  fail(file, `model.kind must be "offline", "openai-compatible" or "none"`);
}

/** A `Host` name: a DNS name or an IP literal (IPv6 in brackets), lowercase, no port. */
const HOST_NAME =
  /^(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*|\[[0-9a-f:.]{2,45}\])$/;

/**
 * Validates a list of host names (`allowedHosts`, `CHIME_ALLOWED_HOSTS`): lowercased, a
 * trailing dot dropped.
 *
 * @param value the configured list
 * @param where the key or variable, for messages
 * @returns the names
 * @throws {ConfigError} `config_invalid` for anything but names without ports
 */
export function checkHosts(value: unknown, where: string): string[] {
  if (!Array.isArray(value)) {
    throw new ConfigError(
      "config_invalid",
      `Cannot load config: ${where} must be an array of names`,
    );
  }
  return value.map((entry) => {
    const name = typeof entry === "string" ? entry.trim().toLowerCase().replace(/\.$/, "") : "";
    if (name.length > 253 || !HOST_NAME.test(name)) {
      throw new ConfigError(
        "config_invalid",
        `Cannot load config: ${where}: ${
          JSON.stringify(entry)
        } is not a host name (no port, no scheme)`,
      );
    }
    return name;
  });
}

/**
 * Validates an access token (`token`, `CHIME_TOKEN`).
 *
 * @param value the configured token
 * @param where the key or variable, for messages
 * @returns the token
 * @throws {ConfigError} `config_invalid` when shorter than 16 characters or with whitespace
 */
export function checkToken(value: unknown, where: string): string {
  if (
    typeof value !== "string" || value.length < 16 || value.length > 512 ||
    /[\s\p{Cc}]/u.test(value)
  ) {
    throw new ConfigError(
      "config_invalid",
      `Cannot load config: ${where} must be 16..512 characters without whitespace`,
    );
  }
  return value;
}

function wholeNumber(
  file: string,
  where: string,
  value: unknown,
  min: number,
  max: number,
): number {
  if (typeof value !== "number" || !Number.isInteger(value) || value < min || value > max) {
    fail(file, `${where} must be an integer ${min}..${max}`);
  }
  return value;
}

function timeouts(file: string, raw: unknown): HttpTimeouts {
  if (raw === undefined) return { bodySeconds: 30, idleSeconds: 120 };
  if (!isObject(raw)) fail(file, `timeouts must be an object`);
  onlyKeys(file, "timeouts.", raw, ["bodySeconds", "idleSeconds"]);
  const idleSeconds = raw.idleSeconds === undefined
    ? 120
    : wholeNumber(file, "timeouts.idleSeconds", raw.idleSeconds, 0, 86_400);
  if (idleSeconds !== 0 && idleSeconds < 20) {
    fail(
      file,
      `timeouts.idleSeconds must be 0 (off) or at least 20 (streams send a comment every 15 s)`,
    );
  }
  return {
    bodySeconds: raw.bodySeconds === undefined
      ? 30
      : wholeNumber(file, "timeouts.bodySeconds", raw.bodySeconds, 1, 3600),
    idleSeconds,
  };
}

function signIn(file: string, raw: unknown): SignInSettings {
  const defaults = { maxAgeDays: DEFAULT_SIGN_IN_MAX_AGE_DAYS, maxSignIns: DEFAULT_MAX_SIGN_INS };
  if (raw === undefined) return defaults;
  if (!isObject(raw)) fail(file, `signIn must be an object`);
  onlyKeys(file, "signIn.", raw, ["maxAgeDays", "maxSignIns"]);
  return {
    // Hono refuses a cookie Max-Age over 400 days (RFC 6265bis caps it there).
    maxAgeDays: raw.maxAgeDays === undefined
      ? defaults.maxAgeDays
      : wholeNumber(file, "signIn.maxAgeDays", raw.maxAgeDays, 1, 400),
    maxSignIns: raw.maxSignIns === undefined
      ? defaults.maxSignIns
      : wholeNumber(file, "signIn.maxSignIns", raw.maxSignIns, 1, 1000),
  };
}

/**
 * Validates an advertised base URL (`advertisedUrl`, `CHIME_ADVERTISED_URL`).
 *
 * @param value the configured URL
 * @param where the key or variable, for messages
 * @returns the URL, with a trailing slash
 * @throws {ConfigError} `config_invalid` for anything but an absolute http(s) URL
 */
export function checkAdvertisedUrl(value: unknown, where: string): string {
  const url = typeof value === "string" && URL.canParse(value) ? new URL(value) : undefined;
  if (
    url === undefined || !/^https?:$/.test(url.protocol) || url.search !== "" || url.hash !== ""
  ) {
    throw new ConfigError(
      "config_invalid",
      `Cannot load config: ${where} must be an http(s) base URL such as https://a.example/`,
    );
  }
  return url.href.endsWith("/") ? url.href : `${url.href}/`;
}

/**
 * `pluginOptions`: an object per configured plugin name; what each may hold is checked by the
 * registry (`host/registry.ts`), which knows the plugins.
 */
function pluginOptions(
  file: string,
  raw: unknown,
  plugins: readonly string[],
): Readonly<Record<string, Readonly<Record<string, unknown>>>> {
  if (raw === undefined) return {};
  if (!isObject(raw)) fail(file, `pluginOptions must be an object`);
  const out: Record<string, Readonly<Record<string, unknown>>> = {};
  for (const [name, options] of Object.entries(raw)) {
    if (name.startsWith("#")) continue;
    if (!plugins.includes(name)) {
      fail(file, `pluginOptions names "${name}", which is not in plugins`);
    }
    if (!isObject(options)) fail(file, `pluginOptions["${name}"] must be an object`);
    out[name] = options;
  }
  return out;
}

function lease(file: string, raw: unknown): { readonly ttlSeconds: number } {
  if (raw === undefined) return { ttlSeconds: 15 };
  if (!isObject(raw)) fail(file, `lease must be an object`);
  onlyKeys(file, "lease.", raw, ["ttlSeconds"]);
  return {
    ttlSeconds: raw.ttlSeconds === undefined
      ? 15
      : wholeNumber(file, "lease.ttlSeconds", raw.ttlSeconds, 1, 3600),
  };
}

/**
 * Validates a merged configuration object.
 *
 * @param raw the merged layers, with `#dir` anchors
 * @param file the top file, for messages
 * @param drivers the storage drivers `storage.kind` may name
 * @returns the typed configuration (before env overrides)
 * @throws {ConfigError} `config_invalid`
 */
export function validateConfig(
  raw: Json,
  file: string,
  drivers: Readonly<Record<string, StorageDriver>>,
): Omit<HostConfig, "files" | "model"> & { readonly model: HostModelConfig } {
  onlyKeys(file, "", raw, TOP_KEYS);
  const dataDir = raw.dataDir === undefined ? undefined : text(file, "dataDir", raw.dataDir);
  const hostname = raw.hostname === undefined ? "127.0.0.1" : text(file, "hostname", raw.hostname);
  if (raw.storage === undefined) fail(file, `storage is required`);
  const plugins = names(file, "plugins", raw.plugins);
  return {
    hostname,
    port: raw.port === undefined ? 8787 : checkPort(raw.port, `${file}: port`),
    ...(dataDir === undefined ? {} : { dataDir }),
    storage: storage(file, raw.storage, dataDir, drivers),
    model: raw.model === undefined ? { kind: "offline" } : model(file, raw.model),
    plugins,
    pluginOptions: pluginOptions(file, raw.pluginOptions, plugins),
    renderers: names(file, "renderers", raw.renderers),
    cwd: raw.cwd === undefined ? "/" : configCwd(file, raw.cwd),
    allowedHosts: raw.allowedHosts === undefined
      ? []
      : checkHosts(raw.allowedHosts, `${file}: allowedHosts`),
    ...(raw.token === undefined ? {} : { token: checkToken(raw.token, `${file}: token`) }),
    idleReleaseMinutes: raw.idleReleaseMinutes === undefined
      ? 30
      : wholeNumber(file, "idleReleaseMinutes", raw.idleReleaseMinutes, 0, 525_600),
    timeouts: timeouts(file, raw.timeouts),
    signIn: signIn(file, raw.signIn),
    ...(raw.advertisedUrl === undefined
      ? {}
      : { advertisedUrl: checkAdvertisedUrl(raw.advertisedUrl, `${file}: advertisedUrl`) }),
    lease: lease(file, raw.lease),
  };
}
