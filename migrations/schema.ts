/**
 * The libSQL schema of the session log: legacy v13, current v14, the one v13→v14 upgrade, and
 * the pure ownership/layout classification a backend runs before any write (seed §"Session 与请求
 * 时区归属": "SQLite schema v14 增加 nullable time_zone，并以原子方式升级自有 v13 数据库").
 *
 * This is deliberately not a migration framework: exactly one owned layout may be upgraded.
 *
 * @module
 */

/**
 * Ownership marker written with `PRAGMA application_id` (ASCII `Chim`, a positive signed 32-bit
 * integer). A database with any other id belongs to somebody else and is never touched.
 */
export const APPLICATION_ID = 0x4368696d;

/** The legacy schema version (`PRAGMA user_version`): sessions without `time_zone`. */
export const LEGACY_SCHEMA_VERSION = 13;

/** The current schema version (`PRAGMA user_version`): adds nullable `sessions.time_zone`. */
export const SCHEMA_VERSION = 14;

const SESSIONS_V13 = `CREATE TABLE sessions (
  id TEXT PRIMARY KEY NOT NULL,
  cwd TEXT NOT NULL,
  created_at TEXT NOT NULL,
  origin TEXT NOT NULL,
  parent_id TEXT,
  forked_through_seq INTEGER,
  delegation_depth INTEGER NOT NULL DEFAULT 0,
  seed_length INTEGER
) WITHOUT ROWID, STRICT`;

// SQLite's `ALTER TABLE ADD COLUMN` splices `, time_zone TEXT` before the closing parenthesis of
// the stored text; the v14 text below is that result modulo whitespace, so fresh and upgraded
// databases share one layout.
const SESSIONS_V14 = SESSIONS_V13.replace(
  "seed_length INTEGER\n)",
  "seed_length INTEGER,\n  time_zone TEXT\n)",
);

// A WITHOUT ROWID primary key (session_id, seq) clusters each session's events by seq, so paging
// and `max(seq)` are B-tree seeks, independent of the log length.
const EVENTS = `CREATE TABLE events (
  session_id TEXT NOT NULL,
  seq INTEGER NOT NULL CHECK (seq >= 0),
  type TEXT NOT NULL,
  at TEXT NOT NULL,
  data TEXT NOT NULL,
  PRIMARY KEY (session_id, seq)
) WITHOUT ROWID, STRICT`;

/** DDL of the legacy v13 layout, one statement per element. */
export const SCHEMA_V13: readonly string[] = Object.freeze([SESSIONS_V13, EVENTS]);

/** DDL of the current v14 layout (v13 plus nullable `sessions.time_zone TEXT`). */
export const SCHEMA_V14: readonly string[] = Object.freeze([SESSIONS_V14, EVENTS]);

/** Statements that create an owned v13 database in one write transaction (legacy fixtures). */
export const CREATE_V13: readonly string[] = Object.freeze([
  ...SCHEMA_V13,
  `PRAGMA application_id = ${APPLICATION_ID}`,
  `PRAGMA user_version = ${LEGACY_SCHEMA_VERSION}`,
]);

/** Statements that create an owned v14 database in one write transaction. */
export const CREATE_V14: readonly string[] = Object.freeze([
  ...SCHEMA_V14,
  `PRAGMA application_id = ${APPLICATION_ID}`,
  `PRAGMA user_version = ${SCHEMA_VERSION}`,
]);

/**
 * The one upgrade, to run as a single write transaction: existing rows keep `time_zone` NULL
 * (no guessed value, seed §"Session 与请求时区归属").
 */
export const UPGRADE_V13_TO_V14: readonly string[] = Object.freeze([
  "ALTER TABLE sessions ADD COLUMN time_zone TEXT",
  `PRAGMA user_version = ${SCHEMA_VERSION}`,
]);

