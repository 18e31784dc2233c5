/**
 * The PostgreSQL schema of the session log (README "Many hosts on PostgreSQL"): chime owns one
 * PostgreSQL schema, `chime`, inside the configured database, and nothing outside it. Its
 * ownership marker is the one-row table `chime.schema_info (application, version)`. Versions
 * run `1, 2, …`; each has exactly one step from the previous one in
 * {@linkcode POSTGRES_MIGRATIONS}, and a backend runs every step it needs in ONE transaction
 * (PostgreSQL's DDL is transactional: an interrupted upgrade leaves the previous version).
 *
 * Before any write a backend reads the `chime` schema's tables, columns, constraints and indexes
 * and the marker, and {@linkcode classifyPostgres} decides: no `chime` schema (or an empty one)
 * → create the current version; exactly an owned known version → use or upgrade it; anything
 * else (a foreign object, a missing marker, a newer version, a changed layout) → refused with
 * nothing written.
 *
 * v1 is the libSQL v15 layout (docs/long-sessions.md "Schema v15"): sessions with the nullable
 * `time_zone`, events keyed `(session_id, seq)`, the `events_by_type` index and the lease table,
 * whose `expires_at` is epoch ms on the database's clock. v2 adds `events.crc`, the CRC-32C of
 * each event's canonical bytes (libSQL's v16, docs/long-sessions.md §"Schema v16"). v3 adds
 * `sessions.crc`, the CRC-32C of each header's canonical JSON (libSQL's v18,
 * docs/long-sessions.md §"Schema v18"); both are `session/_checksum.ts`, computed once for the
 * rows already stored by the upgrade's own transaction and verified on every read.
 *
 * @module
 */

/** The PostgreSQL schema (namespace) chime owns in the configured database. */
export const POSTGRES_SCHEMA = "chime";

/** The application name in `chime.schema_info` (the ownership marker). */
export const POSTGRES_APPLICATION = "chime session log";

/**
 * The current PostgreSQL schema version: v3 adds `sessions.crc`, the CRC-32C of each header's
 * canonical JSON (`session/_checksum.ts`, docs/long-sessions.md §"Schema v18"), after v2's
 * `events.crc` (§"Schema v16").
 */
export const POSTGRES_SCHEMA_VERSION = 3;

/** One versioned step: the statements that turn version `to - 1` into `to`. */
export interface PostgresMigration {
  /** The version it produces (the version before is `to - 1`; `0` is no schema). */
  readonly to: number;
  /** The statements, run in order inside the open transaction. */
  readonly statements: readonly string[];
  /**
   * After the statements, in the same transaction, the backend computes `events.crc` of every
   * stored row (checksums need CRC-32C, which SQL lacks): `true` only for the v2 step.
   */
  readonly checksums?: boolean;
  /**
   * After the statements, in the same transaction, the backend computes `sessions.crc` of every
   * stored header that decodes (a header that does not keeps the column's `-1`, so it stays
   * damaged): `true` only for the v3 step.
   */
  readonly headerChecksums?: boolean;
}

/**
 * Every step, in order: v0 (nothing) → v1 → v2 (`events.crc`) → v3 (`sessions.crc`). A later
 * version appends one step here and its layout to {@linkcode POSTGRES_LAYOUTS}; a step is never
 * edited once released.
 */
