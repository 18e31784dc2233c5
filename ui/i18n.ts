/**
 * The two UI languages: English and Chinese, picked from `navigator.language` and switchable.
 *
 * @module
 */
import type { Lang } from "@chime/contract";
import { signal } from "@preact/signals";

export type { Lang } from "@chime/contract";

/**
 * Picks the UI language for a BCP 47 tag: any `zh*` tag is Chinese, everything else English.
 *
 * @param language e.g. `navigator.language`; `undefined` outside a browser
 * @returns the language
 * @example Detect
 * ```ts
 * import { detectLang } from "@chime/ui";
 * console.assert(detectLang("zh-TW") === "zh" && detectLang("de") === "en");
 * ```
 */
export function detectLang(language: string | undefined): Lang {
  return language?.toLowerCase().startsWith("zh") ? "zh" : "en";
}

/** A writable reactive value (structurally a `Signal` of `@preact/signals`). */
export interface Writable<T> {
  /** The current value; reading subscribes, writing notifies. */
  value: T;
  /** Reads the value without subscribing. */
  peek(): T;
}

/** The `localStorage` key of the chosen language. */
export const LANG_KEY = "chime.lang";

/** The slice of `Storage` the language choice uses. */
export interface LangStorage {
  /** Reads a key. */
  getItem(key: string): string | null;
  /** Writes a key. */
  setItem(key: string, value: string): void;
}

function storage(): LangStorage | undefined {
  try {
    return globalThis.localStorage ?? undefined;
  } catch {
    return undefined; // storage disabled (privacy mode, sandboxed frame)
  }
}

/**
 * The language to start with: a stored choice wins over the browser language.
 *
 * @param stored the storage holding a previous choice, if any
 * @param language e.g. `navigator.language`
 * @returns the language
 * @example A stored choice wins
 * ```ts
 * import { initialLang } from "@chime/ui";
 * const stored = { getItem: () => "zh", setItem() {} };
 * console.assert(initialLang(stored, "en-US") === "zh");
 * ```
 */
export function initialLang(stored: LangStorage | undefined, language: string | undefined): Lang {
  let saved: string | null = null;
  try {
    saved = stored?.getItem(LANG_KEY) ?? null;
  } catch {
    saved = null;
  }
  return saved === "en" || saved === "zh" ? saved : detectLang(language);
}

/**
 * Remembers a language choice across reloads (best effort: a storage failure is ignored
 * because the choice still applies to this page).
 *
 * @param l the chosen language
 * @param stored the storage @default `localStorage`
 */
export function saveLang(l: Lang, stored: LangStorage | undefined = storage()): void {
  try {
    stored?.setItem(LANG_KEY, l);
  } catch {
    // Quota or privacy mode: keep the in-page choice only.
  }
}

/** The current UI language; starts from a stored choice or `navigator.language`. */
export const lang: Writable<Lang> = signal(initialLang(storage(), globalThis.navigator?.language));

/**
 * The `Intl` locale for a UI language.
 *
 * @param l the language
 * @returns `en` or `zh-CN`
 */
export function localeOf(l: Lang): string {
  return l === "zh" ? "zh-CN" : "en";
}

/**
 * The clock of every time the page shows, in both languages: 24-hour (`09:00`, `21:30`), the
 * convention of the host's own words ("daily at 09:00") and of the agent's replies, so one page
 * never mixes `9:00 PM` and `21:00` (README.md#the-page).
 */
export const HOUR_CYCLE = "h23" as const;
