/**
 * The static registry of plugins and storage drivers: names in `chime.jsonc` resolve here,
 * never through a dynamic `import()` of a path, so `deno compile` embeds everything a config can
 * name. It is the one place the host names a plugin or a storage driver: everything else a
 * plugin brings (tools, hooks, owners, routes, views, renderer and panel names) arrives through
 * the plugin object itself (docs/architecture.md "Plugins"), and everything else about storage
 * through its `StorageDriver` (docs/architecture.md "Storage drivers"). Renderer names are those
 * bundled in the page (`RENDERER_NAMES` of `@chime/ui/assets`).
 *
 * @module
 */
import type { Plugin } from "@chime/contract";
import {
  jsonlDriver,
  libsqlDriver,
  type LogCheck,
  type StorageDriver,
  type StorageDriverSettings,
} from "@chime/session";
import { postgresDriver } from "@chime/session/postgres";
import { schedulePlugin } from "@chime/schedule";
import { timeContextPlugin } from "@chime/timecontext";
import { pushPlugin } from "@chime/push";
import { RENDERER_NAMES } from "@chime/ui/assets";
import { ConfigError } from "./errors.ts";
import { pluginLogger } from "./log.ts";

/** Builds a fresh plugin instance. */
export type PluginFactory = () => Plugin;

/** One plugin a configuration may name. */
export interface RegistryEntry {
  /** The keys its `pluginOptions` entry may hold. */
  readonly options: readonly string[];
  /**
   * Checks the values of its options (the keys are checked against `options` first).
   *
   * @param where `pluginOptions["name"]`, for messages
   * @throws {ConfigError} `config_invalid` for a value out of range
   */
  readonly check: (options: Readonly<Record<string, unknown>>, where: string) => void;
  /** Builds a fresh instance from checked options and where the host keeps its data. */
  readonly create: (options: Readonly<Record<string, unknown>>, host: PluginHostContext) => Plugin;
}

/** What the host tells a plugin factory about itself. */
export interface PluginHostContext {
  /**
   * The host's data directory (`dataDir`, else the local storage's directory), where a plugin
   * may keep its own files in a folder named after it; `undefined` for remote or in-memory
   * storage.
   */
  readonly dataDir?: string | undefined;
}

function checkWholeNumber(where: string, value: unknown, min: number, max: number): void {
  if (value === undefined) return;
  if (typeof value !== "number" || !Number.isInteger(value) || value < min || value > max) {
    throw new ConfigError(
      "config_invalid",
      `Cannot load config: ${where} must be an integer ${min}..${max}`,
    );
  }
}

/** An exact `http:` or `https:` origin (`scheme://host[:port]`, what `URL.origin` writes). */
function isOrigin(text: string): boolean {
  try {
    return /^https?:/.test(text) && new URL(text).origin === text;
  } catch {
    return false;
  }
}

/** Plugins a configuration may name, by name. */
export const PLUGINS: Readonly<Record<string, RegistryEntry>> = {
  "@chime/timecontext": {
    options: [],
    check: () => {},
    create: () => timeContextPlugin(),
  },
  "@chime/schedule": {
    // The hourly reminder budget (docs/recurring.md "Delivery").
    options: ["maxRemindersPerHour"],
    check: (options, where) =>
      checkWholeNumber(`${where}.maxRemindersPerHour`, options.maxRemindersPerHour, 1, 10_000),
    create: (options, host) =>
      schedulePlugin({
        logger: pluginLogger("schedule"),
        // The Upcoming start-up cache, derived from the logs (docs/upcoming.md).
        ...(host.dataDir === undefined ? {} : { upcomingCacheDir: `${host.dataDir}/schedule` }),
        ...(options.maxRemindersPerHour === undefined
          ? {}
          : { maxRemindersPerHour: options.maxRemindersPerHour as number }),
      }),
  },
  "@chime/push": {
    // Web Push while a session is live (docs/push.md); keys and subscriptions in <dataDir>/push.
    // `allowedOrigins`: push service origins accepted besides public https: ones (a local push
    // service), docs/push.md "What is accepted".
    options: ["subject", "allowedOrigins"],
    check: (options, where) => {
      const origins = options.allowedOrigins;
      if (
        origins !== undefined &&
        (!Array.isArray(origins) || origins.length > 100 ||
          !origins.every((o) => typeof o === "string" && isOrigin(o)))
      ) {
        throw new ConfigError(
          "config_invalid",
          `Cannot load config: ${where}.allowedOrigins must be a list of http: or https: origins`,
        );
      }
      const subject = options.subject;
      if (
        subject !== undefined && (typeof subject !== "string" || !/^(mailto|https):/.test(subject))
      ) {
        throw new ConfigError(
          "config_invalid",
          `Cannot load config: ${where}.subject must be a mailto: or https: URL`,
        );
      }
    },
    create: (options, host) =>
      pushPlugin({
        logger: pluginLogger("push"),
        ...(host.dataDir === undefined ? {} : { dir: `${host.dataDir}/push` }),
        ...(options.subject === undefined ? {} : { subject: options.subject as string }),
        ...(options.allowedOrigins === undefined
          ? {}
          : { allowedOrigins: options.allowedOrigins as string[] }),
      }),
  },
};

