/**
 * Renaming and deleting a session (README.md "The page", docs/events.md `session/title` and
 * `session/deleted`). Both are host writes recorded in the session's own log; neither makes the
 * session run (no agent starts, so nothing overdue fires). A delete first lets each loaded
 * plugin end its pending work through its own transaction path (`Plugin.endSession`: the
 * schedule plugin records a `delete` of every active reminder), then records `session/deleted`;
 * the session then answers `session_not_found` and leaves the list, its open streams are told
 * (`event: session-deleted` on its session stream, `event: deleted` on the pages' alert
 * streams) and ended, every plugin forgets what it keeps outside the log (`PluginWeb.onDeleted`:
 * the calendar feed key, the push subscriptions), and its log stays stored until
 * `deno task purge` removes it (host/purge.ts). Bad input changes nothing durable.
 *
 * @module
 */
import { type Session, SessionError } from "@chime/session";
import { HostError } from "../errors.ts";
import type { HostRuntime } from "./runtime.ts";
import { TITLE_MAX } from "./titles.ts";
import { webHost } from "../plugins/plugin_routes.ts";

/** The event a rename appends: `{ title }`, `null` going back to the first message's title. */
export const SESSION_TITLE = "session/title";
/** The event a delete appends last: `{}`. */
export const SESSION_DELETED = "session/deleted";

/**
 * Checks a new title: a string of 1 to {@linkcode TITLE_MAX} UTF-16 code units once trimmed
 * (counted as message texts are, README.md "HTTP API": an emoji counts 2), without control
 * characters, or `null` (back to the first message).
 *
 * @param value the body's `title`
 * @returns the trimmed title, or `null`
 * @throws {HostError} `invalid_request` with `field: "title"` and the reason
 */
export function titleField(value: unknown): string | null {
  if (value === null) return null;
  const bad = (reason: string) =>
    new HostError("invalid_request", `Cannot rename session: title ${reason}`, { field: "title" });
  if (typeof value !== "string") throw bad("must be a string or null");
  const title = value.trim();
  if (title === "") throw bad("must not be blank");
  // deno-lint-ignore no-control-regex
  if (/[\u0000-\u001f\u007f-\u009f]/.test(title)) throw bad("must not hold control characters");
  // A lone surrogate has no UTF-8 form: strict JSON readers of the list would fail on it.
  if (!title.isWellFormed()) throw bad("must not hold a lone surrogate");
  if (title.length > TITLE_MAX) {
    throw bad(`must be at most ${TITLE_MAX} UTF-16 code units (an emoji counts 2)`);
  }
  return title;
}

async function withSession<T>(
  runtime: HostRuntime,
  id: string,
  action: string,
  run: (session: Session) => Promise<T>,
): Promise<T> {
  if (await runtime.isDeleted(id)) {
    throw new HostError("session_not_found", `Cannot ${action}: session ${id} was deleted`);
  }
  const { session, wasCold } = await runtime.attach(id);
  try {
    return await run(session);
  } finally {
    if (wasCold) await runtime.release(session);
  }
}

async function durable(runtime: HostRuntime, session: Session, action: string): Promise<void> {
  if (await runtime.store.flush(session) !== true) {
    throw new SessionError("persistence_failed", `Cannot ${action}: the log was not saved`);
  }
}

/** The fields `PATCH /api/sessions/:id` takes. */
const RENAME_FIELDS: ReadonlySet<string> = new Set(["title"]);

/**
 * Checks a rename body: `title` is required and nothing else is taken.
 *
 * @param body the parsed JSON object
 * @returns the checked title ({@linkcode titleField})
 * @throws {HostError} `unknown_field` with `field` naming the first field it does not take;
 *   `invalid_request` with `field: "title"` (missing, or refused by {@linkcode titleField})
 */
export function renameBody(body: Record<string, unknown>): string | null {
  const extra = Object.keys(body).find((key) => !RENAME_FIELDS.has(key));
  if (extra !== undefined) {
    throw new HostError(
      "unknown_field",
      `Cannot rename session: unknown field ${JSON.stringify(extra.slice(0, 64))}`,
      { field: extra.slice(0, 64) },
    );
  }
  if (!("title" in body)) {
    throw new HostError("invalid_request", "Cannot rename session: title is required", {
      field: "title",
    });
  }
  return titleField(body.title);
}

/**
 * Renames a session: appends `session/title { title }` and waits until it is durable.
 *
 * @param runtime the host runtime
 * @param id the session id
 * @param title the checked title ({@linkcode titleField}), `null` for the first message's
 * @returns the event's seq
 * @throws {HostError} `session_not_found` (unknown or deleted)
 * @throws {SessionError} `persistence_failed`
 */
export function renameSession(
  runtime: HostRuntime,
  id: string,
  title: string | null,
): Promise<number> {
  return withSession(runtime, id, "rename session", async (session) => {
    const event = session.append(SESSION_TITLE, { title });
    await durable(runtime, session, "rename session");
    return event.seq;
  });
}

/**
 * Deletes a session: its agent stops (a running turn is cancelled with it), every plugin ends
 * its pending work (`Plugin.endSession`), then `session/deleted {}` is appended and made
 * durable. Then its session streams get `event: session-deleted` and end, the pages' alert
 * streams get `event: deleted` for it, and each plugin's `PluginWeb.onDeleted` runs (awaited;
 * a rejection is reported, the delete stands). The log is kept (purged later by
 * `deno task purge`).
 *
 * @param runtime the host runtime
 * @param id the session id
 * @returns the seq of `session/deleted`
 * @throws {HostError} `session_not_found` (unknown or already deleted)
 * @throws {SessionError} `persistence_failed`
 * @throws what a plugin's `endSession` throws (the delete is then not recorded)
 */
export async function deleteSession(runtime: HostRuntime, id: string): Promise<number> {
  if (!await runtime.exists(id) || await runtime.isDeleted(id)) {
    throw new HostError("session_not_found", `Cannot delete session: no session ${id}`);
  }
  // The agent goes first: no owner may deliver, and no turn may write, while the plugins end
  // their work.
  const running = runtime.liveSession(id);
  if (running !== undefined && runtime.existingAgent(running) !== undefined) {
    await runtime.release(running);
  }
  const seq = await withSession(runtime, id, "delete session", async (session) => {
    const now = Date.now();
    for (const plugin of runtime.plugins) {
      await plugin.endSession?.({ session, store: runtime.store, now });
    }
    const event = session.append(SESSION_DELETED, {});
    await durable(runtime, session, "delete session");
    runtime.markDeleted(id);
    return event.seq;
  });
  // Still live here (it was live before): it must not stay open.
  const left = runtime.store.live(id);
  if (left !== undefined) await runtime.release(left);
  // Whoever watches it hears it once, and nothing more of it (README.md "The page").
  runtime.feeds.endDeleted(id);
  runtime.alerts.deleted(id);
  const host = webHost(runtime);
  for (const plugin of runtime.plugins) {
    const hook = plugin.web?.onDeleted;
    if (hook === undefined) continue;
    try {
      await hook.call(plugin.web, id, host);
    } catch (error) {
      runtime.reportError(error);
    }
  }
  return seq;
}
