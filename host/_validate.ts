/**
 * Shape validation of a merged configuration object (private to `config.ts`).
 *
 * @module
 */
import { isAbsolute, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import type { HostConfig, StorageSettings } from "./config.ts";
import { ConfigError } from "./errors.ts";
import type { HostModelConfig } from "./_env.ts";

type Json = Record<string, unknown>;

const TOP_KEYS = [
  "hostname",
  "port",
  "dataDir",
  "storage",
  "model",
  "plugins",
  "renderers",
  "cwd",
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

/** `file:` URL for a relative or absolute path; other URLs unchanged. */
export function libsqlUrl(url: string, base: string): string {
  if (url === ":memory:" || /^(libsql|https?|wss?):/.test(url)) return url;
  const path = url.startsWith("file:") ? url.slice("file:".length) : url;
  if (path.startsWith("//") || path === ":memory:") return url;
  return pathToFileURL(isAbsolute(path) ? path : resolve(base, path)).href;
}

function storage(file: string, raw: unknown, dataDir: string | undefined): StorageSettings {
  if (!isObject(raw)) fail(file, `storage must be an object`);
  const base = dataDir ?? String(raw["#dir"]);
  if (raw.kind === "libsql") {
    onlyKeys(file, "storage.", raw, ["kind", "url"]);
    return { kind: "libsql", url: libsqlUrl(text(file, "storage.url", raw.url), base) };
  }
  if (raw.kind === "jsonl") {
    onlyKeys(file, "storage.", raw, ["kind", "dir"]);
    return { kind: "jsonl", dir: resolve(base, text(file, "storage.dir", raw.dir)) };
  }
  fail(file, `storage.kind must be "libsql" or "jsonl"`);
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

/**
 * Validates a merged configuration object.
 *
 * @param raw the merged layers, with `#dir` anchors
 * @param file the top file, for messages
 * @returns the typed configuration (before env overrides)
 * @throws {ConfigError} `config_invalid`
 */
export function validateConfig(
  raw: Json,
  file: string,
): Omit<HostConfig, "files" | "model"> & { readonly model: HostModelConfig } {
  onlyKeys(file, "", raw, TOP_KEYS);
  const dataDir = raw.dataDir === undefined ? undefined : text(file, "dataDir", raw.dataDir);
  const hostname = raw.hostname === undefined ? "127.0.0.1" : text(file, "hostname", raw.hostname);
  if (raw.storage === undefined) fail(file, `storage is required`);
  return {
    hostname,
    port: raw.port === undefined ? 8787 : checkPort(raw.port, `${file}: port`),
    ...(dataDir === undefined ? {} : { dataDir }),
    storage: storage(file, raw.storage, dataDir),
    model: raw.model === undefined ? { kind: "offline" } : model(file, raw.model),
    plugins: names(file, "plugins", raw.plugins),
    renderers: names(file, "renderers", raw.renderers),
    cwd: raw.cwd === undefined ? "/" : text(file, "cwd", raw.cwd),
  };
}
