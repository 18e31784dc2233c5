/**
 * Private: the checks drivers' `parse` share (`session/libsql/driver.ts`,
 * `session/jsonl/driver.ts`), with the messages `host/config/_validate.ts` uses for every other key.
 *
 * @module
 */
import { StorageSettingsError } from "./backend.ts";

/**
 * Refuses keys outside `keys`; keys starting with `#` are the loader's anchors.
 *
 * @throws {StorageSettingsError} naming the first unknown key and the known ones
 */
export function onlyKeys(raw: Readonly<Record<string, unknown>>, keys: readonly string[]): void {
  for (const key of Object.keys(raw)) {
    if (key.startsWith("#")) continue;
    if (!keys.includes(key)) {
      throw new StorageSettingsError(`unknown key "storage.${key}" (known: ${keys.join(", ")})`);
    }
  }
}

/**
 * The non-empty string under `key`.
 *
 * @throws {StorageSettingsError} for anything else
 */
export function text(raw: Readonly<Record<string, unknown>>, key: string): string {
  const value = raw[key];
  if (typeof value !== "string" || value.trim() === "") {
    throw new StorageSettingsError(`storage.${key} must be a non-empty string`);
  }
  return value;
}
