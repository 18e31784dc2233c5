/** @jsxRuntime automatic */
/** @jsxImportSource preact */
/**
 * A long message collapsed to a few lines with a "Show more" / "Show less" toggle
 * (README.md#the-page): a 32,768-character message would otherwise be a bubble many screens
 * tall. The toggle is a real button with `aria-expanded` and `aria-controls`, so a screen reader
 * hears the state; the whole text stays in the DOM (find in page and copying still see it).
 *
 * @module
 */
import type { ComponentChild, VNode } from "preact";
import { useState } from "preact/hooks";
import type { Lang } from "./i18n.ts";

/** Texts longer than this many UTF-16 code units collapse. */
export const COLLAPSE_CHARS = 1200;
/** Texts with more lines than this collapse. */
export const COLLAPSE_LINES = 16;

const WORDS: Readonly<Record<Lang, { more: string; less: string }>> = {
  en: { more: "Show more", less: "Show less" },
  zh: { more: "展开全文", less: "收起" },
};

/**
 * Whether a text is long enough to collapse.
 *
 * @param text the message text
 * @returns `true` over {@linkcode COLLAPSE_CHARS} characters or {@linkcode COLLAPSE_LINES} lines
 */
export function isLong(text: string): boolean {
  if (text.length > COLLAPSE_CHARS) return true;
  let lines = 1;
  for (let i = text.indexOf("\n"); i !== -1; i = text.indexOf("\n", i + 1)) {
    if (++lines > COLLAPSE_LINES) return true;
  }
  return false;
}

let counter = 0;

function Collapsible(
  props: { readonly id: string; readonly lang: Lang; readonly children: ComponentChild },
): VNode {
  const [open, setOpen] = useState(false);
  const [id] = useState(() => `long-${props.id}-${++counter}`);
  const w = WORDS[props.lang];
  return (
    <div class={`long${open ? " open" : ""}`} data-testid="long-message" data-open={String(open)}>
      <div id={id} class="long-body">{props.children}</div>
      <button
        type="button"
        class="ghost long-toggle"
        data-testid="long-toggle"
        aria-expanded={open}
        aria-controls={id}
        onClick={() =>
          setOpen(!open)}
      >
        {open ? w.less : w.more}
      </button>
    </div>
  );
}

/**
 * Wraps a message bubble's content: as is when short, collapsed with a toggle when long.
 *
 * @param text the message text (decides whether it is long)
 * @param key a stable key of the message (its seq)
 * @param lang the UI language of the toggle
 * @param body the rendered content
 * @returns the content, or the collapsible wrapper
 */
export function longText(text: string, key: string, lang: Lang, body: VNode): VNode {
  return isLong(text) ? <Collapsible id={key} lang={lang}>{body}</Collapsible> : body;
}
