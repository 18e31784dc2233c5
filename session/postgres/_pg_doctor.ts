/**
 * Private: the storage doctor over PostgreSQL (`--check-storage`): reads the marker and layout
 * (a foreign, newer or missing `chime` schema is reported, not touched; an older one is reported
 * with a note of the checksums opening will compute), then every header row (its checksum
 * verified, schema v3) and every event row keyset-paged on the primary key, in one
 * `REPEATABLE READ READ ONLY` snapshot, recording each damage. Nothing is written; running hosts
 * need not stop (the snapshot is consistent).
 *
 * @module
 */
import type postgres from "postgres";
import { classifyPostgres, type PostgresVerdict } from "@chime/migrations";
import type { StorageReport } from "../doctor.ts";
import { damageOf, type StorageDamage } from "../_decode.ts";
import { checkRow, rowToHeader } from "../_rows.ts";
import { redactUrl } from "../_redact.ts";
import {
  isUnavailable,
  openPool,
  type PoolSettings,
  readPostgresState,
  unavailable,
} from "./_pg_open.ts";

const PAGE = 1_000;

/**
 * Scans a PostgreSQL database read-only.
 *
 * @param settings URL and pool settings
 * @returns the report (target: the redacted URL)
 * @throws {SessionError} `storage_unavailable` when the server cannot be used
 */
export async function checkPostgres(settings: PoolSettings): Promise<StorageReport> {
  const target = redactUrl(settings.url);
  // One long read-only snapshot, with the doctor's own work (decoding, the plugins' log checks)
  // between its pages: on a busy machine a gap can pass the hosts' idle-in-transaction limit,
  // and the server would end the scan. It takes no row locks, so it can never hold up a lease
  // take-over, which is what that limit is for (_pg_open.ts).
  const sql = openPool({ ...settings, poolSize: 1, idleInTransactionMs: 0 });
  try {
    return await sql.begin("isolation level repeatable read read only", async (tx) => {
      const verdict = classifyPostgres(await readPostgresState(tx));
      if (verdict.kind !== "current") {
        const what = verdict.kind === "empty"
          ? "no chime schema"
          : verdict.kind === "rejected"
          ? verdict.reason
          : `schema version ${verdict.version} (opening upgrades it)`;
        const notes = verdict.kind === "upgrade" ? upgradeNotes(verdict) : [];
        return { target, sessions: 0, events: 0, damage: [{ what }], notes };
      }
      const damage: StorageDamage[] = [];
      const ids = new Set<string>();
      // Every column, `crc` (v3) among them: `rowToHeader` verifies each header's checksum.
      for (const row of await tx`SELECT * FROM chime.sessions ORDER BY id`) {
        ids.add(String(row.id));
        try {
          rowToHeader(row, String(row.id));
        } catch (error) {
          damage.push(damageOf(error));
        }
      }
      let events = 0;
      let current: { id: string; expected: number } | undefined;
      let last: { id: string; seq: number } | undefined;
      for (;;) {
        const rows = last === undefined
          ? await tx`SELECT session_id, seq, type, at, data, crc FROM chime.events
              ORDER BY session_id, seq LIMIT ${PAGE}`
          : await tx`SELECT session_id, seq, type, at, data, crc FROM chime.events
              WHERE (session_id, seq) > (${last.id}, ${last.seq})
              ORDER BY session_id, seq LIMIT ${PAGE}`;
        for (const row of rows) {
          const id = String(row.session_id);
          if (current?.id !== id) {
            current = { id, expected: 0 };
            if (!ids.has(id)) damage.push({ sessionId: id, what: "events without a header" });
          }
          current.expected = checkRow(row, id, current.expected, damage);
          events++;
        }
        if (rows.length < PAGE) break;
        last = { id: String(rows.at(-1)!.session_id), seq: Number(rows.at(-1)!.seq) };
      }
      damage.push(...await compareIndex(tx));
      return { target, sessions: ids.size, events, damage, notes: [] };
    });
  } catch (error) {
    if (isUnavailable(error)) throw unavailable(settings.url, error);
    throw error;
  } finally {
    await sql.end({ timeout: 1 });
  }
}

/**
 * The notes of an older schema: which rows hold no checksum yet, computed once by the upgrade
 * that opening runs (v1: events and headers; v2: headers).
 *
 * @param verdict the upgrade verdict, with the steps opening would run
 * @returns one note, or none when the steps compute no checksum
 */
function upgradeNotes(verdict: PostgresVerdict & { kind: "upgrade" }): string[] {
  const events = verdict.steps.some((step) => step.checksums === true);
  const headers = verdict.steps.some((step) => step.headerChecksums === true);
  const what = events && headers
    ? "no checksums yet"
    : headers
    ? "headers have no checksums yet"
    : events
    ? "events have no checksums yet"
    : undefined;
  return what === undefined
    ? []
    : [`schema version ${verdict.version}: ${what} (opening computes them once)`];
}

/**
 * Compares `events_by_type` with its table: the keys read through the index (index scans only)
 * must equal those of a sequential scan (index scans off), in the same order.
 *
 * @param tx the doctor's read-only snapshot
 * @returns one damage entry when they differ, else none
 */
async function compareIndex(tx: postgres.TransactionSql): Promise<StorageDamage[]> {
  const keys = async () =>
    (await tx`SELECT session_id, type, seq FROM chime.events ORDER BY session_id, type, seq`)
      .map((r) => `${r.session_id}|${r.type}|${r.seq}`);
  await tx`SET LOCAL enable_seqscan = off`;
  await tx`SET LOCAL enable_bitmapscan = off`;
  const through = await keys();
  await tx`SET LOCAL enable_seqscan = on`;
  await tx`SET LOCAL enable_indexscan = off`;
  await tx`SET LOCAL enable_indexonlyscan = off`;
  const table = await keys();
  await tx`RESET enable_seqscan`;
  await tx`RESET enable_bitmapscan`;
  await tx`RESET enable_indexscan`;
  await tx`RESET enable_indexonlyscan`;
  const same = through.length === table.length && through.every((k, i) => k === table[i]);
  return same ? [] : [{
    what: `index events_by_type differs from its table (${through.length} entries, ` +
      `${table.length} rows)`,
  }];
}
