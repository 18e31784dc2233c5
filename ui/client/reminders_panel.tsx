/** @jsxRuntime automatic */
/** @jsxImportSource preact */
/**
 * The reminders panel (a sheet behind the reminders chip on phones): the host's durable fold
 * (`GET /reminders`), never the loaded window, so reminders created long ago are listed too.
 * A recurring reminder shows "repeats … · next …"; every row has Snooze and, when it repeats,
 * Stop repeating (docs/recurring.md "Host and page").
 *
 * @module
 */
import type { VNode } from "preact";
import { icon } from "../icons.ts";
import type { RenderContext } from "../registry.ts";
import { formatOccurrence, reminderActions, repeatLine, SESSION_LOCAL_LABEL } from "../schedule.ts";
import type { ActiveReminderWire } from "../wire.ts";
import { text } from "./strings.ts";

/** The reminders panel. */
export function RemindersPanel(
  props: {
    readonly reminders: readonly ActiveReminderWire[];
    readonly ctx: RenderContext;
    readonly open: boolean;
    onClose(): void;
  },
): VNode {
  const list = props.reminders;
  return (
    <aside
      id="reminders"
      class={`reminders${props.open ? " open" : ""}`}
      data-testid="reminders-panel"
      aria-labelledby="reminders-heading"
    >
      <div class="panel-head">
        <h2 id="reminders-heading">{icon("bell")} {text("reminders")}</h2>
        <button
          type="button"
          class="ghost icon-only sheet-close"
          aria-label={text("close")}
          onClick={props.onClose}
        >
          {icon("close")}
        </button>
      </div>
      {list.length === 0 ? <p class="muted">{text("noReminders")}</p> : (
        <ul>
          {list.map((r) => {
            const f = formatOccurrence(r.scheduledAt, props.ctx);
            return (
              <li
                key={r.id}
                data-testid="active-reminder"
                data-status={r.status}
                data-schedule-id={r.id}
                data-kind={r.kind}
              >
                <p class="prompt">
                  {r.repeat ? icon("repeat") : r.snoozeOf ? icon("snooze") : icon("clock")}{" "}
                  {r.prompt}
                </p>
                {r.repeat && (
                  <p class="repeat" data-testid="reminder-repeat">
                    {repeatLine(r.repeat, r.scheduledAt, props.ctx)}
                  </p>
                )}
                <p class="when">
                  <time dateTime={r.scheduledAt}>{f.local}</time>
                  <span class="utc">{f.utc}</span>
                  {r.status === "overdue" && <span class="badge overdue">{text("overdue")}</span>}
                </p>
                {reminderActions(r.id, `row:${r.id}`, r.kind === "recurring", props.ctx)}
              </li>
            );
          })}
        </ul>
      )}
      <p class="session-local small">{SESSION_LOCAL_LABEL[props.ctx.lang]}</p>
    </aside>
  );
}
