/**
 * The reminder card of a committed `schedule/change` dispatch (docs/recurring.md "Views"), its
 * Snooze and Stop repeating buttons, and the {@linkcode ScheduleServices} the page lends them
 * (docs/recurring.md "Host and page").
 *
 * @module
 */
import { el } from "./_el.ts";
import { TEXT, when } from "./_schedule_strings.ts";
import { icon, type IconName } from "./icons.ts";
import type { RenderContext, Rendered } from "./registry.ts";
import { formatOccurrence, repeatLine, SESSION_LOCAL_LABEL } from "./schedule_text.ts";
import type { ReminderPresentation } from "./wire.ts";

/** What a snooze or stop click led to. */
export interface ReminderOutcome {
  /** `pending` while the request runs. */
  readonly state: "pending" | "snoozed" | "stopped" | "failed";
  /** Snoozed: the new target, UTC RFC 3339. */
  readonly until?: string;
  /** Failed: the host's error code. */
  readonly code?: string;
}

/**
 * What a page lends the renderer through `RenderContext.services[SCHEDULE_SERVICES]`: the
 * snooze and stop actions (docs/recurring.md "Host and page"), their outcomes, which recurring
 * reminders are still active, and the prompts of records the window holds.
 */
export interface ScheduleServices {
  /** Ids of active recurring reminders (the host's fold, `GET /reminders`). */
  readonly activeRecurring: ReadonlySet<string>;
  /** The prompt of a record created or changed in the window, by id. */
  promptOf(scheduleId: string): string | undefined;
  /** The outcome shown by the card or row `key`. */
  outcome(key: string): ReminderOutcome | undefined;
  /** Snoozes a reminder by `seconds` (60 ≤ seconds ≤ 7 days). */
  snooze(scheduleId: string, seconds: number, key: string): void;
  /** Stops a recurring reminder. */
  stop(scheduleId: string, key: string): void;
}

/** The key of {@linkcode ScheduleServices} in `RenderContext.services`. */
export const SCHEDULE_SERVICES = "schedule";

/**
 * The page's schedule services, if it lends them.
 *
 * @param ctx the render context
 * @returns the services, or `undefined`
 */
export function servicesOf(ctx: RenderContext): ScheduleServices | undefined {
  return ctx.services?.[SCHEDULE_SERVICES] as ScheduleServices | undefined;
}

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
  const { scheduleId, prompt, occurrenceAt, recurring, missed, snoozeOf } = p;
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
  };
}

function outcomeText(o: ReminderOutcome, ctx: RenderContext): string {
  const t = TEXT[ctx.lang];
  if (o.state === "pending") return t.pending;
  if (o.state === "stopped") return t.stoppedDone;
  if (o.state === "snoozed" && o.until) return t.snoozedUntil(formatOccurrence(o.until, ctx).local);
  return `${t.failed} (${o.code ?? "failed"})`;
}

/**
 * The Snooze 10 min, Snooze 1 h and (recurring, still active) Stop repeating buttons with the
 * outcome of the last click, for a card or a panel row.
 *
 * @param scheduleId the reminder
 * @param key the card or row that shows the outcome
 * @param recurring whether the reminder repeats
 * @param ctx language, zone and the page's services (no services ⇒ nothing)
 * @returns the button row, or `null`
 */
export function reminderActions(
  scheduleId: string,
  key: string,
  recurring: boolean,
  ctx: RenderContext,
): Rendered {
  const s = servicesOf(ctx);
  if (!s) return null;
  const t = TEXT[ctx.lang];
  const o = s.outcome(key);
  const pending = o?.state === "pending";
  const button = (label: string, name: IconName, testid: string, run: () => void) =>
    el(
      "button",
      {
        type: "button",
        class: "chip-button",
        "data-testid": testid,
        disabled: pending,
        onClick: run,
      },
      icon(name),
      ` ${label}`,
    );
  const canStop = recurring && s.activeRecurring.has(scheduleId) && o?.state !== "stopped";
  return el(
    "div",
    { class: "reminder-actions" },
    el(
      "div",
      { class: "buttons" },
      button(t.snooze10, "snooze", "snooze-600", () => s.snooze(scheduleId, 600, key)),
      button(t.snooze60, "snooze", "snooze-3600", () => s.snooze(scheduleId, 3600, key)),
      canStop ? button(t.stop, "stop", "stop-repeating", () => s.stop(scheduleId, key)) : null,
    ),
    el(
      "p",
      {
        class: `outcome ${o?.state ?? ""}`,
        role: "status",
        "data-testid": "reminder-outcome",
        "data-state": o?.state,
      },
      o ? outcomeText(o, ctx) : "",
    ),
  );
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
  return el(
    "article",
    {
      class: `reminder-card${r ? " recurring" : ""}`,
      "data-testid": "reminder-card",
      "data-schedule-id": presentation.scheduleId,
      "data-recurring": r ? "true" : undefined,
      "aria-label": `${t.reminder}: ${presentation.prompt}`,
    },
    el(
      "header",
      null,
      icon(presentation.snoozeOf ? "snooze" : "bell"),
      presentation.snoozeOf ? t.snoozedReminder : t.reminder,
    ),
    el("p", { class: "prompt", "data-testid": "reminder-prompt" }, presentation.prompt),
    el("p", { class: "occurrence" }, when(presentation.occurrenceAt, ctx)),
    r
      ? el(
        "p",
        { class: "repeat", "data-testid": "reminder-repeat" },
        icon("repeat"),
        ` ${repeatLine(r, r.nextAt, ctx)}`,
      )
      : null,
    presentation.missed ? el("p", { class: "missed" }, t.missed(presentation.missed)) : null,
    el(
      "p",
      { class: "session-local", "data-testid": "session-local-label" },
      SESSION_LOCAL_LABEL[ctx.lang],
    ),
    reminderActions(presentation.scheduleId, `card:${seq}`, r !== undefined, ctx),
  );
}
