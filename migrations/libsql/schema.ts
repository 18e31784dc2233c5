/**
 * The libSQL schema of the session log: legacy v13–v17, current v18, the exact upgrades of
 * the owned legacy layouts, and the pure ownership/layout classification a backend runs
 * before any write (docs/design.md#schema-v14-upgrade: v14 adds a nullable `time_zone` and
 * upgrades an owned v13 database atomically; v15–v18 per `docs/long-sessions.md` §"Schema v15",
 * §"Schema v16", §"Schema v17" and §"Schema v18").
 *
 * This is deliberately not a migration framework: each owned legacy layout has exactly one
 * upgrade, run as one write transaction.
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

/** The previous schema version (`PRAGMA user_version`): adds nullable `sessions.time_zone`. */
export const V14_SCHEMA_VERSION = 14;

/**
 * The previous schema version (`PRAGMA user_version`): v14 plus the `events_by_type` index and
 * the `session_leases` table (`docs/long-sessions.md` §"Schema v15").
 */
export const V15_SCHEMA_VERSION = 15;

/**
 * The previous schema version (`PRAGMA user_version`): v15 plus `events.crc`, the CRC-32C of each
 * event's canonical bytes (`docs/long-sessions.md` §"Schema v16", `session/_checksum.ts`).
 */
export const V16_SCHEMA_VERSION = 16;

/**
 * The previous schema version (`PRAGMA user_version`): v16 plus `events_typed`, a second copy of
 * the typed reads' keys (`docs/long-sessions.md` §"Schema v17").
 */
export const V17_SCHEMA_VERSION = 17;

/**
 * The current schema version (`PRAGMA user_version`): v17 plus `sessions.crc`, the CRC-32C of
 * each header's canonical JSON (`docs/long-sessions.md` §"Schema v18", `session/_checksum.ts`).
 */
export const SCHEMA_VERSION = 18;

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

