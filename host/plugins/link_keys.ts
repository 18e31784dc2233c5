/**
 * The host's revocable link keys (`LinkKeys` of `@chime/contract`; docs/upcoming.md "Calendar
 * feed"): one 256-bit secret per scope, kept in `link-keys.json` in the host's data directory
 * (mode 0600, written to a temporary file, synced and renamed, so a crash leaves the old file or
 * the new one), never logged (the request log leaves the query out, README "Logging"). Without a
 * data directory (a remote database and no `dataDir`) the keys live in memory only and are lost
 * at a restart, which revokes them.
 *
 * @module
 */
import { join } from "node:path";
import type { LinkKeys } from "@chime/contract";

/** The file name below the data directory. */
export const LINK_KEYS_FILE = "link-keys.json";

const encoder = new TextEncoder();

function base64url(bytes: Uint8Array): string {
  return btoa(String.fromCharCode(...bytes)).replaceAll("+", "-").replaceAll("/", "_")
    .replace(/=+$/, "");
}

/** Equal strings, compared in constant time for equal lengths. */
function same(a: string, b: string): boolean {
  const x = encoder.encode(a);
  const y = encoder.encode(b);
  let diff = x.length ^ y.length;
  for (let i = 0; i < x.length && i < y.length; i++) diff |= x[i]! ^ y[i]!;
  return diff === 0;
}

/**
 * Link keys stored in a directory (or in memory).
 *
 * @example Issue, check and revoke a key in memory
 * ```ts
 * import { FileLinkKeys } from "./link_keys.ts";
 * const keys = new FileLinkKeys(undefined);
 * const key = await keys.issue("reminders.ics");
 * console.assert(await keys.verify("reminders.ics", key));
 * await keys.revoke("reminders.ics");
 * console.assert(!(await keys.verify("reminders.ics", key)));
 * ```
 */
export class FileLinkKeys implements LinkKeys {
  readonly #path: string | undefined;
  #keys: Map<string, string> | undefined;
  #writing: Promise<void> = Promise.resolve();

  /**
   * @param dir the host's data directory, or `undefined` to keep keys in memory
   */
  constructor(dir: string | undefined) {
    this.#path = dir === undefined ? undefined : join(dir, LINK_KEYS_FILE);
  }

  async #load(): Promise<Map<string, string>> {
    if (this.#keys !== undefined) return this.#keys;
    const keys = new Map<string, string>();
    if (this.#path !== undefined) {
      const text = await Deno.readTextFile(this.#path).catch((error) => {
        if (error instanceof Deno.errors.NotFound) return "{}";
        throw error;
      });
      const parsed = JSON.parse(text) as Record<string, unknown>;
      for (const [scope, key] of Object.entries(parsed)) {
        if (typeof key === "string") keys.set(scope, key);
      }
    }
    return this.#keys ??= keys;
  }

  async #save(keys: Map<string, string>): Promise<void> {
    const path = this.#path;
    if (path === undefined) return;
    const run = this.#writing.then(async () => {
      const temp = `${path}.tmp`;
      const file = await Deno.open(temp, {
        write: true,
        create: true,
        truncate: true,
        mode: 0o600,
      });
      try {
        await file.write(encoder.encode(JSON.stringify(Object.fromEntries(keys), null, 2)));
        await file.sync();
      } finally {
        file.close();
      }
      await Deno.rename(temp, path);
    });
    this.#writing = run.catch(() => {});
    await run;
  }

  /** @inheritdoc */
  async issue(scope: string): Promise<string> {
    const keys = await this.#load();
    const found = keys.get(scope);
    if (found !== undefined) return found;
    const key = base64url(crypto.getRandomValues(new Uint8Array(32)));
    keys.set(scope, key);
    await this.#save(keys);
    return key;
  }

  /** @inheritdoc */
  async get(scope: string): Promise<string | undefined> {
    return (await this.#load()).get(scope);
  }

  /** @inheritdoc */
  async verify(scope: string, key: string | undefined): Promise<boolean> {
    if (key === undefined || key === "") return false;
    const current = (await this.#load()).get(scope);
    return current !== undefined && same(current, key);
  }

  /** @inheritdoc */
  async revoke(scope: string): Promise<boolean> {
    const keys = await this.#load();
    if (!keys.delete(scope)) return false;
    await this.#save(keys);
    return true;
  }
}
