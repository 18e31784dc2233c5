/**
 * Alerts outside the page (README.md#the-page): while the person is away from a card (the tab
 * hidden, the window without focus, or another session open), a durable card raises a
 * Notification (its title and text, tagged per occurrence so every device shows one and one
 * acknowledgement closes all: docs/push.md), counts in the document title ("(2) chime") and
 * marks its session's row until that session is seen, and plays an optional chime (off by
 * default, a setting kept in `localStorage`). Permission is asked only from a visible control,
 * never on load. The browser parts are injected ({@linkcode AlertsEnv}), so `deno test` drives
 * it without a DOM.
 *
 * @module
 */
import { computed, type ReadonlySignal, signal } from "@preact/signals";
import type { LangStorage } from "../i18n.ts";

/** Notification permission as the page sees it; `unsupported` without the Notification API. */
export type AlertPermission = "default" | "granted" | "denied" | "unsupported";

/** The browser side of alerts. */
export interface AlertsEnv {
  /**
   * Whether the person is away from the page now: the tab is hidden
   * (`document.visibilityState === "hidden"`) or the window has no focus
   * (`!document.hasFocus()`: behind another window, on another screen).
   */
  away(): boolean;
  /** The current permission (`Notification.permission`). */
  permission(): AlertPermission;
  /** Asks for permission (`Notification.requestPermission()`); only from a user gesture. */
  requestPermission(): Promise<AlertPermission>;
  /**
   * Shows a notification carrying `tag` (one with the same tag is replaced); `onClick` runs
   * when the person clicks it.
   */
  notify(title: string, body: string, tag: string, onClick: () => void): void;
  /** Closes the notifications of a tag, the page's and the service worker's. @default none */
  close?(tag: string): void;
  /** Plays the chime (a WebAudio tone, no asset). */
  chime(): void;
  /** Focuses the tab and scrolls to the card of `seq` (of the open session). */
  reveal(seq: number): void;
  /** Where the chime setting lives. @default none (the setting lasts for the page) */
  readonly storage?: LangStorage | undefined;
}

/** The `localStorage` key of the chime setting (`"on"` / `"off"`). */
export const CHIME_KEY = "chime.sound";

/** The base document title. */
export const BASE_TITLE = "chime";

/** A card that just became durable, somewhere the person is not looking. */
export interface CardAlert {
  /** Its session. */
  readonly sessionId: string;
  /** The event's seq (the card's node). */
  readonly seq: number;
  /** Notification title, in the UI language. */
  readonly title: string;
  /** The card's text (plain text). */
  readonly prompt: string;
  /** The occurrence's notification tag (`notificationTag`). */
  readonly tag: string;
  /** Runs when the person clicks the notification (open the session at the card). */
  readonly open: () => void;
}

/** What {@linkcode createAlerts} returns: signals and actions (a model member). */
export interface Alerts {
  /** Notification permission. */
  readonly permission: ReadonlySignal<AlertPermission>;
  /** Whether the chime plays. */
  readonly chimeOn: ReadonlySignal<boolean>;
  /** Unseen cards' tags by session (the rows' marks). */
  readonly unread: ReadonlySignal<ReadonlyMap<string, readonly string[]>>;
  /** Cards not seen yet, over all sessions. */
  readonly unseen: ReadonlySignal<number>;
  /** The document title: `(n) chime` while cards are unseen, else `chime`. */
  readonly title: ReadonlySignal<string>;
  /** Whether the person is away from the page now (hidden or unfocused). */
  away(): boolean;
  /** Asks for notification permission (call it from a click). */
  askPermission(): Promise<void>;
  /** Turns the chime on or off and remembers it. */
  setChime(on: boolean): void;
  /** Reports a card the person is not looking at: notification, count, mark, chime. */
  card(alert: CardAlert): void;
  /**
   * The person sees a session (opened it, or came back to it): its marks clear.
   *
   * @param sessionId the session
   * @returns the tags that were unseen there (to acknowledge)
   */
  seen(sessionId: string): string[];
  /**
   * One notification was acknowledged (here or on another device): it closes and its mark goes.
   *
   * @param sessionId its session
   * @param tag its tag
   */
  acknowledged(sessionId: string, tag: string): void;
  /** The page is visible or focused again: the permission is read again. */
  visible(): void;
}

function readChime(storage: LangStorage | undefined): boolean {
  try {
    return storage?.getItem(CHIME_KEY) === "on";
  } catch {
    return false;
  }
}

/**
 * Creates the alerts state over an environment.
 *
 * @param env the browser parts
 * @returns the alerts signals and actions
 * @example A card while away counts in the title and marks its session
 * ```ts
 * import { createAlerts } from "./alerts.ts";
 * const alerts = createAlerts({
 *   away: () => true, permission: () => "default", requestPermission: async () => "granted",
 *   notify() {}, chime() {}, reveal() {},
 * });
 * alerts.card({ sessionId: "a", seq: 3, title: "Alert", prompt: "stretch", tag: "chime:a:3",
 *   open() {} });
 * console.assert(alerts.title.value === "(1) chime");
 * console.assert(alerts.seen("a").join() === "chime:a:3" && alerts.unseen.value === 0);
 * ```
 */
export function createAlerts(env: AlertsEnv): Alerts {
  const permission = signal<AlertPermission>(env.permission());
  const chimeOn = signal(readChime(env.storage));
  const unread = signal<ReadonlyMap<string, readonly string[]>>(new Map());
  const unseen = computed(() => [...unread.value.values()].reduce((n, t) => n + t.length, 0));
  const edit = (sessionId: string, tags: (old: readonly string[]) => readonly string[]) => {
    const next = new Map(unread.peek());
    const now = tags(next.get(sessionId) ?? []);
    if (now.length === 0) next.delete(sessionId);
    else next.set(sessionId, now);
    unread.value = next;
  };
  return {
    permission,
    chimeOn,
    unread,
    unseen,
    title: computed(() => unseen.value > 0 ? `(${unseen.value}) ${BASE_TITLE}` : BASE_TITLE),
    away: () => env.away(),
    async askPermission() {
      try {
        permission.value = await env.requestPermission();
      } catch {
        permission.value = env.permission();
      }
    },
    setChime(on) {
      chimeOn.value = on;
      try {
        env.storage?.setItem(CHIME_KEY, on ? "on" : "off");
      } catch {
        // Quota or privacy mode: the setting lasts for this page only.
      }
      if (on) env.chime(); // a gesture: unlocks audio and lets the person hear it
    },
    card(alert) {
      if (unread.peek().get(alert.sessionId)?.includes(alert.tag)) return;
      edit(alert.sessionId, (old) => [...old, alert.tag]);
      if (permission.peek() === "granted") {
        env.notify(alert.title, alert.prompt, alert.tag, alert.open);
      }
      if (chimeOn.peek()) env.chime();
    },
    seen(sessionId) {
      const tags = [...(unread.peek().get(sessionId) ?? [])];
      if (tags.length > 0) edit(sessionId, () => []);
      for (const tag of tags) env.close?.(tag);
      return tags;
    },
    acknowledged(sessionId, tag) {
      env.close?.(tag);
      edit(sessionId, (old) => old.filter((t) => t !== tag));
    },
    visible() {
      permission.value = env.permission();
    },
  };
}