// v18: `crc` is the header's CRC-32C (unsigned, `session/_checksum.ts`), spliced as `ALTER TABLE
// ADD COLUMN` leaves it; -1 is never a checksum, so a header the upgrade could not decode (or
// missed) reads as damaged.
const SESSIONS_V18 = SESSIONS_V14.replace(
  "time_zone TEXT\n)",
  "time_zone TEXT, crc INTEGER NOT NULL DEFAULT -1\n)",
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

// Reading one event type (`schedule/change`) of a long session seeks this index instead of
// scanning the log (docs/long-sessions.md §"Bounded live session", `readByType`).
// v16: `crc` is the event's CRC-32C (unsigned, `session/_checksum.ts`). The text is what
// SQLite's `ALTER TABLE ADD COLUMN` leaves (spliced after `data`), so fresh and upgraded
// databases share one layout; -1 is never a checksum, so a row the upgrade missed reads as
// damaged.
const EVENTS_V16 = EVENTS.replace(
  "data TEXT NOT NULL,\n",
  "data TEXT NOT NULL, crc INTEGER NOT NULL DEFAULT -1,\n",
);

const EVENTS_BY_TYPE = "CREATE INDEX events_by_type ON events (session_id, type, seq)";

/**
 * The event types the typed reads ask for (`readByType`, `readTypeAcross`): reminders
 * (`schedule/change`), deletion marks (`session/deleted`) and user messages (`user-rpc`), in
 * the order of {@linkcode TYPED_INDEX_WHERE}.
 */
export const TYPED_INDEX_TYPES: readonly string[] = Object.freeze([
  "schedule/change",
  "session/deleted",
  "user-rpc",
]);

/**
 * The `WHERE` term of the `events_typed` partial index. SQLite uses a partial index only for a
 * query whose `WHERE` holds this very term (sqlite.org/partialindex.html §3), so every query
 * through the index repeats it literally.
 */
export const TYPED_INDEX_WHERE: string = `type IN (${
  TYPED_INDEX_TYPES.map((t) => `'${t}'`).join(", ")
})`;

// v17: a second copy of the typed reads' keys. A key damaged inside `events_by_type` (its type
// bytes changed, so a seek passes it by) leaves the table row whole and the join silent; this
// copy still holds the key, so the two walks disagree (README.md "How it behaves on failure").
// Partial: plain events cost no second index write.
const EVENTS_TYPED =
  `CREATE INDEX events_typed ON events (session_id, type, seq) WHERE ${TYPED_INDEX_WHERE}`;

// One lease row per session owned by some host (docs/long-sessions.md "Schema v15"): `holder`
// is the host id, `holder_url` its advertised base URL, `token` the fencing token (only ever grows
// per session), `expires_at` epoch ms UTC.
const SESSION_LEASES = `CREATE TABLE session_leases (
  session_id TEXT PRIMARY KEY NOT NULL,
  holder TEXT NOT NULL,
  holder_url TEXT NOT NULL,
  token INTEGER NOT NULL CHECK (token > 0),
  expires_at INTEGER NOT NULL
) WITHOUT ROWID, STRICT`;

/** DDL of the legacy v13 layout, one statement per element. */
export const SCHEMA_V13: readonly string[] = Object.freeze([SESSIONS_V13, EVENTS]);

/** DDL of the legacy v14 layout (v13 plus nullable `sessions.time_zone TEXT`). */
export const SCHEMA_V14: readonly string[] = Object.freeze([SESSIONS_V14, EVENTS]);

/** DDL of the current v15 layout (v14 plus `events_by_type` and `session_leases`). */
export const SCHEMA_V15: readonly string[] = Object.freeze([
  SESSIONS_V14,
  EVENTS,
  EVENTS_BY_TYPE,
  SESSION_LEASES,
]);

/** DDL of the current v16 layout (v15 plus `events.crc`). */
export const SCHEMA_V16: readonly string[] = Object.freeze([
  SESSIONS_V14,
  EVENTS_V16,
  EVENTS_BY_TYPE,
  SESSION_LEASES,
]);

/** DDL of the legacy v17 layout (v16 plus the `events_typed` partial index). */
export const SCHEMA_V17: readonly string[] = Object.freeze([...SCHEMA_V16, EVENTS_TYPED]);

/** DDL of the current v18 layout (v17 plus `sessions.crc`). */
export const SCHEMA_V18: readonly string[] = Object.freeze([
  SESSIONS_V18,
  ...SCHEMA_V17.slice(1),
]);

/** Statements that create an owned v13 database in one write transaction (legacy fixtures). */
export const CREATE_V13: readonly string[] = Object.freeze([
  ...SCHEMA_V13,
  `PRAGMA application_id = ${APPLICATION_ID}`,
  `PRAGMA user_version = ${LEGACY_SCHEMA_VERSION}`,
]);

/** Statements that create an owned v14 database in one write transaction (legacy fixtures). */
export const CREATE_V14: readonly string[] = Object.freeze([
  ...SCHEMA_V14,
  `PRAGMA application_id = ${APPLICATION_ID}`,
  `PRAGMA user_version = ${V14_SCHEMA_VERSION}`,
]);

/** Statements that create an owned v15 database in one write transaction (legacy fixtures). */
export const CREATE_V15: readonly string[] = Object.freeze([
  ...SCHEMA_V15,
  `PRAGMA application_id = ${APPLICATION_ID}`,
  `PRAGMA user_version = ${V15_SCHEMA_VERSION}`,
]);

/** Statements that create an owned v16 database in one write transaction (legacy fixtures). */
export const CREATE_V16: readonly string[] = Object.freeze([
  ...SCHEMA_V16,
  `PRAGMA application_id = ${APPLICATION_ID}`,
  `PRAGMA user_version = ${V16_SCHEMA_VERSION}`,
]);

/** Statements that create an owned v17 database in one write transaction (legacy fixtures). */
export const CREATE_V17: readonly string[] = Object.freeze([
  ...SCHEMA_V17,
  `PRAGMA application_id = ${APPLICATION_ID}`,
  `PRAGMA user_version = ${V17_SCHEMA_VERSION}`,
]);

/** Statements that create an owned v18 (current) database in one write transaction. */
export const CREATE_V18: readonly string[] = Object.freeze([
  ...SCHEMA_V18,
  `PRAGMA application_id = ${APPLICATION_ID}`,
  `PRAGMA user_version = ${SCHEMA_VERSION}`,
]);

/**
 * The v13→v14 step (legacy fixtures and the first half of {@linkcode UPGRADE_V13_TO_V15}):
 * existing rows keep `time_zone` NULL (no guessed value, docs/design.md#schema-v14-upgrade).
 */
export const UPGRADE_V13_TO_V14: readonly string[] = Object.freeze([
  "ALTER TABLE sessions ADD COLUMN time_zone TEXT",
  `PRAGMA user_version = ${V14_SCHEMA_VERSION}`,
]);

/**
 * The v14→v15 upgrade, to run as a single write transaction: the index and the empty lease
 * table; no lease row is created for existing sessions.
 */
export const UPGRADE_V14_TO_V15: readonly string[] = Object.freeze([
  EVENTS_BY_TYPE,
  SESSION_LEASES,
  `PRAGMA user_version = ${V15_SCHEMA_VERSION}`,
]);

/**
 * The DDL half of the v15→v16 upgrade: the `crc` column (every old row -1). The backend runs it
 * in the same write transaction as the checksum of every old row (`session/_checksum.ts`
 * computes them, once each), so no v16 database holds a row without its checksum.
 */
export const UPGRADE_V15_TO_V16: readonly string[] = Object.freeze([
  "ALTER TABLE events ADD COLUMN crc INTEGER NOT NULL DEFAULT -1",
  `PRAGMA user_version = ${V16_SCHEMA_VERSION}`,
]);

/**
 * The v16→v17 upgrade, to run as a single write transaction: `CREATE INDEX` builds
 * `events_typed` from the table, exactly; no row changes (its checksum stays as stored, so the
 * step never launders a damaged row).
 */
export const UPGRADE_V16_TO_V17: readonly string[] = Object.freeze([
  EVENTS_TYPED,
  `PRAGMA user_version = ${V17_SCHEMA_VERSION}`,
]);

/**
 * The DDL half of the v17→v18 upgrade: the `sessions.crc` column (every old header -1). The
 * backend runs it in the same write transaction as the checksum of every old header that
 * decodes (`session/_checksum.ts` computes them, once each); a header that does not decode keeps
 * -1 and stays damaged. No event row changes.
 */
export const UPGRADE_V17_TO_V18: readonly string[] = Object.freeze([
  "ALTER TABLE sessions ADD COLUMN crc INTEGER NOT NULL DEFAULT -1",
  `PRAGMA user_version = ${SCHEMA_VERSION}`,
]);

/** The v13→v15 upgrade, to run as a single write transaction: v13→v14, then v14→v15. */
export const UPGRADE_V13_TO_V15: readonly string[] = Object.freeze([
  ...UPGRADE_V13_TO_V14,
  ...UPGRADE_V14_TO_V15,
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
 * What to do with a database: create v18 in an empty one, accept the current layout, upgrade an
 * owned legacy layout (`version` 13–17, with the statements of its one upgrade), or reject it
 * untouched (with a reason for the error message).
 */
export type SchemaVerdict =
  | { readonly kind: "empty" }
  | { readonly kind: "current" }
  | {
    readonly kind: "legacy";
    readonly version: 13 | 14 | 15 | 16 | 17;
    readonly upgrade: readonly string[];
  }
  | { readonly kind: "rejected"; readonly reason: string };

/**
 * Collapses whitespace in DDL text so stored text compares by meaning of layout, not by the
 * spacing SQLite's `ALTER TABLE` splice leaves behind.
 *
 * @param sql DDL text
 * @returns the text with whitespace runs collapsed and removed around `(`, `)` and `,`
 */
export function normalizeSql(sql: string): string {
  return sql.replace(/--[^\n]*/g, " ").replace(/\s+/g, " ").replace(/ ?([(),]) ?/g, "$1").trim();
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
    const index = /^CREATE INDEX (\w+) ON (\w+)/.exec(sql);
    if (index !== null) return { type: "index", name: index[1]!, tbl_name: index[2]!, sql };
    const name = /^CREATE TABLE (\w+)/.exec(sql)![1]!;
    return { type: "table", name, tbl_name: name, sql };
  }));
}