export const POSTGRES_MIGRATIONS: readonly PostgresMigration[] = Object.freeze([
  {
    to: 1,
    statements: Object.freeze([
      "CREATE SCHEMA IF NOT EXISTS chime",
      `CREATE TABLE chime.schema_info (
        application text NOT NULL,
        version integer NOT NULL
      )`,
      `CREATE TABLE chime.sessions (
        id text NOT NULL PRIMARY KEY,
        cwd text NOT NULL,
        created_at text NOT NULL,
        origin text NOT NULL,
        parent_id text,
        forked_through_seq integer,
        delegation_depth integer NOT NULL DEFAULT 0,
        seed_length integer,
        time_zone text
      )`,
      `CREATE TABLE chime.events (
        session_id text NOT NULL,
        seq integer NOT NULL CHECK (seq >= 0),
        type text NOT NULL,
        at text NOT NULL,
        data text NOT NULL,
        PRIMARY KEY (session_id, seq)
      )`,
      "CREATE INDEX events_by_type ON chime.events (session_id, type, seq)",
      `CREATE TABLE chime.session_leases (
        session_id text NOT NULL PRIMARY KEY,
        holder text NOT NULL,
        holder_url text NOT NULL,
        token bigint NOT NULL CHECK (token > 0),
        expires_at bigint NOT NULL
      )`,
      `INSERT INTO chime.schema_info (application, version) VALUES ('${POSTGRES_APPLICATION}', 1)`,
    ]),
  },
  {
    to: 2,
    // -1 is never a checksum: a row the fill missed reads as damaged, never as verified.
    statements: Object.freeze([
      "ALTER TABLE chime.events ADD COLUMN crc bigint NOT NULL DEFAULT -1",
    ]),
    checksums: true,
  },
  {
    to: 3,
    // -1 is never a checksum: a header the fill could not decode reads as damaged.
    statements: Object.freeze([
      "ALTER TABLE chime.sessions ADD COLUMN crc bigint NOT NULL DEFAULT -1",
    ]),
    headerChecksums: true,
  },
]);

// The v1 layout lines (v2 adds `events.crc`, v3 `sessions.crc`).
const LAYOUT_V1: readonly string[] = [
  "column|events|at|text|NO",
  "column|events|data|text|NO",
  "column|events|seq|integer|NO",
  "column|events|session_id|text|NO",
  "column|events|type|text|NO",
  "column|schema_info|application|text|NO",
  "column|schema_info|version|integer|NO",
  "column|session_leases|expires_at|bigint|NO",
  "column|session_leases|holder|text|NO",
  "column|session_leases|holder_url|text|NO",
  "column|session_leases|session_id|text|NO",
  "column|session_leases|token|bigint|NO",
  "column|sessions|created_at|text|NO",
  "column|sessions|cwd|text|NO",
  "column|sessions|delegation_depth|integer|NO",
  "column|sessions|forked_through_seq|integer|YES",
  "column|sessions|id|text|NO",
  "column|sessions|origin|text|NO",
  "column|sessions|parent_id|text|YES",
  "column|sessions|seed_length|integer|YES",
  "column|sessions|time_zone|text|YES",
  "constraint|events|c|CHECK ((seq >= 0))",
  "constraint|events|p|PRIMARY KEY (session_id, seq)",
  "constraint|session_leases|c|CHECK ((token > 0))",
  "constraint|session_leases|p|PRIMARY KEY (session_id)",
  "constraint|sessions|p|PRIMARY KEY (id)",
  "index|events|events_by_type|CREATE INDEX events_by_type ON chime.events USING btree " +
  "(session_id, type, seq)",
  "index|events|events_pkey|CREATE UNIQUE INDEX events_pkey ON chime.events USING btree " +
  "(session_id, seq)",
  "index|session_leases|session_leases_pkey|CREATE UNIQUE INDEX session_leases_pkey ON " +
  "chime.session_leases USING btree (session_id)",
  "index|sessions|sessions_pkey|CREATE UNIQUE INDEX sessions_pkey ON chime.sessions USING " +
  "btree (id)",
];

/**
 * The exact layout of each version, as {@linkcode POSTGRES_LAYOUT_QUERY} lists it (one line per
 * column, constraint and index, in JavaScript's sort order).
 */
export const POSTGRES_LAYOUTS: Readonly<Record<number, string>> = Object.freeze({
  1: [...LAYOUT_V1].sort().join("\n"),
  2: [...LAYOUT_V1, "column|events|crc|bigint|NO"].sort().join("\n"),
  3: [...LAYOUT_V1, "column|events|crc|bigint|NO", "column|sessions|crc|bigint|NO"].sort()
    .join("\n"),
});

/**
 * Lists every object of the `chime` schema, one `layout` text per row (read-only): relations
 * other than tables and indexes, columns, constraints (by kind and definition) and indexes. Any
 * sequence, view, function or type in the schema shows up as `other|…` and makes it foreign.
 */
