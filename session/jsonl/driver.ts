/**
 * {@linkcode jsonlDriver}: the JSONL {@linkcode StorageDriver} (`storage: { kind: "jsonl", dir }`,
 * README "Configuration"): one host, one writer per folder, never shared.
 *
 * @module
 */
import { resolve } from "node:path";
import type { StorageDriver } from "../backend.ts";
import { checkStorage } from "../doctor.ts";
import { onlyKeys, text } from "../_storage_settings.ts";
import { JsonlBackend } from "./jsonl_backend.ts";

/** Parsed `storage` settings of the JSONL driver. */
export type JsonlSettings = {
  /** Always `jsonl`. */
  readonly kind: "jsonl";
  /** The absolute folder holding `<id>.jsonl` files; created when missing. */
  readonly dir: string;
};

/**
 * The JSONL storage driver: a folder of one file per session, for a single host.
 *
 * @example Parse settings relative to the data directory
 * ```ts
 * import { jsonlDriver } from "@chime/session/jsonl";
 * const settings = jsonlDriver.parse({ kind: "jsonl", dir: "sessions" }, {
 *   file: "chime.jsonc",
 *   baseDir: "/data",
 * });
 * console.assert(jsonlDriver.describe(settings) === "/data/sessions");
 * console.assert(!jsonlDriver.shared(settings));
 * ```
 */
export const jsonlDriver: StorageDriver<JsonlSettings> = {
  kind: "jsonl",
  parse(raw, context) {
    onlyKeys(raw, ["kind", "dir"]);
    return { kind: "jsonl", dir: resolve(context.baseDir, text(raw, "dir")) };
  },
  shared() {
    return false;
  },
  directory(settings) {
    return settings.dir;
  },
  describe(settings) {
    return settings.dir;
  },
  async open(settings) {
    return await JsonlBackend.open({ dir: settings.dir });
  },
  check(settings, options) {
    return checkStorage(settings, options);
  },
};
