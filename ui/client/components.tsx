/** @jsxRuntime automatic */
/** @jsxImportSource preact */
/**
 * Small presentational components of the chat page.
 *
 * @module
 */
import { useLayoutEffect, useRef, useState } from "preact/hooks";
import { type Lang, lang, localeOf, saveLang } from "../i18n.ts";
import type { EventViewRegistry, RenderContext } from "../registry.ts";
import { formatOccurrence, SESSION_LOCAL_LABEL } from "../schedule.ts";
import type { PresentedEventNode } from "../transcript.ts";
import type { ActiveReminderWire, SessionSummary, WireHeader } from "../wire.ts";
import type { MessageState } from "./lifecycle.ts";
import type { Connection } from "./stream.ts";

/** UI strings. */
export const T: Readonly<Record<Lang, Readonly<Record<string, string>>>> = {
  en: {
    sessions: "Sessions",
    newSession: "New session",
    empty: "No sessions yet",
    placeholder: "Message the agent — try “remind me in 20 minutes to stretch”",
    send: "Send",
    reminders: "Active reminders",
    noReminders: "No active reminders",
    live: "Live",
    connecting: "Connecting…",
    reconnecting: "Reconnecting…",
    offline: "Offline",
    thinking: "Thinking…",
    older: "Load earlier messages",
    pick: "Start a new session or pick one on the left.",
    hello: "Say hello. Ask for a reminder in plain words, in English or 中文.",
    zone: "Session zone",
    stop: "Stop",
    stopTitle: "Stop the running turn",
    retry: "Retry",
    edit: "Edit",
    save: "Send edit",
    cancel: "Cancel",
    queued: "Queued — waits for the running step",
    steering: "Steering — joined the running turn",
    loadingOlder: "Loading earlier messages…",
    forkOf: "fork of",
    fork: "Fork",
    forkTitle: "Fork this session: a new session with a copy of this conversation",
    overdue: "overdue",
  },
  zh: {
    sessions: "会话",
    newSession: "新建会话",
    empty: "还没有会话",
    placeholder: "给 Agent 发消息 —— 试试“20 分钟后提醒我起来活动”",
    send: "发送",
    reminders: "活动提醒",
    noReminders: "暂无活动提醒",
    live: "已连接",
    connecting: "连接中…",
    reconnecting: "重新连接中…",
    offline: "离线",
    thinking: "思考中…",
    older: "加载更早的消息",
    pick: "新建一个会话，或在左侧选择一个。",
    hello: "打个招呼吧。可以用中文或英文让我设置提醒。",
    zone: "会话时区",
    stop: "停止",
    stopTitle: "停止当前这一轮",
    retry: "重试",
    edit: "编辑",
    save: "发送修改",
    cancel: "取消",
    queued: "排队中 —— 等待当前步骤",
    steering: "引导中 —— 已并入正在运行的一轮",
    loadingOlder: "正在加载更早的消息…",
    forkOf: "分叉自",
    fork: "分叉",
    forkTitle: "分叉此会话：新会话会复制当前对话",
    overdue: "已逾期",
  },
};

/** Translates a key in the current language. */
export function t(key: string): string {
  return T[lang.value][key] ?? key;
}

/** How the session list describes one session. */
export interface SessionLabel {
  /** The parent id prefix of a fork, or `undefined` for a root session. */
  readonly forkOf: string | undefined;
  /** The creation time, date and time in the viewer's zone and language. */
  readonly created: string;
}

/**
 * Describes a session for the list: forks name their parent (an 8-character id prefix) and
 * every row shows when it was created.
 *
 * @param header the session header
 * @param l the UI language
 * @param timeZone the viewer's IANA zone
 * @returns the label
 */
export function sessionLabel(header: WireHeader, l: Lang, timeZone?: string): SessionLabel {
  const d = new Date(header.createdAt);
  let created = header.createdAt;
  if (!Number.isNaN(d.getTime())) {
    try {
      created = d.toLocaleString(localeOf(l), {
        dateStyle: "medium",
        timeStyle: "short",
        ...(timeZone ? { timeZone } : {}),
      });
    } catch {
      created = d.toISOString().slice(0, 16).replace("T", " ");
    }
  }
  return { forkOf: header.lineage?.parentId.slice(0, 8), created };
}

