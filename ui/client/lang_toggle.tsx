/** @jsxRuntime automatic */
/** @jsxImportSource preact */
/**
 * The EN / 中文 toggle; the choice is remembered across reloads.
 *
 * @module
 */
import type { VNode } from "preact";
import { lang, saveLang } from "../i18n.ts";
import { text } from "./strings.ts";

/** The language toggle. */
export function LangToggle(): VNode {
  return (
    <div class="lang" role="group" aria-label={text("language")}>
      {(["en", "zh"] as const).map((l) => (
        <button
          type="button"
          key={l}
          lang={l === "zh" ? "zh-CN" : "en"}
          aria-pressed={lang.value === l}
          onClick={() => {
            lang.value = l;
            saveLang(l);
          }}
        >
          {l === "en" ? "EN" : "中文"}
        </button>
      ))}
    </div>
  );
}
