/**
 * The sessions this browser watches for alerts (README "The page"): the ones it has open or has
 * opened, newest first, kept in `localStorage` so a reload, another tab and the push
 * subscription (docs/push.md) know them.
 *
 * @module
 */
import type { LangStorage } from "../i18n.ts";

/** The `localStorage` key (a JSON array of session ids). */
export const WATCHED_KEY = "chime.watched";

/** Sessions watched at most (the host accepts 200 per stream); the oldest go first. */
export const WATCHED_MAX = 50;

const ID = /^[A-Za-z0-9_-]{1,64}$/;

/**
 * Reads the watched sessions.
 *
 * @param storage where they live
 * @returns the ids, newest first (`[]` for none or unreadable storage)
 */
export function readWatched(storage: LangStorage | undefined): string[] {
  try {
    const raw: unknown = JSON.parse(storage?.getItem(WATCHED_KEY) ?? "[]");
    return Array.isArray(raw)
      ? raw.filter((id): id is string => typeof id === "string" && ID.test(id)).slice(
        0,
        WATCHED_MAX,
      )
      : [];
  } catch {
    return [];
  }
}

/**
 * Stores the watched sessions.
 *
 * @param storage where they live
 * @param ids newest first
 */
export function writeWatched(storage: LangStorage | undefined, ids: readonly string[]): void {
  try {
    storage?.setItem(WATCHED_KEY, JSON.stringify(ids.slice(0, WATCHED_MAX)));
  } catch {
    // Privacy mode: watched for this page only.
  }
}
