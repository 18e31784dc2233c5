/**
 * Which notification tags the schedule plugin raises in a session (`PluginWeb.ownsTag`,
 * docs/push.md "One acknowledgement everywhere"): the tag of each durable reminder card, that
 * is each dispatched occurrence, `notificationTag(sessionId, occurrenceKey(card))`. The host
 * accepts an acknowledgement only for such a tag, so no other string is broadcast or pushed.
 * Read from the durable log only (a live session below its watermark, a cold one from
 * storage), never activating a session.
 *
 * @module
 */
import { notificationTag, type WebHost } from "@chime/contract";
import { occurrenceKey, scheduleReminderPresentations } from "./presentation.ts";
import { durableChanges } from "./reminders.ts";

/**
 * Whether `tag` is the tag of one of the session's durable reminder cards.
 *
 * @param host the store and the durable bound
 * @param sessionId the session
 * @param tag the tag an acknowledgement carries
 * @returns `true` for a dispatched occurrence's tag; `false` otherwise (an unknown session too)
 *
 * @example A session that never fired a reminder owns no tag
 * ```ts
 * import { scheduleOwnsTag } from "@chime/schedule";
 * import { SessionStore } from "@chime/session";
 * import { MemoryBackend } from "@chime/session/testing";
 * await using store = new SessionStore({ backend: new MemoryBackend() });
 * const host = { store, durableLength: (s: { length: number }) => s.length };
 * console.assert(!(await scheduleOwnsTag(host, "nope", "chime:nope:sch_a@2030")));
 * ```
 */
export async function scheduleOwnsTag(
  host: Pick<WebHost, "store" | "durableLength">,
  sessionId: string,
  tag: string,
): Promise<boolean> {
  const prefix = notificationTag(sessionId, "");
  if (!tag.startsWith(prefix)) return false;
  const stored = await durableChanges(host, sessionId);
  if (stored === undefined) return false;
  const key = tag.slice(prefix.length);
  for (const card of scheduleReminderPresentations(stored.header, stored.events).values()) {
    if (occurrenceKey(card) === key) return true;
  }
  return false;
}
