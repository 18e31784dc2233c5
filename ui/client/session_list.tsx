/** @jsxRuntime automatic */
/** @jsxImportSource preact */
/**
 * The session list (a drawer on phones): titles from the first user message, forks naming
 * their parent, the creation time, paging with "More sessions", and the notification settings
 * (when an enabled renderer module raises alerts).
 *
 * @module
 */
import type { VNode } from "preact";
import { useRef } from "preact/hooks";
import { useFocusTrap } from "./focus_trap.ts";
import { HOUR_CYCLE, type Lang, lang, localeOf } from "../i18n.ts";
import { icon, type IconName } from "../icons.ts";
import type { SessionSummary } from "../wire.ts";
import type { Page } from "./model.ts";
import { NotifyControl } from "./notify_control.tsx";
import { SignOutControl } from "./sign_out.tsx";
import { text } from "./strings.ts";

/**
 * The creation time of a session, date and time in the viewer's language.
 *
 * @param createdAt UTC RFC 3339
 * @param l the UI language
 * @param timeZone the viewer's IANA zone
 * @returns the formatted time (the input when it does not parse)
 */
export function createdLabel(createdAt: string, l: Lang, timeZone?: string): string {
  const d = new Date(createdAt);
  if (Number.isNaN(d.getTime())) return createdAt;
  try {
    return d.toLocaleString(localeOf(l), {
      dateStyle: "medium",
      timeStyle: "short",
      hourCycle: HOUR_CYCLE,
      ...(timeZone ? { timeZone } : {}),
    });
  } catch {
    return d.toISOString().slice(0, 16).replace("T", " ");
  }
}

/** The row's counts line: "2 pending · 1 late" (what the plugins count there). */
function countsLine(s: SessionSummary): string | null {
  const parts = [
    ...(s.counts && s.counts.pending > 0 ? [`${s.counts.pending} ${text("countPending")}`] : []),
    ...(s.counts && s.counts.late > 0 ? [`${s.counts.late} ${text("countLate")}`] : []),
  ];
  return parts.length === 0 ? null : parts.join(" · ");
}

function Row(
  props: { readonly s: SessionSummary; readonly current: boolean; readonly unread: number },
): VNode {
  const { s, unread } = props;
  const counts = countsLine(s);
  const fork = s.forkOf ??
    (s.header.lineage ? { id: s.header.lineage.parentId, title: null } : null);
  return (
    <li>
      <a
        href={`#/s/${encodeURIComponent(s.header.id)}`}
        class={`${props.current ? "active" : ""}${fork ? " fork" : ""}${
          unread > 0 ? " unread" : ""
        }`}
        aria-current={props.current ? "page" : undefined}
        data-testid="session-item"
        data-session-id={s.header.id}
      >
        <span class="row-title" data-testid="session-title">
          <span class={`dot ${s.live ? "on" : ""}`} aria-hidden="true" />
          {s.title || text("untitled")}
        </span>
        {unread > 0 && (
          <span class="row-new" data-testid="session-unread" role="status">
            {icon("bell")} {unread} {text("unreadNew")}
          </span>
        )}
        {counts !== null && (
          <span
            class={`row-counts${(s.counts?.late ?? 0) > 0 ? " late" : ""}`}
            data-testid="session-counts"
          >
            {counts}
          </span>
        )}
        {fork && (
          <span class="fork-of" data-testid="session-fork-of">
            {icon("fork")} {text("forkOf")} {fork.title || fork.id.slice(0, 8)}
          </span>
        )}
        <time dateTime={s.header.createdAt}>{createdLabel(s.header.createdAt, lang.value)}</time>
      </a>
    </li>
  );
}

/** The session list with the "New session" button. */
export function SessionList(props: { readonly model: Page }): VNode {
  const { model } = props;
  const list = model.sessions.value;
  const open = model.drawer.value;
  const nav = useRef<HTMLElement>(null);
  useFocusTrap(
    open,
    nav,
    () => document.querySelector<HTMLElement>("[data-testid=open-drawer]"),
  );
  return (
    <nav
      ref={nav}
      tabIndex={-1}
      id="sessions"
      class={`sidebar${open ? " open" : ""}`}
      aria-label={text("sessions")}
      data-testid="sidebar"
    >
      <div class="brand-row">
        <span class="brand">
          <span class="logo" aria-hidden="true">{icon("bell")}</span> chime
        </span>
        <button
          type="button"
          class="ghost icon-only drawer-close"
          aria-label={text("close")}
          data-testid="close-drawer"
          onClick={() => model.setDrawer(false)}
        >
          {icon("close")}
        </button>
      </div>
      <button
        type="button"
        class="primary"
        data-testid="new-session"
        disabled={model.busy.value}
        onClick={() => void model.newSession()}
      >
        {icon("plus")} {text("newSession")}
      </button>
      {model.views.value.length > 0 && (
        <ul class="view-links" data-testid="view-links">
          {model.views.value.map(({ definition }) => (
            <li key={definition.name}>
              <a
                href={`#/v/${encodeURIComponent(definition.name)}`}
                class={model.view.value === definition.name ? "active" : ""}
                aria-current={model.view.value === definition.name ? "page" : undefined}
                data-testid={`view-link-${definition.name}`}
                onClick={() => model.setDrawer(false)}
              >
                {icon(definition.icon as IconName)} {definition.label(lang.value)}
              </a>
            </li>
          ))}
        </ul>
      )}
      <h2>{text("sessions")}</h2>
      <ul data-testid="session-list">
        {list.length === 0 && <li class="muted">{text("empty")}</li>}
        {list.map((s) => (
          <Row
            key={s.header.id}
            s={s}
            current={s.header.id === model.current.value}
            unread={model.alerts.unread.value.get(s.header.id)?.length ?? 0}
          />
        ))}
      </ul>
      {model.sessionsNext.value !== null && (
        <button
          type="button"
          class="ghost more"
          data-testid="more-sessions"
          onClick={() => void model.moreSessions()}
        >
          {text("moreSessions")}
        </button>
      )}
      {model.hasAlerts.value && <NotifyControl model={model} />}
      <SignOutControl />
    </nav>
  );
}
