/**
 * The host's VAPID key pair (RFC 8292), generated once with `web-push` and kept in
 * `<dataDir>/push/vapid.json` with file mode `0600` (docs/push.md "Keys"). The private key never
 * appears in a log line, an answer or a repository; only the public key is served.
 *
 * @module
 */
import { webpush } from "./_web_push.ts";

/** A VAPID key pair, URL-safe base64 without padding (the `web-push` form). */
export interface VapidKeys {
  /** The uncompressed P-256 public key (65 bytes), what a browser subscribes with. */
  readonly publicKey: string;
  /** The 32-byte private key. */
  readonly privateKey: string;
}

/** The key file's name below the push directory. */
export const VAPID_FILE = "vapid.json";

function valid(value: unknown): value is VapidKeys {
  const v = value as Partial<VapidKeys> | null;
  return typeof v?.publicKey === "string" && /^[A-Za-z0-9_-]{87}$/.test(v.publicKey) &&
    typeof v.privateKey === "string" && /^[A-Za-z0-9_-]{43}$/.test(v.privateKey);
}

/**
 * Loads the key pair from `dir`, generating and storing it (mode `0600`, created exclusively)
 * the first time. Without a directory the pair lives in memory for this process.
 *
 * @param dir the push directory (`<dataDir>/push`), or `undefined` for memory only
 * @returns the pair
 * @throws {Error} when the stored file is not a key pair (it is never overwritten)
 */
export async function loadVapidKeys(dir: string | undefined): Promise<VapidKeys> {
  if (dir === undefined) return webpush.generateVAPIDKeys();
  const path = `${dir}/${VAPID_FILE}`;
  try {
    const stored: unknown = JSON.parse(await Deno.readTextFile(path));
    if (!valid(stored)) throw new Error(`Cannot load push keys: ${path} holds no VAPID key pair`);
    return stored;
  } catch (error) {
    if (!(error instanceof Deno.errors.NotFound)) throw error;
  }
  await Deno.mkdir(dir, { recursive: true, mode: 0o700 });
  const keys = webpush.generateVAPIDKeys();
  try {
    await Deno.writeTextFile(path, JSON.stringify(keys) + "\n", { createNew: true, mode: 0o600 });
  } catch (error) {
    // Another process wrote it first: use that pair.
    if (error instanceof Deno.errors.AlreadyExists) return await loadVapidKeys(dir);
    throw error;
  }
  await Deno.chmod(path, 0o600);
  return keys;
}
