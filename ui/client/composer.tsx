/** @jsxRuntime automatic */
/** @jsxImportSource preact */
/**
 * The composer: a labelled text box (the skip link's target), Enter sends, Shift+Enter breaks
 * the line. While a turn runs it stays usable (a message sent then is queued and steers the
 * running turn) and a stop button ends the turn.
 *
 * @module
 */
import type { VNode } from "preact";
import { useState } from "preact/hooks";
import { icon } from "../icons.ts";
import { lang, localeOf } from "../i18n.ts";
import { text } from "./strings.ts";

/** The id of the composer's text box (the skip link's target). */
export const COMPOSER_ID = "composer-input";

/**
 * The host's message limit in UTF-16 code units (README.md "HTTP API": a message or edit `text`
 * holds at most 32,768; `host/http/_http.ts` `MAX_TEXT`, checked equal in a test).
 */
export const MESSAGE_LIMIT = 32_768;

/** From this many code units on, the composer counts them against {@linkcode MESSAGE_LIMIT}. */
export const COUNT_FROM = Math.floor(MESSAGE_LIMIT * 0.9);

/**
 * The counter's words: `29,500 / 32,768` near the limit, `1,232 characters too many` over it.
 *
 * @param length the text's length in UTF-16 code units
 * @param locale the UI's BCP 47 locale (digit grouping)
 * @param over the "too many" sentence with `{n}`
 * @returns the words, or `null` below {@linkcode COUNT_FROM}
 */
export function countWords(length: number, locale: string, over: string): string | null {
  if (length < COUNT_FROM) return null;
  const n = (x: number) => x.toLocaleString(locale);
  return length > MESSAGE_LIMIT
    ? over.replace("{n}", n(length - MESSAGE_LIMIT))
    : `${n(length)} / ${n(MESSAGE_LIMIT)}`;
}

/** The composer. */
export function Composer(
  props: {
    readonly disabled: boolean;
    onSend(text: string): Promise<boolean>;
    readonly running?: boolean;
    onStop?(): void;
    /** The placeholder (an enabled renderer module's hint). @default the page's own */
    readonly placeholder?: string;
  },
): VNode {
  const [value, setValue] = useState("");
  const count = countWords(value.length, localeOf(lang.value), text("tooManyChars"));
  const over = value.length > MESSAGE_LIMIT;
  const send = async () => {
    const prompt = value.trim();
    if (!prompt || props.disabled || over) return;
    if (await props.onSend(prompt)) setValue("");
  };
  return (
    <form
      class="composer"
      onSubmit={(e) => {
        e.preventDefault();
        void send();
      }}
    >
      <label for={COMPOSER_ID} class="sr-only">{text("composerLabel")}</label>
      <textarea
        id={COMPOSER_ID}
        data-testid="composer-input"
        rows={1}
        value={value}
        placeholder={props.placeholder ?? text("placeholder")}
        aria-describedby={count === null ? undefined : "composer-count"}
        aria-invalid={over ? true : undefined}
        onInput={(e) => setValue((e.target as HTMLTextAreaElement).value)}
        onKeyDown={(e) => {
          if (e.key === "Enter" && !e.shiftKey && !e.isComposing) {
            e.preventDefault();
            void send();
          }
        }}
      />
      {count !== null && (
        <span
          id="composer-count"
          class={`composer-count${over ? " over" : ""}`}
          data-testid="composer-count"
          data-state={over ? "over" : "near"}
        >
          {count}
        </span>
      )}
      <button
        type="submit"
        class="primary"
        data-testid="composer-send"
        disabled={props.disabled || !value.trim() || over}
      >
        {icon("send")} <span class="label">{text("send")}</span>
      </button>
      {props.running && props.onStop && (
        <button
          type="button"
          class="stop"
          data-testid="stop-turn"
          title={text("stopTitle")}
          onClick={props.onStop}
        >
          {icon("stop")} <span class="label">{text("stop")}</span>
        </button>
      )}
    </form>
  );
}
