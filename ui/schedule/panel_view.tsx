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

/** The import control's texts by language. */
const IMPORT_TEXT = {
  en: {
    summary: "Import from a calendar",
    label: "Paste an .ics event (VEVENT)",
    button: "Import",
    busy: "Importing…",
    done: (created: number, past: number) =>
      `Imported ${created} reminder${created === 1 ? "" : "s"}` +
      (past > 0 ? `; ${past} past event${past === 1 ? "" : "s"} left out` : ""),
    event: (n: number) => `event ${n}: `,
    codes: {
      unsupported_rule: "chime cannot keep this (an all-day event, EXDATE, RDATE, a moved " +
        "occurrence, or a rule outside the supported subset)",
      invalid_time_zone: "its TZID is not an IANA time zone",
      timezone_confirmation_required: "it has a floating time and the session has no time zone",
      rule_never_occurs: "its rule never occurs",
      invalid_arguments: "this is not an iCalendar event with a SUMMARY and a DTSTART",
    } as Record<string, string>,
    failed: (code: string) => `Import failed (${code})`,
  },
  zh: {
    summary: "从日历导入",
    label: "粘贴 .ics 事件（VEVENT）",
    button: "导入",
    busy: "正在导入…",
    done: (created: number, past: number) =>
      `已导入 ${created} 个提醒` + (past > 0 ? `；${past} 个已过去的事件未导入` : ""),
    event: (n: number) => `第 ${n} 个事件：`,
    codes: {
      unsupported_rule:
        "chime 无法保留它（全天事件、EXDATE、RDATE、改动过的单次发生，或超出支持范围的规则）",
      invalid_time_zone: "它的 TZID 不是 IANA 时区",
      timezone_confirmation_required: "它使用浮动时间，而会话没有时区",
      rule_never_occurs: "它的规则永远不会发生",
      invalid_arguments: "这不是带 SUMMARY 和 DTSTART 的 iCalendar 事件",
    } as Record<string, string>,
    failed: (code: string) => `导入失败（${code}）`,
  },
};

/** The import disclosure: a text area for pasted iCalendar text and its outcome. */
function importControl(model: ReminderPanel, lang: Lang): Rendered {
  const t = IMPORT_TEXT[lang];
  const outcome = model.imported.value;
  const onSubmit = (event: Event) => {
    event.preventDefault();
    const form = event.currentTarget as HTMLFormElement;
    const area = form.elements.namedItem("ics") as HTMLTextAreaElement;
    if (area.value.trim() === "") return;
    void model.importCalendar(area.value).then((ok) => {
      if (ok) area.value = "";
    });
  };
  let line: string | null = null;
  if (outcome?.state === "busy") line = t.busy;
  if (outcome?.state === "done") line = t.done(outcome.created, outcome.past);
  if (outcome?.state === "failed") {
    const which = outcome.index === undefined ? "" : t.event(outcome.index + 1);
    line = which + (t.codes[outcome.code] ?? t.failed(outcome.code));
  }
  return (
    <details class="ics-import" data-testid="ics-import">
      <summary>{t.summary}</summary>
      <form onSubmit={onSubmit}>
        <label for="ics-import-text">{t.label}</label>
        <textarea id="ics-import-text" name="ics" rows={5} spellcheck={false} />
        <button type="submit" disabled={outcome?.state === "busy"}>{t.button}</button>
      </form>
      <p
        role="status"
        class={`small${outcome?.state === "failed" ? " error" : ""}`}
        data-testid="ics-import-status"
        data-state={outcome?.state}
      >
        {line}
      </p>
    </details>
  );
}

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
      {importControl(model, ctx.lang)}
      <p class="session-local small">{SESSION_LOCAL_LABEL[ctx.lang]}</p>
      {listed && <FocusRow id={focus!} open={props.open} />}
    </aside>
  );
}
