/**
 * What one push says (docs/push.md "What is sent"): a reminder card's prompt, the session's
 * title, the tag every notification of that occurrence carries, an action to open the card,
 * Snooze 10 min and, for a series, Stop repeating. The actions name the same routes the card's
 * buttons call (docs/recurring.md "Host and page"), so they record the same log transitions and
 * make no model call; the service worker posts to them and then acknowledges the tag.
 *
 * @module
 */
import { notificationTag } from "@chime/contract";
import { occurrenceKey, type ReminderPresentation } from "@chime/schedule/presentation";

/** The snooze a push notification offers, s (the card's first preset). */
export const PUSH_SNOOZE_SECONDS = 600;

/** Characters of the prompt a push carries (payloads are limited to about 4 KB). */
export const PUSH_BODY_MAX = 500;

/** One notification action the service worker performs. */
export interface PushAction {
  /** `open` focuses (or opens) the page at the card; the others post to `url`. */
  readonly action: "open" | "snooze" | "stop";
  /** The button's label, in the subscription's language. */
  readonly title: string;
  /** The same-origin route to `POST` (absent for `open`). */
  readonly url?: string;
  /** Its JSON body. */
  readonly body?: unknown;
}

/** Shows a notification. */
export interface ShowMessage {
  /** The kind. */
  readonly type: "show";
  /** The occurrence's tag (`notificationTag`). */
  readonly tag: string;
  /** The notification's title: "Reminder — <session title>". */
  readonly title: string;
  /** The prompt (at most {@linkcode PUSH_BODY_MAX} characters). */
  readonly body: string;
  /** The session. */
  readonly sessionId: string;
  /** The card's seq (the dispatch event). */
  readonly seq: number;
  /** The page address of the card's session. */
  readonly url: string;
  /** Where the worker acknowledges the tag (`POST { tag }`). */
  readonly ack: string;
  /** The buttons. */
  readonly actions: readonly PushAction[];
  /** The language of the texts. */
  readonly lang: "en" | "zh";
}

/** Closes the notifications of a tag (acknowledged on another device). */
export interface CloseMessage {
  /** The kind. */
  readonly type: "close";
  /** The tag. */
  readonly tag: string;
}

/** What a push carries. */
export type PushMessage = ShowMessage | CloseMessage;

const TEXT = {
  en: { reminder: "Reminder", open: "Open", snooze: "Snooze 10 min", stop: "Stop repeating" },
  zh: { reminder: "提醒", open: "打开", snooze: "稍后 10 分钟", stop: "停止重复" },
} as const;

/**
 * The push of one durable reminder card.
 *
 * @param sessionId the session
 * @param title the session's title, `null` before its first message
 * @param seq the dispatch event's seq
 * @param presentation the card (`scheduleReminderPresentations`)
 * @param lang the subscription's language
 * @returns the message
 *
 * @example A series offers Stop repeating
 * ```ts
 * import { reminderMessage } from "@chime/push";
 * import type { ScheduleId } from "@chime/schedule";
 * const m = reminderMessage("s1", "Morning", 7, {
 *   scheduleId: "sch_abcdefgh" as ScheduleId, prompt: "stretch", occurrenceAt: "2030-01-01T08:00:00.000Z",
 *   recurring: { rrule: "FREQ=DAILY", timeZone: "UTC", text: { en: "", zh: "" }, nextAt: null,
 *     preview: [] },
 * }, "en");
 * console.assert(m.actions.map((a) => a.action).join() === "snooze,stop,open");
 * ```
 */
export function reminderMessage(
  sessionId: string,
  title: string | null,
  seq: number,
  presentation: ReminderPresentation,
  lang: "en" | "zh",
): ShowMessage {
  const t = TEXT[lang];
  const session = `/api/sessions/${encodeURIComponent(sessionId)}`;
  const reminder = `${session}/reminders/${encodeURIComponent(presentation.scheduleId)}`;
  const chars = [...presentation.prompt];
  const body = chars.length > PUSH_BODY_MAX
    ? `${chars.slice(0, PUSH_BODY_MAX - 1).join("")}…`
    : presentation.prompt;
  return {
    type: "show",
    tag: notificationTag(sessionId, occurrenceKey(presentation)),
    title: title === null ? t.reminder : `${t.reminder} — ${title}`,
    body,
    sessionId,
    seq,
    url: `/#/s/${encodeURIComponent(sessionId)}`,
    ack: `${session}/acknowledge`,
    lang,
    // Most browsers show two buttons: Snooze, then Stop repeating for a series, else Open
    // (a click on the notification itself always opens the card).
    actions: [
      {
        action: "snooze",
        title: t.snooze,
        url: `${reminder}/snooze`,
        body: { seconds: PUSH_SNOOZE_SECONDS },
      },
      ...(presentation.recurring === undefined
        ? []
        : [{ action: "stop" as const, title: t.stop, url: `${reminder}/stop`, body: {} }]),
      { action: "open", title: t.open },
    ],
  };
}
