/**
 * Host configuration: `chime.jsonc` files (JSONC with `extends` overlays), validation with clear
 * messages, path resolution that never depends on the process cwd, and the environment overrides
 * of docs/architecture.md#configuration.
 *
 * @module
 */
import { dirname, isAbsolute, resolve } from "node:path";
import { parse, type ParseError, printParseErrorCode } from "jsonc-parser";
import {
  MIN_CONTEXT_TOKENS,
  OFFLINE_CONTEXT_TOKENS,
  OPENAI_COMPATIBLE_CONTEXT_TOKENS,
} from "@chime/agent";
import type { StorageDriver, StorageDriverSettings } from "@chime/session";
import { applyEnv, type ModelSettings as EnvModelSettings } from "./_env.ts";
import { validateConfig } from "./_validate.ts";
import { ConfigError } from "../errors.ts";
import type { LeaseSettings } from "../leases/leases.ts";
import { STORAGE_DRIVERS, storageDriver } from "../registry.ts";

/**
 * The model to build, with why it was chosen and its request budget: `contextTokens`
 * (`model.contextTokens` in `chime.jsonc`, estimated tokens; README "Configuration"),
 * always set by {@linkcode loadConfig}.
 */
export type ModelSettings = EnvModelSettings & { readonly contextTokens?: number };
export type { LeaseSettings } from "../leases/leases.ts";
export { ConfigError, type ConfigErrorCode } from "../errors.ts";

/**
 * Where sessions are persisted: the settings the `storage.kind` driver parsed (relative paths
 * already resolved), carried through opaque; only that driver reads the rest
 * (`host/registry.ts` `STORAGE_DRIVERS`, docs/architecture.md "Storage drivers").
 */
export type StorageSettings = StorageDriverSettings;

/** A loaded, validated, env-applied configuration. */
export interface HostConfig {
  /** Interface to bind. @default "127.0.0.1" */
  readonly hostname: string;
  /** TCP port; `0` picks a free one. @default 8787 */
  readonly port: number;
  /** Absolute data directory, when configured. */
  readonly dataDir?: string;
  /** The storage backend. */
  readonly storage: StorageSettings;
  /** The model adapter to build, with its request budget. */
  readonly model: ModelSettings;
  /** Plugin names, loaded in order from the static registry. */
  readonly plugins: readonly string[];
  /**
   * Options per configured plugin name, checked by the registry (`host/registry.ts`): today
   * `"@chime/schedule": { "maxRemindersPerHour": N }` (1..10000). @default {}
   */
  readonly pluginOptions?: Readonly<Record<string, Readonly<Record<string, unknown>>>>;
  /** Client renderer names enabled in the page. */
  readonly renderers: readonly string[];
  /** `cwd` recorded in headers of sessions created over HTTP. @default "/" */
  readonly cwd: string;
  /**
   * Extra names clients may use in the `Host` header besides loopback names and the bound
   * name (README "Security": DNS rebinding). Lowercase, without ports. @default []
   */
  readonly allowedHosts: readonly string[];
  /**
   * The access token every client must present (`Authorization: Bearer`, or the cookie set by
   * `/login` or `/?token=`); required when the bound name is not loopback. At least 16
   * characters, no whitespace. `CHIME_TOKEN` overrides it. @default none
   */
  readonly token?: string;
  /**
   * Minutes after which a live session with no running turn, no open stream and no pending
   * reminder is released (made cold); `0` never releases. @default 30
   */
  readonly idleReleaseMinutes: number;
  /** HTTP timeouts. */
  readonly timeouts: HttpTimeouts;
  /** Browser sign-ins of a host with a token (README "Security"). */
  readonly signIn: SignInSettings;
  /**
   * The base URL other hosts and pages use to reach this host (shared mode: written into the
   * leases it holds, returned with `409 session_owned_elsewhere`). `CHIME_ADVERTISED_URL`
   * overrides it. @default the URL the server listens on
   */
  readonly advertisedUrl?: string;
  /** Session leases in shared mode. */
  readonly lease: LeaseSettings;
  /** The config files read, base first. */
  readonly files: readonly string[];
}

/**
 * Browser sign-ins (`signIn` in `chime.jsonc`; README "Security"): each sign-in's cookie and
 * server-side record last `maxAgeDays`; at most `maxSignIns` are kept, the oldest dropped.
 */
