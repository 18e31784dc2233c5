/** @jsxRuntime automatic */
/** @jsxImportSource preact */
/**
 * The state of a routed session the host does not have (unknown id, or deleted): one sentence
 * and a "New session" button, no transcript, composer or stream (README.md#the-page).
 * `session_not_found` is final: the page does not retry it.
 *
 * @module
 */
import type { VNode } from "preact";
import { icon } from "../icons.ts";
import type { Page } from "./model.ts";
import { text } from "./strings.ts";

/** The "session not found" state. */
export function MissingSession(props: { readonly model: Page }): VNode {
  const { model } = props;
  return (
    <section class="missing-session" data-testid="session-missing" aria-labelledby="missing-title">
      <h2 id="missing-title">{text("missingTitle")}</h2>
      <p>{text("missingBody")}</p>
      <button
        type="button"
        class="primary"
        data-testid="missing-new-session"
        disabled={model.busy.value}
        onClick={() =>
          void model.newSession()}
      >
        {icon("plus")} {text("newSession")}
      </button>
    </section>
  );
}
