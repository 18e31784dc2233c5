/** @jsxRuntime automatic */
/** @jsxImportSource preact */
/**
 * Renaming and deleting the open session from the top bar (README.md#the-page): Rename turns
 * the title into a labelled text box (Enter saves, Escape cancels, an empty box goes back to the
 * first message's title), Delete asks once in an alert dialog that says what a delete does
 * (its reminders stop, it leaves the list). Focus moves into each form and back to its button.
 *
 * @module
 */
import { signal } from "@preact/signals";
import type { VNode } from "preact";
import { useEffect, useRef, useState } from "preact/hooks";
import { icon } from "../icons.ts";
import type { Page } from "./model.ts";
import { text } from "./strings.ts";

/** Which form is open, for which session. */
const open = signal<{ readonly kind: "rename" | "delete"; readonly id: string } | null>(null);

const shown = (model: Page, kind: "rename" | "delete") => {
  const o = open.value;
  return o !== null && o.kind === kind && o.id === model.current.value;
};

/**
 * Whether the rename form of the open session is shown (the top bar gives it its whole row on
 * a phone).
 *
 * @param model the page model
 * @returns `true` while renaming
 */
export function isRenaming(model: Page): boolean {
  return shown(model, "rename");
}

/** A keydown handler that closes a form on Escape (and keeps the page's own Escape out of it). */
const onEscape = (close: () => void) => (e: KeyboardEvent) => {
  if (e.key !== "Escape") return;
  e.preventDefault();
  e.stopPropagation();
  close();
};

/** Closes the open form and gives focus back to the button that opened it. */
const closeTo = (testid: string) => () => {
  open.value = null;
  queueMicrotask(() => document.querySelector<HTMLElement>(`[data-testid=${testid}]`)?.focus());
};

/** The page's `<h1>`, or the rename form in its place. */
export function SessionTitle(props: { readonly model: Page; readonly title: string }): VNode {
  const { model } = props;
  const input = useRef<HTMLInputElement>(null);
  const [value, setValue] = useState(props.title);
  const renaming = shown(model, "rename");
  useEffect(() => {
    if (!renaming) return;
    setValue(props.title);
    input.current?.focus();
    input.current?.select();
  }, [renaming]);
  if (!renaming) return <h1 data-testid="page-title">{props.title}</h1>;
  const close = closeTo("rename-session");
  return (
    <form
      class="rename-form"
      data-testid="rename-form"
      onSubmit={async (e) => {
        e.preventDefault();
        const title = value.trim();
        if (await model.rename(title === "" ? null : title)) close();
      }}
      onKeyDown={onEscape(close)}
    >
      <label for="rename-input" class="sr-only">{text("renameLabel")}</label>
      <input
        id="rename-input"
        ref={input}
        data-testid="rename-input"
        maxLength={80}
        value={value}
        onInput={(e) => setValue((e.target as HTMLInputElement).value)}
      />
      <button type="submit" class="primary" data-testid="rename-save">{text("renameSave")}</button>
      <button type="button" class="ghost" data-testid="rename-cancel" onClick={close}>
        {text("cancel")}
      </button>
    </form>
  );
}

/** The Rename and Delete buttons of the open session. */
export function SessionAdminButtons(props: { readonly model: Page }): VNode {
  const { model } = props;
  const id = model.current.value ?? "";
  return (
    <>
      <button
        type="button"
        class="ghost icon-only"
        data-testid="rename-session"
        aria-label={text("rename")}
        title={text("rename")}
        onClick={() => (open.value = { kind: "rename", id })}
      >
        {icon("edit")}
      </button>
      <button
        type="button"
        class="ghost icon-only"
        data-testid="delete-session"
        aria-label={text("deleteSession")}
        title={text("deleteSession")}
        aria-haspopup="dialog"
        onClick={() => (open.value = { kind: "delete", id })}
      >
        {icon("trash")}
      </button>
    </>
  );
}

/** The delete confirmation, under the top bar while it is asked. */
export function DeleteConfirm(
  props: { readonly model: Page; readonly title: string },
): VNode | null {
  const { model } = props;
  const cancel = useRef<HTMLButtonElement>(null);
  const asking = shown(model, "delete");
  useEffect(() => {
    if (asking) cancel.current?.focus();
  }, [asking]);
  if (!asking) return null;
  const close = closeTo("delete-session");
  return (
    <div
      class="banner warn delete-confirm"
      role="alertdialog"
      aria-modal="false"
      aria-labelledby="delete-title"
      aria-describedby="delete-body"
      data-testid="delete-confirm"
      onKeyDown={onEscape(close)}
    >
      <div>
        <strong id="delete-title">{text("deleteAsk").replace("{title}", props.title)}</strong>
        <p id="delete-body">{model.deleteBodyText.value}</p>
      </div>
      <div class="buttons">
        <button
          type="button"
          class="ghost"
          ref={cancel}
          data-testid="delete-cancel"
          onClick={close}
        >
          {text("cancel")}
        </button>
        <button
          type="button"
          class="danger"
          data-testid="delete-confirm-button"
          onClick={async () => {
            if (await model.remove()) open.value = null;
          }}
        >
          {icon("trash")} {text("deleteSession")}
        </button>
      </div>
    </div>
  );
}
