/**
 * {@linkcode libsqlDriver}: the libSQL {@linkcode StorageDriver} (`storage: { kind: "libsql",
 * url, shared? }`, README "Configuration"). Shared mode (`shared`, implied for remote URLs)
 * opens a {@linkcode SessionLeases} table over its own connection and fences every append
 * (docs/long-sessions.md "Fenced appends").
 *
 * @module
 */
import { createClient } from "@libsql/client";
import { dirname, isAbsolute, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import {
  type LeaseTable,
  type LeaseTableOptions,
  type StorageDriver,
  StorageSettingsError,
} from "../backend.ts";
import { checkStorage } from "../doctor.ts";
import { onlyKeys, text } from "../_storage_settings.ts";
import { redactUrl } from "../_redact.ts";
import { SessionLeases } from "./lease.ts";
import { LibsqlBackend, type LibsqlBackendOptions } from "./libsql_backend.ts";

/** Parsed `storage` settings of the libSQL driver. */
export type LibsqlSettings = {
  /** Always `libsql`. */
  readonly kind: "libsql";
  /** `file:` URL (absolute), `:memory:`, or a remote `libsql:`/`http(s):`/`ws(s):` URL. */
  readonly url: string;
  /**
   * Several hosts share this database: no per-file writer lock, one live owner per session
   * enforced by leases. @default true for `libsql:`, `http(s):` and `ws(s):` URLs, else false
   */
  readonly shared?: boolean;
};

const REMOTE = /^(libsql|https?|wss?):/;

/**
 * A `file:` URL for a relative or absolute path; remote URLs and `:memory:` unchanged.
 *
 * @param url a URL or path
 * @param base absolute base of a relative path
 * @returns the URL to open
 *
 * @example A relative path becomes an absolute file URL
 * ```ts
 * import { libsqlUrl } from "@chime/session/libsql";
 * console.assert(libsqlUrl("chime.db", "/data") === "file:///data/chime.db");
 * ```
 */
export function libsqlUrl(url: string, base: string): string {
  if (url === ":memory:" || REMOTE.test(url)) return url;
  const path = url.startsWith("file:") ? url.slice("file:".length) : url;
  if (path.startsWith("//") || path === ":memory:") return url;
  return pathToFileURL(isAbsolute(path) ? path : resolve(base, path)).href;
}

/** The lease table of one host with the connection it owns. */
class OwnedLeases extends SessionLeases implements AsyncDisposable {
  readonly #close: () => void;

  constructor(url: string, options: LeaseTableOptions) {
    const client = createClient({ url, ...(url.startsWith("file:") ? { timeout: 5_000 } : {}) });
    super(client, options);
    this.#close = () => client.close();
  }

  [Symbol.asyncDispose](): Promise<void> {
    this.#close();
    return Promise.resolve();
  }
}

/**
 * The libSQL storage driver: a `file:` database for one host, or a database many hosts share.
 *
 * @example Parse settings and open the backend
 * ```ts
 * import { libsqlDriver } from "@chime/session/libsql";
 * const settings = libsqlDriver.parse({ kind: "libsql", url: ":memory:" }, {
 *   file: "chime.jsonc",
 *   baseDir: "/",
 * });
 * console.assert(!libsqlDriver.shared(settings));
 * await using backend = await libsqlDriver.open(settings, {});
 * console.assert(backend.kind === "libsql");
 * ```
 */
export const libsqlDriver: StorageDriver<LibsqlSettings> = {
  kind: "libsql",
  parse(raw, context) {
    onlyKeys(raw, ["kind", "url", "shared"]);
    if (raw.shared !== undefined && typeof raw.shared !== "boolean") {
      throw new StorageSettingsError(`storage.shared must be true or false`);
    }
    return {
      kind: "libsql",
      url: libsqlUrl(text(raw, "url"), context.baseDir),
      ...(raw.shared === undefined ? {} : { shared: raw.shared }),
    };
  },
  fromLocation(location, baseDir, configured) {
    // The override moves the database; a configured `storage.shared` carries over.
    const shared = configured.kind === "libsql" ? (configured as LibsqlSettings).shared : undefined;
    return {
      kind: "libsql",
      url: libsqlUrl(location, baseDir),
      ...(shared === undefined ? {} : { shared }),
    };
  },
  shared(settings) {
    return settings.shared ?? REMOTE.test(settings.url);
  },
  directory(settings) {
    if (!settings.url.startsWith("file:")) return undefined;
    const path = settings.url.startsWith("file://")
      ? fileURLToPath(settings.url)
      : settings.url.slice("file:".length);
    return path === ":memory:" ? undefined : dirname(path);
  },
  describe(settings) {
    return redactUrl(settings.url);
  },
  async open(settings, options) {
    const libsql: LibsqlBackendOptions = {
      url: settings.url,
      ...(settings.shared === undefined ? {} : { shared: settings.shared }),
      ...(options.fence === undefined ? {} : { fence: options.fence }),
    };
    return await LibsqlBackend.open(libsql);
  },
  leases(settings, options): Promise<LeaseTable & AsyncDisposable> {
    return Promise.resolve(new OwnedLeases(settings.url, options));
  },
  check(settings, options) {
    return checkStorage(settings, options);
  },
};
