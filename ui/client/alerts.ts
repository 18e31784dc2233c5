/**
 * Reminder alerts outside the page (README.md#the-page): while the tab is hidden, a
 * durable reminder card raises a Notification (title and prompt), counts in the document title
 * ("(2) chime") until the tab is visible again, and plays an optional chime (off by default, a
 * setting kept in `localStorage`). Permission is asked only from a visible control, never on load.
 * The browser parts are injected ({@linkcode AlertsEnv}), so `deno test` drives it without a DOM.
 *
 * @module
 */
import { computed, type ReadonlySignal, signal } from "@preact/signals";
import type { LangStorage } from "../i18n.ts";

/** Notification permission as the page sees it; `unsupported` without the Notification API. */
export type AlertPermission = "default" | "granted" | "denied" | "unsupported";

/** The browser side of alerts. */
export interface AlertsEnv {
  /** Whether the tab is hidden now (`document.visibilityState === "hidden"`). */
  hidden(): boolean;
  /** The current permission (`Notification.permission`). */
  permission(): AlertPermission;
  /** Asks for permission (`Notification.requestPermission()`); only from a user gesture. */
  requestPermission(): Promise<AlertPermission>;
  /** Shows a notification; `onClick` runs when the person clicks it. */
  notify(title: string, body: string, onClick: () => void): void;
  /** Plays the chime (a WebAudio tone, no asset). */
  chime(): void;
  /** Focuses the tab and scrolls to the card of `seq`. */
  reveal(seq: number): void;
  /** Where the chime setting lives. @default none (the setting lasts for the page) */
  readonly storage?: LangStorage | undefined;
}

/** The `localStorage` key of the chime setting (`"on"` / `"off"`). */
export const CHIME_KEY = "chime.sound";

/** The base document title. */
export const BASE_TITLE = "chime";

/** A reminder card that just became durable. */
export interface CardAlert {
  /** The dispatch event's seq (the card's node). */
  readonly seq: number;
  /** Notification title, in the UI language. */
  readonly title: string;
  /** The reminder prompt (plain text). */
  readonly prompt: string;
}

/** What {@linkcode createAlerts} returns: signals and actions (a model member). */
export interface Alerts {
  /** Notification permission. */
  readonly permission: ReadonlySignal<AlertPermission>;
  /** Whether the chime plays. */
  readonly chimeOn: ReadonlySignal<boolean>;
  /** Cards that arrived while the tab was hidden and were not seen yet. */
  readonly unseen: ReadonlySignal<number>;
  /** The document title: `(n) chime` while cards are unseen, else `chime`. */
  readonly title: ReadonlySignal<string>;
  /** Asks for notification permission (call it from a click). */
  askPermission(): Promise<void>;
  /** Turns the chime on or off and remembers it. */
  setChime(on: boolean): void;
  /** Reports a new durable card; alerts only while the tab is hidden. */
  card(alert: CardAlert): void;
  /** The tab became visible: the count clears. */
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
 * @example A card while hidden counts in the title
 * ```ts
 * import { createAlerts } from "./alerts.ts";
 * const alerts = createAlerts({
 *   hidden: () => true, permission: () => "default", requestPermission: async () => "granted",
 *   notify() {}, chime() {}, reveal() {},
 * });
 * alerts.card({ seq: 3, title: "Reminder", prompt: "stretch" });
 * console.assert(alerts.title.value === "(1) chime");
 * ```
 */
export function createAlerts(env: AlertsEnv): Alerts {
  const permission = signal<AlertPermission>(env.permission());
  const chimeOn = signal(readChime(env.storage));
  const unseen = signal(0);
  return {
    permission,
    chimeOn,
    unseen,
    title: computed(() => unseen.value > 0 ? `(${unseen.value}) ${BASE_TITLE}` : BASE_TITLE),
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
      if (!env.hidden()) return;
      unseen.value = unseen.peek() + 1;
      if (permission.peek() === "granted") {
        env.notify(alert.title, alert.prompt, () => env.reveal(alert.seq));
      }
      if (chimeOn.peek()) env.chime();
    },
    visible() {
      unseen.value = 0;
      permission.value = env.permission();
    },
  };
}