export interface SignInSettings {
  /** Days a sign-in lasts (the cookie's `Max-Age` and the host's expiry), 1..400. @default 30 */
  readonly maxAgeDays: number;
  /** Sign-ins kept at most, 1..1000; a new one beyond drops the oldest. @default 32 */
  readonly maxSignIns: number;
}

/** HTTP timeouts of the server, seconds. */
export interface HttpTimeouts {
  /** A request body must arrive whole within this time (else `408 body_timeout`). @default 30 */
  readonly bodySeconds: number;
  /**
   * A connection with no byte in either direction for this long is closed (open streams send
   * a comment every 15 s, so they stay open); `0` turns the idle check off. At least 20.
   * @default 120
   */
  readonly idleSeconds: number;
}

/** Options of {@linkcode loadConfig}. */
export interface LoadConfigOptions {
  /** Environment variables to apply. @default {} (no overrides) */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** Overrides the data directory (absolute, or relative to `cwd`). */
  readonly dataDir?: string;
  /** Base for relative `dataDir` and `CHIME_DB` values. @default Deno.cwd() */
  readonly cwd?: string;
  /** Reads a file as text. @default Deno.readTextFile */
  readonly readTextFile?: (path: string) => Promise<string>;
  /** The storage drivers `storage.kind` names. @default STORAGE_DRIVERS of `host/registry.ts` */
  readonly storageDrivers?: Readonly<Record<string, StorageDriver>>;
}

type Json = Record<string, unknown>;

/**
 * Parses JSONC text, reporting the first syntax error with its line and column.
 *
 * @param text the file content
 * @param file the file name used in messages
 * @returns the parsed value
 * @throws {ConfigError} `config_syntax`
 *
 * @example Report where a syntax error is
 * ```ts
 * import { parseJsonc } from "@chime/host";
 * try {
 *   parseJsonc('{\n  "port": 1,,\n}', "chime.jsonc");
 * } catch (error) {
 *   console.assert(String(error).includes("chime.jsonc:2:"));
 * }
 * ```
 */
export function parseJsonc(text: string, file: string): unknown {
  const errors: ParseError[] = [];
  const value = parse(text, errors, { allowTrailingComma: true, disallowComments: false });
  const first = errors[0];
  if (first !== undefined) {
    const before = text.slice(0, first.offset).split(/\r\n|\r|\n/);
    const line = before.length;
    const column = (before.at(-1)?.length ?? 0) + 1;
    throw new ConfigError(
      "config_syntax",
      `Cannot load config: ${file}:${line}:${column}: ${printParseErrorCode(first.error)}`,
    );
  }
  return value;
}