/** The session list with the "New session" button. */
export function SessionList(
  props: { sessions: SessionSummary[]; current: string | null; onNew(): void; busy: boolean },
) {
  return (
    <nav class="sidebar">
      <div class="brand">
        <span class="logo" aria-hidden="true">◔</span> chime
      </div>
      <button
        type="button"
        class="primary"
        data-testid="new-session"
        disabled={props.busy}
        onClick={props.onNew}
      >
        + {t("newSession")}
      </button>
      <h2>{t("sessions")}</h2>
      <ul data-testid="session-list">
        {props.sessions.length === 0 && <li class="muted">{t("empty")}</li>}
        {props.sessions.map((s) => {
          const label = sessionLabel(s.header, lang.value);
          return (
            <li key={s.header.id}>
              <a
                href={`#/s/${encodeURIComponent(s.header.id)}`}
                class={`${s.header.id === props.current ? "active" : ""}${
                  label.forkOf ? " fork" : ""
                }`}
                aria-current={s.header.id === props.current ? "page" : undefined}
                data-testid="session-item"
              >
                <span class={`dot ${s.live ? "on" : ""}`} />
                <span class="sid">
                  {label.forkOf && <span aria-hidden="true">⋔</span>}
                  {s.header.id}
                </span>
                {label.forkOf && (
                  <span class="fork-of" data-testid="session-fork-of">
                    {t("forkOf")} {label.forkOf}
                  </span>
                )}
                <time dateTime={s.header.createdAt}>{label.created}</time>
              </a>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}

/** The connection badge. */
export function ConnectionBadge(props: { state: Connection }) {
  return (
    <span class={`conn ${props.state}`} data-testid="connection-status" data-state={props.state}>
      {t(props.state)}
    </span>
  );
}

/** The EN / 中文 toggle. */
export function LangToggle() {
  return (
    <div class="lang" role="group" aria-label="Language">
      {(["en", "zh"] as const).map((l) => (
        <button
          type="button"
          key={l}
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

/** What the page can do with a user message (issue 8). */
export interface MessageActions {
  /** Runs a new turn for the message (its own zone is kept by the host). */
  retry(messageId: string): Promise<boolean>;
  /** Appends an edit of the message. */
  edit(messageId: string, text: string): Promise<boolean>;
}

/** Queued / steering badge, retry and inline edit under a user message. */
function UserMessageExtras(
  props: {
    node: PresentedEventNode;
    state: MessageState | undefined;
    actions: MessageActions | undefined;
  },
) {
  const d = props.node.data as { messageId?: unknown; text?: unknown };
  const messageId = typeof d.messageId === "string" ? d.messageId : undefined;
  const [editing, setEditing] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
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
          ⏳ {t("queued")}
        </span>
      )}
      {props.state === "steering" && (
        <span class="badge steering" data-testid="message-steering" data-state="steering">
          ↪ {t("steering")}
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
            ↻ {t("retry")}
          </button>
          <button
            type="button"
            class="ghost"
            data-testid="edit-message"
            disabled={pending}
            onClick={() => setEditing(typeof d.text === "string" ? d.text : "")}
          >
            ✎ {t("edit")}
          </button>
        </span>
      )}
      {messageId && actions && editing !== null && (
        <form
          class="edit-form"
          onSubmit={(e) => {
            e.preventDefault();
            const text = editing.trim();
            if (text) void act(() => actions.edit(messageId, text));
          }}
        >
          <textarea
            data-testid="edit-input"
            rows={2}
            value={editing}
            onInput={(e) => setEditing((e.target as HTMLTextAreaElement).value)}
          />
          <div class="edit-buttons">
            <button type="button" class="ghost" onClick={() => setEditing(null)}>
              {t("cancel")}
            </button>
            <button
              type="submit"
              class="primary"
              data-testid="edit-save"
              disabled={pending || !editing.trim()}
            >
              {t("save")}
            </button>
          </div>
        </form>
      )}
    </div>
  );
}

/** Pixels from the bottom that still count as "at the bottom". */
const NEAR_BOTTOM_PX = 48;

interface Anchor {
  readonly key: string;
  readonly top: number;
}

function nodeTop(container: HTMLElement, el: Element): number {
  return el.getBoundingClientRect().top - container.getBoundingClientRect().top;
}

/** The first node at least partly visible in the scroll container. */
function firstVisible(container: HTMLElement): Anchor | null {
  for (const el of container.querySelectorAll<HTMLElement>(".node[data-key]")) {
    const top = nodeTop(container, el);
    if (top + el.offsetHeight > 0) return { key: el.dataset.key!, top };
  }
  return null;
}

/**
 * The transcript: every node through the event-view registry. It follows new content while
 * the reader is at (or near) the bottom, on any change (a new event, a row growing into a
 * card), and keeps the viewport on the first visible message when older events are prepended.
 */
export function Transcript(
  props: {
    nodes: readonly PresentedEventNode[];
    registry: EventViewRegistry;
    ctx: RenderContext;
    thinking: boolean;
    canLoadOlder: boolean;
    onOlder(): void;
    /** Whether an older page is in flight. */
    loadingOlder?: boolean;
    /** Lifecycle states of user messages by seq. */
    states?: ReadonlyMap<number, MessageState>;
    /** Retry and edit; omitted ⇒ no buttons. */
    actions?: MessageActions;
    /** Events below this seq are an inherited fork prefix: no actions on them. */
    seedLength?: number | undefined;
  },
) {
  const box = useRef<HTMLDivElement>(null);
  const atBottom = useRef(true);
  const anchor = useRef<Anchor | null>(null);
  const count = props.nodes.length;
  const loadingOlder = props.loadingOlder ?? false;
  // Runs after every render, before paint: content changed (or not); restore what the reader saw.
  useLayoutEffect(() => {
    const c = box.current;
    if (!c) return;
    const a = anchor.current;
    if (a) {
      const el = c.querySelector(`.node[data-key="${CSS.escape(a.key)}"]`);
      if (el) c.scrollTop += nodeTop(c, el) - a.top;
      if (!loadingOlder) anchor.current = null;
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
  const older = () => {
    const c = box.current;
    anchor.current = c ? firstVisible(c) : null;
    props.onOlder();
  };
  return (
    <div
      class="transcript"
      data-testid="transcript"
      aria-live="polite"
      ref={box}
      onScroll={(e) => {
        const c = e.currentTarget;
        atBottom.current = c.scrollHeight - c.scrollTop - c.clientHeight <= NEAR_BOTTOM_PX;
      }}
    >
      {loadingOlder
        ? (
          <p class="older loading" role="status" data-testid="older-loading">
            <span class="spinner" aria-hidden="true" /> {t("loadingOlder")}
          </p>
        )
        : props.canLoadOlder && (
          <button type="button" class="ghost older" data-testid="load-older" onClick={older}>
            {t("older")}
          </button>
        )}
      {count === 0 && <p class="hello">{t("hello")}</p>}
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
            <UserMessageExtras
              node={node}
              state={props.states?.get(node.seq)}
              actions={node.seq >= (props.seedLength ?? 0) ? props.actions : undefined}
            />
          )}
        </div>
      ))}
      {props.thinking && <div class="thinking" data-testid="thinking">{t("thinking")}</div>}
    </div>
  );
}

/**
 * The reminders panel: the host's durable fold (`GET /reminders`), never the loaded window,
 * so reminders created long ago are listed too.
 */
export function RemindersPanel(
  props: { reminders: readonly ActiveReminderWire[]; ctx: RenderContext },
) {
  const list = props.reminders;
  return (
    <aside class="reminders" data-testid="reminders-panel">
      <h2>⏰ {t("reminders")}</h2>
      {list.length === 0 ? <p class="muted">{t("noReminders")}</p> : (
        <ul>
          {list.map((r) => {
            const f = formatOccurrence(r.scheduledAt, props.ctx);
            return (
              <li key={r.id} data-testid="active-reminder" data-status={r.status}>
                <p class="prompt">{r.prompt}</p>
                <p class="when">
                  <time dateTime={r.scheduledAt}>{f.local}</time>
                  <span class="utc">{f.utc}</span>
                  {r.status === "overdue" && <span class="badge overdue">{t("overdue")}</span>}
                </p>
              </li>
            );
          })}
        </ul>
      )}
      <p class="session-local small">{SESSION_LOCAL_LABEL[props.ctx.lang]}</p>
    </aside>
  );
}

/**
 * The composer: Enter sends, Shift+Enter breaks the line. While a turn runs it stays usable (a
 * message sent then is queued and steers the running turn) and a stop button ends the turn.
 */
export function Composer(
  props: {
    disabled: boolean;
    onSend(text: string): Promise<boolean>;
    running?: boolean;
    onStop?(): void;
  },
) {
  const [text, setText] = useState("");
  const send = async () => {
    const value = text.trim();
    if (!value || props.disabled) return;
    if (await props.onSend(value)) setText("");
  };
  return (
    <form
      class="composer"
      onSubmit={(e) => {
        e.preventDefault();
        void send();
      }}
    >
      <textarea
        data-testid="composer-input"
        rows={1}
        value={text}
        placeholder={t("placeholder")}
        onInput={(e) => setText((e.target as HTMLTextAreaElement).value)}
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
        disabled={props.disabled || !text.trim()}
      >
        {t("send")}
      </button>
      {props.running && props.onStop && (
        <button
          type="button"
          class="stop"
          data-testid="stop-turn"
          title={t("stopTitle")}
          onClick={props.onStop}
        >
          ■ {t("stop")}
        </button>
      )}
    </form>
  );
}
