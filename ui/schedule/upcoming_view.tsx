/** @jsxRuntime automatic */
/** @jsxImportSource preact */
/**
 * The Upcoming view of `@chime/ui/schedule` (docs/upcoming.md): every session's active reminders
 * in one list by next occurrence, each with its session's title, its next time in its own zone,
 * its repeat words, its state (live, "cold: fires when you open this session", overdue, paused),
 * Open (the session, at the reminder) and the same actions as the reminders panel, which go
 * through that session's own routes; then the calendar feed's link with Copy and Revoke.
 *
 * @module
 */
import type { PageViewProps } from "../client_renderer.ts";
import type { Lang } from "../i18n.ts";
import { icon } from "../icons.ts";
import type { RenderContext, Rendered } from "../registry.ts";
import { editTargetOf } from "./_edit.ts";
import { reminderActions } from "./_actions.ts";
import { pausedBadge } from "./_card.ts";
import { formatOccurrence, repeatLine, SESSION_LOCAL_LABEL } from "./text.ts";
import type { UpcomingEntryWire, UpcomingModel, UpcomingStateWire } from "./upcoming.ts";

/** The names of the view's texts. */
export type UpcomingTextKey =
  | "title"
  | "lead"
  | "empty"
  | "damaged"
  | "loading"
  | "more"
  | "open"
  | "untitled"
  | "inSession"
  | "feed"
  | "feedLead"
  | "feedIssue"
  | "feedUrl"
  | "copy"
  | "copied"
  | "revoke"
  | "revoked"
  | "list";

/** The view's texts by language. */
export const UPCOMING_TEXT: Readonly<Record<Lang, Readonly<Record<UpcomingTextKey, string>>>> = {
  en: {
    title: "Upcoming",
    lead: "Every reminder of every session, soonest first.",
    empty: "No active reminders in any session",
    damaged:
      "These sessions could not be read (their stored log is damaged), so their reminders are not listed: {ids}. The storage doctor, deno task doctor, names the damage.",
    loading: "Loading reminders…",
    more: "More reminders",
    open: "Open",
    untitled: "Untitled session",
    inSession: "Session",
    feed: "Calendar feed",
    feedLead:
      "Subscribe in a calendar app to see these times there. A calendar cannot deliver a reminder: chime delivers it only while its session is open.",
    feedIssue: "Get feed link",
    feedUrl: "Feed URL",
    copy: "Copy",
    copied: "Copied",
    revoke: "Revoke",
    revoked: "The feed link was revoked.",
    list: "Upcoming reminders",
  },
  zh: {
    title: "即将到来",
    lead: "所有会话的全部提醒，按时间先后排列。",
    empty: "所有会话中都没有活动提醒",
    damaged:
      "以下会话无法读取（其存储的日志已损坏），其提醒未列出：{ids}。存储检查工具 deno task doctor 可指出损坏之处。",
    loading: "正在加载提醒…",
    more: "更多提醒",
    open: "打开",
    untitled: "未命名会话",
    inSession: "会话",
    feed: "日历订阅",
    feedLead:
      "在日历应用中订阅即可看到这些时间。日历不会替你送达提醒：只有会话打开时 chime 才会送达。",
    feedIssue: "获取订阅链接",
    feedUrl: "订阅链接",
    copy: "复制",
    copied: "已复制",
    revoke: "撤销",
    revoked: "订阅链接已撤销。",
    list: "即将到来的提醒",
  },
};

/** The state badge's words by language. */
export const STATE_TEXT: Readonly<Record<Lang, Readonly<Record<UpcomingStateWire, string>>>> = {
  en: {
    live: "live",
    cold: "cold: fires when you open this session",
    overdue: "overdue",
    paused: "paused",
  },
  zh: {
    live: "在线",
    cold: "未打开：打开此会话后才会送达",
    overdue: "已逾期",
    paused: "已暂停",
  },
};

function Row(
  props: { readonly row: UpcomingEntryWire; readonly model: UpcomingModel; ctx: RenderContext },
): Rendered {
  const { row, model } = props;
  const r = row.reminder;
  const t = UPCOMING_TEXT[props.ctx.lang];
  // The row's own zone (the series', else its session's), and its session's actions.
  const ctx: RenderContext = {
    ...props.ctx,
    timeZone: row.next.timeZone,
    services: model.servicesFor(row.sessionId),
  };
  const f = formatOccurrence(r.scheduledAt, ctx);
  const title = row.sessionTitle || t.untitled;
  const headingId = `up-${row.sessionId}-${r.id}`;
  return (
    <li
      data-testid="upcoming-row"
      data-session-id={row.sessionId}
      data-schedule-id={r.id}
      data-state={row.state}
      aria-labelledby={headingId}
    >
      <div class="up-head">
        <h3 class="prompt" id={headingId}>
          {r.repeat ? icon("repeat") : r.snoozeOf ? icon("snooze") : icon("clock")} {r.prompt}
        </h3>
        <button
          type="button"
          class="chip-button open-session"
          data-testid="upcoming-open"
          aria-label={`${t.open}: ${title}`}
          onClick={() => model.open(row)}
        >
          {icon("arrow")} {t.open}
        </button>
      </div>
      <p class="up-session" data-testid="upcoming-session">
        <span class="sr-only">{t.inSession}:</span>
        <span class={`dot ${row.live ? "on" : ""}`} aria-hidden="true" /> {title}
      </p>
      <p class="when">
        <time dateTime={r.scheduledAt} data-testid="upcoming-next">{f.local}</time>{" "}
        <span class="zone" data-testid="upcoming-zone">{row.next.timeZone}</span>
      </p>
      {r.repeat && (
        <p class="repeat" data-testid="upcoming-repeat">
          {repeatLine(r.repeat, undefined, ctx)}
        </p>
      )}
      <p class="up-state">
        {row.state === "paused"
          ? pausedBadge(ctx)
          : (
            <span class={`badge ${row.state}`} data-testid="upcoming-state">
              {STATE_TEXT[ctx.lang][row.state]}
            </span>
          )}
      </p>
      {reminderActions(r.id, `up:${row.sessionId}:${r.id}`, {
        snooze: r.kind !== "recurring",
        stop: r.kind === "recurring",
        series: r.kind === "recurring",
        paused: r.paused === true,
        edit: editTargetOf(r, ctx),
        zone: row.next.timeZone,
      }, ctx)}
    </li>
  );
}

