/**
 * The reminder card of a committed `schedule/change` dispatch (docs/recurring.md "Views"): its
 * prompt and occurrence, a series' rule, "Paused" and next occurrences, and the action row
 * (snooze presets, Pause or Resume, Skip next, Edit, Stop repeating; docs/recurring.md "Host and
 * page") the page's {@linkcode ScheduleServices} make work.
 *
 * @module
 */
import { el } from "../_el.ts";
import { reminderActions } from "./_actions.ts";
import { editTargetOf } from "./_edit.ts";
import { previewList } from "./_preview.ts";
import { lateLine, SERIES_TEXT } from "./_series_strings.ts";
import { servicesOf } from "./_services.ts";
import { TEXT, when } from "./_strings.ts";
import { icon } from "../icons.ts";
import type { RenderContext, Rendered } from "../registry.ts";
import { repeatLine, SESSION_LOCAL_LABEL } from "./text.ts";
import type { ReminderPresentation } from "../wire.ts";

export type { CardState, DurableOutcome } from "./_outcomes.ts";
export {
  type HistoryState,
  type ReminderOutcome,
  SCHEDULE_SERVICES,
  type ScheduleServices,
  servicesOf,
} from "./_services.ts";
export { type OfferedActions, reminderActions } from "./_actions.ts";

/**
 * Tells whether a view carries a usable reminder presentation.
 *
 * @param view a sidecar view
 * @returns the presentation, or `undefined`
 */
export function reminderPresentation(view: unknown): ReminderPresentation | undefined {
  const v = view as { type?: unknown; presentation?: Record<string, unknown> } | undefined;
  const p = v?.presentation;
  if (v?.type !== "schedule/change" || !p) return undefined;
  const { scheduleId, prompt, occurrenceAt, recurring, missed, snoozeOf, late } = p;
  if (typeof scheduleId !== "string" || typeof prompt !== "string") return undefined;
  if (typeof occurrenceAt !== "string") return undefined;
  const r = recurring as ReminderPresentation["recurring"] | undefined;
  const s = snoozeOf as ReminderPresentation["snoozeOf"] | undefined;
  return {
    scheduleId,
    prompt,
    occurrenceAt,
    ...(r && typeof r.rrule === "string" && typeof r.timeZone === "string" ? { recurring: r } : {}),
    ...(typeof missed === "number" && missed > 0 ? { missed } : {}),
    ...(s && typeof s.id === "string" ? { snoozeOf: s } : {}),
    ...(isLate(late) ? { late } : {}),
  };
}

const CAUSES: ReadonlySet<unknown> = new Set(["closed", "host-down", "busy", "hourly-limit"]);

function isLate(late: unknown): late is NonNullable<ReminderPresentation["late"]> {
  const l = late as { ms?: unknown; cause?: Record<string, unknown> } | undefined;
  if (typeof l?.ms !== "number") return false;
  const c = l.cause;
  return c === undefined ||
    (CAUSES.has(c.kind) && typeof c.from === "string" && typeof c.until === "string" &&
      typeof c.ms === "number");
}

/**
 * The reminder card of a committed dispatch. The prompt is a text child, never HTML.
 *
 * @param presentation what the host's view carries
 * @param ctx language, viewer zone and (optionally) the page's services for the buttons
 * @param seq the dispatch seq (the key of the card's outcome)
 * @returns the card element (`data-testid="reminder-card"`)
 */
export function reminderCard(
  presentation: ReminderPresentation,
  ctx: RenderContext,
  seq = -1,
): Rendered {
  const t = TEXT[ctx.lang];
  const r = presentation.recurring;
  const s = servicesOf(ctx);
  const known = s?.card?.(presentation.scheduleId, presentation.occurrenceAt, seq);
  const actionable = known?.actionable ?? true;
  // The host's list is newer than the dispatch's presentation while the reminder is active.
  const listed = s?.reminder?.(presentation.scheduleId);
  const paused = listed ? listed.paused === true : r?.paused === true;
  const preview = listed?.preview ?? r?.preview;
  const zone = listed?.repeat?.timeZone ?? r?.timeZone ?? ctx.timeZone;
  // A series the log says ended (stopped, deleted) has no next occurrence to name.
  const ended = known?.ended === true;
  return el(
    "article",
    {
      class: `reminder-card${r ? " recurring" : ""}`,
      "data-testid": "reminder-card",
      "data-schedule-id": presentation.scheduleId,
      "data-recurring": r ? "true" : undefined,
      "data-state": paused ? "paused" : undefined,
      "aria-label": `${t.reminder}: ${presentation.prompt}`,
    },
    el(
      "header",
      null,
      icon(presentation.snoozeOf ? "snooze" : "bell"),
      presentation.snoozeOf ? t.snoozedReminder : t.reminder,
      paused ? pausedBadge(ctx) : null,
    ),
    el("p", { class: "prompt", "data-testid": "reminder-prompt" }, presentation.prompt),
    el("p", { class: "occurrence" }, when(presentation.occurrenceAt, ctx)),
    r
      ? el(
        "p",
        { class: "repeat", "data-testid": "reminder-repeat" },
        icon("repeat"),
        ` ${repeatLine(r, ended ? "ended" : listed ? listed.scheduledAt : r.nextAt, ctx)}`,
      )
      : null,
    r && !ended ? previewList(preview, zone, r.rrule, ctx) : null,
    presentation.late
      ? el(
        "p",
        {
          class: "late",
          "data-testid": "reminder-late",
          "data-cause": presentation.late.cause?.kind,
        },
        lateLine(presentation.late, ctx.lang, ctx.timeZone, presentation.occurrenceAt),
      )
      : null,
    presentation.missed ? el("p", { class: "missed" }, t.missed(presentation.missed)) : null,
    el(
      "p",
      { class: "session-local", "data-testid": "session-local-label" },
      SESSION_LOCAL_LABEL[ctx.lang],
    ),
    reminderActions(
      presentation.scheduleId,
      `card:${seq}`,
      {
        snooze: actionable,
        stop: actionable && r !== undefined,
        series: actionable && r !== undefined,
        paused,
        ...(actionable && listed ? { edit: editTargetOf(listed, ctx) } : {}),
      },
      ctx,
      known?.outcome,
    ),
  );
}

/**
 * The "Paused" badge of a paused series' card or row.
 *
 * @param ctx the UI language
 * @returns the `span.badge.paused` element (`data-testid="reminder-paused"`)
 */
export function pausedBadge(ctx: RenderContext): Rendered {
  return el(
    "span",
    { class: "badge paused", "data-testid": "reminder-paused" },
    SERIES_TEXT[ctx.lang].paused,
  );
}