/** Client renderers a configuration may enable (bundled in the page). */
export const RENDERERS: readonly string[] = RENDERER_NAMES;

/**
 * Resolves configured names against the registry and checks each plugin's options.
 *
 * @param plugins plugin names, in load order
 * @param renderers renderer names
 * @param pluginOptions options by plugin name (`HostConfig.pluginOptions`) @default {}
 * @param table the plugins names resolve against (tests: a new plugin is one more row)
 * @param host where the host keeps its data, for the factories @default {}
 *   @default PLUGINS
 * @returns the plugin factories in order (each builds a fresh instance with its options)
 * @throws {ConfigError} `config_invalid` naming the unknown entry and the known ones, an option
 *   the plugin does not take, or a value out of range
 *
 * @example The web-schedule names resolve
 * ```ts
 * import { resolveRegistry } from "@chime/host";
 * const factories = resolveRegistry(["@chime/timecontext", "@chime/schedule"], ["@chime/ui/schedule"]);
 * console.assert(factories.length === 2);
 * ```
 */
export function resolveRegistry(
  plugins: readonly string[],
  renderers: readonly string[],
  pluginOptions: Readonly<Record<string, Readonly<Record<string, unknown>>>> = {},
  table: Readonly<Record<string, RegistryEntry>> = PLUGINS,
  host: PluginHostContext = {},
): PluginFactory[] {
  for (const name of renderers) {
    if (!RENDERERS.includes(name)) {
      throw new ConfigError(
        "config_invalid",
        `Cannot load config: unknown renderer "${name}" (known: ${RENDERERS.join(", ")})`,
      );
    }
  }
  return plugins.map((name) => {
    const entry = Object.hasOwn(table, name) ? table[name] : undefined;
    if (entry === undefined) {
      throw new ConfigError(
        "config_invalid",
        `Cannot load config: unknown plugin "${name}" (known: ${Object.keys(table).join(", ")})`,
      );
    }
    const options = Object.hasOwn(pluginOptions, name) ? pluginOptions[name]! : {};
    const where = `pluginOptions["${name}"]`;
    for (const key of Object.keys(options)) {
      if (!entry.options.includes(key)) {
        throw new ConfigError(
          "config_invalid",
          `Cannot load config: unknown option ${where}.${key} (known: ${
            entry.options.join(", ") || "none"
          })`,
        );
      }
    }
    // Out-of-range values fail here, at startup, not when the first session goes live.
    entry.check(options, where);
    return () => entry.create(options, host);
  });
}

/**
 * The storage doctor's log checks of the named plugins (`Plugin.logCheck`), in order: each
 * plugin is built once with its options and asked for its check; plugins without one add none.
 *
 * @param plugins plugin names (unknown names are refused as by {@linkcode resolveRegistry})
 * @param pluginOptions options by plugin name @default {}
 * @param table the plugins names resolve against @default PLUGINS
 * @returns the checks
 * @throws {ConfigError} as {@linkcode resolveRegistry}
 *
 * @example Every registered plugin's check, for `deno task doctor`
 * ```ts
 * import { PLUGINS, pluginLogChecks } from "@chime/host";
 * const checks = pluginLogChecks(Object.keys(PLUGINS));
 * console.assert(checks.some((c) => c.types.includes("schedule/change")));
 * ```
 */
