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
import { text } from "./strings.ts";

/** The id of the composer's text box (the skip link's target). */
export const COMPOSER_ID = "composer-input";

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
  const send = async () => {
    const prompt = value.trim();
    if (!prompt || props.disabled) return;
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
        onInput={(e) => setValue((e.target as HTMLTextAreaElement).value)}
        onKeyDown={(e) => {
          if (e.key === "Enter" && !e.shiftKey && !e.isComposing) {
            e.preventDefault();
            void send();
          }
        }}
      />
      <button
        type="submit"
        class="primary"
        data-testid="composer-send"
        disabled={props.disabled || !value.trim()}
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
