/**
 * `@chime/migrations` owns the SQL of the session log. PostgreSQL: the versioned steps of the
 * `chime` schema and their pure classification (`migrations/postgres/schema.ts`). libSQL: the
 * legacy v13–v17 DDL, the current v18
 * DDL, the `PRAGMA application_id` ownership marker, the one exact upgrade of each owned legacy
 * layout (each to v18 in one transaction) and the pure check that
 * decides, before any write, whether a database is empty, current, upgradeable or rejected.
 * There is no general migration framework (docs/design.md#schema-v14-upgrade).
 *
 * @example Classify a database state
 * ```ts
 * import { APPLICATION_ID, classifySchema } from "@chime/migrations";
 * const verdict = classifySchema({ applicationId: APPLICATION_ID, userVersion: 12, entries: [] });
 * console.assert(verdict.kind === "rejected");
 * ```
 *
 * @module
 */
export {
  APPLICATION_ID,
  classifySchema,
  CREATE_V13,
  CREATE_V14,
  CREATE_V15,
  CREATE_V16,
  CREATE_V17,
  CREATE_V18,
  LEGACY_SCHEMA_VERSION,
  normalizeSql,
  SCHEMA_V13,
  SCHEMA_V14,
  SCHEMA_V15,
  SCHEMA_V16,
  SCHEMA_V17,
  SCHEMA_V18,
  SCHEMA_VERSION,
  type SchemaEntry,
  type SchemaState,
  type SchemaVerdict,
  TYPED_INDEX_TYPES,
  TYPED_INDEX_WHERE,
  UPGRADE_V13_TO_V14,
  UPGRADE_V13_TO_V15,
  UPGRADE_V14_TO_V15,
  UPGRADE_V15_TO_V16,
  UPGRADE_V16_TO_V17,
  UPGRADE_V17_TO_V18,
  V14_SCHEMA_VERSION,
  V15_SCHEMA_VERSION,
  V16_SCHEMA_VERSION,
  V17_SCHEMA_VERSION,
} from "./libsql/schema.ts";
export {
  classifyPostgres,
  POSTGRES_APPLICATION,
  POSTGRES_LAYOUT_QUERY,
  POSTGRES_LAYOUTS,
  POSTGRES_MIGRATIONS,
  POSTGRES_SCHEMA,
  POSTGRES_SCHEMA_VERSION,
  type PostgresMigration,
  type PostgresState,
  type PostgresVerdict,
  stepsFrom,
} from "./postgres/schema.ts";