export function pluginLogChecks(
  plugins: readonly string[],
  pluginOptions: Readonly<Record<string, Readonly<Record<string, unknown>>>> = {},
  table: Readonly<Record<string, RegistryEntry>> = PLUGINS,
): LogCheck[] {
  return resolveRegistry(plugins, [], pluginOptions, table).flatMap((create) => {
    const check = create().logCheck;
    return check === undefined ? [] : [check];
  });
}

/**
 * Storage drivers a configuration's `storage.kind` may name, by kind: a new driver is one
 * folder plus one row here (docs/architecture.md "Storage drivers").
 *
 * @example The known kinds
 * ```ts
 * import { STORAGE_DRIVERS } from "@chime/host";
 * console.assert(Object.keys(STORAGE_DRIVERS).join() === "libsql,jsonl,postgres");
 * ```
 */
export const STORAGE_DRIVERS: Readonly<Record<string, StorageDriver>> = {
  libsql: libsqlDriver,
  jsonl: jsonlDriver,
  postgres: postgresDriver,
};

/** The driver whose location `CHIME_DB` names (README "Configuration"). */
export const LOCATION_DRIVER = "libsql";

/** The driver whose URL `CHIME_DATABASE_URL` names (README "Many hosts on PostgreSQL"). */
export const DATABASE_URL_DRIVER = "postgres";

/** `"a"`, `"a" or "b"`, `"a", "b" or "c"`. */
function alternatives(names: readonly string[]): string {
  const quoted = names.map((n) => `"${n}"`);
  return quoted.length < 2
    ? quoted.join("")
    : `${quoted.slice(0, -1).join(", ")} or ${quoted.at(-1)}`;
}

/**
 * The storage driver a `storage.kind` names.
 *
 * @param kind the configured kind
 * @param options `file` for the message, `drivers` to resolve against @default STORAGE_DRIVERS
 * @returns the driver
 * @throws {ConfigError} `config_invalid` naming the known kinds
 *
 * @example The default storage resolves
 * ```ts
 * import { storageDriver } from "@chime/host";
 * console.assert(storageDriver("libsql").kind === "libsql");
 * ```
 */
export function storageDriver(
  kind: unknown,
  options: {
    readonly file?: string;
    readonly drivers?: Readonly<Record<string, StorageDriver>>;
  } = {},
): StorageDriver {
  const drivers = options.drivers ?? STORAGE_DRIVERS;
  if (typeof kind === "string" && Object.hasOwn(drivers, kind)) return drivers[kind]!;
  const where = options.file === undefined ? "" : `${options.file}: `;
  throw new ConfigError(
    "config_invalid",
    `Cannot load config: ${where}storage.kind must be ${alternatives(Object.keys(drivers))}`,
  );
}

/**
 * The storage a location override (`CHIME_DB`, `CHIME_DATABASE_URL`) names: that driver's
 * settings for it (by default {@linkcode LOCATION_DRIVER}'s), keeping what the driver carries
 * over from the configured settings.
 *
 * @param location the URL or path
 * @param baseDir base of a relative path
 * @param configured the configured settings
 * @param drivers the table @default STORAGE_DRIVERS
 * @param kind the driver the override names @default LOCATION_DRIVER
 * @returns the settings
 *
 * @example A path becomes a file URL
 * ```ts
 * import { storageAt } from "@chime/host";
 * const storage = storageAt("my.db", "/data", { kind: "jsonl" });
 * console.assert(storage.kind === "libsql");
 * ```
 */
export function storageAt(
  location: string,
  baseDir: string,
  configured: StorageDriverSettings,
  drivers: Readonly<Record<string, StorageDriver>> = STORAGE_DRIVERS,
  kind: string = LOCATION_DRIVER,
): StorageDriverSettings {
  const driver = storageDriver(kind, { drivers });
  if (driver.fromLocation === undefined) throw new TypeError(`${driver.kind} takes no location`);
  return driver.fromLocation(location, baseDir, configured);
}
