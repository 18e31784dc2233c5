/** @jsxRuntime automatic */
/** @jsxImportSource preact */
/**
 * The transcript: every node through the event-view registry. It follows new content while the
 * reader is at (or near) the bottom, jumps to the latest on a follow request (a session opened,
 * a message sent, retried or edited), keeps the viewport on the first visible message when
 * older events are prepended, and offers "Jump to latest" when scrolled up. It is no live
 * region: the page announces new assistant messages and reminder cards on its own.
 *
 * @module
 */
import type { VNode } from "preact";
import { useLayoutEffect, useRef, useState } from "preact/hooks";
import { icon } from "../icons.ts";
import type { EventViewRegistry, RenderContext } from "../registry.ts";
import type { PresentedEventNode } from "../transcript.ts";
import type { MessageState } from "./lifecycle.ts";
import { type MessageActions, MessageExtras } from "./message_extras.tsx";
import { type Anchor, firstVisible, nearBottom, nodeTop } from "./scroll.ts";
import { text } from "./strings.ts";

/** Props of {@linkcode Transcript}. */
export interface TranscriptProps {
  readonly nodes: readonly PresentedEventNode[];
  readonly registry: EventViewRegistry;
  readonly ctx: RenderContext;
  readonly thinking: boolean;
  readonly canLoadOlder: boolean;
  onOlder(): void;
  /** Whether an older page is in flight. */
  readonly loadingOlder: boolean;
  /** Lifecycle states of user messages by seq. */
  readonly states: ReadonlyMap<number, MessageState>;
  /** Retry and edit. */
  readonly actions: MessageActions;
  /** Events below this seq are an inherited fork prefix: no actions on them. */
  readonly seedLength: number;
  /** A counter: every change scrolls to the latest message and follows again. */
  readonly follow: number;
  /** The empty conversation's line (an enabled renderer module's hint). @default the page's own */
  readonly hello?: string;
}

/** The transcript. */
export function Transcript(props: TranscriptProps): VNode {
  const box = useRef<HTMLDivElement>(null);
  const atBottom = useRef(true);
  const anchor = useRef<Anchor | null>(null);
  const [away, setAway] = useState(false);
  const toBottom = (c: HTMLElement) => {
    atBottom.current = true;
    c.scrollTop = c.scrollHeight;
    setAway(false);
  };
  // A follow request: the latest message comes into view and new content is followed again.
  useLayoutEffect(() => {
    if (box.current) toBottom(box.current);
  }, [props.follow]);
  // After every render, before paint: restore what the reader saw, or keep following.
  useLayoutEffect(() => {
    const c = box.current;
    if (!c) return;
    const a = anchor.current;
    if (a) {
      const el = c.querySelector(`.node[data-key="${CSS.escape(a.key)}"]`);
      if (el) c.scrollTop += nodeTop(c, el) - a.top;
      if (!props.loadingOlder) anchor.current = null;
      return;
    }
    if (atBottom.current) c.scrollTop = c.scrollHeight;
  });
  // Content that grows without a render of this component (fonts, late layout) keeps following.
  useLayoutEffect(() => {
    const c = box.current;
    if (!c || typeof ResizeObserver === "undefined") return;
    const ro = new ResizeObserver(() => {
      if (anchor.current === null && atBottom.current) c.scrollTop = c.scrollHeight;
    });
    for (const child of c.children) ro.observe(child);
    return () => ro.disconnect();
  });
  // Messages of the running turn (after the last `turn/end`) offer no Retry or Edit until it ends.
  let settled = -1;
  for (const node of props.nodes) if (node.type === "turn/end") settled = node.seq;
  const older = () => {
    const c = box.current;
    anchor.current = c ? firstVisible(c) : null;
    props.onOlder();
  };
  return (
    <div class="transcript-wrap">
      <div
        class="transcript"
        data-testid="transcript"
        data-following={away ? "false" : "true"}
        ref={box}
        tabIndex={0}
        role="region"
        aria-label={text("transcript")}
        onScroll={(e) => {
          const bottom = nearBottom(e.currentTarget);
          atBottom.current = bottom;
          if (bottom === away) setAway(!bottom);
        }}
      >
        {props.loadingOlder
          ? (
            <p class="older loading" role="status" data-testid="older-loading">
              <span class="spinner" aria-hidden="true" /> {text("loadingOlder")}
            </p>
          )
          : props.canLoadOlder && (
            <button type="button" class="ghost older" data-testid="load-older" onClick={older}>
              {text("older")}
            </button>
          )}
        {props.nodes.length === 0 && <p class="hello">{props.hello ?? text("hello")}</p>}
        {props.nodes.map((node) => (
          <div
            key={node.key}
            class="node"
            data-seq={node.seq}
            data-type={node.type}
            data-key={node.key}
          >
            {props.registry.render(node, props.ctx)}
            {node.type === "user-rpc" && (
              <MessageExtras
                node={node}
                state={props.states.get(node.seq)}
                actions={node.seq >= props.seedLength && !(props.thinking && node.seq > settled)
                  ? props.actions
                  : undefined}
              />
            )}
          </div>
        ))}
        {props.thinking && <div class="thinking" data-testid="thinking">{text("thinking")}</div>}
      </div>
      {away && (
        <button
          type="button"
          class="jump"
          data-testid="jump-latest"
          onClick={() => box.current && toBottom(box.current)}
        >
          {icon("down")} {text("jump")}
        </button>
      )}
    </div>
  );
}