/** Copies text to the clipboard; resolves whether it could. */
async function copy(text: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    return false;
  }
}

function Feed(props: { readonly model: UpcomingModel; readonly lang: Lang }): Rendered {
  const { model } = props;
  const t = UPCOMING_TEXT[props.lang];
  const url = model.feed.value;
  const absolute = url ? new URL(url, location.href).href : "";
  return (
    <section
      class="up-feed"
      aria-labelledby="up-feed-heading"
      data-testid="upcoming-feed"
      data-feed={url === undefined ? "unknown" : url === null ? "none" : "issued"}
    >
      <h3 id="up-feed-heading">{icon("calendar")} {t.feed}</h3>
      <p class="small muted">{t.feedLead}</p>
      <p class="small" role="status" data-testid="feed-status">
        {model.revoked.value ? t.revoked : ""}
      </p>
      {url
        ? (
          <div class="feed-row">
            <label class="field">
              <span>{t.feedUrl}</span>
              <input
                type="text"
                readOnly
                value={absolute}
                data-testid="feed-url"
                onFocus={(e) => (e.currentTarget as HTMLInputElement).select()}
              />
            </label>
            <div class="buttons">
              <button
                type="button"
                class="chip-button"
                data-testid="feed-copy"
                onClick={async (e) => {
                  const b = e.currentTarget as HTMLButtonElement;
                  if (await copy(absolute)) b.dataset.copied = "1";
                  b.textContent = t.copied;
                }}
              >
                {t.copy}
              </button>
              <button
                type="button"
                class="chip-button danger"
                data-testid="feed-revoke"
                onClick={() => void model.revokeFeed()}
              >
                {t.revoke}
              </button>
            </div>
          </div>
        )
        : (
          <button
            type="button"
            class="chip-button"
            data-testid="feed-issue"
            disabled={url === undefined}
            onClick={() => void model.issueFeed()}
          >
            {icon("calendar")} {t.feedIssue}
          </button>
        )}
    </section>
  );
}

/**
 * The Upcoming view.
 *
 * @param props its {@linkcode UpcomingModel} and the render context
 * @returns the `<section id="upcoming">` element
 */
export function UpcomingView(props: PageViewProps): Rendered {
  const model = props.model as UpcomingModel;
  const { ctx } = props;
  const t = UPCOMING_TEXT[ctx.lang];
  const rows = model.rows.value;
  const status = model.status.value;
  return (
    <section
      id="upcoming"
      class="upcoming-view"
      data-testid="upcoming-view"
      data-status={status}
      aria-labelledby="upcoming-heading"
    >
      {/* The page's h1 (the top bar) names the view: this heading names the list. */}
      <h2 id="upcoming-heading" class="sr-only">{t.list}</h2>
      <p class="muted small">{t.lead}</p>
      {status === "loading" && <p class="muted" role="status">{t.loading}</p>}
      {model.damaged.value.length > 0 && (
        <p class="small warning" role="status" data-testid="upcoming-damaged">
          {t.damaged.replace(
            "{ids}",
            model.damaged.value.map((d) =>
              d.sessionId
            ).join(ctx.lang === "zh" ? "、" : ", "),
          )}
        </p>
      )}
      {status === "ready" && rows.length === 0 && (
        <p class="muted" data-testid="upcoming-empty">{t.empty}</p>
      )}
      {rows.length > 0 && (
        <ul
          class="reminders up-list"
          aria-labelledby="upcoming-heading"
          data-testid="upcoming-list"
        >
          {rows.map((row) => (
            <Row
              key={`${row.sessionId}/${row.reminder.id}`}
              row={row}
              model={model}
              ctx={ctx}
            />
          ))}
        </ul>
      )}
      {model.more.value && (
        <button
          type="button"
          class="ghost more"
          data-testid="upcoming-more"
          onClick={() => void model.loadMore()}
        >
          {t.more}
        </button>
      )}
      <p class="session-local small">{SESSION_LOCAL_LABEL[ctx.lang]}</p>
      <Feed model={model} lang={ctx.lang} />
    </section>
  );
}
