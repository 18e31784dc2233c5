/**
 * `@chime/migrations` owns the SQL of the session log: the legacy v13 and current v14 DDL, the
 * `PRAGMA application_id` ownership marker, the single v13→v14 upgrade and the pure check that
 * decides, before any write, whether a database is empty, current, upgradeable or rejected.
 * There is no general migration framework (seed §"Session 与请求时区归属").
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
  LEGACY_SCHEMA_VERSION,
  normalizeSql,
  SCHEMA_V13,
  SCHEMA_V14,
  SCHEMA_VERSION,
  type SchemaEntry,
  type SchemaState,
  type SchemaVerdict,
  UPGRADE_V13_TO_V14,
} from "./schema.ts";
