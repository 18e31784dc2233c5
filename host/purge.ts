/**
 * The purge of deleted sessions (README.md "The page"): `deno task purge --config FILE
 * [--data-dir DIR] [--older-than-days N] [--dry-run]` removes, for good, the stored log of every
 * session whose `session/deleted` (docs/events.md) is at least N days old (default 30), so a
 * deletion can be undone from the log by an operator until then. Run it while no host writes
 * the store (a libSQL file is locked by a running host: `storage_in_use`). A fork keeps its own
 * copy of what it inherited, so purging a parent never damages a child (its "fork of" then
 * names no title).
 *
 * Exit codes: `0` done (or nothing to purge), `2` bad arguments or the store cannot be opened.
 *
 * @module
 */
import { parseArgs } from "node:util";
import { SessionStore } from "@chime/session";
import { openBackend } from "./config/adapters.ts";
import { loadConfig } from "./config/config.ts";
import { SESSION_DELETED } from "./sessions/admin.ts";

/** Default age of a deletion before it is purged, days. */
export const PURGE_AFTER_DAYS = 30;

/** What {@linkcode purgeDeleted} did. */
export interface PurgeReport {
  /** Ids removed (or, in a dry run, that would be). */
  readonly purged: readonly string[];
  /** Deleted sessions kept because their deletion is younger than the cut-off. */
  readonly kept: number;
}

/**
 * Removes the stored logs of sessions deleted at least `olderThanMs` before `now`.
 *
 * @param store an open store whose backend can remove sessions (`PersistenceBackend.remove`)
 * @param options `now` (epoch ms), `olderThanMs`, `dryRun` (report only)
 * @returns the ids purged and how many deleted sessions were kept
 * @throws {TypeError} when the backend cannot remove sessions
 */
export async function purgeDeleted(
  store: SessionStore,
  options: { readonly now: number; readonly olderThanMs: number; readonly dryRun?: boolean },
): Promise<PurgeReport> {
  const purged: string[] = [];
  let kept = 0;
  for (const header of await store.list()) {
    const marks = await store.readByType(header.id, [SESSION_DELETED]);
    const at = marks.at(-1)?.at;
    if (at === undefined) continue;
    if (options.now - Date.parse(at) < options.olderThanMs) {
      kept++;
      continue;
    }
    if (options.dryRun || await store.purge(header.id)) purged.push(header.id);
  }
  return { purged, kept };
}

if (import.meta.main) {
  const { values } = parseArgs({
    args: Deno.args,
    options: {
      config: { type: "string" },
      "data-dir": { type: "string" },
      "older-than-days": { type: "string" },
      "dry-run": { type: "boolean" },
    },
  });
  const days = Number(values["older-than-days"] ?? PURGE_AFTER_DAYS);
  if (values.config === undefined || !(days >= 0)) {
    console.error(
      "usage: deno task purge --config FILE [--data-dir DIR] [--older-than-days N] [--dry-run]",
    );
    Deno.exit(2);
  }
  let store: SessionStore;
  try {
    const config = await loadConfig(values.config, {
      env: Deno.env.toObject(),
      ...(values["data-dir"] === undefined ? {} : { dataDir: values["data-dir"] }),
    });
    store = new SessionStore({ backend: await openBackend(config.storage) });
  } catch (error) {
    console.error(`purge: ${error instanceof Error ? error.message : String(error)}`);
    Deno.exit(2);
  }
  const report = await purgeDeleted(store, {
    now: Date.now(),
    olderThanMs: days * 86_400_000,
    dryRun: values["dry-run"] === true,
  });
  await store[Symbol.asyncDispose]();
  const verb = values["dry-run"] ? "would purge" : "purged";
  console.log(`${verb} ${report.purged.length} deleted session(s); kept ${report.kept} younger`);
  for (const id of report.purged) console.log(`  ${id}`);
}