/** One row of `sqlite_schema` (`SELECT type, name, tbl_name, sql FROM sqlite_schema`). */
export interface SchemaEntry {
  /** `table`, `index`, `view` or `trigger`. */
  readonly type: string;
  /** The object name. */
  readonly name: string;
  /** The table the object belongs to. */
  readonly tbl_name: string;
  /** The stored DDL text, `null` for automatic indexes. */
  readonly sql: string | null;
}

/** What a backend reads before any write: both pragmas and the whole `sqlite_schema`. */
export interface SchemaState {
  /** `PRAGMA application_id`. */
  readonly applicationId: number;
  /** `PRAGMA user_version`. */
  readonly userVersion: number;
  /** Every `sqlite_schema` row. */
  readonly entries: readonly SchemaEntry[];
}

/**
 * What to do with a database: create v14 in an empty one, accept the current layout, upgrade the
 * owned legacy layout, or reject it untouched (with a reason for the error message).
 */
export type SchemaVerdict =
  | { readonly kind: "empty" }
  | { readonly kind: "current" }
  | { readonly kind: "legacy" }
  | { readonly kind: "rejected"; readonly reason: string };

/**
 * Collapses whitespace in DDL text so stored text compares by meaning of layout, not by the
 * spacing SQLite's `ALTER TABLE` splice leaves behind.
 *
 * @param sql DDL text
 * @returns the text with whitespace runs collapsed and removed around `(`, `)` and `,`
 */
export function normalizeSql(sql: string): string {
  return sql.replace(/\s+/g, " ").replace(/ ?([(),]) ?/g, "$1").trim();
}

function layoutKey(entries: readonly SchemaEntry[]): string {
  return entries
    // ANALYZE statistics tables are SQLite's own bookkeeping, not part of our layout.
    .filter((e) => !e.name.startsWith("sqlite_stat"))
    .map((e) => `${e.type}|${e.name}|${e.tbl_name}|${e.sql === null ? "" : normalizeSql(e.sql)}`)
    .sort()
    .join("\n");
}

function expected(ddl: readonly string[]): string {
  return layoutKey(ddl.map((sql) => {
    const name = /^CREATE TABLE (\w+)/.exec(sql)![1]!;
    return { type: "table", name, tbl_name: name, sql };
  }));
}

const V13_LAYOUT = expected(SCHEMA_V13);
const V14_LAYOUT = expected(SCHEMA_V14);

/**
 * Classifies a database by ownership marker, version and exact layout. Pure: it never touches
 * the database, so a backend can reject a file byte-for-byte unchanged.
 *
 * @param state pragmas and `sqlite_schema` rows read before any write
 * @returns `empty` (no marker, version 0, no objects), `current` (owned v14, exact layout),
 *   `legacy` (owned v13, exact layout) or `rejected` with a reason
 *
 * @example A brand-new file is empty
 * ```ts
 * import { classifySchema } from "@chime/migrations";
 * const verdict = classifySchema({ applicationId: 0, userVersion: 0, entries: [] });
 * console.assert(verdict.kind === "empty");
 * ```
 */
export function classifySchema(state: SchemaState): SchemaVerdict {
  const layout = layoutKey(state.entries);
  if (state.applicationId === 0 && state.userVersion === 0 && layout === "") {
    return { kind: "empty" };
  }
  if (state.applicationId !== APPLICATION_ID) {
    return { kind: "rejected", reason: `foreign application_id ${state.applicationId}` };
  }
  if (state.userVersion === SCHEMA_VERSION && layout === V14_LAYOUT) return { kind: "current" };
  if (state.userVersion === LEGACY_SCHEMA_VERSION && layout === V13_LAYOUT) {
    return { kind: "legacy" };
  }
  if (state.userVersion !== SCHEMA_VERSION && state.userVersion !== LEGACY_SCHEMA_VERSION) {
    return { kind: "rejected", reason: `unsupported schema version ${state.userVersion}` };
  }
  return { kind: "rejected", reason: `layout of version ${state.userVersion} is not ours` };
}
