/** @jsxRuntime automatic */
/** @jsxImportSource preact */
/**
 * The reminders panel (a sheet behind its chip on phones) of `@chime/ui/schedule`: the host's
 * durable fold ({@linkcode ReminderPanel.reminders}). A recurring reminder shows "repeats … · next
 * …", "Paused" when it is, its next occurrences (with daylight-saving, skipped-period and skipped
 * notes), Pause or Resume, Skip next and Stop repeating; a one-time reminder has the snooze
 * presets, which move it later (docs/recurring.md "Host and page"). Every row has Edit and a
 * History disclosure. A series row has no Snooze: the host snoozes a series' latest delivered
 * occurrence, which the row does not show (its card does), and refuses one that never fired.
 *
 * @module
 */
import { useEffect, useRef } from "preact/hooks";
import type { PanelViewProps } from "../client_renderer.ts";
import type { Lang } from "../i18n.ts";
import { icon } from "../icons.ts";
import type { Rendered } from "../registry.ts";
import {
  editTargetOf,
  formatOccurrence,
  historyControl,
  pausedBadge,
  previewList,
  reminderActions,
  repeatLine,
  SESSION_LOCAL_LABEL,
} from "./view.ts";
import { servicesOf } from "./_services.ts";
import type { ReminderPanel } from "./panel.ts";
import type { DamagedChangeWire } from "../wire.ts";

/** The panel's texts by language. */
export const PANEL_TEXT: Readonly<
  Record<
    Lang,
    Readonly<Record<"title" | "chip" | "empty" | "overdue" | "close" | "damaged", string>>
  >
> = {
  en: {
    title: "Active reminders",
    chip: "Reminders",
    empty: "No active reminders",
    overdue: "overdue",
    close: "Close",
    damaged: "A stored reminder change is damaged and was set aside; the reminder it names will " +
      "not fire. Run `deno task doctor` on the host.",
  },
  zh: {
    title: "活动提醒",
    chip: "提醒",
    empty: "暂无活动提醒",
    overdue: "已逾期",
    close: "关闭",
    damaged:
      "一条已存储的提醒变更已损坏并被隔离；它所指的提醒不会触发。请在主机上运行 `deno task doctor`。",
  },
};

/** The notice of quarantined changes: one line each, naming the seq (and the reminder). */
function damagedNotice(damaged: readonly DamagedChangeWire[], lang: Lang): Rendered {
  if (damaged.length === 0) return null;
  return (
    <div class="banner error" role="alert" data-testid="reminders-damaged">
      <p>{PANEL_TEXT[lang].damaged}</p>
      <ul>
        {damaged.map((d) => (
          <li key={d.seq} data-seq={d.seq}>
            <code>storage_corrupt</code> seq {d.seq}
            {d.id === undefined ? "" : ` · ${d.id}`}
          </li>
        ))}
      </ul>
    </div>
  );
}

/**
 * Brings the row a page view opened the session at into view once, and focuses it (renders
 * nothing; its own component so the panel stays a plain function).
 */
function FocusRow(props: { readonly id: string; readonly open: boolean }): Rendered {
  const done = useRef<string | null>(null);
  useEffect(() => {
    if (done.current === props.id) return;
    const row = document.querySelector<HTMLElement>(
      `#reminders [data-schedule-id="${CSS.escape(props.id)}"]`,
    );
    if (!row) return;
    done.current = props.id;
    row.scrollIntoView({ block: "center" });
    row.focus({ preventScroll: true });
  }, [props.id, props.open]);
  return null;
}

/**
 * The reminders panel.
 *
 * @param props its {@linkcode ReminderPanel} model, the render context, the sheet state
 * @returns the `<aside id="reminders">` element
 */
export function RemindersPanel(props: PanelViewProps): Rendered {
  const model = props.model as ReminderPanel;
  const list = model.reminders.value;
  const { ctx } = props;
  const services = servicesOf(ctx);
  const t = PANEL_TEXT[ctx.lang];
  const focus = props.focus ?? null;
  const listed = focus !== null && list.some((r) => r.id === focus);
  return (
    <aside
      id="reminders"
      class={`side-panel reminders${props.open ? " open" : ""}`}
      data-testid="reminders-panel"
      aria-labelledby="reminders-heading"
    >
      <div class="panel-head">
        <h2 id="reminders-heading">{icon("bell")} {t.title}</h2>
        <button
          type="button"
          class="ghost icon-only sheet-close"
          aria-label={t.close}
          onClick={props.onClose}
        >
          {icon("close")}
        </button>
      </div>
      {list.length === 0 ? <p class="muted">{t.empty}</p> : (
        <ul>
          {list.map((r) => {
            const f = formatOccurrence(r.scheduledAt, ctx);
            return (
              <li
                key={r.id}
                data-testid="active-reminder"
                data-status={r.status}
                data-schedule-id={r.id}
                data-kind={r.kind}
                data-state={r.paused ? "paused" : undefined}
                class={r.id === focus ? "focused" : undefined}
                data-focused={r.id === focus ? "true" : undefined}
                tabIndex={r.id === focus ? -1 : undefined}
              >
                <p class="prompt">
                  {r.repeat ? icon("repeat") : r.snoozeOf ? icon("snooze") : icon("clock")}{" "}
                  {r.prompt}
                </p>
                {r.repeat && (
                  <p class="repeat" data-testid="reminder-repeat">
                    {repeatLine(r.repeat, r.scheduledAt, ctx)}
                  </p>
                )}
                <p class="when">
                  {r.repeat
                    // The repeat line already says "next <local time>": only UTC here.
                    ? <time class="utc" dateTime={r.scheduledAt}>{f.utc}</time>
                    : (
                      <>
                        <time dateTime={r.scheduledAt}>{f.local}</time>
                        <span class="utc">{f.utc}</span>
                      </>
                    )}
                  {r.status === "overdue" && <span class="badge overdue">{t.overdue}</span>}
                  {r.paused && pausedBadge(ctx)}
                </p>
                {r.repeat && previewList(r.preview, r.repeat.timeZone, r.repeat.rrule, ctx)}
                {reminderActions(r.id, `row:${r.id}`, {
                  snooze: r.kind !== "recurring",
                  stop: r.kind === "recurring",
                  series: r.kind === "recurring",
                  paused: r.paused === true,
                  edit: editTargetOf(r, ctx),
                }, ctx)}
                {services && historyControl(r.id, ctx, services)}
              </li>
            );
          })}
        </ul>
      )}
      {damagedNotice(model.damaged.value, ctx.lang)}
      <p class="session-local small">{SESSION_LOCAL_LABEL[ctx.lang]}</p>
      {listed && <FocusRow id={focus!} open={props.open} />}
    </aside>
  );
}
