/**
 * {@linkcode postgresDriver}: the PostgreSQL {@linkcode StorageDriver} (`storage: { kind:
 * "postgres", url, poolSize?, statementTimeoutMs? }` or `CHIME_DATABASE_URL`, README "Many hosts on
 * PostgreSQL"). Always shared: every host fences its appends with {@linkcode PostgresLeases}.
 *
 * @module
 */
import {
  type LeaseTable,
  type LeaseTableOptions,
  type StorageDriver,
  StorageSettingsError,
} from "../backend.ts";
import { onlyKeys, text } from "../_storage_settings.ts";
import { redactUrl } from "../_redact.ts";
import { openPool, preparePostgres } from "./_pg_open.ts";
import { checkPostgres } from "./_pg_doctor.ts";
import { checkLogs } from "../_log_checks.ts";
import { PostgresLeases } from "./lease.ts";
import { POSTGRES_DEFAULTS, PostgresBackend } from "./postgres_backend.ts";

/** Parsed `storage` settings of the PostgreSQL driver. */
export type PostgresSettings = {
  /** Always `postgres`. */
  readonly kind: "postgres";
  /** `postgres://` or `postgresql://` URL (TLS: `?sslmode=require`, `verify-full`). */
  readonly url: string;
  /** Read connections per host (writes use 1 more, the lease table 2 more). @default 10 */
  readonly poolSize?: number;
  /** Server-side `statement_timeout`, ms; `0` disables it. @default 30000 */
  readonly statementTimeoutMs?: number;
};

function wholeNumber(
  raw: Readonly<Record<string, unknown>>,
  key: string,
  min: number,
  max: number,
) {
  const value = raw[key];
  if (value === undefined) return undefined;
  if (typeof value !== "number" || !Number.isInteger(value) || value < min || value > max) {
    throw new StorageSettingsError(`storage.${key} must be an integer ${min}..${max}`);
  }
  return value;
}

/**
 * Checks a PostgreSQL URL's form (no connection).
 *
 * @param url the configured text
 * @returns the URL
 * @throws {StorageSettingsError} for another scheme or an unparsable URL (the message redacted)
 */
export function postgresUrl(url: string): string {
  let parsed: URL | undefined;
  try {
    parsed = new URL(url);
  } catch {
    parsed = undefined;
  }
  if (parsed === undefined || !/^postgres(ql)?:$/.test(parsed.protocol) || parsed.hostname === "") {
    throw new StorageSettingsError(
      `storage.url must be a postgres://user:password@host:port/database URL (got ${
        redactUrl(url)
      })`,
    );
  }
  return url;
}

function pool(settings: PostgresSettings) {
  return {
    url: settings.url,
    poolSize: settings.poolSize ?? POSTGRES_DEFAULTS.poolSize,
    statementTimeoutMs: settings.statementTimeoutMs ?? POSTGRES_DEFAULTS.statementTimeoutMs,
    connectTimeoutSeconds: POSTGRES_DEFAULTS.connectTimeoutSeconds,
  };
}

/** The lease table of one host with the pool it owns. */
class OwnedLeases extends PostgresLeases implements AsyncDisposable {
  readonly #end: () => Promise<void>;

  constructor(sql: ReturnType<typeof openPool>, options: LeaseTableOptions) {
    super(sql, options);
    this.#end = () => sql.end({ timeout: 2 });
  }

  [Symbol.asyncDispose](): Promise<void> {
    return this.#end();
  }
}

/**
 * The PostgreSQL storage driver.
 *
 * @example Parse settings (opening needs a running server)
 * ```ts
 * import { postgresDriver } from "@chime/session/postgres";
 * const settings = postgresDriver.parse(
 *   { kind: "postgres", url: "postgres://chime:pw@db:5432/chime" },
 *   { file: "chime.jsonc", baseDir: "/" },
 * );
 * console.assert(postgresDriver.shared(settings));
 * console.assert(postgresDriver.describe(settings) === "postgres://chime:***@db:5432/chime");
 * ```
 */
export const postgresDriver: StorageDriver<PostgresSettings> = {
  kind: "postgres",
  parse(raw) {
    onlyKeys(raw, ["kind", "url", "poolSize", "statementTimeoutMs"]);
    const poolSize = wholeNumber(raw, "poolSize", 1, 1_000);
    const statementTimeoutMs = wholeNumber(raw, "statementTimeoutMs", 0, 86_400_000);
    return {
      kind: "postgres",
      url: postgresUrl(text(raw, "url")),
      ...(poolSize === undefined ? {} : { poolSize }),
      ...(statementTimeoutMs === undefined ? {} : { statementTimeoutMs }),
    };
  },
  fromLocation(location, _baseDir, configured) {
    // CHIME_DATABASE_URL moves the database; configured pool settings carry over.
    const own = configured.kind === "postgres" ? configured as PostgresSettings : undefined;
    return {
      kind: "postgres",
      url: postgresUrl(location),
      ...(own?.poolSize === undefined ? {} : { poolSize: own.poolSize }),
      ...(own?.statementTimeoutMs === undefined
        ? {}
        : { statementTimeoutMs: own.statementTimeoutMs }),
    };
  },
  shared() {
    return true;
  },
  directory() {
    return undefined;
  },
  describe(settings) {
    return redactUrl(settings.url);
  },
  async open(settings, options) {
    return await PostgresBackend.open({
      ...pool(settings),
      ...(options.fence === undefined ? {} : { fence: options.fence }),
    });
  },
  async leases(settings, options): Promise<LeaseTable & AsyncDisposable> {
    const sql = openPool({ ...pool(settings), poolSize: 2 });
    try {
      // The schema (the lease table) exists once the backend opened; prepare is idempotent.
      await preparePostgres(sql, settings.url);
    } catch (error) {
      await sql.end({ timeout: 1 });
      throw error;
    }
    return new OwnedLeases(sql, options);
  },
  async check(settings, options) {
    const report = await checkPostgres(pool(settings));
    const checks = options?.logChecks ?? [];
    // The plugins' log checks read through a backend only over a current, undamaged schema.
    if (checks.length === 0 || report.damage.some((d) => d.sessionId === undefined)) return report;
    await using backend = await PostgresBackend.open({ ...pool(settings), poolSize: 1 });
    return { ...report, damage: [...report.damage, ...await checkLogs(backend, checks)] };
  },
};