export const POSTGRES_LAYOUT_QUERY = `
SELECT 'column|' || c.table_name || '|' || c.column_name || '|' || c.data_type || '|' ||
    c.is_nullable AS layout
  FROM information_schema.columns c WHERE c.table_schema = 'chime'
UNION ALL
SELECT 'constraint|' || r.relname || '|' || k.contype::text || '|' || pg_get_constraintdef(k.oid)
  FROM pg_constraint k JOIN pg_class r ON r.oid = k.conrelid
  JOIN pg_namespace n ON n.oid = r.relnamespace
  WHERE n.nspname = 'chime' AND k.contype <> 'n'
UNION ALL
SELECT 'index|' || i.tablename || '|' || i.indexname || '|' || i.indexdef
  FROM pg_indexes i WHERE i.schemaname = 'chime'
UNION ALL
SELECT 'other|' || r.relkind::text || '|' || r.relname FROM pg_class r
  JOIN pg_namespace n ON n.oid = r.relnamespace
  WHERE n.nspname = 'chime' AND r.relkind NOT IN ('r', 'i')
UNION ALL
SELECT 'other|function|' || p.proname FROM pg_proc p
  JOIN pg_namespace n ON n.oid = p.pronamespace WHERE n.nspname = 'chime'
UNION ALL
SELECT 'other|type|' || t.typname FROM pg_type t
  JOIN pg_namespace n ON n.oid = t.typnamespace
  WHERE n.nspname = 'chime' AND t.typrelid = 0 AND t.typelem = 0`;

/** What a backend read before any write. */
export interface PostgresState {
  /** Whether the `chime` schema exists. */
  readonly schemaExists: boolean;
  /** The rows of {@linkcode POSTGRES_LAYOUT_QUERY}, any order. */
  readonly layout: readonly string[];
  /** The rows of `chime.schema_info` when that table exists, else `undefined`. */
  readonly marker?: readonly { readonly application: string; readonly version: number }[];
}

/**
 * What to do with a database: create the current version, use it, upgrade it (with the steps),
 * or refuse it untouched (with a reason).
 */
export type PostgresVerdict =
  | { readonly kind: "empty"; readonly steps: readonly PostgresMigration[] }
  | { readonly kind: "current" }
  | {
    readonly kind: "upgrade";
    readonly version: number;
    readonly steps: readonly PostgresMigration[];
  }
  | { readonly kind: "rejected"; readonly reason: string };

/**
 * The steps from `version` to the current one.
 *
 * @param version the stored version (`0`: none)
 * @returns the steps in order
 */
export function stepsFrom(version: number): readonly PostgresMigration[] {
  return POSTGRES_MIGRATIONS.filter((m) => m.to > version);
}

/**
 * Classifies a database by the `chime` schema's marker, version and exact layout. Pure: it never
 * touches the database, so a refused database is left exactly as it was.
 *
 * @param state what {@linkcode POSTGRES_LAYOUT_QUERY} and the marker read
 * @returns the verdict
 *
 * @example A database without the chime schema is empty
 * ```ts
 * import { classifyPostgres } from "@chime/migrations";
 * console.assert(classifyPostgres({ schemaExists: false, layout: [] }).kind === "empty");
 * ```
 */
export function classifyPostgres(state: PostgresState): PostgresVerdict {
  const layout = [...state.layout].sort().join("\n");
  if (layout === "") return { kind: "empty", steps: stepsFrom(0) };
  const marker = state.marker;
  if (marker === undefined) {
    return { kind: "rejected", reason: "schema chime exists without chime's marker table" };
  }
  if (marker.length !== 1 || marker[0]!.application !== POSTGRES_APPLICATION) {
    return { kind: "rejected", reason: "schema chime belongs to another application" };
  }
  const version = marker[0]!.version;
  if (version > POSTGRES_SCHEMA_VERSION) {
    return { kind: "rejected", reason: `unsupported schema version ${version} (newer)` };
  }
  const expected = POSTGRES_LAYOUTS[version];
  if (expected === undefined) {
    return { kind: "rejected", reason: `unsupported schema version ${version}` };
  }
  if (layout !== expected) {
    return { kind: "rejected", reason: `layout of version ${version} is not ours` };
  }
  if (version === POSTGRES_SCHEMA_VERSION) return { kind: "current" };
  return { kind: "upgrade", version, steps: stepsFrom(version) };
}