function isObject(value: unknown): value is Json {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Overlay merge: objects merge key by key, except tagged unions whose `kind` changed. */
function merge(base: unknown, over: unknown): unknown {
  if (!isObject(base) || !isObject(over)) return over;
  if ("kind" in over && over.kind !== base.kind) return over;
  const out: Json = { ...base };
  for (const [key, value] of Object.entries(over)) out[key] = merge(base[key], value);
  return out;
}

function resolvePath(base: string, path: string): string {
  return isAbsolute(path) ? path : resolve(base, path);
}

/** Resolves one file's relative paths against its own directory (the declaring file). */
function anchor(raw: Json, dir: string): Json {
  const out: Json = { ...raw, ["#dir"]: dir };
  if (typeof raw.dataDir === "string") out.dataDir = resolvePath(dir, raw.dataDir);
  if (isObject(raw.storage)) out.storage = { ...raw.storage, ["#dir"]: dir };
  return out;
}

async function readLayer(
  path: string,
  read: (path: string) => Promise<string>,
  seen: readonly string[],
): Promise<{ value: Json; files: string[] }> {
  if (seen.includes(path)) {
    throw new ConfigError("config_invalid", `Cannot load config: ${path} extends itself`);
  }
  let text: string;
  try {
    text = await read(path);
  } catch (cause) {
    throw new ConfigError("config_unreadable", `Cannot load config: cannot read ${path}`, {
      cause,
    });
  }
  const raw = parseJsonc(text, path);
  if (!isObject(raw)) {
    throw new ConfigError("config_invalid", `Cannot load config: ${path} is not a JSON object`);
  }
  const { extends: parent, ...own } = raw;
  const layer = anchor(own, dirname(path));
  if (parent === undefined) return { value: layer, files: [path] };
  if (typeof parent !== "string") {
    throw new ConfigError("config_invalid", `Cannot load config: ${path}: extends must be a path`);
  }
  const base = await readLayer(resolvePath(dirname(path), parent), read, [...seen, path]);
  return { value: merge(base.value, layer) as Json, files: [...base.files, path] };
}

/** The largest `model.contextTokens` accepted. */
const MAX_CONTEXT_TOKENS = 10_000_000;

/**
 * Takes `model.contextTokens` out of the merged layers (the rest of `model` is validated with
 * its kind) and checks it.
 */
function takeContextTokens(value: Json, file: string): number | undefined {
  const model = value.model;
  if (!isObject(model) || !("contextTokens" in model)) return undefined;
  const { contextTokens, ...rest } = model;
  if (
    typeof contextTokens !== "number" || !Number.isInteger(contextTokens) ||
    contextTokens < MIN_CONTEXT_TOKENS || contextTokens > MAX_CONTEXT_TOKENS
  ) {
    throw new ConfigError(
      "config_invalid",
      `Cannot load config: ${file}: model.contextTokens must be an integer ${MIN_CONTEXT_TOKENS}..${MAX_CONTEXT_TOKENS}`,
    );
  }
  value.model = rest;
  return contextTokens;
}

/**
 * Loads a configuration file with its `extends` chain, validates it and applies environment
 * overrides (`CHIME_PORT`, `CHIME_DB`, `CHIME_MODEL_BASE_URL`, `CHIME_MODEL`,
 * `CHIME_MODEL_API_KEY`, `DEEPSEEK_API_KEY`, `CHIME_TOKEN`, `CHIME_ALLOWED_HOSTS`,
 * `CHIME_ADVERTISED_URL`).
 *
 * `model.contextTokens` (the request budget, estimated tokens) defaults by the adapter chosen:
 * 32,000 for the offline model, 64,000 for an OpenAI-compatible endpoint (DeepSeek included).
 *
 * Relative `dataDir` values resolve against the declaring file's directory; relative storage
 * paths against `dataDir` when set, else against the declaring file's directory. CLI and env
 * paths resolve against `options.cwd`.
 *
 * @param path the config file (absolute, or relative to `options.cwd`)
 * @param options env, data directory override, cwd, file reader
 * @returns the configuration
 * @throws {ConfigError} unreadable file, JSONC syntax error (with line:column), invalid value
 *
 * @example Load the web-schedule example without env overrides
 * ```ts ignore
 * import { loadConfig } from "@chime/host";
 * const config = await loadConfig("examples/web-schedule/chime.jsonc");
 * console.assert(config.plugins.includes("@chime/schedule"));
 * ```
 */
export async function loadConfig(
  path: string,
  options: LoadConfigOptions = {},
): Promise<HostConfig> {
  const cwd = options.cwd ?? Deno.cwd();
  const read = options.readTextFile ?? ((p: string) => Deno.readTextFile(p));
  const file = resolvePath(cwd, path);
  const { value, files } = await readLayer(file, read, []);
  if (options.dataDir !== undefined) value.dataDir = resolvePath(cwd, options.dataDir);
  const top = files.at(-1) ?? file;
  const contextTokens = takeContextTokens(value, top);
  const drivers = options.storageDrivers ?? STORAGE_DRIVERS;
  const { model, ...config } = validateConfig(value, top, drivers);
  const loaded = applyEnv({ ...config, files }, model, options.env ?? {}, cwd, drivers);
  const budget = contextTokens ??
    (loaded.model.kind === "openai-compatible"
      ? OPENAI_COMPATIBLE_CONTEXT_TOKENS
      : OFFLINE_CONTEXT_TOKENS);
  return { ...loaded, model: { ...loaded.model, contextTokens: budget } };
}

/**
 * The local directory the configured storage needs, for creating it before opening storage.
 *
 * @param storage resolved storage settings
 * @param drivers the driver table @default STORAGE_DRIVERS
 * @returns the directory to create, or `undefined` for remote and in-memory storage
 */
export function storageDirectory(
  storage: StorageSettings,
  drivers?: Readonly<Record<string, StorageDriver>>,
): string | undefined {
  return storageDriver(storage.kind, drivers === undefined ? {} : { drivers }).directory(storage);
}