const V13_LAYOUT = expected(SCHEMA_V13);
const V14_LAYOUT = expected(SCHEMA_V14);
const V15_LAYOUT = expected(SCHEMA_V15);
const V16_LAYOUT = expected(SCHEMA_V16);
const V17_LAYOUT = expected(SCHEMA_V17);
const V18_LAYOUT = expected(SCHEMA_V18);

/**
 * Classifies a database by ownership marker, version and exact layout. Pure: it never touches
 * the database, so a backend can reject a file byte-for-byte unchanged.
 *
 * @param state pragmas and `sqlite_schema` rows read before any write
 * @returns `empty` (no marker, version 0, no objects), `current` (owned v18, exact layout),
 *   `legacy` (owned v13–v17, exact layout of that version; its statements end at v18; the caller
 *   adds the checksums of old headers, and from v13–v15 of old events, in the same transaction)
 *   or `rejected` with a reason
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
  if (state.userVersion === SCHEMA_VERSION && layout === V18_LAYOUT) return { kind: "current" };
  if (state.userVersion === V17_SCHEMA_VERSION && layout === V17_LAYOUT) {
    return { kind: "legacy", version: 17, upgrade: UPGRADE_V17_TO_V18 };
  }
  const fromV16 = [...UPGRADE_V16_TO_V17, ...UPGRADE_V17_TO_V18];
  const toV18 = [...UPGRADE_V15_TO_V16, ...fromV16];
  if (state.userVersion === V16_SCHEMA_VERSION && layout === V16_LAYOUT) {
    return { kind: "legacy", version: 16, upgrade: fromV16 };
  }
  if (state.userVersion === V15_SCHEMA_VERSION && layout === V15_LAYOUT) {
    return { kind: "legacy", version: 15, upgrade: toV18 };
  }
  if (state.userVersion === V14_SCHEMA_VERSION && layout === V14_LAYOUT) {
    return { kind: "legacy", version: 14, upgrade: [...UPGRADE_V14_TO_V15, ...toV18] };
  }
  if (state.userVersion === LEGACY_SCHEMA_VERSION && layout === V13_LAYOUT) {
    return { kind: "legacy", version: 13, upgrade: [...UPGRADE_V13_TO_V15, ...toV18] };
  }
  const known = [
    LEGACY_SCHEMA_VERSION,
    V14_SCHEMA_VERSION,
    V15_SCHEMA_VERSION,
    V16_SCHEMA_VERSION,
    V17_SCHEMA_VERSION,
    SCHEMA_VERSION,
  ];
  if (!known.includes(state.userVersion)) {
    return { kind: "rejected", reason: `unsupported schema version ${state.userVersion}` };
  }
  return { kind: "rejected", reason: `layout of version ${state.userVersion} is not ours` };
}
