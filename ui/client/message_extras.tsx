/** @jsxRuntime automatic */
/** @jsxImportSource preact */
/**
 * Under a user message: the queued / steering badge, retry, and the inline edit form (Escape
 * closes it, focus returns to the Edit button).
 *
 * @module
 */
import type { VNode } from "preact";
import { useEffect, useRef, useState } from "preact/hooks";
import { icon } from "../icons.ts";
import type { PresentedEventNode } from "../transcript.ts";
import type { MessageState } from "./lifecycle.ts";
import { text } from "./strings.ts";

/** What the page can do with a user message (README.md#http-api: retry and edit). */
export interface MessageActions {
  /** Runs a new turn for the message (its own zone is kept by the host). */
  retry(messageId: string): Promise<boolean>;
  /** Appends an edit of the message. */
  edit(messageId: string, text: string): Promise<boolean>;
}

/** Badge, retry and inline edit under a user message. */
export function MessageExtras(
  props: {
    readonly node: PresentedEventNode;
    readonly state: MessageState | undefined;
    readonly actions: MessageActions | undefined;
  },
): VNode {
  const d = props.node.data as { messageId?: unknown; text?: unknown };
  const messageId = typeof d.messageId === "string" ? d.messageId : undefined;
  const [editing, setEditing] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  const input = useRef<HTMLTextAreaElement>(null);
  const editButton = useRef<HTMLButtonElement>(null);
  const wasEditing = useRef(false);
  useEffect(() => {
    if (editing !== null && !wasEditing.current) input.current?.focus();
    // Focus goes back to Edit without scrolling to it: after a save the view follows the new
    // turn at the bottom ("Scrolling that follows the user"); after Escape it is in view anyway.
    if (editing === null && wasEditing.current) editButton.current?.focus({ preventScroll: true });
    wasEditing.current = editing !== null;
  }, [editing]);
  const act = async (run: () => Promise<boolean>) => {
    setPending(true);
    try {
      if (await run()) setEditing(null);
    } finally {
      setPending(false);
    }
  };
  const actions = props.actions;
  return (
    <div class="msg-extras">
      {props.state === "queued" && (
        <span class="badge queued" data-testid="message-queued" data-state="queued">
          {icon("queued")} {text("queued")}
        </span>
      )}
      {props.state === "replaced" && (
        <span class="badge replaced" data-testid="message-replaced" data-state="replaced">
          {icon("edit")} {text("replaced")}
        </span>
      )}
      {props.state === "stopped" && (
        <span class="badge stopped" data-testid="message-stopped" data-state="stopped">
          {icon("stop")} {text("stopped")}
        </span>
      )}
      {props.state === "steering" && (
        <span class="badge steering" data-testid="message-steering" data-state="steering">
          {icon("steer")} {text("steering")}
        </span>
      )}
      {messageId && actions && editing === null && (
        <span class="msg-actions">
          <button
            type="button"
            class="ghost"
            data-testid="retry-message"
            disabled={pending}
            onClick={() => void act(() => actions.retry(messageId))}
          >
            {icon("retry")} {text("retry")}
          </button>
          <button
            type="button"
            class="ghost"
            data-testid="edit-message"
            ref={editButton}
            disabled={pending}
            onClick={() => setEditing(typeof d.text === "string" ? d.text : "")}
          >
            {icon("edit")} {text("edit")}
          </button>
        </span>
      )}
      {messageId && actions && editing !== null && (
        <form
          class="edit-form"
          data-testid="edit-form"
          onKeyDown={(e) => {
            if (e.key === "Escape") {
              e.preventDefault();
              setEditing(null);
            }
          }}
          onSubmit={(e) => {
            e.preventDefault();
            const value = editing.trim();
            if (value) void act(() => actions.edit(messageId, value));
          }}
        >
          <textarea
            data-testid="edit-input"
            aria-label={text("editLabel")}
            ref={input}
            rows={2}
            value={editing}
            onInput={(e) => setEditing((e.target as HTMLTextAreaElement).value)}
          />
          <div class="edit-buttons">
            <button
              type="button"
              class="ghost"
              data-testid="edit-cancel"
              onClick={() => setEditing(null)}
            >
              {text("cancel")}
            </button>
            <button
              type="submit"
              class="primary"
              data-testid="edit-save"
              disabled={pending || !editing.trim()}
            >
              {text("save")}
            </button>
          </div>
        </form>
      )}
    </div>
  );
}
