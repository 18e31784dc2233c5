/**
 * The two UI languages: English and Chinese, picked from `navigator.language` and switchable.
 *
 * @module
 */
import { signal } from "@preact/signals";

/** A UI language. */
export type Lang = "en" | "zh";

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

/** The current UI language; starts from `navigator.language`, the toggle writes it. */
export const lang: Writable<Lang> = signal(detectLang(globalThis.navigator?.language));

/**
 * The `Intl` locale for a UI language.
 *
 * @param l the language
 * @returns `en` or `zh-CN`
 */
export function localeOf(l: Lang): string {
  return l === "zh" ? "zh-CN" : "en";
}
