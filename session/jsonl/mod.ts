/**
 * `@chime/session/jsonl`: the JSONL storage driver ({@linkcode jsonlDriver}) and its backend
 * ({@linkcode JsonlBackend}): one file per session in a folder, one writer per folder.
 *
 * @example Open a folder through the driver
 * ```ts
 * import { jsonlDriver } from "@chime/session/jsonl";
 * const dir = await Deno.makeTempDir();
 * const settings = jsonlDriver.parse({ kind: "jsonl", dir }, { file: "chime.jsonc", baseDir: "/" });
 * await using backend = await jsonlDriver.open(settings, {});
 * console.assert((await backend.list()).length === 0);
 * ```
 *
 * @module
 */
export { jsonlDriver, type JsonlSettings } from "./driver.ts";
export { JsonlBackend, type JsonlBackendOptions } from "./jsonl_backend.ts";
